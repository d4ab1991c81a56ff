/**
 * `review export` of N approved candidates from a store of 1,000 capsules (issue 11: the outward guard may cost the
 * review export at most 10 %). Each approved candidate is re-derived (a projection of its derivation: the sealed
 * cache, or one derivation when the cache is cold), its signature checked, and every export line passes the guard
 * over its capsule's values and the guard over every stored capsule's values (the decision's note and names).
 *
 * Rows: the whole process (`evidence-bridge review export --out FILE`, the bundle, NODE_EXTRA_CA_CERTS unset) over the
 * warm cache; in process with warm JIT, cold cache (median of 7 runs) and warm cache (of 15), each with the guard's
 * share (guard-share.ts).
 * Synthetic capsules as in feed.bench.ts; approvals appended with a reviewer key made for the run. Skipped with a
 * note when ../shared (or EVIDENCE_BRIDGE_PACK) is missing.
 */
import { openCapsuleBytes } from "../capsules/pipeline/open.js";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { StoredDerivations } from "../capsules/pipeline/stored.js";
import { buildExport } from "../capsules/review/export-lines.js";
import { appendDecision, loadReviewLog } from "../capsules/review/log.js";
import { createReviewerKey } from "../capsules/review/reviewer-key.js";
import { OUTCOMES_NAME, PENDING_DIR, VALUES_NAME } from "../capsules/store/derivation-cache.js";
import { openOrCreateStore } from "../capsules/store/store.js";
import { loadPackFile } from "../published/pack/file.js";
import { parseStrictJson } from "../src/json/parse.js";
import type { JsonObject } from "../src/json/value.js";
import { cliCommand, EXAMPLE, sharedData, syntheticCapsule } from "./feed.bench.js";
import { forgetGuardCaches } from "../capsules/guard/outward-guard.js";
import { guardShareRow, installGuardMeter } from "./guard-share.js";
import { median, userEnv, type BenchResult } from "./harness.js";

const CAPSULES = 1000;
const APPROVED = 100;
const VIEW = { includeTypologyMatches: false, includeClean: false };

export async function benchReviewExport(): Promise<BenchResult[]> {
  const packFile = process.env.EVIDENCE_BRIDGE_PACK ?? sharedData("intelligence-pack", "intelligence-pack-v1.json");
  const example = sharedData("bridge-examples", "valid", EXAMPLE);
  if (!existsSync(packFile) || !existsSync(example)) {
    process.stderr.write("bench export: ../shared/data (pack and example assessment) not found; skipped\n");
    return [];
  }
  const pack = loadPackFile(packFile);
  const template = parseStrictJson(readFileSync(example)) as JsonObject;
  const home = mkdtempSync(join(tmpdir(), "eb-bench-export-"));
  try {
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const items = [];
    for (let i = 0; i < CAPSULES; i++) {
      const c = syntheticCapsule(template, i);
      items.push(openCapsuleBytes(c.bytes, "bench capsule", c.id));
    }
    store.putCapsules(items);
    const alice = createReviewerKey(home, "alice");
    const derivations = new StoredDerivations(store, pack);
    const ids = store.capsuleIds().slice(0, APPROVED);
    let minute = Date.UTC(2026, 8, 1, 10, 0, 0);
    for (const id of ids) {
      const r = derivations.candidate(id, VIEW);
      if (r.status !== "emitted") throw new Error(`bench export: capsule ${id} has no candidate: ${r.status}`);
      appendDecision(home, { capsule_sha256: id, candidate_sha256: r.digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: "checked" }, alice, {
        now: () => new Date((minute += 60_000)),
      });
    }
    derivations.save();
    const dropCache = () => {
      for (const n of [OUTCOMES_NAME, VALUES_NAME, PENDING_DIR]) rmSync(join(store.layout.root, n), { recursive: true, force: true });
    };
    const log = loadReviewLog(home);

    const meter = installGuardMeter();
    // A warm run takes ~90 ms, of which the guard's few ms move with every collection: more runs for its median.
    const inProcess = (cold: boolean, runs: number) => {
      const wall: number[] = [];
      const guard: number[] = [];
      for (let i = -1; i < runs; i++) {
        if (cold) dropCache();
        // As in a fresh process: no value's forms and no outward text are known yet.
        forgetGuardCaches();
        meter.reset();
        const t0 = performance.now();
        const out = buildExport(store, pack, log);
        const t = performance.now() - t0;
        if (out.exported.length !== APPROVED) throw new Error(`bench export: ${out.exported.length} lines exported, expected ${APPROVED}`);
        if (i < 0) continue;
        wall.push(t);
        guard.push(meter.ms());
      }
      return { ms: median(wall), guard: median(guard) };
    };
    let cold;
    let warm;
    try {
      cold = inProcess(true, 7);
      warm = inProcess(false, 15);
    } finally {
      meter.uninstall();
    }

    const cli = cliCommand();
    const outDir = mkdtempSync(join(tmpdir(), "eb-bench-export-out-"));
    const wall: number[] = [];
    try {
      for (let i = -1; i < 5; i++) {
        const t0 = performance.now();
        const r = spawnSync(process.execPath, [...cli, "--home", home, "--pack", packFile, "review", "export", "--out", join(outDir, `x${i + 1}.jsonl`)], {
          stdio: ["ignore", "ignore", "pipe"],
          env: userEnv(),
        });
        const t = performance.now() - t0;
        if (r.status !== 0) throw new Error(`bench export: the export process exited ${r.status}: ${r.stderr.toString("utf8").slice(0, 500)}`);
        if (i >= 0) wall.push(t);
      }
    } finally {
      rmSync(outDir, { recursive: true, force: true });
    }
    const name = `review export of ${APPROVED} approved candidates, ${CAPSULES} stored capsules`;
    return [
      { name: `${name}, one process (sealed derivation cache)`, median_ms: median(wall), figures: { "lines/s": Math.round(APPROVED / (median(wall) / 1000)) } },
      guardShareRow(`${name}, in process (cold cache, warm JIT): outward guard`, cold.guard, cold.ms, 10),
      guardShareRow(`${name}, in process (sealed derivation cache, warm JIT): outward guard`, warm.guard, warm.ms, 10),
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
