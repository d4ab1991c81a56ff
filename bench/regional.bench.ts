/**
 * Regional captured-news index at scale: a synthetic 50,000-event index, validated and exported to CSV.
 * Validation's target (product.md §11) is ≤ 1.25 × the baseline row: `JSON.parse` + ajv over the same bytes, with
 * the format's JSON Schema (the shape compiled to zod, then `z.toJSONSchema`, as `schemas/` holds it) compiled once
 * beforehand (ajv comes with the MCP SDK, which depends on it). The baseline checks less: the rules JSON Schema
 * cannot state (RFC 3339 date-times, URIs, IRIs, unique ids),
 * strict JSON (duplicate keys, lone surrogates, big integers), the consistency warnings and the content digest are
 * not in it. Export's target from its issue: ≥ 30 MB/s (load, validate and write, as the CLI does). Peak RSS is measured in a child process that only reads the file and does the one job, so the memory
 * used to generate the synthetic index does not count.
 */
import { Ajv } from "ajv";
import { fork } from "node:child_process";
import { z } from "zod";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { exportLoadedIndex } from "../published/regional/export.js";
import { buildSyntheticIndex } from "../published/regional/synthetic.js";
import { loadRegionalInput, validateLoadedIndex, validateRegionalIndex } from "../published/regional/validate.js";
import { regionalIndexSchema } from "../published/regional/schema.js";
import { measure, measureInterleaved, peakRssMb, type BenchResult } from "./harness.js";

const EVENTS = 50_000;
const CHILD_FLAG = "--regional-bench-child";

type Job = "validate" | "export-csv";

/** One job over the file's bytes; returns a count so the work cannot be optimised away. */
function runJob(job: Job, bytes: Uint8Array): number {
  if (job === "validate") {
    const report = validateRegionalIndex(bytes);
    if (!report.conforms || report.content_sha256.status !== "verified") throw new Error("bench index does not validate");
    return report.event_count ?? 0;
  }
  const loaded = loadRegionalInput(bytes);
  // As `index export` does: conformance first (the digest is not needed for it), then the rows.
  if (!validateLoadedIndex(loaded, { maxFindings: 1, contentDigest: false }).conforms) throw new Error("bench index does not validate");
  let chars = 0;
  for (const chunk of exportLoadedIndex(loaded, { format: "csv" })) chars += chunk.length;
  return chars;
}

/** Peak RSS (MB) of a fresh process that reads `file` and runs `job` once. */
function childPeakRss(job: Job, file: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, job, file], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
    child.once("message", (m) => resolve((m as { peakRssMb: number }).peakRssMb));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? undefined : reject(new Error(`bench child exited with ${code}`))));
  });
}

if (process.argv[2] === CHILD_FLAG) {
  const [job, file] = [process.argv[3] as Job, process.argv[4]];
  runJob(job, readFileSync(file));
  process.send?.({ peakRssMb: peakRssMb() }, () => process.exit(0));
}

export async function benchRegional(): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), "eb-regional-bench-"));
  try {
    const bytes = new TextEncoder().encode(JSON.stringify(buildSyntheticIndex({ region: "bri", events: EVENTS })));
    const file = join(dir, "index.json");
    writeFileSync(file, bytes);
    const mb = bytes.length / 1_000_000;
    const label = `${EVENTS.toLocaleString("en")} events, ${mb.toFixed(1)} MB`;

    // The machine may be shared: the 1-minute load average during each measurement says how far to trust it.
    const ajvValidate = new Ajv({ allErrors: false, strict: false }).compile(z.toJSONSchema(regionalIndexSchema, { target: "draft-7", unrepresentable: "any" }));
    // The baseline and validation alternate run by run, so their ratio sees the same load.
    const load0 = loadavg()[0];
    const [baselineMs, validateMs] = await measureInterleaved(
      [
        () => {
          if (!ajvValidate(JSON.parse(new TextDecoder().decode(bytes)))) throw new Error(`bench index fails ajv: ${JSON.stringify(ajvValidate.errors?.[0])}`);
        },
        () => runJob("validate", bytes),
      ],
      { runs: 5, warmup: 1 },
    );
    const load1 = loadavg()[0];
    const exportMs = await measure(() => runJob("export-csv", bytes), { runs: 3, warmup: 1 });
    const load2 = loadavg()[0];
    const validateRss = await childPeakRss("validate", file);
    const exportRss = await childPeakRss("export-csv", file);
    const rate = (ms: number) => mb / (ms / 1000);
    return [
      {
        name: `baseline: JSON.parse + ajv (the format's JSON Schema, checks less) (${label})`,
        median_ms: baselineMs,
        figures: { "MB/s": rate(baselineMs), "load 1m": (load0 + load1) / 2 },
      },
      {
        name: `regional index validate, every check (${label})`,
        median_ms: validateMs,
        figures: { "MB/s": rate(validateMs), "× baseline": validateMs / baselineMs, "peak RSS MB (child)": validateRss, "load 1m": (load0 + load1) / 2 },
        target: "≤ 1.25 × baseline",
        met: validateMs <= 1.25 * baselineMs,
      },
      {
        name: `regional index export --format csv (${label})`,
        median_ms: exportMs,
        figures: { "MB/s": rate(exportMs), "peak RSS MB (child)": exportRss, "load 1m": (load1 + load2) / 2 },
        target: "≥ 30 MB/s",
        met: rate(exportMs) >= 30,
      },
    ];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
