/**
 * Issue 28 item 7: no false refusals of our own artefacts. One store holds every valid reference example under
 * ../shared/data/bridge-examples/valid/ and our synthetic messages of every IOC kind and several scripts; every
 * candidate of the full view (`feed --include-typology-matches --include-clean`) is approved, and the export succeeds
 * in every format (JSONL, STIX, MISP, CSV) without carrying any IOC value. Without ../shared the shared half skips
 * with one line and the synthetic half runs alone (with the synthetic pack).
 *
 * Before the fix, the short source ids `news-a` and `ngo-b` of example 36 were found inside the pack's INTERPOL URL
 * (`News-and-Events`) and inside a STIX id (`grouping--0b…`, `0` read as `o`), refusing every marked export.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { describeShared, sharedPath, validExampleNames } from "../../helpers/shared.js";
import { cli as syntheticCli, removeHomes, tempHome } from "./synthetic-store.js";
import { runCli, type RunResult } from "../../helpers/cli.js";

afterAll(removeHomes);

interface SyntheticMessage {
  text: string;
  iocs: Record<string, string[]>;
  surface?: string;
  authorization?: string;
  source?: string;
  signals?: string[];
}

/** Our synthetic messages: every IOC kind, several scripts, a public channel, and a clean one. */
const SYNTHETIC: SyntheticMessage[] = [
  {
    text: "Rent your bank account to our team, commission per transfer paid every evening. Message @synthetic_mule_desk.",
    iocs: { handles: ["@synthetic_mule_desk"] },
  },
  // A short handle (5 letters, the least a Telegram name has) that occurs inside the synthetic pack's labels and URLs
  // ("Synthetic …", synthetic-mule-guide): it matches only as a whole token.
  { text: "Rent your bank account for a commission per transfer, ask @synth.", iocs: { handles: ["@synth"] } },
  { text: "Call +44 20 7946 0958 or +91 98765 12340 for the account rental payout.", iocs: { phones: ["+44 20 7946 0958", "+91 98765 12340"] } },
  { text: "Join t.me/synthetic_rates_room for USDT to INR rates every hour.", iocs: { channels: ["t.me/synthetic_rates_room"] } },
  {
    text:
      "Send the fee in USDT to 0x52908400098527886E0F7030069857D2E4169EE7 or TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3, " +
      "or BTC to bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq.",
    iocs: { wallets: ["0x52908400098527886E0F7030069857D2E4169EE7", "TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3", "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"] },
  },
  { text: "Write to payout.desk+rent@synthetic-mail.example for your commission per transfer.", iocs: { emails: ["payout.desk+rent@synthetic-mail.example"] } },
  { text: "Register at https://synthetic-rental.example/join/0b1f to rent your account.", iocs: { urls: ["https://synthetic-rental.example/join/0b1f"] } },
  { text: "Аренда банковского счёта, комиссия за перевод. Пишите @sintetik_schet_desk.", iocs: { handles: ["@sintetik_schet_desk"] } },
  { text: "出租银行账户，每笔转账佣金。联系 @synthetic_zh_desk 。", iocs: { handles: ["@synthetic_zh_desk"] } },
  { text: "अपना बैंक खाता किराए पर दें, हर ट्रांसफर पर कमीशन। संपर्क +९१ ९७६५४ ३२१०८", iocs: { phones: ["+९१ ९७६५४ ३२१०८"] } },
  { text: "استأجر حسابك المصرفي مقابل عمولة لكل تحويل. راسل @synthetic_ar_desk", iocs: { handles: ["@synthetic_ar_desk"] } },
  {
    text: "Public channel post: rent your bank account, commission per transfer, t.me/synthetic_public_room.",
    iocs: { channels: ["t.me/synthetic_public_room"] },
    surface: "public_channel",
    authorization: "public",
    source: "synthetic-public-room",
  },
  { text: "Tomato 2400 rupees a quintal at the mandi today; onion steady.", iocs: {}, signals: [] },
];

const ALL_IOC_VALUES = SYNTHETIC.flatMap((m) => Object.values(m.iocs).flat());

type Cli = (args: string[], stdin?: Uint8Array) => Promise<RunResult>;

async function ok(cli: Cli, args: string[], stdin?: Uint8Array): Promise<RunResult> {
  const r = await cli(args, stdin);
  if (r.code !== 0) throw new Error(`${args.join(" ")} failed: ${r.stderr}`);
  return r;
}

