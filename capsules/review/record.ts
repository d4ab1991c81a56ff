/**
 * One review decision record (product.md §8; issue 28 item 3), signed with the reviewer's key. Two versions:
 *
 * v2 (every record written now):
 *
 *     {"candidate_sha256":…,"capsule_sha256":…,"decided_at":"2026-08-20T12:34:56Z","decision":"APPROVED_FOR_RELEASE",
 *      "prev_sha256":…,"private_note_sha256":…|null,"public_note":…|null,"reason":"corroborated",
 *      "reviewer":{"fingerprint":"ed25519:…","name":…,"public_key":…},
 *      "schema_version":"evidence-bridge-review-record/v2","seq":1,"signature":…,"typology_match_visible":false}
 *
 * - `reason` is one code of a closed list (text-rules.ts);
 * - `private_note_sha256` is the salted digest of the sealed private note (private-notes.ts): the note itself is
 *   sealed in the store, the log holds only this commitment, which reveals nothing about it; null without a note;
 * - `public_note` is the only free text that leaves with an export (leak-guarded before it is recorded); null
 *   without one;
 * - the signature is Ed25519 over `"evidence-bridge review record v2\0"` + the canonical bytes of the record
 *   without `signature`.
 *
 * v1 (written before; still read and verified, never written): `note` instead of the three members above, a note
 * that was leak-guarded and always travelled with the export, so it is read as the record's public note; no reason;
 * domain `"evidence-bridge review record v1\0"`; reviewer names under the older rule (`A-Z a-z 0-9 . _ -`).
 *
 * For both: `seq` counts from 1; `prev_sha256` is the record digest of record `seq - 1` (64 zeros for the first);
 * the record digest is SHA-256 of the canonical bytes (palimpsest-json-sorted-utf8-v1) of the whole record;
 * `typology_match_visible` is the candidate view that was reviewed; a record is stored and exported as its canonical
 * bytes, any other serialisation is refused. Parsing is closed: unknown or missing members, other versions and
 * malformed values are errors naming the path. A log may hold v1 records followed by v2 records (one chain).
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { bytesToHex, hexToBytes, sha256Hex } from "../../src/hash.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { signingKeyFingerprint, verifySignature, type SigningKey } from "../../src/crypto/sign.js";
import { isDecision, type Decision } from "./decisions.js";
import { isReviewReason, noteProblem, reasonProblem, recordedNameProblem, type ReviewReason } from "./text-rules.js";

/** The version every new record is written in. */
export const REVIEW_RECORD_SCHEMA = "evidence-bridge-review-record/v2";
/** Records written before reason codes and sealed notes: read and verified, never written. */
export const REVIEW_RECORD_SCHEMA_V1 = "evidence-bridge-review-record/v1";
/** `prev_sha256` of the first record. */
export const GENESIS_PREV = "0".repeat(64);
/** Domain separation: a record signature can never be mistaken for another signed object of this project. */
export const SIGNING_DOMAIN = "evidence-bridge review record v2\u0000";
export const SIGNING_DOMAIN_V1 = "evidence-bridge review record v1\u0000";

export interface ReviewerIdentity {
  name: string;
  /** `ed25519:` + SHA-256 hex of the raw public key. */
  fingerprint: string;
  /** Raw Ed25519 public key, 64 lowercase hex digits. */
  public_key: string;
}

interface CommonFields {
  seq: number;
  prev_sha256: string;
  capsule_sha256: string;
  candidate_sha256: string;
  typology_match_visible: boolean;
  decision: Decision;
  reviewer: ReviewerIdentity;
  /** UTC, whole seconds: `YYYY-MM-DDTHH:MM:SSZ` (the local clock of the reviewer's machine). */
  decided_at: string;
}

export interface UnsignedRecordV2 extends CommonFields {
  schema_version: typeof REVIEW_RECORD_SCHEMA;
  reason: ReviewReason;
  /** Salted SHA-256 of the sealed private note (private-notes.ts), or null. */
  private_note_sha256: string | null;
  /** The note that leaves with the export (leak-guarded when recorded), or null. */
  public_note: string | null;
}

export interface UnsignedRecordV1 extends CommonFields {
  schema_version: typeof REVIEW_RECORD_SCHEMA_V1;
  /** A v1 note: leak-guarded and exported, so read as the public note. */
  note: string;
}

