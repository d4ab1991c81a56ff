/**
 * The plaintext outbox of `capsule build --outbox DIR` (assessment-v1 §6.7 C3 semantics, C4 hardening): the capsule
 * file is stored as `<content_sha256>.json`, mode 0600, in a 0700 directory, through a synced temporary file that
 * is hard-linked into place without ever replacing a file. Same bytes already there: success (idempotent);
 * different bytes: error. Nothing is left behind on failure. The file holds private data (it is the capsule).
 */
import { lstatSync, mkdirSync, chmodSync, statSync } from "node:fs";
import { isAbsolute, join, resolve, sep } from "node:path";
import { OutputFileError, writeOutputFile } from "../../src/output-file.js";
import { AssessmentError } from "./errors.js";
import { errno } from "../../src/errno.js";

const ID = /^[0-9a-f]{64}$/;

function outboxError(message: string): AssessmentError {
  return new AssessmentError(`outbox: ${message}`, undefined, "outbox");
}

function codeOrMessage(e: unknown): string {
  return errno(e) ?? (e as Error).message;
}

/** Rejects empty, `.` and `..` components (`./x` and `a/../b` are refused, unlike the reference). */
export function checkOutboxPath(dir: string): string {
  if (dir === "" || dir.includes("\0")) throw outboxError("expected a directory path");
  const parts = dir.split(/[\\/]/);
  const inner = parts.slice(isAbsolute(dir) ? 1 : 0, dir.endsWith("/") ? -1 : undefined);
  if (inner.some((p) => p === "" || p === "." || p === "..")) {
    throw outboxError("the path must not contain empty, '.' or '..' components");
  }
  return resolve(dir);
}

/** Creates missing directories with mode 0700; the outbox itself must be a real directory (no symlink). */
function ensureOutboxDir(abs: string): void {
  const parts = abs.split(sep).filter((p) => p !== "");
  let cur: string = sep;
  for (let i = 0; i < parts.length; i++) {
    cur = join(cur, parts[i]);
    const last = i === parts.length - 1;
    let st;
    try {
      st = last ? lstatSync(cur) : statSync(cur);
    } catch (e) {
      if (errno(e) !== "ENOENT") throw outboxError(`cannot inspect ${cur}: ${codeOrMessage(e)}`);
      try {
        mkdirSync(cur, { mode: 0o700 });
        chmodSync(cur, 0o700);
      } catch (e2) {
        if (errno(e2) !== "EEXIST") throw outboxError(`cannot create ${cur}: ${codeOrMessage(e2)}`);
      }
      st = lstatSync(cur);
    }
    if (last && st.isSymbolicLink()) throw outboxError(`${cur} is a symbolic link; the outbox must be a real directory`);
    if (!st.isDirectory()) throw outboxError(`${cur} exists and is not a directory`);
  }
}

/**
 * Writes `bytes` as `<contentSha256>.json` in `dir` (created if missing). Returns `created` or `existing`.
 * Throws {@link AssessmentError} (rule `outbox`) on any failure; the error never contains capsule bytes.
 */
export function writeOutbox(dir: string, contentSha256: string, bytes: Uint8Array): "created" | "existing" {
  if (!ID.test(contentSha256)) throw outboxError("content_sha256 must be 64 lowercase hex digits");
  const abs = checkOutboxPath(dir);
  ensureOutboxDir(abs);
  const target = join(abs, `${contentSha256}.json`);
  // The one writer of named files (src/output-file.ts): a link, FIFO or directory at the target is refused at once,
  // the file appears whole or not at all, and an existing file is compared without following or waiting on it.
  try {
    return writeOutputFile(target, bytes) === "created" ? "created" : "existing";
  } catch (e) {
    if (e instanceof OutputFileError && e.code === "different") throw outboxError(`existing capsule path has different bytes: ${target}`);
    if (e instanceof OutputFileError) throw outboxError(e.message);
    throw e;
  }
}
