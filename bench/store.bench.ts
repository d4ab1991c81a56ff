/**
 * Sealed store benchmarks (issue 4): seal + store throughput (one fsynced put at a time, and batched), open
 * throughput, and `capsule list` over 10,000 stored capsules (target ≤ 1 s) — cold (the row index is rebuilt by
 * opening every capsule) and warm (the sealed index answers), in process and as a whole CLI process; and (issue 33)
 * the durable writes of a first seal into a fresh data directory, with the syncs of each step at once and one after
 * another.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Readable, Writable } from "node:stream";
import { main } from "../bridge/cli/main.js";
import { buildCapsule } from "../capsules/capsule/build.js";
import { capsuleLabel, storeLayout } from "../capsules/store/layout.js";
import { makeReceipt } from "../capsules/store/receipts.js";
import { openOrCreateStore, type SealedStore } from "../capsules/store/store.js";
import { openCapsuleBytes, type LoadedCapsule } from "../capsules/pipeline/open.js";
import { SealKind, seal } from "../src/crypto/seal.js";
import { sha256Hex } from "../src/hash.js";
import { canonicalBytes } from "../src/json/canonical.js";
import { atLeastPerSecond, atMost, measure, measureInterleaved, type BenchResult } from "./harness.js";

/** A capsule shaped like the reference bridge's (one inline ~3 KB assessment artifact), about 5 KB on disk. */
function syntheticCapsule(i: number): LoadedCapsule {
  const created = new Date(Date.UTC(2026, 7, 20, 9) + i * 1000).toISOString().replace(/\.000Z$/, "Z");
  const assessment = Buffer.from(
    JSON.stringify({
      schema_version: "scamshield-provenance/v1",
      assessment_id: sha256Hex(`a${i}`).slice(0, 24),
      created_at: created,
      message_sha256: sha256Hex(`message ${i}`),
      detector: {
        tier: "LIKELY_SCAM",
        score: 45,
        carrier_score: 45,
        families: ["ACCOUNT", "MECHANIC"],
        signals: [{ name: "account_rental_offer", family: "ACCOUNT", weight: 30 }],
        iocs: { handles: [`@bench_${i}`], phones: ["+91 98765 43210"], channels: [], wallets: [], emails: [], urls: [] },
      },
      threat_assessment: { tier: "WATCH", families: ["FRAUD"], findings: [], padding: "x".repeat(2400) },
      collection: { source_pseudonym: "4080784d2be288390fbe20ac" },
    }),
  );
  const content = {
    spec_version: "palimpsest-evidence-capsule/v1",
    canonicalization: "palimpsest-json-sorted-utf8-v1",
    created_at: created,
    producer: { name: "bench", software: "store-bench/v1" },
    subject: { type: "analytical-lead", id: `bench:${i}`, title: `Bench lead ${i}` },
    artifacts: [
      {
        id: "assessment",
        sha256: sha256Hex(assessment),
        size: assessment.length,
        media_type: "application/vnd.scamshield.provenance+json",
        source: { uri: `urn:bench:${i}`, captured_at: created, collector: "bench" },
        untrusted: true,
        location: { type: "inline", encoding: "base64", data: assessment.toString("base64") },
      },
    ],
    claims: [
      {
        id: "identity",
        type: "provenance",
        statement: "Bench claim.",
        artifact_refs: ["assessment"],
        derivation_refs: [],
        binding_refs: [],
        evidence_level: "direct",
        limitations: [],
      },
    ],
    derivations: [],
    intents: [],
    bindings: [],
  };
  const capsule = buildCapsule(content);
  const bytes = canonicalBytes({ attestations: [], content: capsule.content, content_sha256: capsule.content_sha256 }, "capsule");
  return openCapsuleBytes(Buffer.concat([Buffer.from(bytes), Buffer.from("\n")]), "bench capsule", capsule.content_sha256);
}

/**
 * Fills a store with `n` sealed capsules and receipts exactly as the store writes them, but without fsync (the
 * durable write path is measured separately; 20,000 fsyncs would only measure the disk).
 */
function bulkFill(store: SealedStore, items: LoadedCapsule[]): void {
  const dir = storeLayout(store.home).capsules;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const { bytes, id } of items) {
    writeFileSync(join(dir, `${id}.sealed`), seal(bytes, store.keys.store, SealKind.capsule, capsuleLabel(id)), { mode: 0o600 });
    writeFileSync(join(dir, `${id}.receipt`), makeReceipt(id, store.keys.signing), { mode: 0o600 });
  }
}

class NullSink extends Writable {
  override _write(_c: unknown, _e: BufferEncoding, cb: () => void) {
    cb();
  }
}

