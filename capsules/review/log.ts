/**
 * The review log on disk (product.md §8): append-only, hash-chained, every record signed by its reviewer.
 *
 * Appending takes the lock file (lock.ts), re-reads and fully verifies the log (chain, signatures, transitions,
 * head), checks the new decision's transition against the state folded from the log and, after an approval, whether
 * the policy's approvals are already complete (then the bytes are final), signs the record, appends
 * it with one write to a file opened `O_APPEND` (then fsync), and rewrites the head file. Two reviewers appending
 * at once are serialised by the lock: neither can fork the chain or decide twice on the same bytes.
 * A log that does not verify is never appended to.
 */
import { closeSync, constants, fsyncSync, openSync, writeSync } from "node:fs";
import { readRegularFileIfExists, SafeReadError } from "../../src/crypto/safe-read.js";
import { prepareDataDir } from "../../src/crypto/data-dir.js";
import { ensurePrivateDir, fsyncDir } from "../../src/crypto/safe-write.js";
import { bytesToHex, sha256Hex } from "../../src/hash.js";
import type { SigningKey } from "../../src/crypto/sign.js";
import { approvalsFor, countedKeys } from "./approvals.js";
import { checkChain, type ChainCheck } from "./chain.js";
import type { Decision } from "./decisions.js";
import { ReviewError } from "./errors.js";
import { checkHead, readHead, writeHead } from "./head.js";
import { reviewLayout, type ReviewLayout } from "./layout.js";
import { checkPositions, writePosition } from "./positions.js";
import { loadReviewerRegistry } from "./reviewer-registry.js";
import { join } from "node:path";
import { keyLayout } from "../../src/crypto/keys.js";
import { withFileLock, type LockOptions } from "./lock.js";
import { decisionTime, recordBytes, REVIEW_RECORD_SCHEMA, signRecord, type UnsignedRecord } from "./record.js";
import { DEFAULT_POLICY, type ReviewPolicy } from "./policy.js";
import { finalText, type LoggedRecord } from "./state.js";
import { noteProblem, reasonProblem, reviewerNameProblem, type ReviewReason } from "./text-rules.js";
import { errno } from "../../src/errno.js";

/** Largest log read (about 300,000 records). */
export const LOG_MAX_BYTES = 256 * 1024 * 1024;

export interface LogVerification extends ChainCheck {
  path: string;
  /** True when the chain, every signature, every transition and the head file check out. */
  ok: boolean;
  /** The first failure, one line naming the record (or the head file). */
  error?: string;
  /** Which check failed first: the registry, the chain (records), the head file or the reviewers' positions. */
  failed?: "registry" | "chain" | "head" | "positions";
  warnings: string[];
}

/** The log's bytes (empty when there is no log yet). */
export function readLogBytes(layout: ReviewLayout): Uint8Array {
  try {
    return readRegularFileIfExists(layout.log, { maxBytes: LOG_MAX_BYTES, label: `the review log ${layout.log}` }) ?? new Uint8Array(0);
  } catch (e) {
    if (e instanceof SafeReadError) throw new ReviewError("io", e.message);
    throw e;
  }
}

/** Verifies the log under `home`: chain, signatures, transitions and the head file. Never throws for bad content. */
export function verifyReviewLog(home: string): LogVerification {
  const layout = reviewLayout(home);
  let registry;
  try {
    registry = loadReviewerRegistry(home);
  } catch (e) {
    const chain = checkChain(new Uint8Array(0));
    return { ...chain, path: layout.log, ok: false, error: (e as Error).message, failed: "registry", warnings: [] };
  }
  const chain = checkChain(readLogBytes(layout), { known: registry });
  if (chain.problem !== undefined) return { ...chain, path: layout.log, ok: false, error: chain.problem.message, failed: "chain", warnings: [] };
  const head = checkHead(readHead(layout.head), chain.records);
  if (head.problem !== undefined) return { ...chain, path: layout.log, ok: false, error: head.problem, failed: "head", warnings: head.warnings };
  const positions = checkPositions(reviewersDir(home), chain.records, registry);
  const warnings = [...head.warnings, ...positions.notices];
  if (positions.problem !== undefined) return { ...chain, path: layout.log, ok: false, error: positions.problem, failed: "positions", warnings };
  return { ...chain, path: layout.log, ok: true, warnings };
}

function reviewersDir(home: string): string {
  return join(keyLayout(home).dir, "reviewers");
}

/** The verified log; a {@link ReviewError} `broken-log` naming the first bad record otherwise. */
export function loadReviewLog(home: string): LogVerification {
  const v = verifyReviewLog(home);
  if (!v.ok) {
    throw new ReviewError("broken-log", `the review log ${v.path} does not verify: ${v.error}; run 'evidence-bridge review log --verify'`);
  }
  return v;
}

export interface DecisionDraft {
  capsule_sha256: string;
  candidate_sha256: string;
  typology_match_visible: boolean;
  decision: Decision;
  /** One code of the closed list (text-rules.ts). */
  reason: ReviewReason;
  /** The salted digest of the private note sealed beforehand (private-notes.ts); absent without a private note. */
  private_note_sha256?: string;
  /** The note that leaves with the export (leak-guarded by the caller, decide.ts); absent without one. */
  public_note?: string;
}

export interface Reviewer {
  name: string;
  key: SigningKey;
}

export interface AppendOptions {
  /** The clock (tests fix it); default the local clock. */
  now?: () => Date;
  lock?: LockOptions;
  /** The review policy in force (policy.ts); default one approval. */
  policy?: ReviewPolicy;
  /** Which keys count as approvers (approvals.ts); default every key the log accepts. */
  isKnown?: (fingerprint: string) => boolean;
}

