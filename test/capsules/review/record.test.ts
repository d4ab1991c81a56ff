/** Review records: signing, canonical bytes, the closed v1 shape with precise errors, signature checks. */
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
  signatureProblem,
  signRecord,
  type ReviewRecord,
  type UnsignedRecord,
} from "../../../capsules/review/record.js";
import { noteProblem, reviewerNameProblem } from "../../../capsules/review/text-rules.js";
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
    note: "looks right",
    reviewer: { name: "alice", fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey) },
    decided_at: "2026-09-01T10:00:00Z",
    ...over,
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
    ["note", { note: "looks wrong" }],
    ["candidate", { candidate_sha256: sha256Hex("other") }],
    ["capsule", { capsule_sha256: sha256Hex("other") }],
    ["view", { typology_match_visible: true }],
    ["time", { decided_at: "2026-09-01T10:00:01Z" }],
    ["chain link", { prev_sha256: sha256Hex("x") }],
    ["sequence", { seq: 2 }],
    ["name", { reviewer: { name: "mallory", fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey) } }],
  ])("changing the %s after signing breaks the signature", (_what, change) => {
    const r = { ...signRecord(unsigned(), key), ...change };
    expect(signatureProblem(r)).toMatch(/^the signature does not verify/);
  });

  test("a record re-signed under another public key with the old fingerprint is refused", () => {
    const forged = signRecord(unsigned({ reviewer: { name: "alice", fingerprint: other.fingerprint, public_key: bytesToHex(other.publicKey) } }), other);
    expect(signatureProblem({ ...forged, reviewer: { ...forged.reviewer, fingerprint: key.fingerprint } })).toBe(
      "reviewer.fingerprint does not belong to reviewer.public_key",
    );
  });

  const good = signRecord(unsigned(), key);
  test.each<[string, (o: Record<string, unknown>) => void, string]>([
    ["an unknown member", (o) => (o.extra = 1), "record: unknown member (records are closed objects)"],
    ["a missing member", (o) => delete o.note, "record.note: missing member"],
    ["another version", (o) => (o.schema_version = "evidence-bridge-review-record/v2"), "record.schema_version: unsupported record version"],
    ["an unknown decision", (o) => (o.decision = "MAYBE"), "record.decision: expected APPROVED_FOR_RELEASE, REJECTED or NEEDS_MORE_EVIDENCE"],
    ["seq 0", (o) => (o.seq = 0), "record.seq: expected an integer >= 1"],
    ["an uppercase digest", (o) => (o.candidate_sha256 = (o.candidate_sha256 as string).toUpperCase()), "record.candidate_sha256: expected 64 lowercase hexadecimal digits"],
    ["a note with a control character", (o) => (o.note = "a\u0007b"), "record.note: contains U+0007 (control, format, bidi and line-break characters are not allowed)"],
    ["a blank note", (o) => (o.note = "  "), "record.note: must not be empty or blank"],
    ["fractional seconds", (o) => (o.decided_at = "2026-09-01T10:00:00.5Z"), "record.decided_at: expected a UTC time in whole seconds, YYYY-MM-DDTHH:MM:SSZ"],
    ["a bad reviewer name", (o) => ((o.reviewer as Record<string, unknown>).name = "al ice"), "record.reviewer.name: expected 1 to 64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit"],
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

  test("notes and names: precise rules", () => {
    expect(noteProblem("fine, with ünïcödé and 中文")).toBeUndefined();
    expect(noteProblem("line\nbreak")).toMatch(/U\+000A/);
    expect(noteProblem("bidi \u202e override")).toMatch(/U\+202E/);
    expect(noteProblem("zero\u200bwidth")).toMatch(/U\+200B/);
    expect(noteProblem("\ud800")).toBe("contains a lone Unicode surrogate");
    expect(noteProblem("x".repeat(1001))).toBe("has 1001 characters; at most 1000 are allowed");
    expect(noteProblem("x".repeat(1000))).toBeUndefined();
    expect(reviewerNameProblem("alice.b-c_1")).toBeUndefined();
    for (const bad of ["", ".alice", "../x", "a/b", "a".repeat(65), "ali ce"]) expect(reviewerNameProblem(bad)).toBeDefined();
    expect(isDecisionTime("2026-02-29T00:00:00Z")).toBe(false);
    expect(isDecisionTime("2028-02-29T23:59:59Z")).toBe(true);
  });
});
