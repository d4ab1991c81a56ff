/**
 * Review status per capsule for callers that list capsules without deriving candidates (`capsule list`, the MCP
 * `list_capsules` tool): the decision of the capsule's latest record, read from the verified log. It does not
 * check that the capsule's current candidate still has the decided digest: `review list` and `review export` do.
 */
import type { ReviewStatus } from "./decisions.js";
import { loadReviewLog } from "./log.js";

/**
 * A lookup for `SealedStore.rows({ reviewStatus })`. Throws {@link ReviewError} `broken-log` when the log does not
 * verify (statuses from a tampered log would be meaningless).
 */
export function capsuleReviewStatus(home: string): (capsuleSha256: string) => ReviewStatus | undefined {
  const log = loadReviewLog(home);
  return (id) => log.state.lastForCapsule(id)?.record.decision;
}
