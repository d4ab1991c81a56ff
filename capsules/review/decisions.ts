/**
 * Review states and decisions (product.md §8): a candidate starts `HUMAN_REVIEW_REQUIRED`; a reviewer moves it to
 * `APPROVED_FOR_RELEASE`, `REJECTED` or `NEEDS_MORE_EVIDENCE`. `NEEDS_MORE_EVIDENCE` returns the candidate to the
 * queue: it may later be approved or rejected. Rejection is final for those exact bytes (the candidate digest);
 * approval is final once the review policy's number of distinct reviewer keys approved them (four-eyes,
 * policy.ts); a changed candidate has a new digest and is reviewed afresh.
 */
import { REVIEW_STATUSES, type ReviewStatus } from "../store/rows.js";

export { REVIEW_STATUSES, type ReviewStatus };

export const DECISIONS = ["APPROVED_FOR_RELEASE", "REJECTED", "NEEDS_MORE_EVIDENCE"] as const;
export type Decision = (typeof DECISIONS)[number];

/** CLI verb → decision. */
export const VERB_DECISIONS = {
  approve: "APPROVED_FOR_RELEASE",
  reject: "REJECTED",
  defer: "NEEDS_MORE_EVIDENCE",
} as const satisfies Record<string, Decision>;
export type ReviewVerb = keyof typeof VERB_DECISIONS;

export function isDecision(v: unknown): v is Decision {
  return typeof v === "string" && (DECISIONS as readonly string[]).includes(v);
}

/**
 * The decisions allowed from a state by anyone; rejection is final for the same bytes. After an approval, further
 * approvals and rejections by other keys depend on the reviewer and the policy (state.ts, log.ts).
 */
export function allowedDecisions(state: ReviewStatus): readonly Decision[] {
  switch (state) {
    case "HUMAN_REVIEW_REQUIRED":
      return DECISIONS;
    case "NEEDS_MORE_EVIDENCE":
      return ["APPROVED_FOR_RELEASE", "REJECTED"];
    default:
      return [];
  }
}