/**
 * Appends one signed decision. Throws {@link ReviewError}: `invalid-note`, `double-decision` (the transition is not
 * allowed for this digest), `broken-log`, `busy` (lock timeout) or `io`.
 */
export function appendDecision(home: string, draft: DecisionDraft, reviewer: Reviewer, opts: AppendOptions = {}): LoggedRecord {
  const rp = reasonProblem(draft.reason);
  if (rp !== undefined) throw new ReviewError("invalid-note", `--reason: ${rp}`);
  if (draft.public_note !== undefined) {
    const np = noteProblem(draft.public_note);
    if (np !== undefined) throw new ReviewError("invalid-note", `--public-note: ${np}`);
  }
  if (draft.private_note_sha256 !== undefined && !/^[0-9a-f]{64}$/.test(draft.private_note_sha256)) {
    throw new ReviewError("invalid-note", "private_note_sha256: expected 64 lowercase hexadecimal digits");
  }
  const nameProblem = reviewerNameProblem(reviewer.name);
  if (nameProblem !== undefined) {
    throw new ReviewError(
      "invalid-name",
      `reviewer name: ${nameProblem}; a name registered before names had this rule is renamed with 'evidence-bridge keys trust ${reviewer.key.fingerprint} --name "New Name"'`,
    );
  }
  const layout = reviewLayout(home);
  try {
    prepareDataDir(home);
    ensurePrivateDir(layout.dir);
  } catch (e) {
    throw new ReviewError("io", `cannot prepare ${layout.dir}: ${(e as Error).message}`);
  }
  return withFileLock(
    layout.lock,
    () => {
      const log = loadReviewLog(home);
      const registered = loadReviewerRegistry(home).get(reviewer.key.fingerprint);
      if (registered === undefined) {
        throw new ReviewError(
          "reviewer-key",
          `reviewer key ${reviewer.key.fingerprint} (${reviewer.name}) is not registered in this store: create reviewer keys with 'evidence-bridge keys init --reviewer NAME', or register this one with 'evidence-bridge keys trust ${reviewer.key.fingerprint} --name ${reviewer.name}'`,
        );
      }
      if (registered.name !== reviewer.name) {
        throw new ReviewError("reviewer-key", `reviewer key ${reviewer.key.fingerprint} is registered as ${registered.name}, not ${reviewer.name}: the name signed into a record is the registered one`);
      }
      const last = log.state.lastForDigest(draft.candidate_sha256);
      if (last?.record.decision === "APPROVED_FOR_RELEASE" && last.record.capsule_sha256 === draft.capsule_sha256) {
        const count = approvalsFor(log.state.recordsForDigest(draft.candidate_sha256), opts.policy ?? DEFAULT_POLICY, opts.isKnown ?? countedKeys(home));
        if (count.met) throw new ReviewError("double-decision", finalText(draft.candidate_sha256, draft.capsule_sha256, last));
      }
      const problem = log.state.transitionProblem(draft.capsule_sha256, draft.candidate_sha256, draft.decision, reviewer.key.fingerprint);
      if (problem !== undefined) throw new ReviewError("double-decision", problem);
      const seq = log.records.length + 1;
      const unsigned: UnsignedRecord = {
        schema_version: REVIEW_RECORD_SCHEMA,
        seq,
        prev_sha256: log.head,
        capsule_sha256: draft.capsule_sha256,
        candidate_sha256: draft.candidate_sha256,
        typology_match_visible: draft.typology_match_visible,
        decision: draft.decision,
        reason: draft.reason,
        private_note_sha256: draft.private_note_sha256 ?? null,
        public_note: draft.public_note ?? null,
        reviewer: { name: reviewer.name, fingerprint: reviewer.key.fingerprint, public_key: bytesToHex(reviewer.key.publicKey) },
        decided_at: decisionTime((opts.now ?? (() => new Date()))()),
      };
      const record = signRecord(unsigned, reviewer.key);
      const body = recordBytes(record);
      const line = new Uint8Array(body.length + 1);
      line.set(body);
      line[body.length] = 0x0a;
      appendLine(layout, line);
      const entry: LoggedRecord = { record, digest: sha256Hex(body), line: seq };
      try {
        writeHead(layout.dir, { records: seq, head_sha256: entry.digest });
      } catch (e) {
        throw new ReviewError("io", `record #${seq} was appended but the head file could not be updated: ${(e as Error).message}`);
      }
      try {
        writePosition(reviewersDir(home), reviewer.key, entry);
      } catch (e) {
        throw new ReviewError("io", `record #${seq} was appended but reviewer ${reviewer.name}'s position could not be updated: ${(e as Error).message}`);
      }
      return entry;
    },
    opts.lock,
  );
}

function appendLine(layout: ReviewLayout, line: Uint8Array): void {
  let fd: number;
  let created = false;
  try {
    try {
      fd = openSync(layout.log, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
    } catch (e) {
      if (errno(e) !== "ENOENT") throw e;
      fd = openSync(layout.log, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      created = true;
    }
  } catch (e) {
    throw new ReviewError("io", `cannot open the review log ${layout.log}: ${errno(e) ?? (e as Error).message}`);
  }
  try {
    const n = writeOnce(fd, line);
    if (n !== line.length) throw new ReviewError("io", `short write to the review log ${layout.log} (${n} of ${line.length} bytes)`);
    fsyncSync(fd);
  } catch (e) {
    if (e instanceof ReviewError) throw e;
    throw new ReviewError("io", `cannot append to the review log ${layout.log}: ${errno(e) ?? (e as Error).message}`);
  } finally {
    closeSync(fd);
  }
  if (created) fsyncDir(layout.dir);
}

/** One write call: the whole record lands in the file at once or the append reports failure. */
function writeOnce(fd: number, bytes: Uint8Array): number {
  return writeSync(fd, bytes, 0, bytes.length);
}
