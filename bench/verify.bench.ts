/** In-process verification of the golden vectors and of a capsule carrying an 8 MiB inline artifact. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildCapsule, serializeCapsule } from "../capsules/capsule/build.js";
import { loadCapsuleBytes } from "../capsules/capsule/load.js";
import { verifyCapsule } from "../capsules/capsule/verify.js";
import { sha256Hex } from "../src/hash.js";
import { atMost, measure, type BenchResult } from "./harness.js";

/** dist/bench → repository root → ../shared (same place tests read from). */
const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), existsSync(resolve(dirname(fileURLToPath(import.meta.url)), "../package.json")) ? ".." : "../..");
const vectors = resolve(repoRoot, "../shared/data/capsule-v1/test-vectors");

/** A capsule whose single inline artifact holds `size` bytes (base64 in the capsule). */
export function capsuleWithInlineArtifact(size: number): string {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + 7) & 0xff;
  const content = {
    spec_version: "palimpsest-evidence-capsule/v1",
    canonicalization: "palimpsest-json-sorted-utf8-v1",
    created_at: "2026-11-22T00:00:00Z",
    producer: { name: "evidence-bridge bench", software: "evidence-bridge/bench" },
    subject: { type: "evidence-set", id: "bench-8mib", title: "Benchmark payload" },
    artifacts: [
      {
        id: "payload",
        sha256: sha256Hex(bytes),
        size,
        media_type: "application/octet-stream",
        source: { uri: "urn:bench:payload", captured_at: "2026-11-22T00:00:00Z", collector: "bench" },
        untrusted: true,
        location: { type: "inline", encoding: "base64", data: bytes.toString("base64") },
      },
    ],
    claims: [
      {
        id: "payload-bytes",
        type: "integrity",
        statement: "The payload bytes are exactly the bytes hashed.",
        evidence_level: "direct",
        artifact_refs: ["payload"],
        derivation_refs: [],
        binding_refs: [],
        limitations: [],
      },
    ],
    derivations: [],
    intents: [],
    bindings: [],
  };
  return serializeCapsule(buildCapsule(content));
}

export async function benchVerify(): Promise<BenchResult[]> {
  const rows: BenchResult[] = [];
  if (existsSync(vectors)) {
    for (const [name, root] of [
      ["palimpsest-erasure-v1.json", resolve(vectors, "palimpsest-adapter-v1")],
      ["nemesis-ddti-v1.json", undefined],
    ] as const) {
      const bytes = readFileSync(resolve(vectors, name));
      const ms = await measure(() => {
        const report = verifyCapsule(loadCapsuleBytes(bytes), { artifactRoot: root });
        if (!report.ok) throw new Error(`${name} did not verify: ${report.errors.join("; ")}`);
      }, { runs: 21, warmup: 5 });
      rows.push(name.startsWith("palimpsest") ? atMost(`load + verify ${name}`, ms, 20) : { name: `load + verify ${name}`, median_ms: ms });
    }
  } else {
    process.stderr.write(`bench: ${vectors} is absent; golden-vector rows skipped\n`);
  }
  const big = Buffer.from(capsuleWithInlineArtifact(8 * 1024 * 1024));
  const ms = await measure(() => {
    const report = verifyCapsule(loadCapsuleBytes(big));
    if (!report.ok) throw new Error(`8 MiB capsule did not verify: ${report.errors.join("; ")}`);
  }, { runs: 5, warmup: 1 });
  rows.push({ name: "load + verify capsule with 8 MiB inline artifact", median_ms: ms, figures: { "capsule MB": big.length / 1e6 } });
  return rows;
}
