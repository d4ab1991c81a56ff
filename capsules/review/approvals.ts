/**
 * Four-eyes counting: how many distinct reviewer keys approved one candidate digest, against the policy's
 * required number (policy.ts). This is the ONE place that counts approvals; `review export`, the append-time
 * finality check and every display of a status (status.ts `shownStatus`) call {@link approvalsFor}.
 *
 * - Only `APPROVED_FOR_RELEASE` records on the given digest count, once per key fingerprint (the same key approving
 *   twice is refused by the log anyway; counting by fingerprint makes a duplicate harmless).
 * - A `REJECTED` record on the digest vetoes: the candidate is not releasable, whatever came before.
 * - `isKnown` says whether a key counts. Callers pass {@link countedKeys}(home): the keys of the store's signed
 *   reviewer registry (an approval by any other key is never counted).
 */
import { loadReviewerRegistry, type ReviewerRegistry } from "./reviewer-registry.js";
import type { LoggedRecord } from "./state.js";
import type { ReviewerIdentity } from "./record.js";
import type { ReviewPolicy } from "./policy.js";

export interface ApprovalCount {
  /** Approvals the policy requires. */
  required: number;
  /** Distinct counted approvers, in the order of their first approval. */
  approvers: { reviewer: ReviewerIdentity; entry: LoggedRecord }[];
  /** Approvals by keys `isKnown` refused (shown, never counted). */
  uncounted: LoggedRecord[];
  /** The rejection that vetoes release, if any. */
  rejected?: LoggedRecord;
  /** True when `approvers.length >= required` and nothing rejected the digest. */
  met: boolean;
}

/** Every key the verified log accepts. */
export const acceptedByLog = (_fingerprint: string): boolean => true;

/**
 * The keys whose approvals count for the data directory `home`: the reviewer keys of the store's signed registry
 * (reviewer-registry.ts; an unverifiable registry counts no key). Every caller passes this to {@link approvalsFor}.
 * The registry is read and its signature checked once, at the first question, for the life of the returned
 * function (one command or request), not once per approval record.
 */
export function countedKeys(home: string): (fingerprint: string) => boolean {
  let registry: ReviewerRegistry | null | undefined;
  return (fingerprint) => {
    if (registry === undefined) {
      try {
        registry = loadReviewerRegistry(home);
      } catch {
        registry = null;
      }
    }
    return registry !== null && registry.isKnown(fingerprint);
  };
}

/** Counts the approvals of one candidate digest; `decisions` are the records naming that digest, in log order. */
export function approvalsFor(
  decisions: readonly LoggedRecord[],
  policy: ReviewPolicy,
  isKnown: (fingerprint: string) => boolean = acceptedByLog,
): ApprovalCount {
  const seen = new Set<string>();
  const out: ApprovalCount = { required: policy.approvals, approvers: [], uncounted: [], met: false };
  for (const entry of decisions) {
    const r = entry.record;
    if (r.decision === "REJECTED") out.rejected ??= entry;
    if (r.decision !== "APPROVED_FOR_RELEASE") continue;
    if (!isKnown(r.reviewer.fingerprint)) {
      out.uncounted.push(entry);
      continue;
    }
    if (seen.has(r.reviewer.fingerprint)) continue;
    seen.add(r.reviewer.fingerprint);
    out.approvers.push({ reviewer: r.reviewer, entry });
  }
  out.met = out.rejected === undefined && out.approvers.length >= out.required;
  return out;
}

/** `1 of 2 approvals` (what `review list` and the page show). */
export function approvalsText(c: ApprovalCount): string {
  return `${c.approvers.length} of ${c.required} approval${c.required === 1 ? "" : "s"}`;
}
