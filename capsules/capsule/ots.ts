/**
 * `opentimestamps-detached-envelope-v1` (capsule-v1 §9): a bounded structural walk of a detached OpenTimestamps
 * serialization and its binding to the anchor input digest. Operations are skipped, never executed or hashed;
 * calendars are never contacted, attestations never authenticated, no time is established.
 */
import { sha256Bytes } from "../../src/hash.js";

export class OtsError extends Error {
  override readonly name = "OtsError";
}

export const OTS_MAX_BYTES = 1_048_576;
const MAX_DEPTH = 64;
const MAX_NODES = 2_048;
const MAX_MSG = 4_096;
const MAX_HEXLIFY = 2_048;
const MAX_PAYLOAD = 8_192;
const MAX_URI = 1_000;
const MAX_VARUINT_BYTES = 10;

/** `\0OpenTimestamps\0\0Proof\0` + 8 magic bytes, then major version 1 and the SHA-256 file-hash op. */
const HEADER = Uint8Array.from([
  0x00, 0x4f, 0x70, 0x65, 0x6e, 0x54, 0x69, 0x6d, 0x65, 0x73, 0x74, 0x61, 0x6d, 0x70, 0x73, 0x00, 0x00, 0x50, 0x72,
  0x6f, 0x6f, 0x66, 0x00, 0xbf, 0x89, 0xe2, 0xe8, 0x84, 0xe8, 0x92, 0x94, 0x01, 0x08,
]);

const PENDING = "83dfe30d2ef90c8e";
const BITCOIN = "0588960d73d71901";
const LITECOIN = "06869a0d73d71b45";
const URI_CHAR = /^[A-Za-z0-9\-._/:]*$/;

export interface OtsStructure {
  nodes: number;
  attestations: number;
}

/** A bounds-checked reader over bytes, with the §9.2 primitives. */
class Reader {
  pos = 0;
  constructor(private readonly data: Uint8Array) {}

  get remaining(): number {
    return this.data.length - this.pos;
  }

  byte(): number {
    if (this.pos >= this.data.length) throw new OtsError("detached OpenTimestamps envelope is truncated");
    return this.data[this.pos++];
  }

  bytes(n: number): Uint8Array {
    if (n > this.remaining) throw new OtsError("detached OpenTimestamps envelope is truncated");
    const out = this.data.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** LEB128 with at most 10 bytes and minimal encoding; the value may reach 70 bits (only compared, never exact). */
  varuint(): number {
    let value = 0;
    let scale = 1;
    for (let count = 1; ; count++) {
      const b = this.byte();
      if (count > MAX_VARUINT_BYTES) throw new OtsError("OpenTimestamps varuint exceeds the v1 limit");
      value += (b & 0x7f) * scale;
      scale *= 128;
      if ((b & 0x80) === 0) {
        if (b === 0 && count > 1) throw new OtsError("OpenTimestamps varuint is not minimally encoded");
        return value;
      }
    }
  }

  varbytes(max: number, min = 0): Uint8Array {
    const length = this.varuint();
    if (length > max) throw new OtsError("OpenTimestamps length exceeds the v1 limit");
    if (length < min) throw new OtsError("OpenTimestamps byte string is shorter than allowed");
    return this.bytes(length);
  }
}

function hex(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += b.toString(16).padStart(2, "0");
  return s;
}

/** Verifies the envelope structure and its commitment to `subject`; throws {@link OtsError} on the first failure. */
export function verifyOtsEnvelope(data: Uint8Array, subject: Uint8Array): OtsStructure {
  if (data.length > OTS_MAX_BYTES) throw new OtsError("detached OpenTimestamps envelope exceeds the v1 byte limit");
  if (data.length <= 65 || HEADER.some((b, i) => data[i] !== b)) {
    throw new OtsError("detached envelope is not a complete OpenTimestamps v1 SHA-256 serialization");
  }
  const digest = sha256Bytes(subject);
  for (let i = 0; i < 32; i++) {
    if (data[33 + i] !== digest[i]) throw new OtsError("detached OpenTimestamps envelope commits to a different anchor input");
  }
  const walk = new TreeWalk(new Reader(data));
  walk.reader.pos = 65;
  walk.timestamp(32, 0);
  if (walk.reader.remaining !== 0) throw new OtsError("detached OpenTimestamps envelope has trailing bytes");
  if (walk.attestations === 0) throw new OtsError("detached OpenTimestamps envelope contains no attestation");
  return { nodes: walk.nodes, attestations: walk.attestations };
}

class TreeWalk {
  nodes = 0;
  attestations = 0;
  constructor(readonly reader: Reader) {}

  timestamp(msgLen: number, depth: number): void {
    if (depth > MAX_DEPTH) throw new OtsError("OpenTimestamps tree exceeds the v1 depth limit");
    let tag = this.reader.byte();
    while (tag === 0xff) {
      this.node(this.reader.byte(), msgLen, depth);
      tag = this.reader.byte();
    }
    this.node(tag, msgLen, depth);
  }

  private node(tag: number, msgLen: number, depth: number): void {
    this.nodes += 1;
    if (this.nodes > MAX_NODES) throw new OtsError("OpenTimestamps tree exceeds the v1 node limit");
    if (tag === 0x00) {
      this.attestation();
      this.attestations += 1;
      return;
    }
    if (msgLen > MAX_MSG) throw new OtsError("OpenTimestamps operation input exceeds 4096 bytes");
    let result: number;
    switch (tag) {
      case 0xf0: // append
      case 0xf1: // prepend
        result = msgLen + this.reader.varbytes(MAX_MSG, 1).length;
        break;
      case 0x02: // sha1
      case 0x03: // ripemd160
        result = 20;
        break;
      case 0x08: // sha256
      case 0x67: // keccak256
        result = 32;
        break;
      case 0xf2: // reverse
        result = msgLen;
        break;
      case 0xf3: // hexlify
        if (msgLen > MAX_HEXLIFY) throw new OtsError("OpenTimestamps hexlify input exceeds 2048 bytes");
        result = 2 * msgLen;
        break;
      default:
        throw new OtsError(`unknown OpenTimestamps operation tag 0x${tag.toString(16).padStart(2, "0")}`);
    }
    if (result === 0 || result > MAX_MSG) throw new OtsError("OpenTimestamps operation result exceeds 4096 bytes");
    this.timestamp(result, depth + 1);
  }

  private attestation(): void {
    const tag = hex(this.reader.bytes(8));
    const payload = new Reader(this.reader.varbytes(MAX_PAYLOAD));
    let label: string;
    if (tag === PENDING) {
      label = "pending attestation";
      const uri = payload.varbytes(MAX_URI);
      // Bytes outside the allowed ASCII set (including any non-ASCII byte) make the URI invalid.
      if (!URI_CHAR.test(String.fromCharCode(...uri))) throw new OtsError("OpenTimestamps pending attestation URI is invalid");
    } else if (tag === BITCOIN || tag === LITECOIN) {
      label = tag === BITCOIN ? "Bitcoin attestation" : "Litecoin attestation";
      payload.varuint();
    } else {
      return; // unknown attestation kinds are opaque
    }
    if (payload.remaining !== 0) throw new OtsError(`OpenTimestamps ${label} payload has trailing bytes`);
  }
}
