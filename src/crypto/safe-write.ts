/**
 * Crash-safe file creation (product.md §7): a temporary file in the same directory with mode 0600, written in
 * full and synced, then hard-linked (never overwriting) or renamed into place, then the directory is synced.
 * A kill at any instant leaves either no file or the complete file under the final name, plus at most a
 * temporary file that {@link cleanStaleTemps} removes later. Callers write only ciphertext through here.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  fdatasync,
  fsync,
  constants,
  fchmodSync,
  fdatasyncSync,
  fsyncSync,
  linkSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  renameSync,
  statSync,
  chmodSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import { SafeWriteError } from "./errors.js";
import { errno } from "../errno.js";

export const FILE_MODE = 0o600;
export const DIR_MODE = 0o700;
/** Temporary files are `.tmp-<pid>-<16 hex>`; nothing else in a store directory starts with a dot. */
export const TEMP_PREFIX = ".tmp-";
const TEMP_NAME = /^\.tmp-(\d{1,10})-[0-9a-f]{16}$/;
/** A temporary file older than this is stale even if its process id is alive again (pid reuse). */
export const STALE_TEMP_AGE_MS = 60 * 60 * 1000;

/**
 * Creates `path` as a directory with mode exactly 0700 if absent, then syncs its parent (unless `sync` is false: a
 * cache's directory, or a caller that syncs the parent in a {@link SyncSet}); refuses a symlink or a non-directory.
 */
export function ensurePrivateDir(path: string, opts: { sync?: boolean } = {}): void {
  if (makePrivateDir(path) && opts.sync !== false) fsyncDir(join(path, ".."));
}

/**
 * {@link ensurePrivateDir} without the sync: returns true when this call created the directory, whose parent must
 * then be synced before anything inside it is relied on (the caller adds the parent to its {@link SyncSet}).
 */
export function makePrivateDir(path: string): boolean {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) throw new SafeWriteError(`${path} is a symbolic link; store directories must be real directories`);
    if (!st.isDirectory()) throw new SafeWriteError(`${path} exists and is not a directory`);
    return false;
  } catch (e) {
    if (e instanceof SafeWriteError) throw e;
    if (errno(e) !== "ENOENT") throw new SafeWriteError(`cannot inspect ${path}: ${errno(e) ?? (e as Error).message}`, errno(e));
  }
  try {
    mkdirSync(path, { mode: DIR_MODE });
  } catch (e) {
    if (errno(e) !== "EEXIST") throw new SafeWriteError(`cannot create directory ${path}: ${errno(e) ?? (e as Error).message}`, errno(e));
    const st = lstatSync(path);
    if (!st.isDirectory() || st.isSymbolicLink()) throw new SafeWriteError(`${path} exists and is not a directory`);
    return false;
  }
  chmodSync(path, DIR_MODE);
  return true;
}

/** Flushes a directory's entries (new names, renames) to stable storage. */
export function fsyncDir(dir: string): void {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (e) {
    throw new SafeWriteError(`cannot open directory ${dir} to sync it: ${errno(e) ?? (e as Error).message}`, errno(e));
  }
  try {
    fsyncSync(fd);
  } catch (e) {
    // Some file systems refuse fsync on directories; the rename or link is still atomic there.
    if (errno(e) !== "EINVAL" && errno(e) !== "ENOTSUP") {
      throw new SafeWriteError(`cannot sync directory ${dir}: ${errno(e) ?? (e as Error).message}`, errno(e));
    }
  } finally {
    closeSync(fd);
  }
}

/** Removes a file, ignoring a file that is already gone. */
export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if (errno(e) !== "ENOENT") throw new SafeWriteError(`cannot remove ${path}: ${errno(e) ?? (e as Error).message}`, errno(e));
  }
}

/**
 * Writes `bytes` to a new temporary file in `dir` (mode 0600, O_EXCL, no symlink follow), synced unless `sync` is
 * false. Returns its path.
 */
export function stageFile(dir: string, bytes: Uint8Array, sync = true): string {
  const staged = stageUnsynced(dir, bytes);
  try {
    if (sync) fdatasyncSync(staged.fd);
  } catch (e) {
    discardStaged(staged);
    throw new SafeWriteError(`cannot write a temporary file in ${dir}: ${errno(e) ?? (e as Error).message}`, errno(e));
  }
  closeStaged(staged);
  return staged.path;
}

/** A temporary file written in full, still open and not yet synced: its data is synced by a {@link SyncSet}. */
export interface StagedFile {
  path: string;
  fd: number;
  dir: string;
  /** True until its descriptor is closed (by the set that syncs it, or by {@link discardStaged}). */
  open: boolean;
}

/** Closes a staged file's descriptor when still open (never a number closed before) and removes its temporary name. */
export function discardStaged(staged: StagedFile): void {
  closeStaged(staged);
  removeQuietly(staged.path);
}

