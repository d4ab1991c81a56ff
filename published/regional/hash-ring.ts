/**
 * The memory the validating thread shares with the hash thread (hash-thread.ts, hash-thread-worker.ts): a ring of
 * {@link SLOTS} chunk buffers with their lengths, a few control words, and the 32-byte result.
 *
 * Protocol (all control words are read and written with Atomics):
 * - the producer fills slot `PRODUCED % SLOTS`, stores its length, then increments PRODUCED; it never gets more
 *   than SLOTS chunks ahead of CONSUMED;
 * - before publishing the last chunk it stores the total number of chunks in FINAL; the worker, having hashed
 *   that many, writes the result and sets DONE;
 * - wake-ups are rationed, since on a busy machine each one can cost the waker its time slice: the worker sets
 *   SLEEPING around its waits and the producer wakes it only when {@link WAKE_BATCH} chunks are pending (or at the
 *   last chunk); the producer sets WAITING around its waits and the worker wakes it only then;
 * - STATE: the worker moves STARTING → RUNNING when it starts (or STARTING → START_FAILED when its module cannot
 *   load); the producer may move STARTING → ABANDONED (the worker never started: the producer hashes the ring
 *   itself), and sets ABANDONED when it gives up on an unfinished digest; a worker that fails while running sets
 *   FAILED. Every change of STATE is followed by a change of PRODUCED (or a notify), so no waiter misses it.
 */

export const SLOTS = 32;
/** Each slot is one lent buffer of the chunk hasher (chunk-hash.ts: CHUNK_BUFFER_BYTES). */
export const SLOT_BYTES = 1 << 17;

/** Control word indexes. */
export const PRODUCED = 0;
export const CONSUMED = 1;
export const FINAL = 2;
export const STATE = 3;
export const DONE = 4;
export const SLEEPING = 5;
export const WAITING = 6;
const CONTROL_WORDS = 8;

/** Pending chunks that make the producer wake a sleeping worker. */
export const WAKE_BATCH = (SLOTS * 3) / 4;

/** Values of the STATE word. */
export const STARTING = 0;
export const RUNNING = 1;
export const ABANDONED = 2;
export const START_FAILED = 3;
export const FAILED = 4;

const LENGTHS_AT = CONTROL_WORDS * 4;
const RESULT_AT = LENGTHS_AT + SLOTS * 4;
const DATA_AT = RESULT_AT + 32;

export interface Ring {
  readonly control: Int32Array;
  readonly lengths: Int32Array;
  readonly result: Uint8Array;
  slot(i: number): Uint8Array;
}

export function createRing(): SharedArrayBuffer {
  return new SharedArrayBuffer(DATA_AT + SLOTS * SLOT_BYTES);
}

export function ringOf(sab: SharedArrayBuffer): Ring {
  const slots = Array.from({ length: SLOTS }, (_, i) => new Uint8Array(sab, DATA_AT + i * SLOT_BYTES, SLOT_BYTES));
  return {
    control: new Int32Array(sab, 0, CONTROL_WORDS),
    lengths: new Int32Array(sab, LENGTHS_AT, SLOTS),
    result: new Uint8Array(sab, RESULT_AT, 32),
    slot: (i: number) => slots[i % SLOTS],
  };
}
