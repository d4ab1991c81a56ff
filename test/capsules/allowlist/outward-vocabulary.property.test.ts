/**
 * Issue 28 item 2: every string of every outward artefact comes from the closed outward vocabulary. Random stores
 * (messages of every IOC kind in several scripts, every surface, random reviewer names and notes) are recorded
 * through `capsule assess`, every candidate of the full view is approved, and every string of the feed lines, the
 * JSONL export and the STIX, MISP and CSV exports is checked against the vocabulary (the notes being the free text
 * it lets through). The IOC values themselves are outside it.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { OutwardVocabulary } from "../../../capsules/allowlist/outward-vocabulary.js";
import { cli, removeHomes, syntheticPack, tempHome } from "../exports/synthetic-store.js";

afterAll(removeHomes);

const word = fc.stringMatching(/^[a-z][a-z0-9_]{6,14}$/);
const hex = (n: number) => fc.stringMatching(new RegExp(`^[0-9a-f]{${n}}$`));

/** One IOC of each kind, as the message writes it. */
const iocs = fc.record({
  handle: word.map((w) => `@${w}`),
  phone: fc.tuple(fc.integer({ min: 70000, max: 99999 }), fc.integer({ min: 10000, max: 99999 })).map(([a, b]) => `+91 ${a} ${b}`),
  channel: word.map((w) => `t.me/${w}`),
  wallet: hex(40).map((h) => `0x${h}`),
  email: fc.tuple(word, word).map(([l, d]) => `${l}@${d}.example`),
  url: fc.tuple(word, word).map(([h, p]) => `https://${h}.example/${p}`),
});

/** Message bodies in several scripts (each asks to rent an account for a commission). */
const BODIES = [
  "Rent your bank account to our team, commission per transfer paid every evening.",
  "Аренда банковского счёта, комиссия за каждый перевод каждый вечер.",
  "出租银行账户，每笔转账佣金，每晚结算。",
  "अपना बैंक खाता किराए पर दें, हर ट्रांसफर पर कमीशन।",
  "استأجر حسابك المصرفي مقابل عمولة لكل تحويل.",
];
const SURFACES: [string, string][] = [
  ["private_submission", "user_submitted"],
  ["public_channel", "public"],
  ["guardian_group", "administrator_authorized"],
];

const message = fc.record({ body: fc.constantFrom(...BODIES), iocs, surface: fc.constantFrom(...SURFACES), source: word });
/** Names valid under both the current rule (ASCII letters, `.`, `-`) and a letters-of-every-script rule. */
const reviewerName = fc.constantFrom("alice", "bjorn.odegard", "anna-petrova", "Zoe-Oneil");
const note = fc.constantFrom("checked against the pack's cited sources", "Reviewed; pattern consistent.", "zq free text 42 — ok", "Проверено.");

function stringsOk(vocab: OutwardVocabulary, value: unknown, where: string, freeText: string[]): void {
  const u = vocab.unlisted(value, where, freeText);
  expect(u, `${u?.path}: ${u?.rule}`).toBeUndefined();
}

describe("the outward vocabulary holds every string of every outward artefact", () => {
  it("for random stores of every IOC kind, script and surface", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(message, { minLength: 2, maxLength: 3 }), reviewerName, note, async (messages, name, reviewerNote) => {
        const home = tempHome("vocab");
        const ok = async (args: string[], stdin?: Uint8Array) => {
          const r = await cli(home, args, stdin);
          if (r.code !== 0) throw new Error(`${args.slice(0, 2).join(" ")}: ${r.stderr}`);
          return r;
        };
        for (const [i, m] of messages.entries()) {
          const i0 = m.iocs;
          const text = `${m.body} ${i0.handle} ${i0.phone} ${i0.channel} ${i0.wallet} ${i0.email} ${i0.url} #${i}`;
          const file = join(home, "..", `${home.split("/").pop()}-m${i}.txt`);
          writeFileSync(file, text);
          const judgement = {
            signals: ["account_rental_offer", "commission_share_terms"],
            findings: [],
            surface: m.surface[0],
            authorization: m.surface[1],
            ...(m.surface[0] === "public_channel" ? { source: m.source } : {}),
          };
          await ok(["capsule", "assess", "--message-file", file], Buffer.from(JSON.stringify(judgement)));
        }
        await ok(["keys", "init", "--reviewer", name]);
        const feed = await ok(["feed", "--include-typology-matches", "--include-clean"]);
        const lines = feed.stdout.split("\n").filter((l) => l !== "");
        expect(lines.length).toBe(messages.length);
        const vocab = OutwardVocabulary.of(syntheticPack(), [name]);
        for (const [i, l] of lines.entries()) stringsOk(vocab, JSON.parse(l), `feed line ${i + 1}`, []);
        for (const l of lines) {
          await ok(["review", "approve", (JSON.parse(l) as { capsule_sha256: string }).capsule_sha256, "--reason", "corroborated", "--public-note", reviewerNote, "--include-typology-matches", "--include-clean"]);
        }
        const values = messages.flatMap((m) => Object.values(m.iocs));
        for (const format of ["jsonl", "stix", "misp", "csv"]) {
          const out = join(home, "..", `${home.split("/").pop()}-${format}`);
          await ok(["review", "export", "--format", format, "--out", out]);
          const files = format === "misp" ? readdirSync(out).filter((f) => f.endsWith(".json")).map((f) => join(out, f)) : [out];
          for (const f of files) {
            const text = readFileSync(f, "utf8");
            if (format === "jsonl") for (const l of text.split("\n").filter((x) => x.startsWith("{"))) stringsOk(vocab, JSON.parse(l), f, [reviewerNote]);
            else if (format === "csv") for (const l of text.split(/\r?\n/)) expect(vocab.ruleBroken(l, [reviewerNote]), `${f}: ${format}`).toBeUndefined();
            else stringsOk(vocab, JSON.parse(text), f, [reviewerNote]);
            for (const v of values) expect(text.toLowerCase().includes(v.toLowerCase()), `${format} carries an IOC value`).toBe(false);
          }
        }
        // The IOC values are not in the vocabulary: written into an outward string, they would be refused.
        for (const v of values) expect(vocab.ruleBroken(`contact ${v} today`), v).toBeDefined();
      }),
      // Each run records, approves and exports a whole store through the CLI: a few runs, no shrinking.
      { numRuns: 3, endOnFailure: true },
    );
  }, 600_000);

  it("names the path and the rule, never the string", () => {
    const vocab = OutwardVocabulary.of(syntheticPack(), ["alice"]);
    expect(vocab.unlisted({ detector: { tier: "WATCH", families: ["ACCOUNT"] } }, "candidate")).toBeUndefined();
    expect(vocab.unlisted({ origin_answer: "call zqsecretdesk now" }, "candidate")).toEqual({ path: "candidate.origin_answer", rule: "word" });
    expect(vocab.unlisted({ note: "call zqsecretdesk now" }, "line", ["call zqsecretdesk now"])).toBeUndefined();
    expect(vocab.unlisted({ score: 919876543210 }, "candidate")).toEqual({ path: "candidate.score", rule: "number" });
    expect(vocab.ruleBroken("tier: WATCH ☎")).toBe("symbol");
    expect(vocab.ruleBroken("reviewed by alice at 2026-11-28T20:00:00Z, record #3")).toBeUndefined();
  });
});