/** Closes a staged file's descriptor once; later calls do nothing (a closed number may belong to another file). */
export function closeStaged(staged: StagedFile): void {
  if (!staged.open) return;
  staged.open = false;
  try {
    closeSync(staged.fd);
  } catch {
    // nothing left to release
  }
}

/**
 * {@link stageFile} without the sync: the file stays open for the {@link SyncSet} that syncs it (and closes it).
 * Nothing may be linked or renamed from it before that set completed.
 */
export function stageUnsynced(dir: string, bytes: Uint8Array): StagedFile {
  const path = join(dir, `${TEMP_PREFIX}${process.pid}-${randomBytes(8).toString("hex")}`);
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, FILE_MODE);
  } catch (e) {
    throw new SafeWriteError(`cannot create a temporary file in ${dir}: ${errno(e) ?? (e as Error).message}`, errno(e));
  }
  try {
    fchmodSync(fd, FILE_MODE);
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
  } catch (e) {
    closeSync(fd);
    removeQuietly(path);
    throw new SafeWriteError(`cannot write a temporary file in ${dir}: ${errno(e) ?? (e as Error).message}`, errno(e));
  }
  return { path, fd, dir, open: true };
}

/**
 * Gives the staged file its final name without ever replacing an existing file. Returns false when the final
 * name already exists (the caller decides whether the existing bytes are acceptable). The temporary name is
 * left for the caller to remove.
 */
export function linkNoReplace(temp: string, final: string): boolean {
  try {
    linkSync(temp, final);
    return true;
  } catch (e) {
    const code = errno(e);
    if (code === "EEXIST") return false;
    if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS") {
      // File systems without hard links: check, then rename (atomic replace, but the check itself can race).
      try {
        lstatSync(final);
        return false;
      } catch (e2) {
        if (errno(e2) !== "ENOENT") throw new SafeWriteError(`cannot inspect ${final}: ${errno(e2)}`, errno(e2));
      }
      renameInto(temp, final);
      return true;
    }
    throw new SafeWriteError(`cannot link ${final}: ${code ?? (e as Error).message}`, code);
  }
}

/** Atomically replaces (or creates) `final` with the staged file. */
export function renameInto(temp: string, final: string): void {
  try {
    renameSync(temp, final);
  } catch (e) {
    throw new SafeWriteError(`cannot rename into ${final}: ${errno(e) ?? (e as Error).message}`, errno(e));
  }
}

/**
 * Creates `dir/name` with `bytes` unless it exists. Returns "created" or "exists"; never overwrites.
 * With `syncDir: false` the caller syncs the directory itself (to batch several files).
 */
export function createFileExclusive(dir: string, name: string, bytes: Uint8Array, opts: { syncDir?: boolean } = {}): "created" | "exists" {
  const temp = stageFile(dir, bytes);
  let created: boolean;
  try {
    created = linkNoReplace(temp, join(dir, name));
  } finally {
    removeQuietly(temp);
  }
  if (created && opts.syncDir !== false) fsyncDir(dir);
  return created ? "created" : "exists";
}

/**
 * Atomically replaces `dir/name` with `bytes` (for files whose newest version wins, such as an index). `cache: true`
 * is for files the store can always rebuild (the sealed row index, the derivation cache): nothing is synced, since
 * a file a crash leaves torn or empty fails authentication and is rebuilt, and each sync costs a one-shot command
 * about 10 ms here.
 */
export function replaceFile(dir: string, name: string, bytes: Uint8Array, opts: { syncDir?: boolean; cache?: boolean } = {}): void {
  const temp = stageFile(dir, bytes, opts.cache !== true);
  try {
    renameInto(temp, join(dir, name));
  } catch (e) {
    removeQuietly(temp);
    throw e;
  }
  if (opts.syncDir !== false && opts.cache !== true) fsyncDir(dir);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errno(e) === "EPERM";
  }
}

/**
 * Removes temporary files left by a crash: those whose process is gone, or older than {@link STALE_TEMP_AGE_MS}.
 * Temporary files of live processes (another writer at work) are kept. Returns how many were removed.
 */
export function cleanStaleTemps(dir: string, now = Date.now()): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch (e) {
    if (errno(e) === "ENOENT" || errno(e) === "ENOTDIR") return 0;
    throw new SafeWriteError(`cannot list ${dir}: ${errno(e) ?? (e as Error).message}`, errno(e));
  }
  let removed = 0;
  for (const name of names) {
    const m = TEMP_NAME.exec(name);
    if (!m) continue;
    const pid = Number(m[1]);
    const path = join(dir, name);
    let age: number;
    try {
      age = now - statSync(path).mtimeMs;
    } catch {
      continue;
    }
    if (pid !== process.pid && processAlive(pid) && age < STALE_TEMP_AGE_MS) continue;
    if (pid === process.pid && age < STALE_TEMP_AGE_MS) continue;
    try {
      unlinkSync(path);
      removed++;
    } catch (e) {
      if (errno(e) !== "ENOENT") throw new SafeWriteError(`cannot remove stale temporary file ${path}: ${errno(e)}`, errno(e));
    }
  }
  return removed;
}
