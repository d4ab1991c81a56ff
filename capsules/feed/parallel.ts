/**
 * The feed spread over threads (product.md §11: 4,000 capsules in ≤ 3 s). The main thread hands out batches of
 * capsule ids; each worker opens the store's capsules with the store key, derives, and posts back feed items; the
 * main thread gathers them into the same {@link FeedCollector} as the single-thread feed, so the outcome (lines in
 * key order, counts, withheld list sorted by id) is identical. At most two batches per worker are in flight.
 *
 * With `thisThread` (what {@link runFeed} uses), the main thread derives batches too, between the workers'
 * messages: it starts at once instead of waiting for workers to load, and the core it runs on needs no worker.
 * Measured on the 2-core project machine over 4,000 capsules, this thread plus one worker used about a tenth
 * less CPU time than two workers beside an idle main thread, and was not slower: every worker loads the modules
 * and the pack again and JIT-compiles the same code again.
 *
 * A worker that cannot start (for example a runtime that cannot load the worker module) holds no batch yet: with
 * `thisThread` it is left out and this thread takes its share; otherwise it is reported as
 * {@link WorkerStartError}, and {@link runFeed} then builds the feed in this thread instead. Any failure after
 * the start is a {@link FeedError} and the whole feed fails (all or nothing).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { IntelligencePack } from "../../published/pack/types.js";
import type { SealedStore } from "../store/store.js";
import { FeedError } from "./errors.js";
import { buildFeed, FeedCollector, feedIds, feedItem, type FeedOptions, type FeedOutcome } from "./feed.js";
import type { FromWorker, ToWorker, WorkerInit } from "./worker-protocol.js";

/** Capsules per message (and per turn of this thread, which answers the workers between its turns). */
const BATCH = 32;
/** Below this many capsules the worker start-up costs more than it saves. */
export const PARALLEL_MIN_CAPSULES = 256;
/** At most this many worker threads ("auto"; an explicit number is taken as given). */
export const MAX_WORKERS = 4;

export class WorkerStartError extends Error {
  override readonly name = "WorkerStartError";
}

export interface ParallelFeedOptions extends FeedOptions {
  /**
   * Worker threads: a number, or "auto" (one per core besides this thread's, at most 4; none for small stores or
   * single-core machines).
   */
  workers?: number | "auto";
  /** This thread derives batches too (default in {@link runFeed}: true; in {@link buildFeedParallel}: false). */
  thisThread?: boolean;
  /** The pack file the workers load (it must still have the digest of `pack`). Required for workers. */
  packFile?: string;
}

/**
 * Starts one worker. Compiled, the worker module is feed-worker.js beside this file. Run from the TypeScript
 * sources (tsx, vitest), worker threads do not inherit the TypeScript loader, so the worker first registers tsx
 * (a development dependency, never loaded by the compiled program) and then imports feed-worker.ts.
 */