export type UnsignedRecord = UnsignedRecordV2 | UnsignedRecordV1;
export type ReviewRecordV2 = UnsignedRecordV2 & { signature: string };
export type ReviewRecordV1 = UnsignedRecordV1 & { signature: string };
/** A signed record of either version. */
export type ReviewRecord = ReviewRecordV2 | ReviewRecordV1;

/** The note of a record that leaves with an export: v2 `public_note`, v1 `note`; undefined when there is none. */
export function publicNoteOf(r: UnsignedRecord): string | undefined {
  return r.schema_version === REVIEW_RECORD_SCHEMA_V1 ? r.note : (r.public_note ?? undefined);
}

/** The reason code of a record (v1 records have none). */
export function reasonOf(r: UnsignedRecord): ReviewReason | undefined {
  return r.schema_version === REVIEW_RECORD_SCHEMA_V1 ? undefined : r.reason;
}

/** The salted digest of the record's sealed private note (v1 records have none). */
export function privateNoteDigestOf(r: UnsignedRecord): string | undefined {
  return r.schema_version === REVIEW_RECORD_SCHEMA_V1 ? undefined : (r.private_note_sha256 ?? undefined);
}

/** A record that does not have the v1 or v2 shape; `path` names the member (`record.reviewer.name`). */
export class RecordShapeError extends Error {
  override readonly name = "RecordShapeError";
  constructor(
    readonly path: string,
    readonly rule: string,
  ) {
    super(`${path}: ${rule}`);
  }
}

const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;
const FINGERPRINT = /^ed25519:[0-9a-f]{64}$/;
const DECIDED_AT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/;
const COMMON_MEMBERS = ["candidate_sha256", "capsule_sha256", "decided_at", "decision", "prev_sha256", "reviewer", "schema_version", "seq", "signature", "typology_match_visible"];
const V1_MEMBERS = [...COMMON_MEMBERS, "note"];
const V2_MEMBERS = [...COMMON_MEMBERS, "private_note_sha256", "public_note", "reason"];
const REVIEWER_MEMBERS = ["fingerprint", "name", "public_key"];
const encoder = new TextEncoder();

