/**
 * One review decision record (product.md §8): the candidate digest, the capsule id, the decision, the note, the
 * reviewer's name and Ed25519 key (fingerprint and public key), the time, and the previous record's digest, signed
 * with the reviewer's key.
 *
 *     {"candidate_sha256":…,"capsule_sha256":…,"decided_at":"2026-08-20T12:34:56Z","decision":"APPROVED_FOR_RELEASE",
 *      "note":…,"prev_sha256":…,"reviewer":{"fingerprint":"ed25519:…","name":…,"public_key":…},
 *      "schema_version":"evidence-bridge-review-record/v1","seq":1,"signature":…,"typology_match_visible":false}
 *
 * - `seq` counts from 1; `prev_sha256` is the record digest of record `seq - 1` (64 zeros for the first);
 * - the signature is Ed25519 over `SIGNING_DOMAIN` + the canonical bytes (palimpsest-json-sorted-utf8-v1) of the
 *   record without `signature`; the record digest is SHA-256 of the canonical bytes of the whole record;
 * - `typology_match_visible` is the candidate view that was reviewed (it changes the candidate bytes);
 * - a record is stored and exported as its canonical bytes; any other serialisation is refused.
 *
 * Parsing is closed: unknown or missing members, other versions and malformed values are errors naming the path.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { bytesToHex, hexToBytes, sha256Hex } from "../../src/hash.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { signingKeyFingerprint, verifySignature, type SigningKey } from "../../src/crypto/sign.js";
import { isDecision, type Decision } from "./decisions.js";
import { noteProblem, reviewerNameProblem } from "./text-rules.js";

export const REVIEW_RECORD_SCHEMA = "evidence-bridge-review-record/v1";
/** `prev_sha256` of the first record. */
export const GENESIS_PREV = "0".repeat(64);
/** Domain separation: a record signature can never be mistaken for another signed object of this project. */
export const SIGNING_DOMAIN = "evidence-bridge review record v1\u0000";

export interface ReviewerIdentity {
  name: string;
  /** `ed25519:` + SHA-256 hex of the raw public key. */
  fingerprint: string;
  /** Raw Ed25519 public key, 64 lowercase hex digits. */
  public_key: string;
}

export interface UnsignedRecord {
  schema_version: typeof REVIEW_RECORD_SCHEMA;
  seq: number;
  prev_sha256: string;
  capsule_sha256: string;
  candidate_sha256: string;
  typology_match_visible: boolean;
  decision: Decision;
  note: string;
  reviewer: ReviewerIdentity;
  /** UTC, whole seconds: `YYYY-MM-DDTHH:MM:SSZ` (the local clock of the reviewer's machine). */
  decided_at: string;
}

export interface ReviewRecord extends UnsignedRecord {
  /** Ed25519 signature, 128 lowercase hex digits. */
  signature: string;
}

/** A record that does not have the v1 shape; `path` names the member (`record.reviewer.name`). */
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
const RECORD_MEMBERS = [
  "candidate_sha256",
  "capsule_sha256",
  "decided_at",
  "decision",
  "note",
  "prev_sha256",
  "reviewer",
  "schema_version",
  "seq",
  "signature",
  "typology_match_visible",
];
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
  const domain = encoder.encode(SIGNING_DOMAIN);
  const out = new Uint8Array(domain.length + body.length);
  out.set(domain);
  out.set(body, domain.length);
  return out;
}

function unsignedPart(r: UnsignedRecord | ReviewRecord): UnsignedRecord {
  return {
    schema_version: r.schema_version,
    seq: r.seq,
    prev_sha256: r.prev_sha256,
    capsule_sha256: r.capsule_sha256,
    candidate_sha256: r.candidate_sha256,
    typology_match_visible: r.typology_match_visible,
    decision: r.decision,
    note: r.note,
    reviewer: { name: r.reviewer.name, fingerprint: r.reviewer.fingerprint, public_key: r.reviewer.public_key },
    decided_at: r.decided_at,
  };
}

