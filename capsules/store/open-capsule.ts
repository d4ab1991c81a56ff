/**
 * Opening one sealed capsule file: read it, authenticate it under its own name with the store key, and open the
 * plaintext through the pipeline (capsules/pipeline/open.ts, proof `identity`): a capsule whose declared and
 * recomputed `content_sha256` both equal the id it is stored under. Needs the store key only, so a reader that never writes (a feed worker thread) can open
 * capsules without being handed the installation's signing key.
 */
import { join } from "node:path";
import { readRegularFile, SafeReadError } from "../../src/crypto/safe-read.js";
import { SEAL_OVERHEAD, SealKind, unseal, type StoreKey } from "../../src/crypto/seal.js";
import { CAPSULE_MAX_BYTES } from "../capsule/limits.js";
import { openCapsuleBytes, type LoadedCapsule } from "../pipeline/open.js";
import { StoreError } from "./errors.js";
import { CAPSULE_ID, capsuleLabel, SEALED_SUFFIX, storeLayout } from "./layout.js";
import { errno } from "../../src/errno.js";

/** A stored capsule as opened: the pipeline's loaded value (exact file bytes, envelope, id). */
export type OpenedCapsule = LoadedCapsule;

/** What deriving from the store needs of it. */
export interface CapsuleOpener {
  openCapsule(id: string): OpenedCapsule;
}

/** Throws {@link StoreError} `invalid-id` unless `id` is 64 lowercase hexadecimal digits. */
export function checkCapsuleId(id: string, what = "capsule id"): void {
  if (typeof id !== "string" || !CAPSULE_ID.test(id)) throw new StoreError("invalid-id", `${what} must be 64 lowercase hexadecimal digits`);
}

/** Opens the sealed capsule `id` in the capsules directory `dir`; throws {@link StoreError} or the seal's error. */
export function openSealedCapsule(dir: string, key: StoreKey, id: string): OpenedCapsule {
  return openCapsuleBytes(readSealedCapsule(dir, key, id), `sealed capsule ${capsuleLabel(id)}`, id);
}

/**
 * The authenticated plaintext of the sealed capsule `id`, not parsed (a caller that only compares bytes with a value
 * it already holds, such as a put finding the id taken). Throws {@link StoreError} or the seal's error.
 */
export function readSealedCapsule(dir: string, key: StoreKey, id: string): Uint8Array {
  checkCapsuleId(id);
  const label = capsuleLabel(id);
  let file: Uint8Array;
  try {
    file = readRegularFile(join(dir, `${id}${SEALED_SUFFIX}`), { maxBytes: CAPSULE_MAX_BYTES + SEAL_OVERHEAD, label });
  } catch (e) {
    if (e instanceof SafeReadError && e.code === "missing") throw new StoreError("not-found", `no capsule ${id} in the store`);
    throw new StoreError("integrity", e instanceof SafeReadError ? e.message : `${label} cannot be read: ${errno(e) ?? (e as Error).message}`);
  }
  return unseal(file, key, SealKind.capsule, label);
}

/** A read-only opener of the capsules of the store in `home`, holding the store key only. */
export function capsuleOpener(home: string, key: StoreKey): CapsuleOpener {
  const dir = storeLayout(home).capsules;
  return { openCapsule: (id) => openSealedCapsule(dir, key, id) };
}
