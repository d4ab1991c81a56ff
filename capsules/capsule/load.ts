/**
 * Capsule file loading (capsule-v1 §3.7): at most 32 MiB + 1 bytes are read, the bytes are strictly parsed, and
 * the top level must be an object. Failures are load errors (the CLI exits 2), not reports.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { JsonLoadError, parseStrictJson } from "../../src/json/parse.js";
import type { JsonObject } from "../../src/json/value.js";
import { fsErrorDetail } from "./fs-detail.js";
import { CAPSULE_MAX_BYTES } from "./limits.js";

export class CapsuleLoadError extends Error {
  override readonly name = "CapsuleLoadError";
}

const CHUNK = 1 << 20;

/** Reads a capsule file; throws {@link CapsuleLoadError} with the §3.7 message. */
export function loadCapsuleFile(path: string): JsonObject {
  return loadCapsuleBytes(readCapsuleBytes(path));
}

/**
 * Reads a capsule file's bytes: at most CAPSULE_MAX_BYTES + 1 bytes (files, pipes and devices alike); more, or a
 * read error, throws {@link CapsuleLoadError}.
 */
export function readCapsuleBytes(path: string): Uint8Array {
  const chunks: Buffer[] = [];
  let total = 0;
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    throw new CapsuleLoadError(`capsule cannot be read: ${fsErrorDetail(e)}`);
  }
  try {
    while (total <= CAPSULE_MAX_BYTES) {
      const buf = Buffer.allocUnsafe(Math.min(CHUNK, CAPSULE_MAX_BYTES + 1 - total));
      const n = readSync(fd, buf, 0, buf.length, null);
      if (n === 0) break;
      chunks.push(buf.subarray(0, n));
      total += n;
    }
  } catch (e) {
    throw new CapsuleLoadError(`capsule cannot be read: ${fsErrorDetail(e)}`);
  } finally {
    closeSync(fd);
  }
  if (total > CAPSULE_MAX_BYTES) throw new CapsuleLoadError("capsule exceeds the v1 byte limit");
  return Buffer.concat(chunks, total);
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
