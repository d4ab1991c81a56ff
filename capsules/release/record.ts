/**
 * One signed release record (issue 32 item 2): a reviewer's statement that one IOC value of an approved candidate may
 * leave the store. It binds the value to the candidate digest without carrying it:
 *
 *     {"candidate_sha256":…,"capsule_sha256":…,"commitment":"<64 hex>","decided_at":"2026-11-28T20:00:00Z",
 *      "index":0,"kind":"wallets","reason":"corroborated","reviewer":{"fingerprint":…,"name":…,"public_key":…},
 *      "schema_version":"evidence-bridge-release-record/v1","signature":"<128 hex>"}
 *
 * - `commitment` = SHA-256(`"evidence-bridge release commitment v1\0"` ‖ nonce ‖ kind ‖ 0x00 ‖ value), lowercase hex,
 *   where the nonce is 32 random bytes kept sealed in the store (register.ts) until the value is released. Without
 *   the nonce the commitment is a hash of 256 unknown bits and the value: it reveals nothing about a pending value
 *   (it is not an unkeyed hash a reader could test guesses against). An export that releases the value carries the
 *   value and the nonce, so its recipient recomputes the commitment and checks every signature.
 * - the signature is Ed25519 over `"evidence-bridge release record v1\0"` + the canonical bytes
 *   (palimpsest-json-sorted-utf8-v1) of the record without `signature`, by the key the record names;
 * - `index` is the value's position among the capsule's values of `kind` (the assessment's `detector.iocs`, the
 *   values the candidate's `ioc_counts` count), `reason` a code of the review reason list.
 *
 * Parsing is closed: unknown or missing members, another version and malformed values are errors naming the member.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { bytesToHex, hexToBytes, sha256Hex } from "../../src/hash.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import type { SigningKey } from "../../src/crypto/sign.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { closedRecordReader, isDecisionTime, reviewerSignatureProblem, type ReviewerIdentity } from "../review/record.js";
import { isReviewReason, recordedNameProblem, REVIEW_REASONS, type ReviewReason } from "../review/text-rules.js";

export const RELEASE_RECORD_SCHEMA = "evidence-bridge-release-record/v1";
const SIGNING_DOMAIN = "evidence-bridge release record v1\u0000";
const COMMITMENT_DOMAIN = "evidence-bridge release commitment v1\u0000";
/** Largest index accepted (the candidate caps counts at 10,000). */
export const MAX_INDEX = 9999;

export interface UnsignedRelease {
  schema_version: typeof RELEASE_RECORD_SCHEMA;
  capsule_sha256: string;
  candidate_sha256: string;
  kind: IocKind;
  index: number;
  commitment: string;
  reason: ReviewReason;
  reviewer: ReviewerIdentity;
  decided_at: string;
}

export interface ReleaseRecord extends UnsignedRelease {
  signature: string;
}

