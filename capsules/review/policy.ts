/**
 * The review policy (four-eyes): how many distinct reviewer keys must approve the same candidate digest before
 * `review export` releases it. Kept in the store as `<home>/store/review-policy.json`:
 *
 *     {"approvals":2,"schema_version":"evidence-bridge-review-policy/v1","signature":"<128 hex>"}
 *
 * canonical JSON + LF, 0600, replaced atomically. The signature is the installation's Ed25519 signing key over
 * `"evidence-bridge review policy v1\0"` + the canonical bytes without `signature`, so the file cannot be edited
 * (say, lowered to 1) without the store's keys; a file that does not verify, has other members or another version
 * is an error, never read as the default. No file means the default, 1 approval.
 *
 * Limit: whoever can write the data directory can delete the file (back to 1); `review policy` prints the policy in
 * force so it can be checked.
 */
import { join } from "node:path";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { bytesToHex, hexToBytes } from "../../src/hash.js";
import { isJsonObject } from "../../src/json/value.js";
import { ensurePrivateDir, replaceFile } from "../../src/crypto/safe-write.js";
import { readRegularFileIfExists, SafeReadError } from "../../src/crypto/safe-read.js";
import { verifySignature } from "../../src/crypto/sign.js";
import type { SealedStore } from "../store/store.js";
import { ReviewError } from "./errors.js";

export const REVIEW_POLICY_SCHEMA = "evidence-bridge-review-policy/v1";
export const POLICY_NAME = "review-policy.json";
/** Largest number of approvals a policy may require. */
export const MAX_APPROVALS = 9;
const POLICY_DOMAIN = new TextEncoder().encode("evidence-bridge review policy v1\u0000");
const POLICY_MAX_BYTES = 4096;

export interface ReviewPolicy {
  /** Distinct reviewer keys that must approve the same candidate digest (1 … {@link MAX_APPROVALS}). */
  approvals: number;
}

export const DEFAULT_POLICY: ReviewPolicy = Object.freeze({ approvals: 1 });

/** The problem with a required-approvals value, or undefined. */
export function approvalsProblem(n: unknown): string | undefined {
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 1 && n <= MAX_APPROVALS ? undefined : `expected an integer from 1 to ${MAX_APPROVALS}`;
}

function signedBytes(approvals: number): Uint8Array {
  const body = canonicalBytes({ approvals, schema_version: REVIEW_POLICY_SCHEMA }, "policy");
  const out = new Uint8Array(POLICY_DOMAIN.length + body.length);
  out.set(POLICY_DOMAIN);
  out.set(body, POLICY_DOMAIN.length);
  return out;
}

export function policyPath(store: SealedStore): string {
  return join(store.layout.root, POLICY_NAME);
}

/** The policy in force: the signed file, or {@link DEFAULT_POLICY} when there is none. Throws ReviewError `policy`. */
export function readReviewPolicy(store: SealedStore): ReviewPolicy {
  const path = policyPath(store);
  const bad = (rule: string) => new ReviewError("policy", `the review policy ${path} ${rule}; set it again with 'evidence-bridge review policy --approvals N'`);
  let bytes: Uint8Array | undefined;
  try {
    bytes = readRegularFileIfExists(path, { maxBytes: POLICY_MAX_BYTES, label: path });
  } catch (e) {
    if (e instanceof SafeReadError && e.code === "too-large") throw bad(`exceeds ${POLICY_MAX_BYTES} bytes`);
    if (e instanceof SafeReadError) throw new ReviewError("policy", `cannot read the review policy: ${e.message}`);
    throw e;
  }
  if (bytes === undefined) return DEFAULT_POLICY;
  let v;
  try {
    v = parseStrictJson(bytes);
  } catch {
    throw bad("is not strict JSON");
  }
  if (!isJsonObject(v) || [...v.keys()].sort().join(",") !== "approvals,schema_version,signature") {
    throw bad("must have exactly the members approvals, schema_version, signature");
  }
  if (v.get("schema_version") !== REVIEW_POLICY_SCHEMA) throw bad(`schema_version: expected ${REVIEW_POLICY_SCHEMA}`);
  const approvals = v.get("approvals");
  const ap = approvalsProblem(approvals);
  if (ap !== undefined) throw bad(`approvals: ${ap}`);
  const sig = v.get("signature");
  if (typeof sig !== "string" || !/^[0-9a-f]{128}$/.test(sig)) throw bad("signature: expected 128 lowercase hexadecimal digits");
  if (!verifySignature(store.keys.signing.publicKey, signedBytes(approvals as number), hexToBytes(sig))) {
    throw bad("signature: does not verify with this installation's signing key (the file was edited or comes from another store)");
  }
  return { approvals: approvals as number };
}

/** Writes a signed policy (atomic replace). */
export function writeReviewPolicy(store: SealedStore, policy: ReviewPolicy): void {
  const ap = approvalsProblem(policy.approvals);
  if (ap !== undefined) throw new ReviewError("policy", `--approvals: ${ap}`);
  const signature = bytesToHex(store.keys.signing.sign(signedBytes(policy.approvals)));
  const body = canonicalBytes({ approvals: policy.approvals, schema_version: REVIEW_POLICY_SCHEMA, signature }, "policy");
  try {
    ensurePrivateDir(store.layout.root);
    replaceFile(store.layout.root, POLICY_NAME, new Uint8Array([...body, 0x0a]));
  } catch (e) {
    throw new ReviewError("io", `cannot write the review policy ${policyPath(store)}: ${(e as Error).message}`);
  }
}
