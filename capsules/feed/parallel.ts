/**
 * The feed spread over worker threads (product.md §11: 4,000 capsules in ≤ 3 s). The main thread hands out
 * batches of capsule ids; each worker opens the store with the same keys, derives, and posts back feed items; the
 * main thread gathers them into the same {@link FeedCollector} as the single-thread feed, so the outcome (lines in
 * key order, counts, withheld list sorted by id) is identical. At most two batches per worker are in flight.
 *
 * A worker that cannot start (for example a runtime that cannot load the worker module) is reported as
 * {@link WorkerStartError}, and {@link runFeed} then builds the feed in this thread instead. Any failure after
 * the start is a {@link FeedError} and the whole feed fails (all or nothing).
 */
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { IntelligencePack } from "../../src/pack/types.js";
import type { SealedStore } from "../store/store.js";
import { FeedError } from "./errors.js";
import { buildFeed, FeedCollector, feedIds, type FeedOptions, type FeedOutcome } from "./feed.js";
import type { FromWorker, ToWorker, WorkerInit } from "./worker-protocol.js";

/** Capsules per message. */
const BATCH = 64;
/** Below this many capsules the worker start-up costs more than it saves. */
export const PARALLEL_MIN_CAPSULES = 256;
/** At most this many workers. */
export const MAX_WORKERS = 4;

export class WorkerStartError extends Error {
  override readonly name = "WorkerStartError";
}

export interface ParallelFeedOptions extends FeedOptions {
  /** Worker threads: a number, or "auto" (cores, at most 4, none for small stores or single-core machines). */
  workers?: number | "auto";
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

/** How many workers "auto" means for `capsules` capsules. */
export function autoWorkers(capsules: number): number {
  const cores = availableParallelism();
  return cores < 2 || capsules < PARALLEL_MIN_CAPSULES ? 0 : Math.min(cores, MAX_WORKERS);
}

/** Builds the feed with `workers` worker threads (at most one per batch of `batch` capsules). */
export async function buildFeedParallel(
  store: SealedStore,
  pack: IntelligencePack,
  packFile: string,
  opts: FeedOptions,
  workers: number,
  batch = BATCH,
): Promise<FeedOutcome> {
  const ids = feedIds(store);
  const batches: string[][] = [];
  for (let i = 0; i < ids.length; i += batch) batches.push(ids.slice(i, i + batch));
  const count = Math.max(1, Math.min(workers, batches.length));
  const collector = new FeedCollector(ids.length, opts, count);
  const init: WorkerInit = {
    home: store.home,
    mode: store.keys.mode,
    storeKey: store.keys.store.bytes,
    signingSeed: store.keys.signing.seed,
    packFile,
    packSha256: pack.sha256,
    view: { includeTypologyMatches: opts.includeTypologyMatches, includeClean: opts.includeClean },
  };
  const pool: Worker[] = [];
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
      const send = (w: Worker) => {
        if (next < batches.length) w.postMessage({ type: "batch", ids: batches[next++] } satisfies ToWorker);
      };
      if (batches.length === 0) return resolve();
      for (let i = 0; i < count; i++) {
        let ready = false;
        const w = startWorker(init);
        pool.push(w);
        w.on("message", (m: FromWorker) => {
          if (settled) return;
          if (m.type === "ready") {
            ready = true;
            send(w);
            send(w);
          } else if (m.type === "fatal") {
            fail(ready ? new FeedError(undefined, `feed worker: ${m.message}`) : new WorkerStartError(m.message));
          } else {
            try {
              for (const item of m.items) {
                if (item.status === "error") throw new FeedError(item.id, item.message);
                collector.add(item.id, item);
              }
            } catch (e) {
              return fail(e as Error);
            }
            received++;
            if (received === batches.length) {
              settled = true;
              resolve();
            } else send(w);
          }
        });
        w.on("error", (e) => fail(ready ? new FeedError(undefined, `feed worker failed: ${e.message}`) : new WorkerStartError(e.message)));
        w.on("exit", (code) => fail(ready ? new FeedError(undefined, `feed worker exited early (code ${code})`) : new WorkerStartError(`exit code ${code}`)));
      }
    });
    return collector.finish();
  } catch (e) {
    collector.abandon();
    throw e;
  } finally {
    await Promise.all(pool.map((w) => w.terminate()));
  }
}

/**
 * The feed with the worker count of `opts.workers` (default "auto"): in worker threads when that is worth it and
 * the pack file is known, else (or when workers cannot start) in this thread.
 */
export async function runFeed(store: SealedStore | undefined, pack: IntelligencePack, opts: ParallelFeedOptions): Promise<FeedOutcome> {
  if (store === undefined || opts.packFile === undefined) return buildFeed(store, pack, opts);
  const workers = opts.workers === undefined || opts.workers === "auto" ? autoWorkers(feedIds(store).length) : opts.workers;
  if (workers <= 0) return buildFeed(store, pack, opts);
  try {
    return await buildFeedParallel(store, pack, opts.packFile, opts, workers);
  } catch (e) {
    if (e instanceof WorkerStartError) return buildFeed(store, pack, opts);
    throw e;
  }
}
