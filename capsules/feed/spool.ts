/**
 * The all-or-nothing output buffer of the feed (assessment-v1 §7.3 F1): every line is built before anything is
 * written. Lines are kept in memory up to {@link SPOOL_MEMORY_BYTES}, then everything spills to a temporary file
 * (mode 0600 in a fresh 0700 directory under the system temporary directory), so memory stays bounded however
 * large the store is. Only outward candidates (already leak-guarded, not secret) ever go through a spool:
 * plaintext capsules never do.
 *
 * Each line carries a sort key; {@link LineSpool.writeSorted} emits the lines in key order (ties keep insertion
 * order), reading spilled lines back with positioned reads.
 */
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Writable } from "node:stream";

/** Lines are held in memory up to this many bytes before the spool moves to a temporary file. */
export const SPOOL_MEMORY_BYTES = 8 * 1024 * 1024;
/** Bytes gathered per write to the output stream. */
const WRITE_CHUNK = 256 * 1024;

interface Entry {
  key: string;
  seq: number;
  offset: number;
  length: number;
  /** Present while the spool is in memory. */
  bytes?: Uint8Array;
}

export interface SpoolOptions {
  /** Memory limit before spilling (tests lower it). */
  memoryBytes?: number;
  /** Directory for the temporary directory (default: the system's). */
  tempRoot?: string;
}

export class LineSpool {
  private readonly entries: Entry[] = [];
  private readonly memoryLimit: number;
  private readonly tempRoot: string;
  private memoryBytes = 0;
  private fileBytes = 0;
  private dir: string | undefined;
  private fd: number | undefined;
  private disposed = false;

  constructor(opts: SpoolOptions = {}) {
    this.memoryLimit = opts.memoryBytes ?? SPOOL_MEMORY_BYTES;
    this.tempRoot = opts.tempRoot ?? tmpdir();
  }

  /** Number of lines held. */
  get size(): number {
    return this.entries.length;
  }

  /** Total bytes held. */
  get bytes(): number {
    return this.memoryBytes + this.fileBytes;
  }

  /** True once the lines live in a temporary file. */
  get spilled(): boolean {
    return this.fd !== undefined;
  }

  /** Adds one line (the bytes exactly as they will be written, newline included). */
  add(key: string, line: Uint8Array): void {
    if (this.disposed) throw new Error("spool already disposed");
    const entry: Entry = { key, seq: this.entries.length, offset: 0, length: line.length };
    if (this.fd === undefined && this.memoryBytes + line.length <= this.memoryLimit) {
      entry.bytes = line;
      this.memoryBytes += line.length;
      this.entries.push(entry);
      return;
    }
    if (this.fd === undefined) this.spill();
    entry.offset = this.fileBytes;
    this.writeAll(line);
    this.entries.push(entry);
  }

  /** Writes every line to `out` in key order, respecting backpressure. */
  async writeSorted(out: Writable): Promise<void> {
    const order = [...this.entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.seq - b.seq));
    let chunk: Buffer[] = [];
    let chunkBytes = 0;
    const flush = async () => {
      if (chunkBytes === 0) return;
      const data = Buffer.concat(chunk, chunkBytes);
      chunk = [];
      chunkBytes = 0;
      await writeChunk(out, data);
    };
    for (const e of order) {
      chunk.push(e.bytes !== undefined ? Buffer.from(e.bytes.buffer, e.bytes.byteOffset, e.bytes.length) : this.readBack(e));
      chunkBytes += e.length;
      if (chunkBytes >= WRITE_CHUNK) await flush();
    }
    await flush();
  }

  /** Removes the temporary file and directory (idempotent). Always call it, also after errors. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    if (this.fd !== undefined) {
      try {
        closeSync(this.fd);
      } catch {
        // already closed
      }
      this.fd = undefined;
    }
    if (this.dir !== undefined) rmSync(this.dir, { recursive: true, force: true });
    this.entries.length = 0;
  }

  private spill(): void {
    this.dir = mkdtempSync(join(this.tempRoot, "evidence-bridge-feed-"));
    this.fd = openSync(join(this.dir, "lines"), constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    for (const e of this.entries) {
      e.offset = this.fileBytes;
      this.writeAll(e.bytes!);
      e.bytes = undefined;
    }
    this.memoryBytes = 0;
  }

  private writeAll(bytes: Uint8Array): void {
    let off = 0;
    while (off < bytes.length) off += writeSync(this.fd!, bytes, off, bytes.length - off, this.fileBytes + off);
    this.fileBytes += bytes.length;
  }

  private readBack(e: Entry): Buffer {
    const buf = Buffer.allocUnsafe(e.length);
    let off = 0;
    while (off < e.length) {
      const n = readSync(this.fd!, buf, off, e.length - off, e.offset + off);
      if (n === 0) throw new Error("feed spool file was truncated while in use");
      off += n;
    }
    return buf;
  }
}

/** Writes one chunk and resolves when the stream has accepted it (its callback), so memory stays bounded. */
function writeChunk(out: Writable, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    out.write(data, (err) => (err ? reject(err) : resolve()));
  });
}
