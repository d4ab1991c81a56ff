/**
 * Capsule file loading (capsule-v1 §3.7): a regular file of at most 32 MiB is read, the bytes are strictly parsed, and
 * the top level must be an object. Failures are load errors (the CLI exits 2), not reports.
 */
import { readRegularFile, SafeReadError } from "../../src/crypto/safe-read.js";
import { JsonLoadError, parseStrictJson } from "../../src/json/parse.js";
import type { JsonObject } from "../../src/json/value.js";
import { fsErrorDetail } from "./fs-detail.js";
import { CAPSULE_MAX_BYTES } from "./limits.js";

export class CapsuleLoadError extends Error {
  override readonly name = "CapsuleLoadError";
}

/** Reads a capsule file; throws {@link CapsuleLoadError} with the §3.7 message. */
export function loadCapsuleFile(path: string): JsonObject {
  return loadCapsuleBytes(readCapsuleBytes(path));
}

/**
 * Reads a capsule file's bytes through the safe reader (src/crypto/safe-read.ts): a regular file only (a link, FIFO,
 * device or directory is refused at open, naming what it is), larger than CAPSULE_MAX_BYTES refused from its size
 * before a byte is read. Throws {@link CapsuleLoadError}.
 */
export function readCapsuleBytes(path: string): Uint8Array {
  try {
    return readRegularFile(path, { maxBytes: CAPSULE_MAX_BYTES, label: "it" });
  } catch (e) {
    if (e instanceof SafeReadError && e.code === "too-large") throw new CapsuleLoadError("capsule exceeds the v1 byte limit");
    if (e instanceof SafeReadError) throw new CapsuleLoadError(`capsule cannot be read: ${e.message}`);
    throw new CapsuleLoadError(`capsule cannot be read: ${fsErrorDetail(e)}`);
  }
}

/** Parses capsule bytes; throws {@link CapsuleLoadError} with the §3.7 (or §3.1–3.5 loader) message. */
export function loadCapsuleBytes(bytes: Uint8Array): JsonObject {
  if (bytes.length > CAPSULE_MAX_BYTES) throw new CapsuleLoadError("capsule exceeds the v1 byte limit");
  let value;
  try {
    value = parseStrictJson(bytes);
  } catch (e) {
    if (e instanceof JsonLoadError) throw new CapsuleLoadError(e.message);
    throw e;
  }
  if (!(value instanceof Map)) throw new CapsuleLoadError("capsule envelope must be a JSON object");
  return value;
}
