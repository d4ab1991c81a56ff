/**
 * The feed over an unchanged store: every capsule's candidate read from the sealed derivation cache
 * (capsules/store/derivation-cache.ts), without loading the derivation code or the guard's tables. When any stored
 * capsule has no usable row, {@link feedFromCache} answers undefined and the caller runs the full feed (feed.ts),
 * which derives what is missing and saves it.
 */
import type { IntelligencePack } from "../../published/pack/types.js";
import { candidateView } from "../pipeline/derivation.js";
import { DerivationCache, type CachedOutcome } from "../store/derivation-cache.js";
import type { SealedStore } from "../store/store.js";
import { collectFeed, feedIds, type FeedOptions, type FeedOutcome } from "./collector.js";

/** The feed from cached rows only, or undefined when a capsule lacks one (nothing was buffered then). */
export function feedFromCache(store: SealedStore, pack: IntelligencePack, opts: FeedOptions): FeedOutcome | undefined {
  const ids = feedIds(store);
  const cache = new DerivationCache({ root: store.layout.root, key: store.keys.store }, pack.sha256);
  const rows = new Map<string, CachedOutcome>();
  for (const id of ids) {
    const row = cache.outcome(id);
    if (row === undefined) return undefined;
    rows.set(id, row);
  }
  const source = { candidate: (id: string, view: FeedOptions) => candidateView(rows.get(id)!, view) };
  // Pending rows (capsules stored since) were merged: they are written into the cache files.
  return collectFeed(ids, source, opts, () => cache.save(() => new Set(ids)));
}
