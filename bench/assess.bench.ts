/**
 * `assess` benchmarks (product.md §11): `assess_message`'s core in process for a 4 KB message (derive the assessment
 * with IOC extraction and the pack match, self-check it with our intake, build + verify the capsule, seal it;
 * target ≤ 20 ms), and the one-shot `capsule assess` process next to the one-shot `capsule build` (target: within
 * the build figure + 45 ms, issue 33: the extraction libraries' cold start is accepted).
 *
 * The reference for the one-shot target is `capsule build` of a new assessment each run (a ~5 KB assessment
 * derived here from another synthetic message), so both commands seal a new capsule; the two are measured in turn
 * within each run (the machine is shared, load moves). The earlier reference, the same bridge example every run,
 * is printed too: since builds are idempotent by assessment_id it seals nothing after its first run, so it is
 * cheaper than any sealing command by the seal and its three syncs.
 *
 * The message is synthetic (written here), ~4 KB, with IOCs of every kind; the pack is read from ../shared/data.
 * Child processes run without NODE_EXTRA_CA_CERTS, as users run (harness.ts userEnv).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { assessAndSeal } from "../capsules/assess/assess.js";
import { deriveAssessment } from "../capsules/assess/derive.js";
import type { Judgement } from "../capsules/assess/judgement.js";
import { checkMessageText } from "../capsules/assess/message-text.js";
import { openOrCreateStore } from "../capsules/store/store.js";
import { loadPackFile } from "../published/pack/file.js";
import { makeExtractionProbe, type ProbeName, type ProbeTimes } from "./extraction-probe.js";
import { atMost, measure, measureInterleaved, median, userEnv, type BenchResult } from "./harness.js";

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
    const inProcess = await measure(() => assessAndSeal(store, pack, { message: checkMessageText(message(n++)), judgement: JUDGEMENT }), { runs: 30, warmup: 5 });
    rows.push(atMost(`assess_message in process (${kb} message: derive + intake + build + verify + seal)`, inProcess, 20));

    const bin = resolve(repo, "dist", "bundle", "bin.js");
    if (existsSync(bin)) {
      const oneHome = join(home, "one-shot");
      const file = join(home, "message.txt");
      const judgementText = JSON.stringify(JUDGEMENT);
      const env = userEnv();
      const cli = (args: string[], input: string | Uint8Array, what: string) => {
        const r = spawnSync(process.execPath, [bin, "--home", oneHome, "--pack", PACK, ...args], { input, maxBuffer: 8 << 20, env });
        if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stderr.toString().trim()}`);
      };
      const assessOnce = () => {
        writeFileSync(file, message(n++));
        cli(["capsule", "assess", "--message-file", file], judgementText, "capsule assess");
      };
      // New assessments for `capsule build`, derived from other messages (never the ones assess records).
      const RUNS = 15;
      const WARMUP = 2;
      const fresh = Array.from({ length: RUNS + WARMUP }, (_, i) =>
        deriveAssessment({ message: message(100_000 + i), judgement: JUDGEMENT, pack, pseudonymKey: "0".repeat(64) }).bytes,
      );
      const buildNew = (i: number) => cli(["capsule", "build"], fresh[i + WARMUP], "capsule build");
      const [build, assess] = await measureInterleaved([buildNew, assessOnce], { runs: RUNS, warmup: WARMUP });
      const typical = readFileSync(TYPICAL_ASSESSMENT);
      const buildSame = await measure(() => cli(["capsule", "build"], typical, "capsule build"), { runs: RUNS, warmup: WARMUP });
      const size = `${(fresh[0].length / 1024).toFixed(1)} KB`;
      rows.push({ name: `capsule build one-shot process (new ${size} assessment each run, sealed; measured in turn with the next row)`, median_ms: build });
      rows.push({ ...atMost(`capsule assess one-shot process (${kb} message, sealed)`, assess, build + 45, { "over build ms": assess - build }), target: "≤ build + 45 ms" });
      rows.push({ name: "capsule build one-shot process (the same bridge example each run: already recorded, nothing sealed)", median_ms: buildSame });

      // A floor for the assess row's gap: extraction alone in a one-shot process, over the same process without it.
      const probe = await makeExtractionProbe(repo, mkdtempSync(join(home, "probe-")), env);
      writeFileSync(file, message(n++));
      const inside: Record<ProbeName, ProbeTimes[]> = { baseline: [], extraction: [], libraries: [], phones: [], linkify: [] };
      const probeRun = (which: ProbeName) => inside[which].push(probe.run(which, file));
      const [bare, extracting, librariesOnly, phonesOnly, linkifyOnly] = await measureInterleaved(
        (["baseline", "extraction", "libraries", "phones", "linkify"] as const).map((which) => () => probeRun(which)),
        { runs: RUNS, warmup: WARMUP },
      );
      const part = (which: ProbeName, key: "loadMs" | "callMs") => median(inside[which].slice(WARMUP).map((t) => t[key]));
      // Every measured run must have used the code cache, as the real commands do after their first run.
      const misses = Object.values(inside).flatMap((runs) => runs.slice(WARMUP)).filter((t) => t.cache !== "hit");
      if (misses.length > 0) throw new Error(`extraction probe: ${misses.length} measured run(s) without the code cache (${misses[0].cache})`);
      rows.push({
        name: `IOC extraction alone in a one-shot process (libphonenumber-js full metadata, linkify-it, wallets; ${kb} message; code cache on), over the same process without it`,
        median_ms: extracting - bare,
        figures: {
          "with ms": extracting,
          "without ms": bare,
          "load ms (with)": part("extraction", "loadMs"),
          "load ms (without)": part("baseline", "loadMs"),
          "first extraction ms": part("extraction", "callMs"),
          "the two libraries alone, over without ms": librariesOnly - bare,
          "libphonenumber-js alone, over without ms": phonesOnly - bare,
          "linkify-it alone, over without ms": linkifyOnly - bare,
          "budget for extraction (build + 45 - assess without extraction) ms": build + 45 - (assess - (extracting - bare)),
        },
      });
    } else {
      process.stderr.write(`bench assess: ${bin} is missing (run npm run build); one-shot rows skipped\n`);
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}
