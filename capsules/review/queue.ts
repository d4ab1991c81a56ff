/**
 * The review queue: every stored capsule's candidate with its review status (product.md §8).
 *
 * A capsule's status comes from its latest decision record when the candidate re-derived in that record's view
 * still has the recorded digest; if the candidate changed since (new pack, new rules), the old decision no longer
 * covers these bytes and the candidate is back to `HUMAN_REVIEW_REQUIRED` (the superseded record is reported).
 * Capsules without a decision are derived in the requested view. Every view is a projection of the capsule's one
 * derivation (capsules/pipeline/stored.ts).
 */
import type { Candidate, CandidateView } from "../candidates/types.js";
import { feedOrderKey } from "../feed/order.js";
import type { StoredDerivations } from "../pipeline/stored.js";
import type { ReviewStatus } from "./decisions.js";
import type { LoggedRecord, ReviewState } from "./state.js";

export interface QueueEntry {
  capsule_sha256: string;
  status: ReviewStatus;
  candidate: Candidate;
  candidate_sha256: string;
  /** The record that gives the status (absent for `HUMAN_REVIEW_REQUIRED` without any decision on these bytes). */
  decision?: LoggedRecord;
  /** The capsule's latest record when it was made on other bytes than the current candidate. */
  superseded?: LoggedRecord;
}

export type EntryResult = { status: "entry"; entry: QueueEntry } | { status: "excluded" | "withheld"; reason: string };

/** The queue entry of one stored capsule (a full id). Store failures throw. */
export function queueEntry(derivations: StoredDerivations, state: ReviewState, id: string, view: CandidateView): EntryResult {
  const last = state.lastForCapsule(id);
  if (last !== undefined) {
    const r = derivations.candidate(id, { includeTypologyMatches: last.record.typology_match_visible, includeClean: true });
    if (r.status === "emitted" && r.digest === last.record.candidate_sha256) {
      return { status: "entry", entry: { capsule_sha256: id, status: last.record.decision, candidate: r.candidate, candidate_sha256: r.digest, decision: last } };
    }
  }
  const r = derivations.candidate(id, view);
  if (r.status !== "emitted") return r;
  const onThese = state.lastForDigest(r.digest);
  const entry: QueueEntry = { capsule_sha256: id, status: state.statusOf(r.digest), candidate: r.candidate, candidate_sha256: r.digest };
  if (onThese !== undefined) entry.decision = onThese;
  if (last !== undefined && last !== onThese) entry.superseded = last;
  return { status: "entry", entry };
}

export interface QueueOutcome {
  /** In feed order: created_at hour, then capsule id. */
  entries: QueueEntry[];
  excludedClean: number;
  withheld: { capsule_sha256: string; reason: string }[];
}

/** The queue over the whole store. A store failure is thrown with the capsule id prefixed. */
export function reviewQueue(
  derivations: StoredDerivations,
  state: ReviewState,
  view: CandidateView,
  onProgress?: (done: number, total: number) => void,
): QueueOutcome {
  const out: QueueOutcome = { entries: [], excludedClean: 0, withheld: [] };
  const ids = derivations.store.capsuleIds();
  ids.forEach((id, i) => {
    let r: EntryResult;
    try {
      r = queueEntry(derivations, state, id, view);
    } catch (e) {
      throw new Error(`capsule ${id}: ${(e as Error).message}`);
    }
    if (r.status === "entry") out.entries.push(r.entry);
    else if (r.status === "excluded") out.excludedClean++;
    else out.withheld.push({ capsule_sha256: id, reason: r.reason });
    onProgress?.(i + 1, ids.length);
  });
  out.entries.sort((a, b) => {
    const ka = feedOrderKey(a.candidate);
    const kb = feedOrderKey(b.candidate);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return out;
}
