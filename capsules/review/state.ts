/**
 * The review state folded from the log: the state of every candidate digest, and the latest record of every
 * capsule. The same fold checks each record's transition, so appending and verifying apply one rule set:
 *
 * - a digest belongs to one capsule (a candidate names its capsule, so the digest determines it);
 * - from `HUMAN_REVIEW_REQUIRED` any decision; from `NEEDS_MORE_EVIDENCE` approval or rejection; approval and
 *   rejection are final for the same digest (a second decision on those bytes is refused).
 */
import { allowedDecisions, type Decision, type ReviewStatus } from "./decisions.js";
import type { ReviewRecord } from "./record.js";

export interface LoggedRecord {
  record: ReviewRecord;
  /** Record digest (what the next record's `prev_sha256` names). */
  digest: string;
  /** 1-based line number in the log file. */
  line: number;
}

const SHORT = 12;

function short(hex: string): string {
  return hex.slice(0, SHORT);
}

export class ReviewState {
  private readonly digests = new Map<string, LoggedRecord>();
  private readonly capsules = new Map<string, LoggedRecord>();

  /** State of a candidate digest (`HUMAN_REVIEW_REQUIRED` when no record names it). */
  statusOf(candidateSha256: string): ReviewStatus {
    return this.digests.get(candidateSha256)?.record.decision ?? "HUMAN_REVIEW_REQUIRED";
  }

  /** The latest record naming this candidate digest. */
  lastForDigest(candidateSha256: string): LoggedRecord | undefined {
    return this.digests.get(candidateSha256);
  }

  /** The latest record naming this capsule (over all of its candidate digests). */
  lastForCapsule(capsuleSha256: string): LoggedRecord | undefined {
    return this.capsules.get(capsuleSha256);
  }

  /** Every capsule's latest record, in log order of those records. */
  latestPerCapsule(): LoggedRecord[] {
    return [...this.capsules.values()].sort((a, b) => a.record.seq - b.record.seq);
  }

  /** Why `decision` on this candidate is not allowed now, or undefined when it is. */
  transitionProblem(capsuleSha256: string, candidateSha256: string, decision: Decision): string | undefined {
    const last = this.digests.get(candidateSha256);
    if (last === undefined) return undefined;
    const r = last.record;
    if (r.capsule_sha256 !== capsuleSha256) {
      return `candidate ${short(candidateSha256)} was recorded for capsule ${short(r.capsule_sha256)} in record #${r.seq}, not for capsule ${short(capsuleSha256)}`;
    }
    if (allowedDecisions(r.decision).includes(decision)) return undefined;
    const by = `by ${r.reviewer.name} at ${r.decided_at} (record #${r.seq})`;
    if (r.decision === "NEEDS_MORE_EVIDENCE") {
      return `candidate ${short(candidateSha256)} of capsule ${short(capsuleSha256)} is already NEEDS_MORE_EVIDENCE ${by}; approve or reject it, or change the evidence`;
    }
    return `candidate ${short(candidateSha256)} of capsule ${short(capsuleSha256)} was already ${r.decision} ${by}; a decision on the same bytes is final`;
  }

  /** Applies a record after checking its transition; returns the problem instead of applying a bad one. */
  apply(entry: LoggedRecord): string | undefined {
    const r = entry.record;
    const problem = this.transitionProblem(r.capsule_sha256, r.candidate_sha256, r.decision);
    if (problem !== undefined) return problem;
    this.digests.set(r.candidate_sha256, entry);
    this.capsules.set(r.capsule_sha256, entry);
    return undefined;
  }
}