/** `decided_at` for a moment: UTC, whole seconds. */
export function decisionTime(now: Date): string {
  return now.toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** True for a real UTC date-time in whole seconds (`YYYY-MM-DDTHH:MM:SSZ`). */
export function isDecisionTime(s: string): boolean {
  const m = DECIDED_AT.exec(s);
  if (!m) return false;
  const [y, mo, d, h, mi, se] = m.slice(1).map(Number);
  const t = new Date(Date.UTC(y, mo - 1, d, h, mi, se));
  return y >= 1970 && t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d && h <= 23 && mi <= 59 && se <= 59;
}

function signingMessage(r: UnsignedRecord): Uint8Array {
  const body = canonicalBytes(unsignedPart(r), "record");
  const domain = encoder.encode(r.schema_version === REVIEW_RECORD_SCHEMA_V1 ? SIGNING_DOMAIN_V1 : SIGNING_DOMAIN);
  const out = new Uint8Array(domain.length + body.length);
  out.set(domain);
  out.set(body, domain.length);
  return out;
}

function unsignedPart(r: UnsignedRecord): UnsignedRecord {
  const common: CommonFields = {
    seq: r.seq,
    prev_sha256: r.prev_sha256,
    capsule_sha256: r.capsule_sha256,
    candidate_sha256: r.candidate_sha256,
    typology_match_visible: r.typology_match_visible,
    decision: r.decision,
    reviewer: { name: r.reviewer.name, fingerprint: r.reviewer.fingerprint, public_key: r.reviewer.public_key },
    decided_at: r.decided_at,
  };
  if (r.schema_version === REVIEW_RECORD_SCHEMA_V1) return { schema_version: REVIEW_RECORD_SCHEMA_V1, ...common, note: r.note };
  return { schema_version: REVIEW_RECORD_SCHEMA, ...common, reason: r.reason, private_note_sha256: r.private_note_sha256, public_note: r.public_note };
}

/** Signs a v2 record with the reviewer's key (whose identity must be the record's reviewer). v1 is never written. */
export function signRecord(r: UnsignedRecord, key: SigningKey): ReviewRecordV2 {
  if (r.schema_version !== REVIEW_RECORD_SCHEMA) throw new Error("signRecord: only v2 records are written");
  if (r.reviewer.public_key !== bytesToHex(key.publicKey) || r.reviewer.fingerprint !== key.fingerprint) {
    throw new Error("signRecord: the record names another reviewer key");
  }
  return { ...(unsignedPart(r) as UnsignedRecordV2), signature: bytesToHex(key.sign(signingMessage(r))) };
}

/**
 * Signs a v1 record: only for tests that build logs from before v2 (old logs must keep verifying). Nothing in the
 * commands calls it.
 */
export function signLegacyRecordForTests(r: UnsignedRecordV1, key: SigningKey): ReviewRecordV1 {
  return { ...(unsignedPart(r) as UnsignedRecordV1), signature: bytesToHex(key.sign(signingMessage(r))) };
}

/** The canonical bytes of a record (what the log and exports hold, without the newline). */
export function recordBytes(r: ReviewRecord): Uint8Array {
  return canonicalBytes({ ...unsignedPart(r), signature: r.signature }, "record");
}

/** The record digest that the next record's `prev_sha256` names. */
export function recordDigest(r: ReviewRecord): string {
  return sha256Hex(recordBytes(r));
}

/** Undefined when the fingerprint belongs to the public key and the signature verifies; else the problem. */
export function signatureProblem(r: ReviewRecord): string | undefined {
  return reviewerSignatureProblem(r.reviewer, signingMessage(r), r.signature);
}

/**
 * The one check of a record a reviewer signed (a decision here, a release in capsules/release/): undefined when
 * `reviewer.fingerprint` belongs to `reviewer.public_key` and `signature` verifies over `message`; else the problem.
 */
export function reviewerSignatureProblem(reviewer: Pick<ReviewerIdentity, "public_key" | "fingerprint">, message: Uint8Array, signature: string): string | undefined {
  const pub = hexToBytes(reviewer.public_key);
  if (signingKeyFingerprint(pub) !== reviewer.fingerprint) return "reviewer.fingerprint does not belong to reviewer.public_key";
  if (!verifySignature(pub, message, hexToBytes(signature))) {
    return "the signature does not verify with reviewer.public_key (the record was modified after signing, or signed with another key)";
  }
  return undefined;
}

/**
 * The closed-object reading that signed records share (review records here, release records in capsules/release):
 * exactly the named members, and strings matching a pattern; problems are thrown as `fail` makes them, naming the
 * path and the rule. `noun` names the records in the unknown-member rule.
 */
export function closedRecordReader(fail: (path: string, rule: string) => Error, noun: string) {
  return {
    members(o: JsonObject, names: readonly string[], path: string): void {
      for (const k of o.keys()) if (!names.includes(k)) throw fail(path, `unknown member (${noun} are closed objects)`);
      for (const k of names) if (!o.has(k)) throw fail(`${path}.${k}`, "missing member");
    },
    str(o: JsonObject, key: string, path: string, re: RegExp, what: string): string {
      const v = o.get(key);
      if (typeof v !== "string" || !re.test(v)) throw fail(`${path}.${key}`, `expected ${what}`);
      return v;
    },
  };
}

const { members, str } = closedRecordReader((path, rule) => new RecordShapeError(path, rule), "records");

/** Reads a v1 or v2 record from the strict JSON value model; throws {@link RecordShapeError}. */
export function recordFromJson(value: JsonValue, path = "record"): ReviewRecord {
  if (!isJsonObject(value)) throw new RecordShapeError(path, "expected an object");
  const schema = value.get("schema_version");
  if (schema !== REVIEW_RECORD_SCHEMA && schema !== REVIEW_RECORD_SCHEMA_V1) {
    const other = typeof schema === "string" && /^evidence-bridge-review-record\/v\d{1,4}$/.test(schema);
    throw new RecordShapeError(`${path}.schema_version`, other ? "unsupported record version" : `expected "${REVIEW_RECORD_SCHEMA}" (or "${REVIEW_RECORD_SCHEMA_V1}")`);
  }
  const v1 = schema === REVIEW_RECORD_SCHEMA_V1;
  members(value, v1 ? V1_MEMBERS : V2_MEMBERS, path);
  const seq = value.get("seq");
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) throw new RecordShapeError(`${path}.seq`, "expected an integer >= 1");
  const prev = str(value, "prev_sha256", path, HEX64, "64 lowercase hexadecimal digits");
  const capsule = str(value, "capsule_sha256", path, HEX64, "64 lowercase hexadecimal digits");
  const candidate = str(value, "candidate_sha256", path, HEX64, "64 lowercase hexadecimal digits");
  const visible = value.get("typology_match_visible");
  if (typeof visible !== "boolean") throw new RecordShapeError(`${path}.typology_match_visible`, "expected true or false");
  const decision = value.get("decision");
  if (!isDecision(decision)) throw new RecordShapeError(`${path}.decision`, "expected APPROVED_FOR_RELEASE, REJECTED or NEEDS_MORE_EVIDENCE");
  const reviewer = value.get("reviewer");
  if (!isJsonObject(reviewer)) throw new RecordShapeError(`${path}.reviewer`, "expected an object");
  members(reviewer, REVIEWER_MEMBERS, `${path}.reviewer`);
  const name = reviewer.get("name");
  const nameProblem = recordedNameProblem(name, v1);
  if (nameProblem !== undefined) throw new RecordShapeError(`${path}.reviewer.name`, nameProblem);
  const fingerprint = str(reviewer, "fingerprint", `${path}.reviewer`, FINGERPRINT, "ed25519: and 64 lowercase hexadecimal digits");
  const publicKey = str(reviewer, "public_key", `${path}.reviewer`, HEX64, "64 lowercase hexadecimal digits");
  const decidedAt = value.get("decided_at");
  if (typeof decidedAt !== "string" || !isDecisionTime(decidedAt)) {
    throw new RecordShapeError(`${path}.decided_at`, "expected a UTC time in whole seconds, YYYY-MM-DDTHH:MM:SSZ");
  }
  const signature = str(value, "signature", path, HEX128, "128 lowercase hexadecimal digits");
  const common = {
    seq,
    prev_sha256: prev,
    capsule_sha256: capsule,
    candidate_sha256: candidate,
    typology_match_visible: visible,
    decision,
    reviewer: { name: name as string, fingerprint, public_key: publicKey },
    decided_at: decidedAt,
    signature,
  };
  if (v1) {
    const note = value.get("note");
    const np = noteProblem(note);
    if (np !== undefined) throw new RecordShapeError(`${path}.note`, np);
    return { schema_version: REVIEW_RECORD_SCHEMA_V1, ...common, note: note as string };
  }
  const reason = value.get("reason");
  if (!isReviewReason(reason)) throw new RecordShapeError(`${path}.reason`, reasonProblem(reason)!);
  const privateDigest = value.get("private_note_sha256");
  if (privateDigest !== null && (typeof privateDigest !== "string" || !HEX64.test(privateDigest))) {
    throw new RecordShapeError(`${path}.private_note_sha256`, "expected null or 64 lowercase hexadecimal digits");
  }
  const publicNote = value.get("public_note");
  if (publicNote !== null) {
    const np = noteProblem(publicNote);
    if (np !== undefined) throw new RecordShapeError(`${path}.public_note`, `expected null or a note: ${np}`);
  }
  return {
    schema_version: REVIEW_RECORD_SCHEMA,
    ...common,
    reason,
    private_note_sha256: privateDigest as string | null,
    public_note: publicNote as string | null,
  };
}

/**
 * Reads one serialised record (a log or export line without its newline): strict JSON, the v1 or v2 shape, and
 * the canonical serialisation (so its digest is well defined). Throws {@link RecordShapeError}.
 */
export function recordFromBytes(bytes: Uint8Array, path = "record"): ReviewRecord {
  let value: JsonValue;
  try {
    value = parseStrictJson(bytes, { rootPath: path });
  } catch (e) {
    throw new RecordShapeError(path, `not strict JSON (${(e as { rule?: string }).rule ?? "syntax"})`);
  }
  const record = recordFromJson(value, path);
  if (!sameBytes(recordBytes(record), bytes)) throw new RecordShapeError(path, "not in canonical form (the line was edited or re-serialised)");
  return record;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