function startWorker(init: WorkerInit): Worker {
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./feed-worker.js", import.meta.url), { workerData: init });
  const source = new URL("./feed-worker.ts", import.meta.url).href;
  const bootstrap = `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(bootstrap, { eval: true, workerData: init });
}

/** How many workers "auto" means for `capsules` capsules, next to this thread. */
export function autoWorkers(capsules: number): number {
  const cores = availableParallelism();
  return cores < 2 || capsules < PARALLEL_MIN_CAPSULES ? 0 : Math.min(cores - 1, MAX_WORKERS);
}

/**
 * Builds the feed with `workers` worker threads (at most one per batch of `batch` capsules) and, with
 * `opts.thisThread`, this thread deriving batches too (then with at most one worker per batch after the first).
 */
export async function buildFeedParallel(
  store: SealedStore,
  pack: IntelligencePack,
  packFile: string,
  opts: ParallelFeedOptions,
  workers: number,
  batch = BATCH,
): Promise<FeedOutcome> {
  const ids = feedIds(store);
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += batch) batches.push(ids.slice(i, i + batch));
  const here = opts.thisThread === true;
  const count = here ? Math.max(0, Math.min(workers, batches.length - 1)) : Math.max(1, Math.min(workers, batches.length));
  const collector = new FeedCollector(ids.length, opts, count);
  const init: WorkerInit = {
    home: store.home,
    storeKey: store.keys.store.bytes,
    packFile,
    packSha256: pack.sha256,
    view: { includeTypologyMatches: opts.includeTypologyMatches, includeClean: opts.includeClean },
  };
  const pool: Worker[] = [];
  let started = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      let next = 0;
      let received = 0;
      let settled = false;
      const fail = (e: Error) => {
        if (settled) return;
        settled = true;
        reject(e);
      };
      /** Counts one finished batch; true when it was the last. */
      const finished = (): boolean => {
        if (++received < batches.length) return false;
        settled = true;
        resolve();
        return true;
      };
      const send = (w: Worker) => {
        if (next < batches.length) w.postMessage({ type: "batch", ids: batches[next++] } satisfies ToWorker);
      };
      if (batches.length === 0) return resolve();
      for (let i = 0; i < count; i++) {
        let ready = false;
        let gone = false;
        const w = startWorker(init);
        pool.push(w);
        /** A worker that failed before it started, while this thread derives too, is left out (it holds no batch). */
        const leaveOut = (): boolean => {
          if (ready || !here) return false;
          gone = true;
          return true;
        };
        w.on("message", (m: FromWorker) => {
          if (settled || gone) return;
          if (m.type === "ready") {
            ready = true;
            started++;
            send(w);
            send(w);
          } else if (m.type === "fatal") {
            if (!leaveOut()) fail(ready ? new FeedError(undefined, `feed worker: ${m.message}`) : new WorkerStartError(m.message));
          } else {
            try {
              for (const item of m.items) {
                if (item.status === "error") throw new FeedError(item.id, item.message);
                collector.add(item.id, item);
              }
            } catch (e) {
              return fail(e as Error);
            }
            if (!finished()) send(w);
          }
        });
        w.on("error", (e) => {
          if (settled || gone || leaveOut()) return;
          fail(ready ? new FeedError(undefined, `feed worker failed: ${e.message}`) : new WorkerStartError(e.message));
        });
        w.on("exit", (code) => {
          if (settled || gone || leaveOut()) return;
          fail(ready ? new FeedError(undefined, `feed worker exited early (code ${code})`) : new WorkerStartError(`exit code ${code}`));
        });
      }
      if (here) void deriveHere();

      /** This thread's share: one batch at a time, letting the workers' messages in between. */
      async function deriveHere(): Promise<void> {
        while (!settled && next < batches.length) {
          const share = batches[next++];
          try {
            for (const id of share) collector.add(id, feedItem(store, id, pack, opts));
          } catch (e) {
            return fail(e as Error);
          }
          if (finished()) return;
          await new Promise<void>((r) => setImmediate(r));
        }
      }
    });
    // Without this thread every worker must start (or the feed falls back); with it, count those that did.
    if (here) collector.outcome.workers = started;
    return collector.finish();
  } catch (e) {
    collector.abandon();
    throw e;
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

/**
 * The feed with the worker count of `opts.workers` (default "auto"): in this thread and worker threads when that
 * is worth it and the pack file is known, else (or when workers cannot start) in this thread alone.
 */
export async function runFeed(store: SealedStore | undefined, pack: IntelligencePack, opts: ParallelFeedOptions): Promise<FeedOutcome> {
  if (store === undefined || opts.packFile === undefined) return buildFeed(store, pack, opts);
  const workers = opts.workers === undefined || opts.workers === "auto" ? autoWorkers(feedIds(store).length) : opts.workers;
  if (workers <= 0) return buildFeed(store, pack, opts);
  try {
    return await buildFeedParallel(store, pack, opts.packFile, { ...opts, thisThread: opts.thisThread ?? true }, workers);
  } catch (e) {
    if (e instanceof WorkerStartError) return buildFeed(store, pack, opts);
    throw e;
  }
}
