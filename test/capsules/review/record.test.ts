/** Review records: signing, canonical bytes, the closed v2 shape (and v1, still read) with precise errors, signature checks. */
import { describe, expect, test } from "vitest";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { bytesToHex } from "../../../src/hash.js";
import { generateSigningSeed, signingKeyFromSeed } from "../../../src/crypto/sign.js";
import {
  GENESIS_PREV,
  isDecisionTime,
  recordBytes,
  recordDigest,
  recordFromBytes,
  REVIEW_RECORD_SCHEMA,
  REVIEW_RECORD_SCHEMA_V1,
  publicNoteOf,
  reasonOf,
  signatureProblem,
  signLegacyRecordForTests,
  signRecord,
  type UnsignedRecordV1,
  type ReviewRecord,
  type UnsignedRecord,
} from "../../../capsules/review/record.js";
import { noteProblem, normalizedReviewerName, reasonProblem, REVIEW_REASONS, reviewerNameProblem } from "../../../capsules/review/text-rules.js";
import { sha256Hex } from "../../../src/hash.js";

const key = signingKeyFromSeed(generateSigningSeed());
const other = signingKeyFromSeed(generateSigningSeed());

function unsigned(over: Partial<UnsignedRecord> = {}): UnsignedRecord {
  return {
    schema_version: REVIEW_RECORD_SCHEMA,
    seq: 1,
    prev_sha256: GENESIS_PREV,
    capsule_sha256: sha256Hex("capsule"),
    candidate_sha256: sha256Hex("candidate"),
    typology_match_visible: false,
    decision: "APPROVED_FOR_RELEASE",
    reason: "corroborated",
    private_note_sha256: sha256Hex("a sealed note's salted digest"),
    public_note: "looks right",
    reviewer: { name: "alice", fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey) },
    decided_at: "2026-09-01T10:00:00Z",
    ...over,
  } as UnsignedRecord;
}

function unsignedV1(): UnsignedRecordV1 {
  return {
    schema_version: REVIEW_RECORD_SCHEMA_V1,
    seq: 1,
    prev_sha256: GENESIS_PREV,
    capsule_sha256: sha256Hex("capsule"),
    candidate_sha256: sha256Hex("candidate"),
    typology_match_visible: false,
    decision: "APPROVED_FOR_RELEASE",
    note: "looks right",
    reviewer: { name: "alice_1", fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey) },
    decided_at: "2026-09-01T10:00:00Z",
  };
}

const enc = (v: unknown) => canonicalBytes(v, "record");

function mutate(r: ReviewRecord, f: (o: Record<string, unknown>) => void): Uint8Array {
  const o = JSON.parse(new TextDecoder().decode(recordBytes(r))) as Record<string, unknown>;
  f(o);
  return enc(o);
}

