/**
 * Incremental SHA-256 over capsule-v1 canonical bytes (`palimpsest-json-sorted-utf8-v1`, capsule-v1 §4.1) without
 * the v1 resource caps.
 *
 * `canonicalBytes` (src/json/canonical.ts) refuses arrays or objects over 512 items and content over 25,165,824
 * bytes, and builds the whole byte string. A regional index has no bound on its events, so this writer produces
 * the same bytes (keys sorted by code point, compact separators, strings as JSON.stringify writes them, integers
 * in decimal, UTF-8) for any size, streaming them into the hash in chunks. For values inside the v1 caps the
 * digest equals `sha256(canonicalBytes(value))` (tested).
 *
 * Floats stay outside the domain, as in v1: writing one is counted (`floats`) and leaves the digest undefined,
 * instead of throwing, so a caller can keep converting the rest. The inputs reach this writer from the strict loader or through
 * `fromPlain`, which already refuse lone surrogates, integers beyond 2^53−1 and nesting beyond 32; the writer
 * does not check those again.
 */
import { createHash } from "node:crypto";
import type { CanonicalByteSink } from "../../src/json/byte-shape-check.js";
import { compareCodePoints, JsonFloat, type JsonValue } from "../../src/json/value.js";

const encoder = new TextEncoder();

export const FLOAT_REASON = "the index holds a float, which capsule-v1 canonical bytes cannot represent";

export function byKey(a: [string, unknown], b: [string, unknown]): number {
  return compareCodePoints(a[0], b[0]);
}

/** Where canonical text goes: a hash (CanonicalDigest) or a string. Floats are counted, never written. */
export interface CanonicalSink {
  raw(text: string): void;
  float(): void;
}

/** Bytes gathered before they go to the hash: one native update per 64 KiB instead of one per piece. */
const CHUNK_BYTES = 1 << 16;

/**
 * Streams canonical text into SHA-256 (node:crypto, in this thread): each piece is UTF-8 encoded straight into one
 * reused buffer (no joined strings, no encoded copies), which goes to the hash whenever it holds a chunk.
 *
 * A helper hash thread used to run @noble/hashes beside parsing. With native SHA-256 it no longer paid: validating
 * a 50,000-event index (56.6 MB) took 1.3–1.7 s of CPU hashing in this thread against 2.0–2.5 s with the thread,
 * and less wall time too (measured alternately on the shared 2-core machine at load average 16).
 */
export class CanonicalDigest implements CanonicalSink, CanonicalByteSink {
  private readonly hash = createHash("sha256");
  /** A chunk plus room for one piece of up to CHUNK_BYTES bytes. */
  private readonly buf = new Uint8Array(2 * CHUNK_BYTES);
  private pos = 0;
  /** Floats written so far; any float leaves the digest undefined. */
  floats = 0;

  raw(text: string): void {
    if (this.floats > 0) return;
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.pos + 3 * text.length > this.buf.length) {
      this.submit();
      if (3 * text.length > this.buf.length) return this.rawBytes(encoder.encode(text));
    }
    this.pos += encoder.encodeInto(text, this.buf.subarray(this.pos)).written;
    if (this.pos >= CHUNK_BYTES) this.submit();
  }

  /** Canonical bytes already encoded (a slice proved to be its canonical text). */
  bytes(bytes: Uint8Array): void {
    if (this.floats > 0) return;
    if (this.pos + bytes.length > this.buf.length) {
      this.submit();
      if (bytes.length > this.buf.length) return this.rawBytes(bytes);
    }
    this.buf.set(bytes, this.pos);
    this.pos += bytes.length;
    if (this.pos >= CHUNK_BYTES) this.submit();
  }

  float(): void {
    // The digest is undefined from now on.
    this.floats++;
  }

  /** The digest, or undefined when a float was written ({@link FLOAT_REASON}). Call once. */
  hex(): string | undefined {
    if (this.floats > 0) return undefined;
    this.submit();
    return this.hash.digest("hex");
  }

  private submit(): void {
    if (this.pos === 0) return;
    this.hash.update(this.buf.subarray(0, this.pos));
    this.pos = 0;
  }

  /** A piece larger than a buffer, already encoded: submitted in chunks (the buffer is empty here). */
  private rawBytes(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length; at += CHUNK_BYTES) {
      const piece = bytes.subarray(at, Math.min(at + CHUNK_BYTES, bytes.length));
      this.buf.set(piece);
      this.pos = piece.length;
      this.submit();
    }
  }
}

