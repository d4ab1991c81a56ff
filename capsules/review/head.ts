/**
 * The head file: the number of records and the digest of the last one, replaced atomically after every append.
 * It makes the one change the chain alone cannot show visible: records cut from the END of the log (a chain that
 * simply ends earlier is still a valid chain). Whoever can edit the log can edit this file too: it is tamper
 * evidence against accidents and casual edits, not against a determined local user.
 *
 * A head that names fewer records than the log (an append interrupted between the log write and the head write)
 * is a warning; a head naming more records, or another digest for its record, is a failure.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject } from "../../src/json/value.js";
import { readRegularFileIfExists, SafeReadError } from "../../src/crypto/safe-read.js";
import { replaceFile } from "../../src/crypto/safe-write.js";
import { HEAD_NAME } from "./layout.js";
import type { LoggedRecord } from "./state.js";

export const REVIEW_HEAD_SCHEMA = "evidence-bridge-review-head/v1";
const HEAD_MAX_BYTES = 4096;

export interface LogHead {
  records: number;
  head_sha256: string;
}

export interface HeadCheck {
  problem?: string;
  warnings: string[];
}

export function writeHead(dir: string, head: LogHead): void {
  const bytes = canonicalBytes({ schema_version: REVIEW_HEAD_SCHEMA, records: head.records, head_sha256: head.head_sha256 }, "head");
  replaceFile(dir, HEAD_NAME, new Uint8Array([...bytes, 0x0a]));
}

/** Reads the head file: undefined when absent; a string describing why it is unusable. */
export function readHead(path: string): LogHead | undefined | string {
  let bytes: Uint8Array | undefined;
  try {
    bytes = readRegularFileIfExists(path, { maxBytes: HEAD_MAX_BYTES, label: "review/head.json" });
  } catch (e) {
    if (e instanceof SafeReadError) return `cannot be used: ${e.message}`;
    return `cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  if (bytes === undefined) return undefined;
  try {
    const v = parseStrictJson(bytes);
    if (!isJsonObject(v) || v.size !== 3 || v.get("schema_version") !== REVIEW_HEAD_SCHEMA) return "is not a v1 head file";
    const records = v.get("records");
    const head = v.get("head_sha256");
    if (typeof records !== "number" || !Number.isSafeInteger(records) || records < 0) return "records: expected an integer >= 0";
    if (typeof head !== "string" || !/^[0-9a-f]{64}$/.test(head)) return "head_sha256: expected 64 lowercase hexadecimal digits";
    return { records, head_sha256: head };
  } catch {
    return "is not strict JSON";
  }
}

/** Compares the head file with a fully verified chain. */
export function checkHead(head: LogHead | undefined | string, records: readonly LoggedRecord[]): HeadCheck {
  if (typeof head === "string") return { problem: `the head file ${head}`, warnings: [] };
  if (head === undefined) {
    return records.length === 0 ? { warnings: [] } : { warnings: ["the head file is missing (an interrupted first append, or it was deleted): records cut from the end cannot be detected"] };
  }
  if (head.records > records.length) {
    return {
      problem: `the head file names ${head.records} records but the log ends after record #${records.length}: records were deleted from the end of the log`,
      warnings: [],
    };
  }
  const named = head.records === 0 ? undefined : records[head.records - 1];
  if (named !== undefined && named.digest !== head.head_sha256) {
    return { problem: `the head file's digest does not match record #${head.records}: records at the end were replaced`, warnings: [] };
  }
  if (head.records === 0 && records.length === 0) return { warnings: [] };
  if (head.records < records.length) {
    return { warnings: [`the head file lags by ${records.length - head.records} record(s) (an interrupted append); the next append updates it`] };
  }
  return { warnings: [] };
}