describe("review records", () => {
  test("a signed record round-trips through its canonical bytes and verifies", () => {
    const r = signRecord(unsigned(), key);
    expect(r.signature).toMatch(/^[0-9a-f]{128}$/);
    const bytes = recordBytes(r);
    expect(recordFromBytes(bytes)).toEqual(r);
    expect(signatureProblem(r)).toBeUndefined();
    expect(recordDigest(r)).toBe(sha256Hex(bytes));
  });

  test("signing refuses a record naming another key", () => {
    expect(() => signRecord(unsigned(), other)).toThrow(/names another reviewer key/);
  });

  test.each<[string, Partial<ReviewRecord>]>([
    ["decision", { decision: "REJECTED" }],
    ["public note", { public_note: "looks wrong" }],
    ["private note digest", { private_note_sha256: sha256Hex("another note") }],
    ["reason", { reason: "policy" }],
    ["candidate", { candidate_sha256: sha256Hex("other") }],
    ["capsule", { capsule_sha256: sha256Hex("other") }],
    ["view", { typology_match_visible: true }],
    ["time", { decided_at: "2026-09-01T10:00:01Z" }],
    ["chain link", { prev_sha256: sha256Hex("x") }],
    ["sequence", { seq: 2 }],
    ["name", { reviewer: { name: "mallory", fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey) } }],
  ])("changing the %s after signing breaks the signature", (_what, change) => {
    const r = { ...signRecord(unsigned(), key), ...change } as ReviewRecord;
    expect(signatureProblem(r)).toMatch(/^the signature does not verify/);
  });

  test("a record re-signed under another public key with the old fingerprint is refused", () => {
    const forged = signRecord(unsigned({ reviewer: { name: "alice", fingerprint: other.fingerprint, public_key: bytesToHex(other.publicKey) } }), other);
    expect(signatureProblem({ ...forged, reviewer: { ...forged.reviewer, fingerprint: key.fingerprint } } as ReviewRecord)).toBe(
      "reviewer.fingerprint does not belong to reviewer.public_key",
    );
  });

  const good = signRecord(unsigned(), key);
  test.each<[string, (o: Record<string, unknown>) => void, string]>([
    ["an unknown member", (o) => (o.extra = 1), "record: unknown member (records are closed objects)"],
    ["a missing member", (o) => delete o.public_note, "record.public_note: missing member"],
    ["a v1 note in a v2 record", (o) => (o.note = "x"), "record: unknown member (records are closed objects)"],
    ["another version", (o) => (o.schema_version = "evidence-bridge-review-record/v3"), "record.schema_version: unsupported record version"],
    ["an unknown reason", (o) => (o.reason = "gut-feeling"), "record.reason: expected one of corroborated, duplicate, insufficient-evidence, out-of-scope, false-positive, policy"],
    ["a private note in clear", (o) => (o.private_note_sha256 = "the note itself"), "record.private_note_sha256: expected null or 64 lowercase hexadecimal digits"],
    ["an unknown decision", (o) => (o.decision = "MAYBE"), "record.decision: expected APPROVED_FOR_RELEASE, REJECTED or NEEDS_MORE_EVIDENCE"],
    ["seq 0", (o) => (o.seq = 0), "record.seq: expected an integer >= 1"],
    ["an uppercase digest", (o) => (o.candidate_sha256 = (o.candidate_sha256 as string).toUpperCase()), "record.candidate_sha256: expected 64 lowercase hexadecimal digits"],
    ["a public note with a control character", (o) => (o.public_note = "a\u0007b"), "record.public_note: expected null or a note: contains U+0007 (control, format, bidi and line-break characters are not allowed)"],
    ["a blank public note", (o) => (o.public_note = "  "), "record.public_note: expected null or a note: must not be empty or blank"],
    ["fractional seconds", (o) => (o.decided_at = "2026-09-01T10:00:00.5Z"), "record.decided_at: expected a UTC time in whole seconds, YYYY-MM-DDTHH:MM:SSZ"],
    ["a reviewer name with digits", (o) => ((o.reviewer as Record<string, unknown>).name = "alice2"), "record.reviewer.name: contains a character other than letters"],
    ["a reviewer name with an at sign", (o) => ((o.reviewer as Record<string, unknown>).name = "alice@example"), "record.reviewer.name: contains a character other than letters"],
    ["an unknown reviewer member", (o) => ((o.reviewer as Record<string, unknown>).email = "x"), "record.reviewer: unknown member (records are closed objects)"],
    ["a short signature", (o) => (o.signature = "ab"), "record.signature: expected 128 lowercase hexadecimal digits"],
    ["an array", () => undefined, ""],
  ])("%s is refused with the path and the rule", (label, f, message) => {
    if (label === "an array") {
      expect(() => recordFromBytes(enc([1]))).toThrow("record: expected an object");
      return;
    }
    expect(() => recordFromBytes(mutate(good, f))).toThrow(message);
  });

  test("a non-canonical serialisation of a valid record is refused", () => {
    const pretty = new TextEncoder().encode(JSON.stringify(JSON.parse(new TextDecoder().decode(recordBytes(good))), null, 1));
    expect(() => recordFromBytes(pretty)).toThrow("record: not in canonical form (the line was edited or re-serialised)");
    expect(() => recordFromBytes(new TextEncoder().encode("{"))).toThrow("record: not strict JSON (syntax)");
  });

  test("a record without notes carries nulls, and v2 records are read as written", () => {
    const bare = signRecord(unsigned({ private_note_sha256: null, public_note: null, reason: "duplicate", decision: "REJECTED" } as Partial<UnsignedRecord>), key);
    const back = recordFromBytes(recordBytes(bare));
    expect(back).toEqual(bare);
    expect([publicNoteOf(back), reasonOf(back)]).toEqual([undefined, "duplicate"]);
    expect(new TextDecoder().decode(recordBytes(bare))).toContain('"private_note_sha256":null,"public_note":null,"reason":"duplicate"');
  });

  test("v1 records (old logs) keep reading and verifying: their note is the public note, they have no reason, older names pass", () => {
    const old = signLegacyRecordForTests(unsignedV1(), key);
    const back = recordFromBytes(recordBytes(old));
    expect(back).toEqual(old);
    expect(signatureProblem(back)).toBeUndefined();
    expect([publicNoteOf(back), reasonOf(back)]).toEqual(["looks right", undefined]);
    expect(signatureProblem({ ...old, note: "changed" })).toMatch(/^the signature does not verify/);
    expect(() => signRecord(unsignedV1(), key)).toThrow(/only v2 records are written/);
    // v1 members only: a reason in a v1 record is an unknown member.
    expect(() => recordFromBytes(mutate(old, (o) => (o.reason = "policy")))).toThrow("record: unknown member");
    // A v2 record may not use a name of the older rule.
    const v2 = signRecord(unsigned({ reviewer: { name: "alice_1", fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey) } }), key);
    expect(() => recordFromBytes(recordBytes(v2))).toThrow("record.reviewer.name: contains a character other than letters");
  });

  test("reasons: a closed list", () => {
    expect(REVIEW_REASONS).toEqual(["corroborated", "duplicate", "insufficient-evidence", "out-of-scope", "false-positive", "policy"]);
    for (const r of REVIEW_REASONS) expect(reasonProblem(r)).toBeUndefined();
    for (const bad of ["Corroborated", "other", "", 1, undefined]) expect(reasonProblem(bad)).toMatch(/^expected one of corroborated, /);
  });

  test("reviewer names are names: letters, combining marks, spaces, . ' - (issue 28 item 4)", () => {
    for (const good of ["alice", "Anne-Marie O'Neil", "J. R. R. Tolkien", "Zo\u00eb", "\u0410\u043d\u0430 \u041f\u0435\u0442\u0440\u043e\u0432\u0430", "\u674e\u5c0f\u9f8d", "\u0905\u0928\u0941\u0930\u093e\u0927\u093e", "Nguy\u1ec5n Th\u1ecb Minh", "a".repeat(64)]) {
      expect([good, reviewerNameProblem(good)]).toEqual([good, undefined]);
    }
    // A combining mark after a letter is a name; NFD input is normalised by keys init, refused as typed elsewhere.
    expect(reviewerNameProblem("Zoe\u0308")).toMatch(/normalization form C/);
    expect(reviewerNameProblem(normalizedReviewerName("Zoe\u0308"))).toBeUndefined();
    for (const bad of [
      "",
      "alice2",
      "bob@example.org",
      "a/b",
      "../x",
      "x:y",
      "alice_b",
      "+91 98765 01234",
      "a".repeat(65),
      " alice",
      "alice ",
      "al  ice",
      "-alice",
      "'alice",
      "\u0308alice",
      "alice\u200b",
      "alice\u202e",
      "al\tice",
      "Ali\u0665ce",
      "alice\ud800",
    ]) {
      expect([bad, reviewerNameProblem(bad)]).toEqual([bad, expect.any(String)]);
    }
  });

  test("notes: precise rules", () => {
    expect(noteProblem("fine, with ünïcödé and 中文")).toBeUndefined();
    expect(noteProblem("line\nbreak")).toMatch(/U\+000A/);
    expect(noteProblem("bidi \u202e override")).toMatch(/U\+202E/);
    expect(noteProblem("zero\u200bwidth")).toMatch(/U\+200B/);
    expect(noteProblem("\ud800")).toBe("contains a lone Unicode surrogate");
    expect(noteProblem("x".repeat(1001))).toBe("has 1001 characters; at most 1000 are allowed");
    expect(noteProblem("x".repeat(1000))).toBeUndefined();
    expect(isDecisionTime("2026-02-29T00:00:00Z")).toBe(false);
    expect(isDecisionTime("2028-02-29T23:59:59Z")).toBe(true);
  });
});
