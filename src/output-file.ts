/**
 * The one way the bridge writes a file a user names (`capsule export --out`, `review export --out`, `tokens export
 * --out`, the `--outbox` capsule file): a new regular file, mode 0600, created atomically (a synced temporary file
 * in the same directory, hard-linked into place, never replacing anything), so a reader never sees half a file and
 * nothing half-written is left behind. A target that exists is never written through: a symbolic link, FIFO,
 * socket, device or directory there is one immediate error naming the path and what it is; an existing regular file
 * with exactly these bytes is accepted ("unchanged", so a re-run is idempotent), any other is refused. The existing
 * file is compared through the safe reader (no link followed, no FIFO waited on, never more than the new length + 1
 * bytes read).
 */
import { closeSync, lstatSync } from "node:fs";
import { basename, dirname } from "node:path";
import { errno } from "./errno.js";
import { fileKind, openRegularFile, readUpTo, SafeReadError } from "./crypto/safe-read.js";
import { createFileExclusive } from "./crypto/safe-write.js";

/** `not-regular`: something other than a regular file is at the path; `different`: a file with other bytes is. */
export type OutputFileCode = "not-regular" | "different" | "io";

export class OutputFileError extends Error {
  override readonly name = "OutputFileError";
  constructor(
    readonly code: OutputFileCode,
    message: string,
  ) {
    super(message);
  }
}

export interface OutputFileOptions {
  /** How messages name the file (default: the path). */
  label?: string;
}

/** True when a regular file is at `path`; refuses at once anything else there, without following a link. */
function regularFileAt(path: string, label: string): boolean {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if (errno(e) === "ENOENT") return false;
    throw new OutputFileError("io", `${label} cannot be inspected: ${errno(e) ?? (e as Error).message}`);
  }
  if (!st.isFile()) throw new OutputFileError("not-regular", `${label} is ${fileKind(st)}; only a new file (or one with exactly these bytes) is written`);
  return true;
}

/** True when the regular file at `path` holds exactly `bytes` (read through the safe reader, at most length + 1). */
function holdsExactly(path: string, bytes: Uint8Array, label: string): boolean {
  let opened;
  try {
    opened = openRegularFile(path, label);
  } catch (e) {
    // Swapped in after the first look: the same refusal, from the descriptor.
    if (e instanceof SafeReadError) throw new OutputFileError(e.code === "link" || e.code === "not-regular" ? "not-regular" : "io", e.message);
    throw e;
  }
  try {
    if (opened.size !== bytes.length) return false;
    return Buffer.from(readUpTo(opened.fd, bytes.length + 1)).equals(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length));
  } catch (e) {
    throw new OutputFileError("io", `${label} exists and cannot be read: ${errno(e) ?? (e as Error).message}`);
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Writes `bytes` as a new regular file at `path` (mode 0600, atomic, the directory synced). Returns "created", or
 * "unchanged" when a regular file with exactly these bytes is already there. Throws {@link OutputFileError}.
 */
export function writeOutputFile(path: string, bytes: Uint8Array, opts: OutputFileOptions = {}): "created" | "unchanged" {
  const label = opts.label ?? path;
  if (!regularFileAt(path, label)) {
    let result: "created" | "exists";
    try {
      result = createFileExclusive(dirname(path), basename(path), bytes);
    } catch (e) {
      throw new OutputFileError("io", `cannot write ${label}: ${(e as Error).message}`);
    }
    if (result === "created") return "created";
    // Something appeared at the name meanwhile: judged like a file that was there before.
  }
  if (holdsExactly(path, bytes, label)) return "unchanged";
  throw new OutputFileError("different", `${label} already exists with different content; refusing to overwrite it`);
}
