/**
 * An exclusive lock file for appending to the review log, so concurrent reviewers never fork or interleave the
 * chain: `O_CREAT | O_EXCL` creates the lock file (with the holder's pid, host, a random token and the time);
 * whoever creates it holds the lock until it removes it.
 *
 * Stale locks (left by a killed process) are broken: a lock whose process is gone on this host, a lock older than
 * `staleMs` (default 60 s; an append takes milliseconds), or an unreadable lock file older than 2 s. Breaking
 * renames the lock aside, checks that what was moved is the lock judged stale, and otherwise puts it back.
 * Release removes the lock file only when it still carries this holder's token.
 *
 * Limits: the pid check only works on the same host (other hosts' locks expire by age); if a holder stalls for
 * longer than `staleMs` another process may break its lock.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { ReviewError } from "./errors.js";
import { errno } from "../../src/errno.js";

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock older than this is stale even if its process seems alive (default 60 s). */
  staleMs?: number;
}

export const LOCK_TIMEOUT_MS = 10_000;
export const LOCK_STALE_MS = 60_000;
/** An unreadable lock file (its creator died between creating and writing it) is stale after this long. */
const UNREADABLE_STALE_MS = 2_000;

interface LockInfo {
  pid: number;
  host: string;
  token: string;
  created: number;
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return errno(e) === "EPERM";
  }
}

function parseInfo(bytes: Buffer): LockInfo | undefined {
  try {
    const v = JSON.parse(bytes.toString("utf8")) as Partial<LockInfo>;
    if (typeof v.pid === "number" && typeof v.host === "string" && typeof v.token === "string" && typeof v.created === "number") return v as LockInfo;
  } catch {
    // unreadable: judged by the file's age
  }
  return undefined;
}

function tryCreate(path: string, info: LockInfo): boolean {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (e) {
    if (errno(e) === "EEXIST") return false;
    throw new ReviewError("io", `cannot create the review lock ${path}: ${errno(e) ?? (e as Error).message}`);
  }
  try {
    const bytes = Buffer.from(JSON.stringify(info));
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Whether the lock file content `bytes` (with file mtime `mtimeMs`) is stale now. */
function isStale(bytes: Buffer, mtimeMs: number, now: number, staleMs: number): boolean {
  const info = parseInfo(bytes);
  if (info === undefined) return now - mtimeMs > UNREADABLE_STALE_MS;
  if (now - info.created > staleMs) return true;
  return info.host === hostname() && info.pid !== process.pid && !processAlive(info.pid);
}

/** Moves a stale lock aside; puts it back when what was moved is not the lock that was judged stale. */
function breakStale(path: string, observed: Buffer): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(6).toString("hex")}`;
  try {
    renameSync(path, aside);
  } catch (e) {
    if (errno(e) === "ENOENT") return;
    throw new ReviewError("io", `cannot remove the stale review lock ${path}: ${errno(e) ?? (e as Error).message}`);
  }
  let moved: Buffer | undefined;
  try {
    moved = readFileSync(aside);
  } catch {
    moved = undefined;
  }
  if (moved !== undefined && !moved.equals(observed)) {
    try {
      linkSync(aside, path); // a fresh lock was taken meanwhile: give it back
    } catch {
      // another process holds a newer lock already; the moved one's holder will notice at release
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

function describeHolder(bytes: Buffer | undefined): string {
  const info = bytes === undefined ? undefined : parseInfo(bytes);
  if (info === undefined) return "another process";
  return `process ${info.pid} on ${info.host} since ${new Date(info.created).toISOString()}`;
}

/** Runs `fn` while holding the lock file `path`. Throws {@link ReviewError} `busy` after the timeout. */
export function withFileLock<T>(path: string, fn: () => T, opts: LockOptions = {}): T {
  const timeoutMs = opts.timeoutMs ?? LOCK_TIMEOUT_MS;
  const staleMs = opts.staleMs ?? LOCK_STALE_MS;
  const info: LockInfo = { pid: process.pid, host: hostname(), token: randomBytes(16).toString("hex"), created: Date.now() };
  const start = Date.now();
  let last: Buffer | undefined;
  for (let attempt = 0; ; attempt++) {
    info.created = Date.now();
    if (tryCreate(path, info)) break;
    let mtimeMs = Date.now();
    try {
      last = readFileSync(path);
      mtimeMs = statSync(path).mtimeMs;
    } catch (e) {
      if (errno(e) === "ENOENT") continue; // released meanwhile
      throw new ReviewError("io", `cannot read the review lock ${path}: ${errno(e) ?? (e as Error).message}`);
    }
    if (isStale(last, mtimeMs, Date.now(), staleMs)) {
      breakStale(path, last);
      continue;
    }
    if (Date.now() - start > timeoutMs) {
      throw new ReviewError(
        "busy",
        `the review log is locked by ${describeHolder(last)}; try again (if no evidence-bridge process is running, remove ${path})`,
      );
    }
    sleep(Math.min(50, 2 + attempt * 2) + Math.floor(Math.random() * 5));
  }
  try {
    return fn();
  } finally {
    release(path, info.token);
  }
}

function release(path: string, token: string): void {
  let bytes: Buffer;
  try {
    bytes = readFileSync(path);
  } catch {
    return;
  }
  if (parseInfo(bytes)?.token !== token) return; // broken as stale and taken by another process: not ours to remove
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}
