/**
 * Rule 8 of product.md §8: a candidate's `created_at` is truncated to the hour in UTC. The exact second (or
 * microsecond) of a post or a submission can identify it.
 */
import { isUtcTimestamp } from "../assessment/text-rules.js";

/**
 * `2026-08-20T12:58:37.641214Z` → `2026-08-20T12:00:00Z`; `undefined` when `ts` is not an assessment timestamp
 * (assessment-v1 §2.2 grammar: UTC with `Z`, so the hour is already the UTC hour).
 */
export function truncateToHour(ts: string): string | undefined {
  if (!isUtcTimestamp(ts)) return undefined;
  return `${ts.slice(0, 13)}:00:00Z`;
}
