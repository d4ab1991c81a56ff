/**
 * The feed's parts shared by the full path (feed.ts: derive what the cache lacks) and the cached path
 * (cached-feed.ts): one capsule's feed item from its candidate, and the collector of items into the all-or-nothing
 * spool and the counts.
 */
import type { CandidateView, DeriveResult } from "../candidates/types.js";
import type { SealedStore } from "../store/store.js";
import { FeedError } from "./errors.js";
import { feedOrderKey } from "./order.js";
import { LineSpool, type SpoolOptions } from "./spool.js";

export interface FeedOptions extends CandidateView {
  /** Called after each capsule with the number done and the total. */
  onProgress?: (done: number, total: number) => void;
  spool?: SpoolOptions;
}

export interface WithheldEntry {
  capsule_sha256: string;
  reason: string;
}

export interface FeedOutcome {
  /** The finished lines; write them with `spool.writeSorted(out)`, then `spool.dispose()`. */
  spool: LineSpool;
  /** Capsules in the store when the feed started. */
  total: number;
  emitted: number;
  /** CLEAN assessments left out by policy (rule 7). */
  excludedClean: number;
  /** Sorted by capsule id. */
  withheld: WithheldEntry[];
}

/** What one capsule contributes to the feed. */
export type FeedItem =
  | { status: "emitted"; key: string; line: Uint8Array }
  | { status: "excluded" }
  | { status: "withheld"; reason: string };

const NEWLINE = 0x0a;

const CREATED_AT = Buffer.from('"created_at":"');
const latin1 = new TextDecoder("latin1");

/**
 * {@link feedOrderKey} read from a candidate's canonical bytes without parsing them: `"created_at":"` occurs once,
 * as the top-level member (no nested object of a candidate has that member, and inside a JSON string a quote is
 * always escaped), and its value is the fixed-width `YYYY-MM-DDTHH:00:00Z`.
 */
function orderKeyOf(bytes: Uint8Array, id: string): string {
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).indexOf(CREATED_AT) + CREATED_AT.length;
  return feedOrderKey({ created_at: latin1.decode(bytes.subarray(at, at + 20)), capsule_sha256: id });
}

/** Where feed items come from: a capsule's candidate in a view (capsules/pipeline/stored.ts, or cached rows). */
export interface CandidateSource {
  candidate(id: string, view: CandidateView): DeriveResult;
}

/** The feed item of stored capsule `id`; store failures and faults become a {@link FeedError} naming it. */
export function feedItem(derivations: CandidateSource, id: string, view: CandidateView): FeedItem {
  let result;
  try {
    result = derivations.candidate(id, view);
  } catch (e) {
    throw new FeedError(id, `capsule ${id}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (result.status === "emitted") {
    const line = new Uint8Array(result.bytes.length + 1);
    line.set(result.bytes);
    line[result.bytes.length] = NEWLINE;
    return { status: "emitted", key: orderKeyOf(result.bytes, id), line };
  }
  return result.status === "excluded" ? { status: "excluded" } : { status: "withheld", reason: result.reason };
}

/** Gathers feed items into the spool and the counts. */
export class FeedCollector {
  readonly outcome: FeedOutcome;
  private done = 0;

  constructor(
    total: number,
    private readonly opts: Pick<FeedOptions, "spool" | "onProgress">,
  ) {
    this.outcome = { spool: new LineSpool(opts.spool), total, emitted: 0, excludedClean: 0, withheld: [] };
  }

  add(id: string, item: FeedItem): void {
    const o = this.outcome;
    if (item.status === "emitted") {
      try {
        o.spool.add(item.key, item.line);
      } catch (e) {
        throw new FeedError(id, `capsule ${id}: cannot buffer the feed line: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      o.emitted++;
    } else if (item.status === "excluded") {
      o.excludedClean++;
    } else {
      o.withheld.push({ capsule_sha256: id, reason: item.reason });
    }
    this.opts.onProgress?.(++this.done, o.total);
  }

  finish(): FeedOutcome {
    this.outcome.withheld.sort((a, b) => (a.capsule_sha256 < b.capsule_sha256 ? -1 : 1));
    return this.outcome;
  }

  /** Drops the buffered lines (after a failure). */
  abandon(): void {
    this.outcome.spool.dispose();
  }
}

/**
 * The feed of `ids` from `source`, all or nothing: on a failure the buffered lines are dropped and the error (a
 * {@link FeedError} naming the capsule) propagates. `save` runs either way (what was derived goes to the cache).
 */
export function collectFeed(ids: readonly string[], source: CandidateSource, opts: FeedOptions, save: () => void): FeedOutcome {
  const collector = new FeedCollector(ids.length, opts);
  try {
    for (const id of ids) collector.add(id, feedItem(source, id, opts));
    return collector.finish();
  } catch (e) {
    collector.abandon();
    throw e;
  } finally {
    save();
  }
}

/** The ids to feed, in id order; a listing failure is a {@link FeedError}. */
export function feedIds(store: SealedStore | undefined): string[] {
  if (store === undefined) return [];
  try {
    return store.capsuleIds();
  } catch (e) {
    throw new FeedError(undefined, `cannot list the store: ${(e as Error).message}`);
  }
}

