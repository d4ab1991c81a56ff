/**
 * Issue 28 item 5: the guard knows every message, in every process. A message text leaves a sealed fingerprint
 * (keyed hashes of its shingles) in the store; outward text sharing a shingle with it is refused by a later
 * process's guard (the MCP store guard, a one-shot command's store guard); neither the text nor an unkeyed hash of
 * it is written; ordinary review sentences are not refused.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { messageShingles, MessageFingerprints, outwardShingles, WORD_SHINGLE } from "../../../capsules/guard/message-shingles.js";
import { StoreGuard, storeGuardFor } from "../../../capsules/guard/store-guard.js";
import { recordMessageFingerprint, storeFingerprints } from "../../../capsules/store/message-fingerprints.js";
import { openOrCreateStore, openStore } from "../../../capsules/store/store.js";
import { allFiles } from "../store/synthetic.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
});
function home(): string {
  const h = mkdtempSync(join(tmpdir(), "eb-fp-"));
  homes.push(h);
  return h;
}

const MESSAGE =
  "Earn daily from home! Rent your zqvault savings account to our team, commission per transfer paid every evening. " +
  "Message the desk before Friday.";
const ZH = "出租银行账户，每笔转账佣金当天结算。联系我们的客服。";

/** Ordinary review sentences: none shares a shingle with an ordinary scam message. */
const REVIEW_SENTENCES = [
  "checked against the pack's cited sources",
  "Corroborated by two independent sources; approved for release.",
  "duplicate of an earlier lead, rejected",
  "insufficient evidence: the message alone does not establish the typology",
  "out of scope for this team",
  "False positive: a legitimate savings offer.",
  "Needs a second reviewer before it leaves.",
  "已核对来源，批准发布。",
];

describe("shingles", () => {
  it(`are runs of ${WORD_SHINGLE} folded words (and 6 characters of scripts without spaces), found inside other text`, () => {
    const shingles = new Set(messageShingles(MESSAGE));
    expect(shingles.has("w\u0000rent your zqvault savings account")).toBe(true);
    const fp = new MessageFingerprints();
    fp.addText(MESSAGE);
    expect(fp.holdsShingleOf("status: RENT your ZQVAULT, savings-account now")).toBe(true);
    expect(fp.holdsShingleOf("rent your zqvault account")).toBe(false);
    fp.addText(ZH);
    expect(fp.holdsShingleOf("请看：每笔转账佣金当天")).toBe(true);
    expect(fp.holdsShingleOf("每笔转账")).toBe(false);
  });

  it("keep a short text (a judgement's source) as one shingle, found as a run of words inside a sentence", () => {
    const fp = new MessageFingerprints();
    fp.addText("zq-desk-broker channel");
    expect(fp.holdsShingleOf("ask the ZQ desk broker channel today")).toBe(true);
    expect(fp.holdsShingleOf("ask the zq desk")).toBe(false);
    // Too short to be distinctive: no shingle.
    fp.addText("hi");
    expect(fp.holdsShingleOf("hi there")).toBe(false);
  });

  it("ordinary review sentences are not refused", () => {
    const fp = new MessageFingerprints();
    for (const m of [MESSAGE, ZH, "Rent your bank account to us, commission per transfer. Contact the desk today please."]) fp.addText(m);
    for (const s of REVIEW_SENTENCES) expect(fp.holdsShingleOf(s), s).toBe(false);
  });

  it("any 5 consecutive words of a message, however cased and punctuated, are found", () => {
    const word = fc.stringMatching(/^[a-z]{3,9}$/);
    fc.assert(
      fc.property(fc.array(word, { minLength: 6, maxLength: 30 }), fc.nat(), fc.constantFrom(" ", ", ", " - ", "\n", "  "), (words, at, sep) => {
        const fp = new MessageFingerprints();
        fp.addText(words.join(" "));
        const i = at % (words.length - WORD_SHINGLE + 1);
        const quoted = words.slice(i, i + WORD_SHINGLE).map((w) => w.toUpperCase()).join(sep);
        expect(fp.holdsShingleOf(`status: ${quoted}!`)).toBe(true);
        expect(outwardShingles(quoted).length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });
});

describe("sealed fingerprints in the store", () => {
  it("are written once per text, hold neither the text nor unkeyed hashes, and refuse in a later process", async () => {
    const h = home();
    const store = await openOrCreateStore({ home: h, passphrase: undefined });
    recordMessageFingerprint(store, MESSAGE);
    recordMessageFingerprint(store, MESSAGE);
    recordMessageFingerprint(store, ZH);
    const files = readdirSync(store.layout.fingerprints);
    expect(files).toHaveLength(2);
    // No plaintext, and no unkeyed hash of the text or of a shingle, in any file of the data directory.
    const needles = [
      "zqvault",
      "Rent your",
      "每笔转账",
      createHash("sha256").update(MESSAGE).digest("hex"),
      ...messageShingles(MESSAGE).map((s) => createHash("sha256").update(s).digest("hex").slice(0, 12)),
    ];
    for (const f of allFiles(h)) {
      const bytes = readFileSync(f);
      for (const n of needles) {
        expect(bytes.includes(Buffer.from(n)), `${f} holds a plaintext needle`).toBe(false);
        if (/^[0-9a-f]+$/.test(n)) expect(bytes.includes(Buffer.from(n, "hex")), `${f} holds an unkeyed hash`).toBe(false);
      }
    }

    // A later process: its store guard (MCP) and a one-shot command's guard both refuse a quote.
    const later = await openStore({ home: h, passphrase: undefined });
    const egress = new StoreGuard();
    egress.refreshFrom(later);
    const v = egress.guard.checkCall({ status: "please: commission per transfer paid every evening" }, undefined, undefined);
    expect(v.ok).toBe(false);
    if (!v.ok) expect(v.reason).toBe("leak guard: message_text in arguments.status");
    expect(egress.guard.checkCall({ name: "account_rental_offer" }, undefined, undefined).ok).toBe(true);
    const note = "the desk said: rent your zqvault savings account";
    expect(storeGuardFor(later, undefined, note).check(note, "the note").ok).toBe(false);
    for (const s of REVIEW_SENTENCES) expect(storeGuardFor(later, undefined, s).check(s, "the note").ok, s).toBe(true);
    expect(storeFingerprints(later).holdsShingleOf("每笔转账佣金当天结算")).toBe(true);
  });

  it("a text given to a process before its store could be written is guarded in memory, then sealed at the next refresh", async () => {
    const egress = new StoreGuard();
    egress.rememberText(MESSAGE);
    expect(egress.guard.check("rent your zqvault savings account", "the note").ok).toBe(false);
    const h = home();
    const store = await openOrCreateStore({ home: h, passphrase: undefined });
    expect(existsSync(store.layout.fingerprints)).toBe(false);
    egress.refreshFrom(store);
    expect(readdirSync(store.layout.fingerprints)).toHaveLength(1);
    expect(storeFingerprints(await openStore({ home: h, passphrase: undefined })).holdsShingleOf("Rent your zqvault savings account")).toBe(true);
  });

  it("a damaged fingerprint file makes the guard refuse to read the store (fail closed)", async () => {
    const h = home();
    const store = await openOrCreateStore({ home: h, passphrase: undefined });
    recordMessageFingerprint(store, MESSAGE);
    const [file] = readdirSync(store.layout.fingerprints);
    const path = join(store.layout.fingerprints, file);
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(path, bytes);
    expect(() => storeFingerprints(store)).toThrow(/failed authentication/);
  });
});
