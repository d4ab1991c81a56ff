/**
 * The identity check of a stored capsule: the file bytes parse strictly as a capsule envelope, and both its
 * declared `content_sha256` and the SHA-256 of the canonical content equal the id the file is stored under.
 * Run before sealing and after every opening.
 */
import { CanonicalError, canonicalBytes } from "../../src/json/canonical.js";
import { sha256Hex } from "../../src/hash.js";
import { isJsonObject, type JsonObject } from "../../src/json/value.js";
import { CapsuleLoadError, loadCapsuleBytes } from "../capsule/load.js";
import { StoreError } from "./errors.js";

/** Parses capsule file bytes and recomputes the content hash; throws {@link StoreError} (`mismatch`). */
export function capsuleIdentity(bytes: Uint8Array, label: string): { envelope: JsonObject; declared: unknown; recomputed: string } {
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
  return { envelope, declared: envelope.get("content_sha256"), recomputed };
}

/** Checks that `bytes` are a capsule whose declared and recomputed `content_sha256` both equal `id`. */
export function checkCapsuleBytes(bytes: Uint8Array, id: string, label: string): JsonObject {
  const { envelope, declared, recomputed } = capsuleIdentity(bytes, label);
  if (recomputed !== id) {
    throw new StoreError("mismatch", `${label}: recomputed content_sha256 ${recomputed} does not equal the capsule id ${id}`);
  }
  if (declared !== id) throw new StoreError("mismatch", `${label}: declared content_sha256 does not equal the capsule id ${id}`);
  return envelope;
}