async function cliList(home: string): Promise<void> {
  const code = await main(["--home", home, "capsule", "list", "--json"], { stdin: Readable.from([]), stdout: new NullSink(), stderr: new NullSink(), env: {} });
  if (code !== 0) throw new Error(`capsule list exited ${code}`);
}

export async function benchStore(): Promise<BenchResult[]> {
  const root = mkdtempSync(join(tmpdir(), "eb-store-bench-"));
  const rows: BenchResult[] = [];
  try {
    // Durable puts.
    const PUTS = 300;
    const items = Array.from({ length: PUTS * 3 }, (_, i) => syntheticCapsule(i));
    const kb = Math.round(items[0].bytes.length / 102.4) / 10;
    let round = 0;
    const freshStore = async () => openOrCreateStore({ home: join(root, `put-${round++}`), passphrase: undefined });
    const single = await freshStore();
    let next = 0;
    const singleMs = await measure(
      () => {
        for (let k = 0; k < 100; k++, next++) single.putCapsule(items[next]);
      },
      { runs: 3, warmup: 0 },
    );
    rows.push({ ...atLeastPerSecond(`store: seal + durable put, one at a time (${kb} KB capsules)`, singleMs, 100, 1000, "capsules"), target: undefined, met: undefined });
    const batched = await freshStore();
    let offset = 0;
    const batchMs = await measure(
      () => {
        batched.putCapsules(items.slice(offset, offset + 100));
        offset += 100;
      },
      { runs: 3, warmup: 0 },
    );
    rows.push({ ...atLeastPerSecond("store: seal + durable put, batches of 100", batchMs, 100, 1000, "capsules"), target: undefined, met: undefined });
    // Issue 33: sealing into a fresh data directory as a one-shot command does it (keys created, store-key-id, the
    // capsule and its receipt), with each step's independent syncs at once (src/crypto/sync-set.ts) against the same
    // steps' syncs one after another; a new data directory every run, the two in turn.
    let fresh = 0;
    const freshPut = async (concurrently: boolean) => {
      const store = await openOrCreateStore({ home: join(root, `fresh-${fresh++}`), passphrase: undefined });
      const item = items[fresh % items.length];
      if (concurrently) await store.putCapsulesConcurrently([item]);
      else store.putCapsule(item);
    };
    const [atOnce, oneByOne] = await measureInterleaved([() => freshPut(true), () => freshPut(false)], { runs: 15, warmup: 2 });
    rows.push({
      name: "store: keys created + one capsule sealed and durably put into a fresh data directory, in process (independent syncs at once)",
      median_ms: atOnce,
      figures: { "the put's syncs one after another ms": oneByOne, "× one after another": atOnce / oneByOne },
      target: "≤ 15 ms",
      met: atOnce <= 15,
    });
    const ids = single.capsuleIds();
    const openMs = await measure(() => {
      for (const id of ids) single.getCapsule(id);
    });
    rows.push({ ...atLeastPerSecond(`store: open + authenticate + identity check (${ids.length} capsules)`, openMs, ids.length, 1, "capsules"), target: undefined, met: undefined });

    // Listing 10,000.
    const N = 10_000;
    const listHome = join(root, "list");
    const listStore = await openOrCreateStore({ home: listHome, passphrase: undefined });
    bulkFill(listStore, Array.from({ length: N }, (_, i) => syntheticCapsule(100_000 + i)));
    const indexPath = join(storeLayout(listHome).root, "rows.sealed");
    const coldMs = await measure(
      () => {
        rmSync(indexPath, { force: true });
        if (listStore.rows().length !== N) throw new Error("wrong row count");
      },
      { runs: 3, warmup: 0 },
    );
    rows.push({ name: "store: list 10,000, cold (index rebuilt from every capsule)", median_ms: coldMs });
    listStore.rows();
    const warmMs = await measure(() => {
      if (listStore.rows().length !== N) throw new Error("wrong row count");
    });
    rows.push(atMost("store: list 10,000 rows, sealed index (library)", warmMs, 1000));
    const cliMs = await measure(() => cliList(listHome));
    rows.push(atMost("store: capsule list --json over 10,000 (in process: open store + list + print)", cliMs, 1000));
    const bin = fileURLToPath(new URL("../bundle/bin.js", import.meta.url)); // the published bin
    if (existsSync(bin)) {
      const procMs = await measure(
        () => {
          const r = spawnSync(process.execPath, [bin, "--home", listHome, "capsule", "list", "--json"], { stdio: ["ignore", "ignore", "pipe"] });
          if (r.status !== 0) throw new Error(`capsule list failed: ${r.stderr}`);
        },
        { runs: 5, warmup: 1 },
      );
      rows.push(atMost("store: capsule list --json over 10,000 (whole process)", procMs, 1000));
    }
    return rows;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
