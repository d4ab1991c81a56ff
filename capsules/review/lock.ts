/**
 * An exclusive lock file for appending to the review log, so concurrent reviewers never fork or interleave the
 * chain. Correct under contention: no two processes ever hold it at once.
 *
 * - **Taking** it: the holder's record (pid, host, a random token, the time) is written to a temporary file first,
 *   then hard-linked to the lock name. `link` fails if the name exists (a file, a FIFO, even a dangling link), so
 *   the lock file is never seen half-written and is never replaced.
 * - **Who may remove it**: its holder (release checks the token) and a breaker of a *stale* lock. A lock is stale
 *   only when its holder cannot release it any more: on this host, when its process no longer exists; from another
 *   host (a shared directory), when it is older than `staleMs`. A live local holder is waited for, however long.
 * - **Breaking** a stale lock happens under a second lock file, `<lock>.break` (taken the same way): under it the
 *   breaker re-reads the lock and removes it only if it still holds the very bytes judged stale. Breakers are
 *   serialised and a stale lock's holder cannot release it, so nothing else can replace those bytes in between:
 *   a breaker never removes a fresh lock. The break lock is held for microseconds; one left by a killed breaker is
 *   removed when its process is gone (renamed aside first, then checked to be that same file).
 * - **Hostile files**: anything but a regular file at the lock name (a symbolic link, dangling or not, a FIFO, a
 *   directory) is an immediate error naming it; nothing waits on it.
 * - **Waiting** honours `timeoutMs` (default 10 s) and then fails naming the holder (pid, host, since when).
 *
 * Limits: a lock taken on another host expires by age only (a holder there stalled longer than `staleMs` may lose
 * it); a local holder's pid reused by an unrelated live process keeps the lock until someone removes it (the
 * timeout message says which pid and which file).
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, linkSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { hostname } from "node:os";
import { readRegularFile, SafeReadError } from "../../src/crypto/safe-read.js";
import { ReviewError } from "./errors.js";
import { errno } from "../../src/errno.js";

export interface LockOptions {
  /** Give up after this long (default 10 s). */
  timeoutMs?: number;
  /** A lock from another host older than this is stale (default 60 s). */
  staleMs?: number;
}

export const LOCK_TIMEOUT_MS = 10_000;
export const LOCK_STALE_MS = 60_000;
/** A lock file whose content is not a holder record (damage; we never write one) is stale after this long. */
const UNREADABLE_STALE_MS = 2_000;
const LOCK_MAX_BYTES = 4096;

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

function parseInfo(bytes: Uint8Array): LockInfo | undefined {
  try {
    const v = JSON.parse(Buffer.from(bytes).toString("utf8")) as Partial<LockInfo>;
    if (Number.isSafeInteger(v.pid) && typeof v.host === "string" && typeof v.token === "string" && typeof v.created === "number") return v as LockInfo;
  } catch {
    // not a holder record: judged by the file's age
  }
  return undefined;
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a).equals(Buffer.from(b));
}

/** Creates `path` holding `bytes` unless something exists there; true when this call created it. */
function tryTake(path: string, bytes: Uint8Array): boolean {
  const temp = join(dirname(path), `.${basename(path)}-${process.pid}-${randomBytes(8).toString("hex")}`);
  let fd: number;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
  } catch (e) {
    throw new ReviewError("io", `cannot create the review lock ${path}: ${errno(e) ?? (e as Error).message}`);
  }
  try {
    try {
      let off = 0;
      while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    } finally {
      closeSync(fd);
    }
    try {
      linkSync(temp, path);
      return true;
    } catch (e) {
      if (errno(e) === "EEXIST") return false;
      throw new ReviewError("io", `cannot create the review lock ${path}: ${errno(e) ?? (e as Error).message}`);
    }
  } finally {
    try {
      unlinkSync(temp);
    } catch {
      // already gone
    }
  }
}

type Observed = Uint8Array | undefined;

/** The lock file's bytes (undefined when it is gone); anything but a regular file is an immediate error. */
function readLock(path: string): Observed {
  try {
    return readRegularFile(path, { maxBytes: LOCK_MAX_BYTES, label: `the review lock ${path}` });
  } catch (e) {
    if (e instanceof SafeReadError && e.code === "missing") return undefined;
    if (e instanceof SafeReadError && e.code === "too-large") return new Uint8Array(0);
    const why = e instanceof SafeReadError ? e.message : `cannot read the review lock ${path}: ${(e as Error).message}`;
    throw new ReviewError("io", `${why}; remove it (no evidence-bridge process creates anything else there)`);
  }
}

