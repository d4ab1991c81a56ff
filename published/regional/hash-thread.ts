/**
 * A chunk hasher (chunk-hash.ts) that hashes in a helper thread, so SHA-256 runs beside parsing and checking
 * instead of after them. The validation stays synchronous: the threads share a ring of chunk buffers
 * (hash-ring.ts) and the validating thread blocks (Atomics.wait) only when it is a whole ring ahead, and at the end
 * for the result.
 *
 * Fail-safe by construction: if the thread cannot be created, its module cannot load, or it has not started
 * within {@link START_TIMEOUT_MS}, the validating thread takes the ring back (nothing of it has been hashed yet) and
 * hashes in this thread. A thread that fails after starting, or stops making progress for a minute (pure hashing of
 * valid buffers does neither), is an internal error ({@link HashThreadError}), never a hang. An unfinished digest
 * must be closed, which lets the thread end; the thread never keeps the process alive.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { sha256 } from "@noble/hashes/sha2.js";
import { CHUNK_BUFFER_BYTES, type ChunkHasher } from "./chunk-hash.js";
import {
  ABANDONED,
  CONSUMED,
  createRing,
  DONE,
  FAILED,
  FINAL,
  PRODUCED,
  ringOf,
  RUNNING,
  SLOT_BYTES,
  SLEEPING,
  SLOTS,
  START_FAILED,
  STARTING,
  STATE,
  WAITING,
  WAKE_BATCH,
  type Ring,
} from "./hash-ring.js";

/** How long the validating thread waits for the helper thread to start before hashing itself. */
export const START_TIMEOUT_MS = 10_000;
/** A running thread that hashes nothing for this long is taken as dead (an internal error, never a hang). */
const STALL_TIMEOUT_MS = 60_000;
/** Longest single wait; every wait re-checks the thread's state, so a missed wake-up costs at most this. */
const WAIT_SLICE_MS = 50;

if (SLOT_BYTES !== CHUNK_BUFFER_BYTES) throw new Error("internal: hash ring slots must be chunk buffers");

export class HashThreadError extends Error {
  override readonly name = "HashThreadError";
}

/**
 * The worker's module. Compiled, it is hash-thread-worker.js beside this file (in a bundle, only if the bundle
 * has it as an entry; otherwise the hash stays in this thread). Run from the TypeScript sources (tsx, vitest), the
 * worker first registers tsx, since worker threads do not inherit the TypeScript loader.
 */
function workerModule(): { url: string; tsx: boolean } | undefined {
  if (import.meta.url.endsWith(".ts")) return { url: new URL("./hash-thread-worker.ts", import.meta.url).href, tsx: true };
  const url = new URL("./hash-thread-worker.js", import.meta.url);
  return existsSync(fileURLToPath(url)) ? { url: url.href, tsx: false } : undefined;
}

/** The worker's bootstrap: loads the module and runs the loop; a module that cannot load reports START_FAILED. */
function bootstrap(module: { url: string; tsx: boolean }): string {
  const load = module.tsx
    ? `import("tsx/esm/api").then((tsx) => { tsx.register(); return import(${JSON.stringify(module.url)}); })`
    : `import(${JSON.stringify(module.url)})`;
  return `const { workerData } = require("node:worker_threads");
const control = new Int32Array(workerData.sab, 0, ${STATE + 1});
${load}.then((m) => m.runHashThread(workerData.sab), () => {
  Atomics.compareExchange(control, ${STATE}, ${STARTING}, ${START_FAILED});
  Atomics.notify(control, ${CONSUMED});
  Atomics.notify(control, ${DONE});
});`;
}

/**
 * A hasher backed by a new helper thread, or undefined when no thread can be started here (no worker module, or
 * the runtime refuses). `moduleUrl` replaces the worker module (tests).
 */
export function startHashThread(moduleUrl?: string): ThreadHasher | undefined {
  const module = moduleUrl !== undefined ? { url: moduleUrl, tsx: moduleUrl.endsWith(".ts") } : workerModule();
  if (module === undefined) return undefined;
  const sab = createRing();
  let worker: Worker;
  try {
    worker = new Worker(bootstrap(module), { eval: true, workerData: { sab } });
  } catch {
    return undefined;
  }
  worker.unref();
  // Failures reach the validating thread through the shared state; an 'error' event must not go unhandled.
  worker.on("error", () => undefined);
  return new ThreadHasher(ringOf(sab), worker);
}