function entriesOf(v: object): [string, unknown][] | undefined {
  if (v instanceof Map) return [...(v as Map<string, unknown>).entries()];
  const proto = Object.getPrototypeOf(v);
  if (!Array.isArray(v) && !(v instanceof JsonFloat) && (proto === Object.prototype || proto === null)) {
    return Object.entries(v as Record<string, unknown>);
  }
  return undefined;
}

/** Writes the canonical text of `v` (value model or plain JS values). */
export function writeCanonical(v: unknown, d: CanonicalSink): void {
  if (v === null || v === true || v === false) return d.raw(String(v));
  if (typeof v === "string") return d.raw(JSON.stringify(v));
  if (typeof v === "number") return Number.isInteger(v) ? d.raw(String(v)) : d.float();
  if (v instanceof JsonFloat) return d.float();
  if (Array.isArray(v)) {
    d.raw("[");
    for (let i = 0; i < v.length; i++) {
      if (i) d.raw(",");
      writeCanonical(v[i], d);
    }
    return d.raw("]");
  }
  const entries = typeof v === "object" ? entriesOf(v) : undefined;
  if (entries === undefined) throw new TypeError(`unsupported JSON value ${typeof v}`);
  entries.sort(byKey);
  d.raw("{");
  for (let i = 0; i < entries.length; i++) {
    d.raw(`${i ? "," : ""}${JSON.stringify(entries[i][0])}:`);
    writeCanonical(entries[i][1], d);
  }
  d.raw("}");
}

export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

/** Keys that JS objects order numerically before all others, which would break code-point order. */
const INDEX_LIKE = /^(?:0|[1-9][0-9]*)$/;

/**
 * The plain form of `v` (objects as null-prototype records with their keys inserted in code-point order,
 * floats as numbers); `safe` turns false when an object has an array-index-like key, whose position JS fixes.
 */
function sortedPlain(v: JsonValue, state: { safe: boolean; floats: number }): Plain {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof JsonFloat) {
    state.floats++;
    return v.value;
  }
  if (Array.isArray(v)) {
    const out: Plain[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = sortedPlain(v[i], state);
    return out;
  }
  const keys = [...v.keys()].sort(compareCodePoints);
  // Null prototype: `__proto__` and `constructor` are ordinary keys, and plain assignment creates own properties.
  const out = Object.create(null) as { [key: string]: Plain };
  for (const k of keys) {
    if (INDEX_LIKE.test(k)) state.safe = false;
    out[k] = sortedPlain(v.get(k)!, state);
  }
  return out;
}

/** The canonical text of a value (JSONL export); throws when it holds a float. */
export function canonicalJsonText(v: JsonValue): string {
  const state = { safe: true, floats: 0 };
  const plain = sortedPlain(v, state);
  if (state.floats > 0) throw new RangeError(FLOAT_REASON);
  if (state.safe) return JSON.stringify(plain);
  const parts: string[] = [];
  writeCanonical(v, { raw: (t) => parts.push(t), float: () => undefined });
  return parts.join("");
}

/** Lowercase hex SHA-256 of the uncapped canonical bytes of `value`; throws when it holds a float. */
export function canonicalDigestHex(value: unknown): string {
  const d = new CanonicalDigest();
  writeCanonical(value, d);
  const hex = d.hex();
  if (hex === undefined) throw new RangeError(FLOAT_REASON);
  return hex;
}
