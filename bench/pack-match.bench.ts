/**
 * Typology matching throughput (assessment-v1 §4) on 4 KB messages: one Latin-script message (ASCII fast path of
 * N(x)) and one mixed Latin/Devanagari/Han message (full normalisation pipeline). Uses the real pack from
 * ../shared (or EVIDENCE_BRIDGE_PACK); skipped with a note when neither is available.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPackFile } from "../published/pack/file.js";
import { assessProvenance } from "../published/pack/provenance.js";
import { measure, type BenchResult } from "./harness.js";

const MESSAGE_BYTES = 4096;
const MATCHES_PER_RUN = 200;

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "package.json")) && dirname(dir) !== dir) dir = dirname(dir);
  return dir;
}

function packPath(): string | undefined {
  const fromEnv = process.env.EVIDENCE_BRIDGE_PACK;
  if (fromEnv) return fromEnv;
  const shared = resolve(repoRoot(), "..", "shared", "data", "intelligence-pack", "intelligence-pack-v1.json");
  return existsSync(shared) ? shared : undefined;
}

/** Repeats `parts` into a message of exactly `bytes` UTF-8 bytes or slightly fewer (never splitting a character). */
function messageOf(parts: readonly string[], bytes: number): string {
  const encoder = new TextEncoder();
  let out = "";
  for (let i = 0; ; i++) {
    const next = out + parts[i % parts.length];
    if (encoder.encode(next).length > bytes) {
      for (const ch of parts[i % parts.length]) {
        if (encoder.encode(out + ch).length > bytes) return out;
        out += ch;
      }
    }
    out = next;
  }
}

const LATIN = [
  "Urgent: we need fresh savings accounts for a payout desk, commission 2% per transfer. ",
  "Settlement is same-day release through our partners, money never crosses the border. ",
  "Contact the team on Telegram for the rate sheet; USDT accepted, cash on delivery in the city. ",
  "Our casino junket partners in the Golden Triangle SEZ handle running points for VIP rooms. ",
  "Elephant ivory and rhino horn available without CITES paperwork, hidden in cargo. ",
];

const MIXED = [
  "भाई account rent pe chahiye, daily payment milega, USDT to UPI bridge. ",
  "我们提供地下钱庄服务，对敲结算，外汇额度不够也可以。",
  "Fast settlement, commission share 3%, फ्रीज़ होने पर compensation. ",
  "跑分车队，四方支付，当天到账。 ",
  "Мы работаем с USDT, быстрый вывод. ",
];

const SIGNALS = ["account_rental_offer", "commission_share_terms", "upi_usdt_bridge", "fast_settlement_window"];

export async function benchPackMatch(): Promise<BenchResult[]> {
  const file = packPath();
  if (file === undefined) {
    process.stderr.write("bench: pack group skipped: no intelligence pack (set EVIDENCE_BRIDGE_PACK or provide ../shared)\n");
    return [];
  }
  const loadMs = await measure(() => loadPackFile(file), { runs: 9 });
  const pack = loadPackFile(file);
  const rows: BenchResult[] = [{ name: "pack load + validate (27 KB)", median_ms: loadMs }];
  for (const [label, parts] of [
    ["latin", LATIN],
    ["mixed-script", MIXED],
  ] as const) {
    const text = messageOf(parts, MESSAGE_BYTES);
    const hypotheses = assessProvenance(pack, { text, signals: SIGNALS }).hypotheses.length;
    const ms = await measure(
      () => {
        for (let i = 0; i < MATCHES_PER_RUN; i++) assessProvenance(pack, { text, signals: SIGNALS });
      },
      { runs: 7, warmup: 2 },
    );
    const perMatch = ms / MATCHES_PER_RUN;
    rows.push({
      name: `pack match, 4 KB ${label} message (${hypotheses} hypotheses)`,
      median_ms: perMatch,
      figures: { "matches/s": Math.round(1000 / perMatch), "MB/s": MESSAGE_BYTES / 1_048_576 / (perMatch / 1000) },
    });
  }
  return rows;
}