export class ThreadHasher implements ChunkHasher {
  private produced = 0;
  private readonly started = Date.now();
  /** Set when this thread took the ring back: hashing continues here. */
  private inline: { hash: ReturnType<typeof sha256.create>; buf: Uint8Array } | undefined;
  private finished = false;

  constructor(
    private readonly ring: Ring,
    /** The helper thread (exposed for tests). */
    readonly worker: Worker,
  ) {}

  /** Whether hashing moved back to this thread (the helper thread did not start). */
  get tookOver(): boolean {
    return this.inline !== undefined;
  }

  buffer(): Uint8Array {
    return this.inline?.buf ?? this.ring.slot(this.produced);
  }

  submit(length: number): void {
    if (this.inline !== undefined) {
      if (length > 0) this.inline.hash.update(this.inline.buf.subarray(0, length));
      return;
    }
    this.publish(length, false);
    // The next slot must have been hashed before it is lent again.
    this.await(CONSUMED, () => this.inline !== undefined || this.produced - Atomics.load(this.ring.control, CONSUMED) < SLOTS);
  }

  finish(length: number): Uint8Array {
    this.finished = true;
    if (this.inline === undefined) {
      this.publish(length, true);
      this.await(DONE, () => this.inline !== undefined || Atomics.load(this.ring.control, DONE) === 1);
      if (this.inline === undefined) return this.ring.result.slice();
    } else if (length > 0) this.inline.hash.update(this.inline.buf.subarray(0, length));
    return this.inline!.hash.digest();
  }

  close(): void {
    if (this.finished) return;
    this.finished = true;
    const c = this.ring.control;
    Atomics.store(c, STATE, ABANDONED);
    Atomics.add(c, PRODUCED, 1);
    Atomics.notify(c, PRODUCED);
  }

  private publish(length: number, last: boolean): void {
    const c = this.ring.control;
    this.ring.lengths[this.produced % SLOTS] = length;
    if (last) Atomics.store(c, FINAL, this.produced + 1);
    this.produced++;
    Atomics.store(c, PRODUCED, this.produced);
    const pending = this.produced - Atomics.load(c, CONSUMED);
    if (last || (pending >= WAKE_BATCH && Atomics.load(c, SLEEPING) === 1)) Atomics.notify(c, PRODUCED);
  }

  /** Waits on control word `index` until `done()`, taking the ring back if the thread never starts. */
  private await(index: number, done: () => boolean): void {
    const c = this.ring.control;
    let consumed = Atomics.load(c, CONSUMED);
    let since = Date.now();
    while (!done()) {
      const state = Atomics.load(c, STATE);
      if (state === FAILED) throw new HashThreadError("content digest: the hash thread failed");
      const late = state === STARTING && Date.now() - this.started > START_TIMEOUT_MS;
      if (state === START_FAILED || (late && Atomics.compareExchange(c, STATE, STARTING, ABANDONED) === STARTING)) {
        this.takeOver();
        return;
      }
      if (Atomics.load(c, CONSUMED) !== consumed) {
        consumed = Atomics.load(c, CONSUMED);
        since = Date.now();
      } else if (state === RUNNING && Date.now() - since > STALL_TIMEOUT_MS) {
        throw new HashThreadError("content digest: the hash thread stopped making progress");
      }
      Atomics.store(c, WAITING, 1);
      const seen = Atomics.load(c, index);
      if (!done()) Atomics.wait(c, index, seen, WAIT_SLICE_MS);
      Atomics.store(c, WAITING, 0);
    }
  }

  /** The thread never started, so nothing has been hashed: hash every published chunk here, in order. */
  private takeOver(): void {
    // The producer never runs more than SLOTS chunks ahead, so all of them are still in the ring.
    const hash = sha256.create();
    for (let i = 0; i < this.produced; i++) hash.update(this.ring.slot(i).subarray(0, this.ring.lengths[i % SLOTS]));
    this.inline = { hash, buf: new Uint8Array(CHUNK_BUFFER_BYTES) };
  }
}
