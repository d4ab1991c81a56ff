/**
 * The review state folded from the log: the state of every candidate digest, and the latest record of every
 * capsule. The same fold checks each record's transition, so appending and verifying apply one rule set:
 *
 * - a digest belongs to one capsule (a candidate names its capsule, so the digest determines it);
 * - from `HUMAN_REVIEW_REQUIRED` any decision; from `NEEDS_MORE_EVIDENCE` approval or rejection; rejection is
 *   final for the same digest;
 * - after an approval (four-eyes, policy.ts), a key that has not approved this digest yet may add an approval or
 *   reject it; the key that approved may not decide those bytes again, and nobody may defer them. Whether the
 *   policy's approvals are already complete (then the bytes are final for everyone) is checked when appending
 *   (log.ts), not here: the log verifies the same whatever policy was in force when it was written.
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
  private readonly byDigest = new Map<string, LoggedRecord[]>();
  private readonly capsules = new Map<string, LoggedRecord>();

  /** Every record naming this candidate digest, in log order (what approvals.ts counts). */
  recordsForDigest(candidateSha256: string): readonly LoggedRecord[] {
    return this.byDigest.get(candidateSha256) ?? [];
  }

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

  /** Why `decision` by the key `fingerprint` on this candidate is not allowed now, or undefined when it is. */
  transitionProblem(capsuleSha256: string, candidateSha256: string, decision: Decision, fingerprint: string): string | undefined {
    const last = this.digests.get(candidateSha256);
    if (last === undefined) return undefined;
    const r = last.record;
    if (r.capsule_sha256 !== capsuleSha256) {
      return `candidate ${short(candidateSha256)} was recorded for capsule ${short(r.capsule_sha256)} in record #${r.seq}, not for capsule ${short(capsuleSha256)}`;
    }
    if (allowedDecisions(r.decision).includes(decision)) return undefined;
    if (r.decision === "APPROVED_FOR_RELEASE") {
      const own = this.recordsForDigest(candidateSha256).find((e) => e.record.decision === "APPROVED_FOR_RELEASE" && e.record.reviewer.fingerprint === fingerprint);
      if (own !== undefined) return finalText(candidateSha256, capsuleSha256, own);
      if (decision === "NEEDS_MORE_EVIDENCE") {
        return `candidate ${short(candidateSha256)} of capsule ${short(capsuleSha256)} was already APPROVED_FOR_RELEASE by ${r.reviewer.name} at ${r.decided_at} (record #${r.seq}); another reviewer may add an approval or reject it, not defer it`;
      }
      return undefined;
    }
    const by = `by ${r.reviewer.name} at ${r.decided_at} (record #${r.seq})`;
    if (r.decision === "NEEDS_MORE_EVIDENCE") {
      return `candidate ${short(candidateSha256)} of capsule ${short(capsuleSha256)} is already NEEDS_MORE_EVIDENCE ${by}; approve or reject it, or change the evidence`;
    }
    return finalText(candidateSha256, capsuleSha256, last);
  }

  /** Applies a record after checking its transition; returns the problem instead of applying a bad one. */
  apply(entry: LoggedRecord): string | undefined {
    const r = entry.record;
    const problem = this.transitionProblem(r.capsule_sha256, r.candidate_sha256, r.decision, r.reviewer.fingerprint);
    if (problem !== undefined) return problem;
    this.digests.set(r.candidate_sha256, entry);
    const all = this.byDigest.get(r.candidate_sha256);
    if (all === undefined) this.byDigest.set(r.candidate_sha256, [entry]);
    else all.push(entry);
    this.capsules.set(r.capsule_sha256, entry);
    return undefined;
  }
}

/** `candidate … was already DECISION by NAME at TIME (record #n); a decision on the same bytes is final`. */
export function finalText(candidateSha256: string, capsuleSha256: string, e: LoggedRecord): string {
  const r = e.record;
  return `candidate ${short(candidateSha256)} of capsule ${short(capsuleSha256)} was already ${r.decision} by ${r.reviewer.name} at ${r.decided_at} (record #${r.seq}); a decision on the same bytes is final`;
}