/** Records every synthetic message through `capsule assess` (the pack of `cli`). */
async function recordSynthetic(cli: Cli, home: string): Promise<void> {
  for (const [i, m] of SYNTHETIC.entries()) {
    const file = join(home, `..`, `${home.split("/").pop()}-message-${i}.txt`);
    writeFileSync(file, m.text);
    const judgement = {
      signals: m.signals ?? ["account_rental_offer", "commission_share_terms"],
      findings: [],
      surface: m.surface ?? "private_submission",
      authorization: m.authorization ?? "user_submitted",
      observed_at: "2026-11-20T09:41:06Z",
      ...(m.source === undefined ? {} : { source: m.source }),
      iocs: m.iocs,
    };
    await ok(cli, ["capsule", "assess", "--message-file", file], Buffer.from(JSON.stringify(judgement)));
  }
}

/** Approves every candidate of the full view; returns how many. */
async function approveFullView(cli: Cli): Promise<number> {
  await ok(cli, ["keys", "init", "--reviewer", "alice"]);
  const feed = await ok(cli, ["feed", "--include-typology-matches", "--include-clean"]);
  const candidates = feed.stdout.split("\n").filter((l) => l !== "").map((l) => JSON.parse(l) as { capsule_sha256: string });
  for (const c of candidates) {
    await ok(cli, ["review", "approve", c.capsule_sha256, "--reason", "corroborated", "--public-note", "checked against the pack's cited sources", "--include-typology-matches", "--include-clean"]);
  }
  return candidates.length;
}

/** Exports in every format; each must succeed and carry none of `values`. */
async function exportEveryFormat(cli: Cli, home: string, approved: number, values: readonly string[]): Promise<void> {
  for (const format of ["jsonl", "stix", "misp", "csv"]) {
    const out = join(home, "..", `${home.split("/").pop()}-export-${format}`);
    const r = await cli(["review", "export", "--format", format, "--out", out]);
    expect(r.stderr, `${format}: ${r.stderr}`).toBe("");
    expect(r.code, format).toBe(0);
    expect(r.stdout).toContain(`exported ${approved} approved`);
    const files = format === "misp" ? readdirSync(out).map((f) => join(out, f)) : [out];
    const text = files.map((f) => readFileSync(f, "utf8")).join("\n").toLowerCase();
    for (const v of values) expect(text.includes(v.toLowerCase()), `${format} carries an IOC value`).toBe(false);
  }
}

describe("every synthetic message of every kind, approved in the full view, exports in every format", () => {
  test("JSONL, STIX, MISP and CSV with the synthetic pack", async () => {
    const home = tempHome("all-synthetic");
    const cli: Cli = (args, stdin) => syntheticCli(home, args, stdin);
    await recordSynthetic(cli, home);
    const approved = await approveFullView(cli);
    expect(approved).toBe(SYNTHETIC.length);
    await exportEveryFormat(cli, home, approved, ALL_IOC_VALUES);
  }, 180_000);
});

describeShared("every valid reference example and every synthetic message in one store", () => {
  test("approved in the full view, exports in every format with the reference pack", async () => {
    const home = tempHome("all-examples");
    const pack = sharedPath("data/intelligence-pack/intelligence-pack-v1.json");
    const cli: Cli = (args, stdin) => runCli(["--home", home, "--pack", pack, ...args], { stdin: stdin === undefined ? undefined : Buffer.from(stdin) });
    const names = validExampleNames();
    expect(names.length).toBeGreaterThanOrEqual(10);
    const values: string[] = [...ALL_IOC_VALUES];
    for (const n of names) {
      const assessment = readFileSync(sharedPath("data/bridge-examples/valid", `${n}.json`));
      await ok(cli, ["capsule", "build", "--message-file", sharedPath("data/bridge-examples/valid", `${n}.txt`)], assessment);
      const iocs = (JSON.parse(assessment.toString()) as { detector?: { iocs?: Record<string, string[]> } }).detector?.iocs ?? {};
      values.push(...Object.values(iocs).flat());
    }
    await recordSynthetic(cli, home);
    const approved = await approveFullView(cli);
    expect(approved).toBe(names.length + SYNTHETIC.length);
    await exportEveryFormat(cli, home, approved, values);
  }, 300_000);
});
