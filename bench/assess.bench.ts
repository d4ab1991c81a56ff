/**
 * `assess` benchmarks (product.md §11): `assess_message`'s core in process for a 4 KB message (derive the assessment
 * with IOC extraction and the pack match, self-check it with our intake, build + verify the capsule, seal it;
 * target ≤ 20 ms), and the one-shot `capsule assess` process next to the one-shot `capsule build` (target: within
 * the build figure + 10 ms).
 *
 * The message is synthetic (written here), ~4 KB, with IOCs of every kind; the pack is read from ../shared/data.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { assessAndSeal } from "../capsules/assess/assess.js";
import type { Judgement } from "../capsules/assess/judgement.js";
import { openOrCreateStore } from "../capsules/store/store.js";
import { loadPackFile } from "../published/pack/file.js";
import { atMost, measure, type BenchResult } from "./harness.js";

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const shared = resolve(repo, "..", "shared", "data");
const PACK = join(shared, "intelligence-pack", "intelligence-pack-v1.json");
const TYPICAL_ASSESSMENT = join(shared, "bridge-examples", "valid", "03-usdt-inr-kitchen-sink-iocs.json");

const PARAGRAPH =
  "Bank account on rent chahiye! Savings/current a/c dono chalega, 3% commission daily, same day payout UPI/IMPS. " +
  "专业地下钱庄 对敲 换汇，绕开外汇额度。DM @rentacc_desk or call +91 98765 43210, channel t.me/usdt_inr_rates_demo, " +
  "USDT TRC20 TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3 or 0x4e2164d2646de021755eed38a67bc857145db863, mail ops@usdt-desk.example, " +
  "rates https://usdt-inr-desk.example/rates. ";

/** A ~4 KB message; `n` makes each one distinct (a new capsule every time). */
function message(n: number): string {
  let text = `#${n} `;
  while (Buffer.byteLength(text) < 4096 - Buffer.byteLength(PARAGRAPH)) text += PARAGRAPH;
  return text;
}

const JUDGEMENT: Judgement = {
  signals: ["account_rental_offer", "account_sourcing_demand", "commission_share_terms", "upi_usdt_bridge"],
  findings: [{ rule_id: "advance_fee_scam_pattern", tier: "WATCH", evidence_classes: ["payment", "upfront_payment"], fragments: { payment: ["UPI/IMPS"] } }],
  surface: "guardian_group",
  authorization: "administrator_authorized",
  source: "-1002233445566",
};

export async function benchAssess(): Promise<BenchResult[]> {
  if (!existsSync(PACK)) {
    process.stderr.write(`bench assess: ${shared} is absent; skipped\n`);
    return [];
  }
  const rows: BenchResult[] = [];
  const home = mkdtempSync(join(tmpdir(), "bench-assess-"));
  try {
    const pack = loadPackFile(PACK);
    const store = await openOrCreateStore({ home: join(home, "in-process"), passphrase: undefined });
    let n = 0;
    const kb = `${(Buffer.byteLength(message(0)) / 1024).toFixed(1)} KB`;
    const inProcess = await measure(() => assessAndSeal(store, pack, { message: message(n++), judgement: JUDGEMENT }), { runs: 30, warmup: 5 });
    rows.push(atMost(`assess_message in process (${kb} message: derive + intake + build + verify + seal)`, inProcess, 20));

    const bin = resolve(repo, "dist", "bundle", "bin.js");
    if (existsSync(bin)) {
      const oneHome = join(home, "one-shot");
      const file = join(home, "message.txt");
      const judgementText = JSON.stringify(JUDGEMENT);
      const assessOnce = () => {
        writeFileSync(file, message(n++));
        const r = spawnSync(process.execPath, [bin, "--home", oneHome, "--pack", PACK, "capsule", "assess", "--message-file", file], { input: judgementText, maxBuffer: 8 << 20 });
        if (r.status !== 0) throw new Error(`capsule assess failed (${r.status}): ${r.stderr.toString().trim()}`);
      };
      const typical = readFileSync(TYPICAL_ASSESSMENT);
      const buildOnce = () => {
        const r = spawnSync(process.execPath, [bin, "--home", oneHome, "--pack", PACK, "capsule", "build"], { input: typical, maxBuffer: 8 << 20 });
        if (r.status !== 0) throw new Error(`capsule build failed (${r.status}): ${r.stderr.toString().trim()}`);
      };
      const build = await measure(buildOnce, { runs: 15, warmup: 2 });
      const assess = await measure(assessOnce, { runs: 15, warmup: 2 });
      rows.push({ name: "capsule build one-shot process (same store, for reference)", median_ms: build });
      rows.push(atMost(`capsule assess one-shot process (${kb} message, sealed)`, assess, build + 10));
    } else {
      process.stderr.write(`bench assess: ${bin} is missing (run npm run build); one-shot rows skipped\n`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}
