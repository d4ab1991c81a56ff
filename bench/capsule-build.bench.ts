/**
 * `capsule build` benchmarks (product.md §11): the one-shot command as a whole process (compiled CLI, typical
 * 5 KB assessment; target median ≤ 95 ms), and in-process throughput of validate + build + self-verify, with and
 * without sealing into the store (target ≥ 1,000 assessments per second for build + seal + store).
 *
 * Reads the bridge examples and the intelligence pack from ../shared/data in place; a missing ../shared skips.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { buildAssessmentCapsule, projectProducer, REFERENCE_PRODUCER } from "../capsules/assessment/adapter.js";
import { validateAssessment } from "../capsules/assessment/intake.js";
import { openOrCreateStore } from "../capsules/store/store.js";
import { loadPackFile } from "../published/pack/file.js";
import { atLeastPerSecond, atMost, measure, type BenchResult } from "./harness.js";

const here = dirname(fileURLToPath(import.meta.url));
/** Repository root: this file runs as dist/bench/capsule-build.bench.js. */
const repo = resolve(here, "..", "..");
const shared = resolve(repo, "..", "shared", "data");
const PACK = join(shared, "intelligence-pack", "intelligence-pack-v1.json");
const VALID = join(shared, "bridge-examples", "valid");
/** A typical ~5 KB assessment. */
const TYPICAL = "03-usdt-inr-kitchen-sink-iocs";
const EXAMPLES = [
  "01-mule-account-rental-hinglish",
  "03-usdt-inr-kitchen-sink-iocs",
  "05-feiqian-zh-simplified-plus-mule",
  "08-golden-triangle-casino-junket",
  "11-scam-compound-recruitment-en",
  "13-wildlife-ivory-en",
  "22-clean-mandi-prices",
  "32-ext-wildlife-corroborated-lead",
  "34-ext-direct-link-wallet",
  "36-ext-reported-reliability-no-upgrade",
];

function oneShot(bin: string, home: string, input: Buffer, extra: string[]): void {
  const r = spawnSync(process.execPath, [bin, "--home", home, "--pack", PACK, "capsule", "build", ...extra], { input, maxBuffer: 8 << 20 });
  if (r.status !== 0) throw new Error(`capsule build failed (${r.status}): ${r.stderr.toString().trim()}`);
}

export async function benchCapsuleBuild(): Promise<BenchResult[]> {
  if (!existsSync(PACK)) {
    process.stderr.write(`bench build: ${shared} is absent; skipped\n`);
    return [];
  }
  const rows: BenchResult[] = [];
  const typical = readFileSync(join(VALID, `${TYPICAL}.json`));
  const home = mkdtempSync(join(tmpdir(), "bench-build-"));
  try {
    const bin = resolve(repo, "dist", "bundle", "bin.js"); // the published bin (package.json "bin")
    if (existsSync(bin)) {
      const kb = `${(typical.length / 1024).toFixed(1)} KB`;
      const noStore = await measure(() => oneShot(bin, home, typical, ["--no-store"]), { runs: 15, warmup: 2 });
      rows.push(atMost(`capsule build one-shot process (${kb}, --no-store)`, noStore, 95));
      const stored = await measure(() => oneShot(bin, home, typical, []), { runs: 15, warmup: 2 });
      rows.push(atMost(`capsule build one-shot process (${kb}, sealed into the store)`, stored, 95));
      const baseline = await measure(() => spawnSync(process.execPath, ["-e", "0"]), { runs: 15, warmup: 2 });
      rows.push({ name: "node -e 0 (process start-up on this machine, for reference)", median_ms: baseline });
    } else {
      process.stderr.write(`bench build: ${bin} is missing (run npm run build); one-shot rows skipped\n`);
    }

    const pack = loadPackFile(PACK);
    const inputs = EXAMPLES.map((n) => readFileSync(join(VALID, `${n}.json`)));
    const count = 500;
    const buildAll = () => {
      for (let i = 0; i < count; i++) {
        const bytes = inputs[i % inputs.length];
        buildAssessmentCapsule(bytes, validateAssessment(bytes, pack).assessment, REFERENCE_PRODUCER);
      }
    };
    rows.push(atLeastPerSecond("in-process validate + build + self-verify", await measure(buildAll, { runs: 5, warmup: 1 }), count, 1000, "assessments"));

    const store = await openOrCreateStore({ home: join(home, "store-bench"), passphrase: undefined });
    let round = 0;
    const sealAll = () => {
      // A distinct producer version per round gives distinct capsules, so every put is a new sealed file.
      const producer = projectProducer(`0.0.0-bench.${round++}`);
      for (let i = 0; i < count; i++) {
        const bytes = inputs[i % inputs.length];
        const built = buildAssessmentCapsule(bytes, validateAssessment(bytes, pack).assessment, { ...producer, software: `${producer.software}.${i}` });
        store.putCapsule(Buffer.from(built.text, "utf8"), built.capsule.content_sha256);
      }
    };
    rows.push(atLeastPerSecond("in-process validate + build + self-verify + seal + store", await measure(sealAll, { runs: 3, warmup: 1 }), count, 1000, "assessments"));
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}
