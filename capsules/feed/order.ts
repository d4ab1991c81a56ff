/**
 * The feed's stable order: by the candidate's `created_at` (already truncated to the hour, UTC), oldest first,
 * then by `capsule_sha256`. The key uses outward fields only, so a consumer can check the order from the feed
 * itself, and within one hour the order follows the digests, not the exact (private) second of each message.
 */
import type { Candidate } from "../candidates/types.js";

/** Sort key of a candidate: fixed-width hour timestamp, NUL, capsule digest (plain string comparison orders it). */
export function feedOrderKey(candidate: Pick<Candidate, "created_at" | "capsule_sha256">): string {
  return `${candidate.created_at}\u0000${candidate.capsule_sha256}`;
}