/** Signs a record with the reviewer's key (whose identity must be the record's reviewer). */
export function signRecord(r: UnsignedRecord, key: SigningKey): ReviewRecord {
  if (r.reviewer.public_key !== bytesToHex(key.publicKey) || r.reviewer.fingerprint !== key.fingerprint) {
    throw new Error("signRecord: the record names another reviewer key");
  }
  return { ...unsignedPart(r), signature: bytesToHex(key.sign(signingMessage(r))) };
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
  const pub = hexToBytes(r.reviewer.public_key);
  if (signingKeyFingerprint(pub) !== r.reviewer.fingerprint) return "reviewer.fingerprint does not belong to reviewer.public_key";
  if (!verifySignature(pub, signingMessage(r), hexToBytes(r.signature))) {
    return "the signature does not verify with reviewer.public_key (the record was modified after signing, or signed with another key)";
  }
  return undefined;
}

function members(o: JsonObject, names: readonly string[], path: string): void {
  for (const k of o.keys()) if (!names.includes(k)) throw new RecordShapeError(path, "unknown member (records are closed objects)");
  for (const k of names) if (!o.has(k)) throw new RecordShapeError(`${path}.${k}`, "missing member");
}

function str(o: JsonObject, key: string, path: string, re: RegExp, what: string): string {
  const v = o.get(key);
  if (typeof v !== "string" || !re.test(v)) throw new RecordShapeError(`${path}.${key}`, `expected ${what}`);
  return v;
}

/** Reads a record from the strict JSON value model; throws {@link RecordShapeError}. */
export function recordFromJson(value: JsonValue, path = "record"): ReviewRecord {
  if (!isJsonObject(value)) throw new RecordShapeError(path, "expected an object");
  members(value, RECORD_MEMBERS, path);
  const schema = value.get("schema_version");
  if (schema !== REVIEW_RECORD_SCHEMA) {
    const other = typeof schema === "string" && /^evidence-bridge-review-record\/v\d{1,4}$/.test(schema);
    throw new RecordShapeError(`${path}.schema_version`, other ? "unsupported record version" : `expected "${REVIEW_RECORD_SCHEMA}"`);
  }
  const seq = value.get("seq");
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) throw new RecordShapeError(`${path}.seq`, "expected an integer >= 1");
  const prev = str(value, "prev_sha256", path, HEX64, "64 lowercase hexadecimal digits");
  const capsule = str(value, "capsule_sha256", path, HEX64, "64 lowercase hexadecimal digits");
  const candidate = str(value, "candidate_sha256", path, HEX64, "64 lowercase hexadecimal digits");
  const visible = value.get("typology_match_visible");
  if (typeof visible !== "boolean") throw new RecordShapeError(`${path}.typology_match_visible`, "expected true or false");
  const decision = value.get("decision");
  if (!isDecision(decision)) throw new RecordShapeError(`${path}.decision`, "expected APPROVED_FOR_RELEASE, REJECTED or NEEDS_MORE_EVIDENCE");
  const note = value.get("note");
  const np = noteProblem(note);
  if (np !== undefined) throw new RecordShapeError(`${path}.note`, np);
  const reviewer = value.get("reviewer");
  if (!isJsonObject(reviewer)) throw new RecordShapeError(`${path}.reviewer`, "expected an object");
  members(reviewer, REVIEWER_MEMBERS, `${path}.reviewer`);
  const name = reviewer.get("name");
  const nameProblem = reviewerNameProblem(name);
  if (nameProblem !== undefined) throw new RecordShapeError(`${path}.reviewer.name`, nameProblem);
  const fingerprint = str(reviewer, "fingerprint", `${path}.reviewer`, FINGERPRINT, "ed25519: and 64 lowercase hexadecimal digits");
  const publicKey = str(reviewer, "public_key", `${path}.reviewer`, HEX64, "64 lowercase hexadecimal digits");
  const decidedAt = value.get("decided_at");
  if (typeof decidedAt !== "string" || !isDecisionTime(decidedAt)) {
    throw new RecordShapeError(`${path}.decided_at`, "expected a UTC time in whole seconds, YYYY-MM-DDTHH:MM:SSZ");
  }
  const signature = str(value, "signature", path, HEX128, "128 lowercase hexadecimal digits");
  return {
    schema_version: REVIEW_RECORD_SCHEMA,
    seq,
    prev_sha256: prev,
    capsule_sha256: capsule,
    candidate_sha256: candidate,
    typology_match_visible: visible,
    decision,
    note: note as string,
    reviewer: { name: name as string, fingerprint, public_key: publicKey },
    decided_at: decidedAt,
    signature,
  };
}

/**
 * Reads one serialised record (a log or export line without its newline): strict JSON, the v1 shape, and the
 * canonical serialisation (so its digest is well defined). Throws {@link RecordShapeError}.
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
