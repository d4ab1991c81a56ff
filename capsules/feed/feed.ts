/**
 * `feed` (product.md §5, §8; assessment-v1 §7.3 F1): the outward candidate of every stored capsule as JSONL,
 * one canonical candidate + LF per line, in the stable order of order.ts.
 *
 * All or nothing: every line is built into a {@link LineSpool} first; the caller writes the spool only when the
 * feed is complete, so a failure leaves stdout empty. A failure is a {@link FeedError} naming the capsule: a sealed
 * file that cannot be read, authenticated or matched to its id, or any unexpected fault while deriving. A capsule
 * that yields no candidate by policy is not a failure: CLEAN assessments are `excluded` (unless `includeClean`),
 * and capsules whose candidate the hardening or the leak guard refused are `withheld`, each with its reason
 * (paths and rules only, never a value). Only outward lines are kept; plaintext capsules live in memory for the
 * duration of one derivation.
 *
 * Each capsule's candidate is a projection of its derivation (capsules/pipeline/stored.ts): a read of the sealed
 * derivation cache when it holds the capsule's row for this pack and policy, else one derivation from the opened
 * sealed capsule, which the feed then writes to the cache, so a second feed over an unchanged store reads sealed
 * rows only (docs/feed.md).
 *
 * {@link buildFeed} works through the store in this thread. Worker threads were removed once hashing became
 * native: over 1,000 stored capsules on the shared 2-core machine (load avg 17), this thread alone took 3.3–4.7 s
 * wall / 1.0–1.1 s CPU, this thread plus one worker 6.4–7.8 s / 2.0–2.2 s (each worker loads the modules and the
 * pack again and JIT-compiles the same code).
 */
import type { IntelligencePack } from "../../published/pack/types.js";
import { StoredDerivations } from "../pipeline/stored.js";
import type { SealedStore } from "../store/store.js";
import { collectFeed, FeedCollector, feedIds, type FeedOptions, type FeedOutcome } from "./collector.js";

export { FeedCollector, feedIds, feedItem, type CandidateSource, type FeedItem, type FeedOptions, type FeedOutcome, type WithheldEntry } from "./collector.js";

/**
 * Builds the feed over every capsule of `store` (none when `store` is undefined: no store yet), in this thread.
 * On failure the buffered lines are dropped and a {@link FeedError} names the capsule.
 */
export function buildFeed(store: SealedStore | undefined, pack: IntelligencePack, opts: FeedOptions): FeedOutcome {
  if (store === undefined) return new FeedCollector(0, opts).finish();
  const ids = feedIds(store);
  const derivations = new StoredDerivations(store, pack);
  return collectFeed(ids, derivations, opts, () => derivations.save());
}