function ageOf(path: string, now: number): number {
  try {
    return now - lstatSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/** Whether the holder recorded in `bytes` (read from `path`) can no longer release its lock. */
function isStale(path: string, bytes: Uint8Array, now: number, staleMs: number): boolean {
  const info = parseInfo(bytes);
  if (info === undefined) return ageOf(path, now) > UNREADABLE_STALE_MS;
  if (info.host !== hostname()) return now - info.created > staleMs;
  return info.pid !== process.pid && !processAlive(info.pid);
}

/**
 * Removes `path` only if it still holds `observed`, serialised with every other breaker by `<path>.break`.
 * Returns false when the break lock was busy (nothing was done).
 */
function breakStale(path: string, observed: Uint8Array, me: Uint8Array): boolean {
  const guard = `${path}.break`;
  if (!tryTake(guard, me)) {
    clearDeadGuard(guard);
    return false;
  }
  try {
    const now = readLock(path);
    if (now !== undefined && sameBytes(now, observed)) unlinkSync(path);
  } catch (e) {
    if (errno(e) !== "ENOENT") throw e instanceof ReviewError ? e : new ReviewError("io", `cannot remove the stale review lock ${path}: ${errno(e) ?? (e as Error).message}`);
  } finally {
    removeIfOurs(guard, me);
  }
  return true;
}

/** A break lock whose process is gone is moved aside and removed, after checking the moved file is that one. */
function clearDeadGuard(guard: string): void {
  const seen = readLock(guard);
  if (seen === undefined) return;
  const info = parseInfo(seen);
  if (info !== undefined && (info.host !== hostname() || processAlive(info.pid))) return;
  if (info === undefined) return; // never written by us; it is waited out by the lock's timeout
  const aside = `${guard}.dead-${process.pid}-${randomBytes(6).toString("hex")}`;
  try {
    renameSync(guard, aside);
  } catch {
    return;
  }
  let moved: Uint8Array | undefined;
  try {
    moved = readRegularFile(aside, { maxBytes: LOCK_MAX_BYTES });
  } catch {
    moved = undefined;
  }
  if (moved !== undefined && !sameBytes(moved, seen)) {
    try {
      linkSync(aside, guard); // a live breaker's guard: give it back
    } catch {
      // a third breaker took the guard meanwhile; the live one still removes only bytes it re-read itself
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // already gone
  }
}

function removeIfOurs(path: string, me: Uint8Array): void {
  let now: Observed;
  try {
    now = readLock(path);
  } catch {
    return;
  }
  if (now === undefined || !sameBytes(now, me)) return;
  try {
    unlinkSync(path);
  } catch {
    // already gone
  }
}

function describeHolder(bytes: Uint8Array | undefined): string {
  const info = bytes === undefined ? undefined : parseInfo(bytes);
  if (info === undefined) return "another process (the lock file holds no holder record)";
  const alive = info.host === hostname() ? (processAlive(info.pid) ? ", running" : ", gone") : "";
  return `process ${info.pid} on ${info.host}${alive} since ${new Date(info.created).toISOString()}`;
}

/** Runs `fn` while holding the lock file `path`. Throws {@link ReviewError} `busy` after the timeout. */
export function withFileLock<T>(path: string, fn: () => T, opts: LockOptions = {}): T {
  const timeoutMs = opts.timeoutMs ?? LOCK_TIMEOUT_MS;
  const staleMs = opts.staleMs ?? LOCK_STALE_MS;
  const info: LockInfo = { pid: process.pid, host: hostname(), token: randomBytes(16).toString("hex"), created: Date.now() };
  const me = Buffer.from(JSON.stringify(info));
  const start = Date.now();
  let last: Uint8Array | undefined;
  for (let attempt = 0; ; attempt++) {
    if (tryTake(path, me)) break;
    const seen = readLock(path);
    if (seen === undefined) continue; // released meanwhile: try again at once
    last = seen;
    if (isStale(path, seen, Date.now(), staleMs) && breakStale(path, seen, me)) continue;
    if (Date.now() - start >= timeoutMs) {
      throw new ReviewError(
        "busy",
        `the review log is locked by ${describeHolder(last)}; waited ${Math.round(timeoutMs / 100) / 10} s (if no evidence-bridge process is running, remove ${path})`,
      );
    }
    sleep(Math.min(50, 2 + attempt * 2) + Math.floor(Math.random() * 5));
  }
  try {
    return fn();
  } finally {
    removeIfOurs(path, me);
  }
}
