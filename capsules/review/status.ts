/**
 * How a review status is shown, everywhere: `review list`, `review show`, `capsule list`, the review page and the
 * MCP tools `list_capsules` / `get_candidates` all call {@link shownStatus}, so an approval short of the store's
 * four-eyes policy reads `APPROVED_FOR_RELEASE (1 of 2 approvals)` with `approvals.met: false` in every one of
 * them, and nothing presents it as released. Counting is approvals.ts ({@link approvalsFor}); the keys that count
 * are the signed reviewer registry's ({@link countedKeys}).
 *
 * Per capsule (`capsule list`, `list_capsules`, which list rows without deriving candidates) the status is the
 * decision of the capsule's latest record in the verified log, with the approvals of that record's candidate
 * digest. It does not check that the capsule's current candidate still has the decided digest: `review list`,
 * `review show` and `review export` do (queue.ts).
 */
import type { IndexEntry } from "../store/row-index.js";
import type { CapsuleRow } from "../store/rows.js";
import type { SealedStore } from "../store/store.js";
import { approvalsFor, approvalsText, countedKeys } from "./approvals.js";
import type { ReviewStatus } from "./decisions.js";
import { loadReviewLog } from "./log.js";
import { readReviewPolicy, type ReviewPolicy } from "./policy.js";
import type { LoggedRecord, ReviewState } from "./state.js";

/** The approvals of one candidate digest under the policy (the `approvals` member of every JSON view). */
export interface ApprovalsSummary {
  /** Distinct registered reviewer keys that approved these bytes. */
  counted: number;
  /** Approvals the store's policy requires. */
  required: number;
  /** True only when `review export` would release these bytes: enough approvals and no rejection. */
  met: boolean;
}

export interface ShownStatus {
  /** The log's state of these bytes. */
  status: ReviewStatus;
  approvals: ApprovalsSummary;
  /** `1 of 2 approvals` (always; the page's approvals line). */
  count: string;
  /** True when a rejection of these bytes vetoes their release (approvals.ts). */
  rejected: boolean;
  /** `APPROVED_FOR_RELEASE (1 of 2 approvals)`; any other status as it is. */
  text: string;
}

/** The one way to show a status: `decisions` are the records naming the candidate digest, in log order. */
export function shownStatus(status: ReviewStatus, decisions: readonly LoggedRecord[], policy: ReviewPolicy, isKnown: (fingerprint: string) => boolean): ShownStatus {
  const c = approvalsFor(decisions, policy, isKnown);
  const count = approvalsText(c);
  return {
    status,
    approvals: { counted: c.approvers.length, required: c.required, met: c.met },
    count,
    rejected: c.rejected !== undefined,
    text: status === "APPROVED_FOR_RELEASE" ? `${status} (${count})` : status,
  };
}

/** Everything {@link shownStatus} needs, read once per command or request. */
export interface StatusLens {
  state: ReviewState;
  policy: ReviewPolicy;
  isKnown: (fingerprint: string) => boolean;
}

/** The lens of the store in `store.home`: the verified log, the signed policy, the registered reviewer keys. */
export function statusLens(store: SealedStore): StatusLens {
  return { state: loadReviewLog(store.home).state, policy: readReviewPolicy(store), isKnown: countedKeys(store.home) };
}

/** The shown status of one candidate digest in the state `status` (a queue entry's status and digest). */
export function shownFor(lens: StatusLens, status: ReviewStatus, candidateSha256: string): ShownStatus {
  return shownStatus(status, lens.state.recordsForDigest(candidateSha256), lens.policy, lens.isKnown);
}

/** A listed row with its review status as shown (the `approvals` of the capsule's latest decided digest). */
export interface ReviewedRow extends CapsuleRow {
  approvals: ApprovalsSummary;
}

/**
 * The store's minimized rows with their review status and approvals (`capsule list`, `list_capsules`). Throws
 * {@link ReviewError} `broken-log` when the log does not verify, `policy` when the policy does not.
 */
export function reviewedRows(store: SealedStore, entries?: ReadonlyMap<string, IndexEntry>): { rows: ReviewedRow[]; shown: Map<string, ShownStatus> } {
  const lens = statusLens(store);
  const shown = new Map<string, ShownStatus>();
  const rows = store.rows({ entries }).map((row) => {
    const last = lens.state.lastForCapsule(row.id);
    const s = last === undefined ? shownStatus("HUMAN_REVIEW_REQUIRED", [], lens.policy, lens.isKnown) : shownFor(lens, last.record.decision, last.record.candidate_sha256);
    shown.set(row.id, s);
    return { ...row, review_status: s.status, approvals: s.approvals };
  });
  return { rows, shown };
}
