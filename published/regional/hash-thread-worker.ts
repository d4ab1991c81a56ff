/**
 * The hash thread's loop (started by hash-thread.ts): hashes the ring's chunks in order with @noble/hashes and
 * writes the SHA-256 when the producer has published the last one. See hash-ring.ts for the protocol.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { ABANDONED, CONSUMED, DONE, FAILED, FINAL, PRODUCED, ringOf, RUNNING, SLEEPING, SLOTS, STARTING, STATE, WAITING } from "./hash-ring.js";

export function runHashThread(sab: SharedArrayBuffer): void {
  const ring = ringOf(sab);
  const c = ring.control;
  // The producer may have given up waiting for this thread to start.
  if (Atomics.compareExchange(c, STATE, STARTING, RUNNING) !== STARTING) return;
  try {
    const hash = sha256.create();
    let done = 0;
    for (;;) {
      const produced = Atomics.load(c, PRODUCED);
      if (Atomics.load(c, STATE) === ABANDONED) return;
      if (done === produced) {
        Atomics.store(c, SLEEPING, 1);
        Atomics.wait(c, PRODUCED, produced);
        Atomics.store(c, SLEEPING, 0);
        continue;
      }
      hash.update(ring.slot(done).subarray(0, ring.lengths[done % SLOTS]));
      done++;
      Atomics.store(c, CONSUMED, done);
      if (Atomics.load(c, WAITING) === 1) Atomics.notify(c, CONSUMED);
      if (Atomics.load(c, FINAL) === done) {
        ring.result.set(hash.digest());
        Atomics.store(c, DONE, 1);
        Atomics.notify(c, DONE);
        return;
      }
    }
  } catch {
    Atomics.store(c, STATE, FAILED);
    Atomics.notify(c, CONSUMED);
    Atomics.notify(c, DONE);
  }
}