export class ReleaseShapeError extends Error {
  override readonly name = "ReleaseShapeError";
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
const MEMBERS = ["candidate_sha256", "capsule_sha256", "commitment", "decided_at", "index", "kind", "reason", "reviewer", "schema_version", "signature"];
const REVIEWER_MEMBERS = ["fingerprint", "name", "public_key"];
const encoder = new TextEncoder();

/** The commitment to `value` of `kind` under `nonceHex` (64 hex digits). */
export function releaseCommitment(nonceHex: string, kind: IocKind, value: string): string {
  if (!HEX64.test(nonceHex)) throw new Error("releaseCommitment: the nonce is 64 lowercase hex digits");
  return sha256Hex(Buffer.concat([encoder.encode(COMMITMENT_DOMAIN), hexToBytes(nonceHex), encoder.encode(kind), Uint8Array.of(0), encoder.encode(value)]));
}

function unsignedPart(r: UnsignedRelease): UnsignedRelease {
  return {
    schema_version: r.schema_version,
    capsule_sha256: r.capsule_sha256,
    candidate_sha256: r.candidate_sha256,
    kind: r.kind,
    index: r.index,
    commitment: r.commitment,
    reason: r.reason,
    reviewer: { name: r.reviewer.name, fingerprint: r.reviewer.fingerprint, public_key: r.reviewer.public_key },
    decided_at: r.decided_at,
  };
}

function signingMessage(r: UnsignedRelease): Uint8Array {
  return Buffer.concat([encoder.encode(SIGNING_DOMAIN), canonicalBytes(unsignedPart(r), "release")]);
}

export function signRelease(r: UnsignedRelease, key: SigningKey): ReleaseRecord {
  if (r.reviewer.public_key !== bytesToHex(key.publicKey) || r.reviewer.fingerprint !== key.fingerprint) throw new Error("signRelease: the record names another reviewer key");
  return { ...unsignedPart(r), signature: bytesToHex(key.sign(signingMessage(r))) };
}

/** The canonical bytes of a record (one line of the register and of an export's release line). */
export function releaseBytes(r: ReleaseRecord): Uint8Array {
  return canonicalBytes({ ...unsignedPart(r), signature: r.signature }, "release");
}

/** Undefined when the fingerprint belongs to the key and the signature verifies; else the problem. */
export function releaseSignatureProblem(r: ReleaseRecord): string | undefined {
  return reviewerSignatureProblem(r.reviewer, signingMessage(r), r.signature);
}

const { members: closed, str } = closedRecordReader((path, rule) => new ReleaseShapeError(path, rule), "release records");

/** Reads a record from the strict JSON value model; throws {@link ReleaseShapeError}. */
export function releaseFromJson(v: JsonValue, path = "release"): ReleaseRecord {
  if (!isJsonObject(v)) throw new ReleaseShapeError(path, "expected an object");
  closed(v, MEMBERS, path);
  if (v.get("schema_version") !== RELEASE_RECORD_SCHEMA) throw new ReleaseShapeError(`${path}.schema_version`, `expected "${RELEASE_RECORD_SCHEMA}"`);
  const capsule = str(v, "capsule_sha256", path, HEX64, "64 lowercase hexadecimal digits");
  const candidate = str(v, "candidate_sha256", path, HEX64, "64 lowercase hexadecimal digits");
  const kind = v.get("kind");
  if (typeof kind !== "string" || !(IOC_KINDS as readonly string[]).includes(kind)) throw new ReleaseShapeError(`${path}.kind`, `expected one of ${IOC_KINDS.join(", ")}`);
  const index = v.get("index");
  if (typeof index !== "number" || !Number.isSafeInteger(index) || index < 0 || index > MAX_INDEX) throw new ReleaseShapeError(`${path}.index`, `expected an integer from 0 to ${MAX_INDEX}`);
  const commitment = str(v, "commitment", path, HEX64, "64 lowercase hexadecimal digits");
  const reason = v.get("reason");
  if (!isReviewReason(reason)) throw new ReleaseShapeError(`${path}.reason`, `expected one of ${REVIEW_REASONS.join(", ")}`);
  const reviewer = v.get("reviewer");
  if (!isJsonObject(reviewer)) throw new ReleaseShapeError(`${path}.reviewer`, "expected an object");
  closed(reviewer, REVIEWER_MEMBERS, `${path}.reviewer`);
  const name = reviewer.get("name");
  // A key registered under a name from before the name rule (v1) may still release.
  const np = recordedNameProblem(name, true);
  if (np !== undefined) throw new ReleaseShapeError(`${path}.reviewer.name`, np);
  const fingerprint = str(reviewer, "fingerprint", `${path}.reviewer`, FINGERPRINT, "ed25519: and 64 lowercase hexadecimal digits");
  const publicKey = str(reviewer, "public_key", `${path}.reviewer`, HEX64, "64 lowercase hexadecimal digits");
  const decidedAt = v.get("decided_at");
  if (typeof decidedAt !== "string" || !isDecisionTime(decidedAt)) throw new ReleaseShapeError(`${path}.decided_at`, "expected a UTC time in whole seconds, YYYY-MM-DDTHH:MM:SSZ");
  const signature = str(v, "signature", path, HEX128, "128 lowercase hexadecimal digits");
  return {
    schema_version: RELEASE_RECORD_SCHEMA,
    capsule_sha256: capsule,
    candidate_sha256: candidate,
    kind: kind as IocKind,
    index,
    commitment,
    reason,
    reviewer: { name: name as string, fingerprint, public_key: publicKey },
    decided_at: decidedAt,
    signature,
  };
}

/** Reads one serialised record: strict JSON, the v1 shape, canonical form. Throws {@link ReleaseShapeError}. */
export function releaseFromBytes(bytes: Uint8Array, path = "release"): ReleaseRecord {
  let v: JsonValue;
  try {
    v = parseStrictJson(bytes, { rootPath: path });
  } catch (e) {
    throw new ReleaseShapeError(path, `not strict JSON (${(e as { rule?: string }).rule ?? "syntax"})`);
  }
  const r = releaseFromJson(v, path);
  if (!Buffer.from(releaseBytes(r)).equals(Buffer.from(bytes))) throw new ReleaseShapeError(path, "not in canonical form (the line was edited or re-serialised)");
  return r;
}
