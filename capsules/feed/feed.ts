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
import type { CandidateView } from "../candidates/types.js";
import { StoredDerivations } from "../pipeline/stored.js";
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

/** The feed item of stored capsule `id`; store failures and faults become a {@link FeedError} naming it. */
export function feedItem(derivations: StoredDerivations, id: string, view: CandidateView): FeedItem {
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

/** The ids to feed, in id order; a listing failure is a {@link FeedError}. */
export function feedIds(store: SealedStore | undefined): string[] {
  if (store === undefined) return [];
  try {
    return store.capsuleIds();
  } catch (e) {
    throw new FeedError(undefined, `cannot list the store: ${(e as Error).message}`);
  }
}

/**
 * Builds the feed over every capsule of `store` (none when `store` is undefined: no store yet), in this thread.
 * On failure the buffered lines are dropped and a {@link FeedError} names the capsule.
 */
export function buildFeed(store: SealedStore | undefined, pack: IntelligencePack, opts: FeedOptions): FeedOutcome {
  const ids = feedIds(store);
  const collector = new FeedCollector(ids.length, opts);
  if (store === undefined) return collector.finish();
  const derivations = new StoredDerivations(store, pack);
  try {
    for (const id of ids) collector.add(id, feedItem(derivations, id, opts));
    return collector.finish();
  } catch (e) {
    collector.abandon();
    throw e;
  } finally {
    derivations.save();
  }
}
