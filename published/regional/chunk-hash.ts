/**
 * Where the canonical digest's bytes are hashed, chunk by chunk: in this thread ({@link InlineHasher}), or in a
 * helper thread (hash-thread.ts). The writer (canonical-digest.ts) fills the buffer a hasher lends it, then
 * submits it; the hasher may lend a different buffer each time.
 */
import { sha256 } from "@noble/hashes/sha2.js";

/** Bytes gathered before a chunk is submitted: large updates take @noble/hashes' whole-block path. */
export const CHUNK_BYTES = 1 << 16;
/** Size of every lent buffer: a chunk plus room for one piece of up to CHUNK_BYTES bytes. */
export const CHUNK_BUFFER_BYTES = 2 * CHUNK_BYTES;

export interface ChunkHasher {
  /** The buffer to fill ({@link CHUNK_BUFFER_BYTES} long). */
  buffer(): Uint8Array;
  /** Hashes the first `length` bytes of the buffer; the next {@link buffer} call may return another one. */
  submit(length: number): void;
  /** Hashes the first `length` bytes of the buffer as the last chunk and returns the SHA-256. */
  finish(length: number): Uint8Array;
  /** Releases what the hasher holds (a helper thread) when it will not be finished; harmless after finish. */
  close(): void;
}

/** SHA-256 in this thread, over one reused buffer. */
export class InlineHasher implements ChunkHasher {
  private readonly hash = sha256.create();
  private readonly buf = new Uint8Array(CHUNK_BUFFER_BYTES);

  buffer(): Uint8Array {
    return this.buf;
  }

  submit(length: number): void {
    if (length > 0) this.hash.update(this.buf.subarray(0, length));
  }

  finish(length: number): Uint8Array {
    this.submit(length);
    return this.hash.digest();
  }

  close(): void {}
}
