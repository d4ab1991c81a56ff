/**
 * Verification of the review log's bytes: every line is one canonical v1 record + LF; record n has `seq` n and
 * `prev_sha256` equal to the digest of record n-1 (64 zeros for the first); its reviewer fingerprint belongs to
 * its public key and its signature verifies; its decision is an allowed transition (state.ts). The first failure
 * stops the check and is reported with its line and the rule, so a deleted, inserted, reordered or modified
 * record and a bad signature are each named precisely.
 */
import { GENESIS_PREV, RecordShapeError, recordDigest, recordFromBytes, signatureProblem } from "./record.js";
import { ReviewState, type LoggedRecord } from "./state.js";

export interface ChainProblem {
  /** 1-based line of the first bad record (= its expected `seq`). */
  line: number;
  /** One line: `record #n (line n): <rule>`. */
  message: string;
}

export interface ChainCheck {
  /** The records before the first problem (all of them when there is none). */
  records: LoggedRecord[];
  /** The state folded from those records. */
  state: ReviewState;
  /** Digest of the last good record (`GENESIS_PREV` for an empty log). */
  head: string;
  problem?: ChainProblem;
}

const NEWLINE = 0x0a;

export interface ChainOptions {
  /**
   * The store's registered reviewers (reviewer-registry.ts): a record signed by any other key fails, naming it.
   * Without it, any key whose signature verifies is accepted (only for callers that check signers themselves).
   */
  known?: { isKnown(fingerprint: string): boolean };
}

export function checkChain(bytes: Uint8Array, opts: ChainOptions = {}): ChainCheck {
  const records: LoggedRecord[] = [];
  const state = new ReviewState();
  let head = GENESIS_PREV;
  const fail = (line: number, why: string): ChainCheck => ({ records, state, head, problem: { line, message: `record #${line} (line ${line}): ${why}` } });
  let start = 0;
  for (let line = 1; start < bytes.length; line++) {
    const end = bytes.indexOf(NEWLINE, start);
    if (end === -1) return fail(line, "incomplete last line (no final newline): an interrupted write, or the file was cut");
    const raw = bytes.subarray(start, end);
    start = end + 1;
    if (raw.length === 0) return fail(line, "empty line (the log holds one record per line)");
    let record;
    try {
      record = recordFromBytes(raw, "record");
    } catch (e) {
      if (e instanceof RecordShapeError) return fail(line, `${e.message} (a modified record)`);
      throw e;
    }
    if (record.seq !== line) {
      return fail(line, `seq is ${record.seq} where ${line} is expected: a record was deleted, inserted or reordered before this one`);
    }
    if (record.prev_sha256 !== head) {
      return fail(
        line,
        line === 1
          ? "prev_sha256 is not 64 zeros although this is the first record: earlier records were deleted"
          : `prev_sha256 does not match the digest of record #${line - 1}: the previous record was modified, or records were deleted, inserted or reordered`,
      );
    }
    const sig = signatureProblem(record);
    if (sig !== undefined) return fail(line, sig);
    if (opts.known !== undefined && !opts.known.isKnown(record.reviewer.fingerprint)) {
      return fail(
        line,
        `signed by ${record.reviewer.fingerprint} (named ${record.reviewer.name}), which is not a registered reviewer of this store: a forged record, or a key never registered ('evidence-bridge keys trust FINGERPRINT --name NAME' registers a key you trust)`,
      );
    }
    const entry: LoggedRecord = { record, digest: recordDigest(record), line };
    const transition = state.apply(entry);
    if (transition !== undefined) return fail(line, `invalid transition: ${transition}`);
    records.push(entry);
    head = entry.digest;
  }
  return { records, state, head };
}
