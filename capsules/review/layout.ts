/**
 * Where the review log lives under the data directory (directory 0700, files 0600):
 *
 *     <home>/review/log.jsonl    the append-only, hash-chained, signed decision records (one canonical record + LF each)
 *     <home>/review/head.json    the number of records and the digest of the last one, rewritten after each append
 *     <home>/review/log.lock     present while one process appends (lock.ts); log.lock.break while a stale one is broken
 *
 * Beside the keys: <home>/keys/reviewers.json (the signed reviewer registry) and keys/reviewers/<name>.position.
 */
import { join } from "node:path";

export interface ReviewLayout {
  dir: string;
  log: string;
  head: string;
  lock: string;
}

export const LOG_NAME = "log.jsonl";
export const HEAD_NAME = "head.json";
export const LOCK_NAME = "log.lock";

export function reviewLayout(home: string): ReviewLayout {
  const dir = join(home, "review");
  return { dir, log: join(dir, LOG_NAME), head: join(dir, HEAD_NAME), lock: join(dir, LOCK_NAME) };
}
