/**
 * `feed` (product.md §5, §8; assessment-v1 §7.3 F1): the outward candidate of every stored capsule as JSONL,
 * one canonical candidate + LF per line, in the stable order of order.ts.
 *
 * All or nothing: every line is built into a {@link LineSpool} first; the caller writes the spool only when this
 * returns, so a failure leaves stdout empty. A failure is a {@link FeedError} naming the capsule: a sealed file
 * that cannot be read, authenticated or matched to its id, or any unexpected fault while deriving. A capsule
 * that yields no candidate by policy is not a failure: CLEAN assessments are `excluded` (unless `includeClean`),
 * and capsules whose candidate the hardening or the leak guard refused are `withheld`, each with its reason
 * (paths and rules only, never a value). Capsules are processed one at a time; only outward lines are kept.
 */
import type { IntelligencePack } from "../../src/pack/types.js";
import type { SealedStore } from "../store/store.js";
import { FeedError } from "./errors.js";
import { feedOrderKey } from "./order.js";
import { LineSpool, type SpoolOptions } from "./spool.js";
import { deriveStoredCandidate, type CandidateView } from "./stored-candidate.js";

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
  withheld: WithheldEntry[];
}

const NEWLINE = 0x0a;

/**
 * Builds the feed over every capsule of `store` (none when `store` is undefined: no store yet). On failure the
 * spool is disposed and a {@link FeedError} names the capsule.
 */
export function buildFeed(store: SealedStore | undefined, pack: IntelligencePack, opts: FeedOptions): FeedOutcome {
  const spool = new LineSpool(opts.spool);
  const outcome: FeedOutcome = { spool, total: 0, emitted: 0, excludedClean: 0, withheld: [] };
  try {
    const ids = store === undefined ? [] : store.capsuleIds();
    outcome.total = ids.length;
    ids.forEach((id, i) => {
      let result;
      try {
        result = deriveStoredCandidate(store!, id, pack, opts);
      } catch (e) {
        throw new FeedError(id, `capsule ${id}: ${e instanceof Error ? e.message : String(e)}`);
      }
      if (result.status === "emitted") {
        const line = new Uint8Array(result.bytes.length + 1);
        line.set(result.bytes);
        line[result.bytes.length] = NEWLINE;
        try {
          spool.add(feedOrderKey(result.candidate), line);
        } catch (e) {
          throw new FeedError(id, `capsule ${id}: cannot buffer the feed line: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
        }
        outcome.emitted++;
      } else if (result.status === "excluded") {
        outcome.excludedClean++;
      } else {
        outcome.withheld.push({ capsule_sha256: id, reason: result.reason });
      }
      opts.onProgress?.(i + 1, ids.length);
    });
    return outcome;
  } catch (e) {
    spool.dispose();
    if (e instanceof FeedError) throw e;
    throw new FeedError(undefined, `cannot list the store: ${(e as Error).message}`);
  }
}
