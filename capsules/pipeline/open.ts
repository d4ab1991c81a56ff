/**
 * Pipeline stage 3, open (docs/pipeline.md): capsule bytes from outside this process's own build (a sealed store
 * file, a capsule file, MCP text) → one {@link LoadedCapsule}. This is the trust boundary: the bytes are strictly
 * parsed once and checked once, then the value carries the proof and nothing parses or checks them again.
 *
 * Two proofs, named in {@link LoadedCapsule.proof}:
 * - `identity` ({@link openCapsuleBytes}): the bytes parse strictly as a capsule envelope, and both the declared
 *   `content_sha256` and the SHA-256 of the canonical content equal the id (what every opening of a sealed store
 *   file checks: the store's own writes were verified before they were sealed, and the seal authenticates them);
 * - `verified` ({@link openVerifiedCapsule}): the full Evidence Capsule v1 verifier said ok (capsule-v1 §8): what
 *   `capsule import`, `capsule verify` and MCP text need, since those bytes were never verified here.
 */
import { CanonicalError, canonicalBytes } from "../../src/json/canonical.js";
import { sha256Hex } from "../../src/hash.js";
import { isJsonObject, type JsonObject } from "../../src/json/value.js";
import { CapsuleLoadError, loadCapsuleBytes, readCapsuleBytes } from "../capsule/load.js";
import type { VerificationReport } from "../capsule/report.js";
import { verifyCapsule, type VerifyOptions } from "../capsule/verify.js";
import { StoreError } from "../store/errors.js";

/** Only this module holds it, so only the openers here can make a {@link LoadedCapsule}. */
const MINT: unique symbol = Symbol("loaded-capsule");

/** A capsule loaded from bytes and checked once. Immutable; made only by this module's openers. */
export class LoadedCapsule {
  /** The exact capsule file bytes. */
  readonly bytes: Uint8Array;
  /** The envelope the strict loader parsed from {@link bytes}. */
  readonly envelope: JsonObject;
  /** `content_sha256`, declared and recomputed. */
  readonly id: string;
  readonly proof: "identity" | "verified";
  /** The verifier's (ok) report, for proof `verified`. */
  readonly report: VerificationReport | undefined;

  constructor(mint: typeof MINT, bytes: Uint8Array, envelope: JsonObject, id: string, report: VerificationReport | undefined) {
    if (mint !== MINT) throw new TypeError("a LoadedCapsule is made only by capsules/pipeline/open.ts");
    this.bytes = bytes;
    this.envelope = envelope;
    this.id = id;
    this.proof = report === undefined ? "identity" : "verified";
    this.report = report;
    Object.freeze(this);
  }
}

/**
 * The identity check (proof `identity`): parses capsule file bytes and checks that the declared and recomputed
 * `content_sha256` agree, and equal `expectedId` when given. Throws {@link StoreError} `mismatch` naming `label`.
 */
export function openCapsuleBytes(bytes: Uint8Array, label: string, expectedId?: string): LoadedCapsule {
  let envelope: JsonObject;
  try {
    envelope = loadCapsuleBytes(bytes);
  } catch (e) {
    if (e instanceof CapsuleLoadError) throw new StoreError("mismatch", `${label} is not a capsule file: ${e.message}`);
    throw e;
  }
  const content = envelope.get("content");
  if (!isJsonObject(content)) throw new StoreError("mismatch", `${label} is not a capsule file: capsule.content: expected object`);
  let recomputed: string;
  try {
    recomputed = sha256Hex(canonicalBytes(content));
  } catch (e) {
    if (e instanceof CanonicalError) throw new StoreError("mismatch", `${label} has no canonical content: ${e.message}`);
    throw e;
  }
  const id = expectedId ?? recomputed;
  if (recomputed !== id) throw new StoreError("mismatch", `${label}: recomputed content_sha256 ${recomputed} does not equal the capsule id ${id}`);
  if (envelope.get("content_sha256") !== id) throw new StoreError("mismatch", `${label}: declared content_sha256 does not equal the capsule id ${id}`);
  return new LoadedCapsule(MINT, bytes, envelope, id, undefined);
}

/**
 * Loads capsule bytes (capsule-v1 §3.7; a load failure throws {@link CapsuleLoadError}) and runs the full verifier
 * once. Returns the report, and the loaded capsule (proof `verified`) only when the report is ok.
 */
export function openVerifiedCapsule(bytes: Uint8Array, opts: VerifyOptions = {}): { report: VerificationReport; capsule: LoadedCapsule | undefined } {
  const envelope = loadCapsuleBytes(bytes);
  const report = verifyCapsule(envelope, opts);
  const id = envelope.get("content_sha256");
  if (!report.ok || typeof id !== "string") return { report, capsule: undefined };
  return { report, capsule: new LoadedCapsule(MINT, bytes, envelope, id, report) };
}

/** {@link openVerifiedCapsule} of a capsule file (read bounded; an unreadable file throws {@link CapsuleLoadError}). */
export function openVerifiedCapsuleFile(path: string, opts: VerifyOptions = {}): { report: VerificationReport; capsule: LoadedCapsule | undefined } {
  return openVerifiedCapsule(readCapsuleBytes(path), opts);
}
