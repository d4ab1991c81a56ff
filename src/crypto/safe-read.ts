/**
 * The one way the bridge reads a file by name: files a user names (`--message-file`, `--pack`, capsule, index,
 * ledger, manifest, export and token files, key files) and the files of the store and the review log. Each is opened
 * with `O_NOFOLLOW | O_NONBLOCK` (a symbolic link, even a dangling one, fails at once; a FIFO opens without waiting
 * for a writer), checked with `fstat` on the opened descriptor to be a regular file (FIFOs, sockets, devices and
 * directories are refused before a single byte is read), its size checked against a bound from the file's own
 * metadata, and never more than that many bytes read (a file that grows after the check is read as it was).
 *
 * Errors are {@link SafeReadError}s with a code and one line naming the file (by the label the caller gives), what
 * it is (a FIFO, a directory, a symbolic link, a device, a socket) and the rule; they never contain file contents.
 * `-` is not special here: commands that let `-` mean stdin decide that before calling in.
 */
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from "node:fs";
import { errno } from "../errno.js";

export type SafeReadCode = "missing" | "link" | "not-regular" | "too-large" | "io";

export class SafeReadError extends Error {
  override readonly name = "SafeReadError";
  /**
   * The message without the file's label (`is a FIFO; only regular files are read`), for callers whose own sentence
   * already names the file.
   */
  readonly detail: string;
  constructor(
    readonly code: SafeReadCode,
    label: string,
    detail: string,
    /** The file's size, for `too-large`. */
    readonly size?: number,
    /** The system's error code (`EACCES`), for `io`. */
    readonly errno?: string,
  ) {
    super(`${label} ${detail}`);
    this.detail = detail;
  }
}

export interface SafeReadOptions {
  /** Largest accepted size in bytes. */
  maxBytes: number;
  /** How messages name the file (default: the path). */
  label?: string;
}

/** What a file that is not a regular file is, in words (`a FIFO`); from `lstat` this includes `a symbolic link`. */
export function fileKind(st: Stats): string {
  if (st.isSymbolicLink()) return "a symbolic link";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  if (st.isDirectory()) return "a directory";
  if (st.isFile()) return "a regular file";
  return "not a regular file";
}

/** Opens `path` for reading as a regular file; returns the descriptor and its size. Throws {@link SafeReadError}. */
export function openRegularFile(path: string, label = path): { fd: number; size: number } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (e) {
    const code = errno(e);
    if (code === "ENOENT") throw new SafeReadError("missing", label, "does not exist (ENOENT)");
    if (code === "ELOOP") throw new SafeReadError("link", label, "is a symbolic link; only regular files are read (links are not followed)");
    if (code === "ENXIO") throw new SafeReadError("not-regular", label, "is a socket or device; only regular files are read");
    throw new SafeReadError("io", label, `cannot be opened: ${code ?? (e as Error).message}`, undefined, code);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new SafeReadError("not-regular", label, `is ${fileKind(st)}; only regular files are read`);
    return { fd, size: st.size };
  } catch (e) {
    closeSync(fd);
    if (e instanceof SafeReadError) throw e;
    throw new SafeReadError("io", label, `cannot be inspected: ${errno(e) ?? (e as Error).message}`);
  }
}

/**
 * At most `n` bytes of an open file from its start (fewer when it ends sooner); never more, whatever the file does
 * meanwhile. Errors are the system's: callers say which file. Used by this module's readers and by key-files.ts.
 */
export function readUpTo(fd: number, n: number): Uint8Array {
  // Its own zeroed memory, never a slice of Node's shared buffer pool: key files are read through here too.
  const buf = new Uint8Array(n);
  let off = 0;
  while (off < n) {
    const got = readSync(fd, buf, off, n - off, off);
    if (got === 0) break;
    off += got;
  }
  return buf.subarray(0, off);
}

/**
 * A file that reports size 0 yet has content (Linux /proc and /sys files: "regular" to fstat, generated on read) would
 * read as empty: it is refused instead.
 */
function refuseSizelessContent(fd: number, label: string): void {
  let got: number;
  try {
    got = readSync(fd, new Uint8Array(1), 0, 1, 0);
  } catch (e) {
    throw new SafeReadError("io", label, `cannot be read: ${errno(e) ?? (e as Error).message}`);
  }
  if (got > 0) throw new SafeReadError("not-regular", label, "reports size 0 but has content (a generated file such as /proc's is refused)");
}

/** Reads a whole regular file of at most `maxBytes` bytes. Throws {@link SafeReadError}. */
export function readRegularFile(path: string, opts: SafeReadOptions): Uint8Array {
  const label = opts.label ?? path;
  const { fd, size } = openRegularFile(path, label);
  try {
    if (size > opts.maxBytes) throw new SafeReadError("too-large", label, `is larger than ${opts.maxBytes} bytes (${size})`, size);
    if (size === 0) refuseSizelessContent(fd, label);
    // Never more than the size fstat announced (within the bound): a file that grows meanwhile (the review log
    // while another process appends) is read as it was, and an endless writer cannot make this read unbounded.
    try {
      return readUpTo(fd, size);
    } catch (e) {
      throw new SafeReadError("io", label, `cannot be read: ${errno(e) ?? (e as Error).message}`);
    }
  } finally {
    closeSync(fd);
  }
}

/** {@link readRegularFile}, or undefined when nothing exists at `path`. */
export function readRegularFileIfExists(path: string, opts: SafeReadOptions): Uint8Array | undefined {
  try {
    return readRegularFile(path, opts);
  } catch (e) {
    if (e instanceof SafeReadError && e.code === "missing") return undefined;
    throw e;
  }
}

/** The first `n` bytes (fewer when the file is shorter) of a regular file. Throws {@link SafeReadError}. */
export function readRegularFilePrefix(path: string, n: number, label = path): Uint8Array {
  const { fd, size } = openRegularFile(path, label);
  try {
    if (size === 0) refuseSizelessContent(fd, label);
    return readUpTo(fd, Math.min(n, size));
  } catch (e) {
    if (e instanceof SafeReadError) throw e;
    throw new SafeReadError("io", label, `cannot be read: ${errno(e) ?? (e as Error).message}`);
  } finally {
    closeSync(fd);
  }
}
