/**
 * Loads a regional index from bytes without materialising the whole document.
 *
 * A walk of the top level (`{ "key": value, ... }`) with the one JSON tokenizer (src/json/tokenizer.ts) finds,
 * inside the top-level `events` array, each element's byte span (`valueEnd`). Every other member is parsed at once with the strict loader (`parseStrictJson`); each
 * event is parsed from its span only when asked for, so validation and export hold one event at a time beside the
 * input bytes (and parsing many small slices is several times faster than one large document).
 *
 * The result is exactly what `parseStrictJson` over the whole document would accept or reject, with the same
 * message: the file is checked for UTF-8 and a BOM first (as the loader does), the scan reproduces the loader's
 * messages and positions for the few top-level grammar errors, and errors inside a slice are moved to
 * document positions. The path of an error is the one the strict loader names (`location`).
 *
 * `raw(i)` gives an event's span for the byte lane (event-byte-lane.ts); `fast(i)` scans the event for the facts the
 * fast lane needs (event-fast-lane.ts: whether `JSON.parse` reads the event as the strict loader would, its member
 * count, whether its bytes are canonical), only when asked.
 *
 * Why bytes and not the decoded text: decoding a large index with any non-ASCII character makes one two-byte string
 * of the whole document (about 0.4 s and 110 MB more for the 56.6 MB bench index), while its slices are mostly
 * ASCII and decode on V8's one-byte fast path.
 */
import { pyRepr } from "../../src/json/echo.js";
import { checkStrictUtf8, JsonLoadError, parseStrictJson, type JsonLoadRule, type StrictJsonLimits } from "../../src/json/parse.js";
import { byteOfUnit, positionText, scanContainer, skipWhitespace, valueEnd, type SliceFacts } from "../../src/json/tokenizer.js";
import { indexPath, memberPath, type JsonValue } from "../../src/json/value.js";
import { INDEX_ROOT } from "./constants.js";
import type { FastSlice } from "./event-fast-lane.js";
import type { EventBytes } from "./event-byte-lane.js";

/** A document that is not strict JSON: the loader's rule and message, and the path where it happened. */
export interface LoadFailure {
  rule: JsonLoadRule;
  message: string;
  path: string;
}

export class IndexLoadError extends Error {
  override readonly name = "IndexLoadError";
  constructor(readonly failure: LoadFailure) {
    super(failure.message);
  }
}

/** The events array, read one element at a time. */
export interface EventSource {
  readonly count: number;
  /** Parses element `i`; throws {@link IndexLoadError}. */
  get(i: number): JsonValue;
  /** The JSON text of element `i` exactly as the input holds it, when the input was bytes (not checked again). */
  text?(i: number): string;
  /**
   * Element `i` for the fast lane (event-fast-lane.ts), when the scan proved `JSON.parse` reads it as the strict
   * loader does; else undefined.
   */
  fast?(i: number): FastSlice | undefined;
  /** Where element `i` lies in the input, when the input was bytes (for the byte lane, event-byte-lane.ts). */
  raw?(i: number): EventBytes;
}

/** A loaded index: its top-level members (in document order, `events` excluded when streamed) and the events. */
export type LoadedIndex =
  | { kind: "object"; header: Map<string, JsonValue>; events: EventSource | undefined }
  | { kind: "other"; value: JsonValue };

const ROOT_DEPTH = 32;
/** Bytes a token the loader reads can start with: strings, containers, literals, numbers, NaN and Infinity. */
const VALUE_START = new Set([..."\"{[tfnNI-0123456789"].map((c) => c.charCodeAt(0)));
/** Limits for slices: no item or member caps (the format has none), the loader's defaults otherwise. */
const OPEN: Partial<StrictJsonLimits> = { maxItems: Number.MAX_SAFE_INTEGER, maxMembers: Number.MAX_SAFE_INTEGER, maxBytes: Number.MAX_SAFE_INTEGER };

const lenientDecoder = new TextDecoder("utf-8", { ignoreBOM: true });
const POSITION = /^(invalid JSON: .*): line \d+ column \d+ \(char (\d+)\)$/;

/** Reads an index from bytes. Returns the loaded index or throws {@link IndexLoadError}. */
export function loadIndexBytes(bytes: Uint8Array, maxBytes: number): LoadedIndex {
  if (bytes.length > maxBytes) {
    throw new IndexLoadError({ rule: "size", message: `input is ${bytes.length} bytes, over the cap of ${maxBytes} bytes`, path: INDEX_ROOT });
  }
  checkUtf8(bytes);
  return new Scanner(bytes).run();
}

/** The loader checks the whole input before parsing; so does this, with the loader's own check and messages. */
function checkUtf8(bytes: Uint8Array): void {
  try {
    checkStrictUtf8(bytes);
  } catch (e) {
    if (!(e instanceof JsonLoadError)) throw e;
    throw new IndexLoadError({ rule: e.rule, message: e.message, path: INDEX_ROOT });
  }
}

class Scanner {
  private pos = 0;
  private readonly header = new Map<string, JsonValue>();
  private spans: number[] | undefined;
  private readonly facts: SliceFacts = { plain: false, compact: false, members: 0 };

  private readonly buffer: Buffer;

  constructor(private readonly bytes: Uint8Array) {
    this.buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  run(): LoadedIndex {
    try {
      return this.scan();
    } catch (e) {
      // The loader reports the first error in document order: an event before this point may hold an earlier one.
      if (e instanceof IndexLoadError && this.spans !== undefined) {
        const events = this.eventSource(this.spans);
        for (let i = 0; i < events.count; i++) events.get(i);
      }
      throw e;
    }
  }

  private scan(): LoadedIndex {
    const b = this.bytes;
    this.ws();
    if (b[this.pos] !== 0x7b) {
      const value = this.parseSlice(this.pos, b.length, INDEX_ROOT, ROOT_DEPTH);
      return { kind: "other", value };
    }
    this.pos++;
    this.ws();
    if (b[this.pos] === 0x7d) {
      this.pos++;
    } else {
      for (;;) {
        if (b[this.pos] !== 0x22) this.syntax("Expecting property name enclosed in double quotes", INDEX_ROOT);
        const keyStart = this.pos;
        const keyEnd = this.valueEnd(keyStart, INDEX_ROOT, ROOT_DEPTH);
        const key = this.parseKey(keyStart, keyEnd);
        const path = memberPath(INDEX_ROOT, key);
        if (this.header.has(key) || (key === "events" && this.spans !== undefined)) {
          throw new IndexLoadError({ rule: "duplicate-key", message: `duplicate JSON key: ${pyRepr(key)}`, path });
        }
        this.pos = keyEnd;
        this.ws();
        if (b[this.pos] !== 0x3a) this.syntax("Expecting ':' delimiter", INDEX_ROOT);
        this.pos++;
        this.ws();
        if (key === "events" && b[this.pos] === 0x5b) {
          this.spans = this.scanEvents();
        } else {
          const end = this.valueEnd(this.pos, path, ROOT_DEPTH - 1);
          this.header.set(key, this.parseSlice(this.pos, end, path, ROOT_DEPTH - 1));
          this.pos = end;
        }
        if (!this.next(0x7d, path)) break;
      }
    }
    this.ws();
    if (this.pos < b.length) this.syntax("Extra data", INDEX_ROOT);
    return { kind: "object", header: this.header, events: this.spans && this.eventSource(this.spans) };
  }

  /** Scans `[ value, ... ]` at the current position; returns flat [start, end) pairs. */
  private scanEvents(): number[] {
    const b = this.bytes;
    const spans: number[] = [];
    this.spans = spans;
    this.pos++;
    this.ws();
    if (b[this.pos] === 0x5d) {
      this.pos++;
      return spans;
    }
    for (;;) {
      const end = this.valueEnd(this.pos, indexPath(memberPath(INDEX_ROOT, "events"), spans.length / 2), ROOT_DEPTH - 2);
      spans.push(this.pos, end);
      this.pos = end;
      if (!this.next(0x5d, indexPath(memberPath(INDEX_ROOT, "events"), spans.length / 2 - 1))) return spans;
    }
  }

  /** After a member or item: `,` (true: another follows), the closing byte (false), or the loader's error. */
  private next(close: number, path: string): boolean {
    this.ws();
    const c = this.bytes[this.pos];
    if (c !== 0x2c && c !== close) this.syntax("Expecting ',' delimiter", path);
    this.pos++;
    if (c === 0x2c) this.ws();
    return c === 0x2c;
  }

  private eventSource(spans: number[]): EventSource {
    const events = memberPath(INDEX_ROOT, "events");
    return {
      count: spans.length / 2,
      get: (i: number) => this.parseSlice(spans[2 * i], spans[2 * i + 1], indexPath(events, i), ROOT_DEPTH - 2),
      // The whole input was checked as UTF-8 before the scan, and spans start and end on ASCII bytes.
      text: (i: number) => lenientDecoder.decode(this.bytes.subarray(spans[2 * i], spans[2 * i + 1])),
      raw: (i: number) => ({ bytes: this.buffer, start: spans[2 * i], end: spans[2 * i + 1] }),
      fast: (i: number) => {
        // The slice's facts are gathered only for an event the byte lane left (most events never need them).
        const start = spans[2 * i];
        const end = spans[2 * i + 1];
        const facts = this.facts;
        if (scanContainer(this.bytes, start, facts) !== end || !facts.plain) return undefined;
        return { text: this.buffer.toString("utf8", start, end), bytes: this.bytes.subarray(start, end), members: facts.members, compact: facts.compact };
      },
    };
  }

  private ws(): void {
    this.pos = skipWhitespace(this.bytes, this.pos);
  }

  private syntax(detail: string, path: string): never {
    throw new IndexLoadError({ rule: "syntax", message: `invalid JSON: ${detail}: ${positionText(this.bytes, this.pos)}`, path });
  }

  /**
   * End (exclusive) of the value starting at `start` (the tokenizer's span). Where the loader would fail at or
   * inside the value, the rest of the input is parsed so the loader itself reports the error.
   */
  private valueEnd(start: number, path: string, maxDepth: number): number {
    const end = valueEnd(this.bytes, start);
    if (end >= 0) return end;
    // No token starts here: the loader's message at this position (a slice starting here could read as a BOM).
    if (!VALUE_START.has(this.bytes[start])) {
      this.pos = start;
      this.syntax("Expecting value", path);
    }
    this.parseSlice(start, this.bytes.length, path, maxDepth);
    // parseSlice cannot accept what the tokenizer found no end for: the two disagree.
    throw new Error(`internal: scan of ${path} disagrees with the strict loader`);
  }

  /** Parses bytes [start, end) as one JSON value whose path is `path`, with errors moved to document terms. */
  private parseSlice(start: number, end: number, path: string, maxDepth: number): JsonValue {
    const slice = this.bytes.subarray(start, end);
    try {
      return parseStrictJson(slice, { ...OPEN, maxDepth, rootPath: path });
    } catch (e) {
      if (!(e instanceof JsonLoadError)) throw e;
      throw new IndexLoadError(this.failure(e, start, path, 0));
    }
  }

  /** Parses the top-level key at [start, end) as a key (`{KEY:0}`), so key rules and messages apply. */
  private parseKey(start: number, end: number): string {
    const slice = this.bytes.subarray(start, end);
    const wrapped = new Uint8Array(slice.length + 4);
    wrapped[0] = 0x7b;
    wrapped.set(slice, 1);
    wrapped.set([0x3a, 0x30, 0x7d], slice.length + 1);
    try {
      const obj = parseStrictJson(wrapped, { ...OPEN, rootPath: INDEX_ROOT }) as Map<string, JsonValue>;
      return obj.keys().next().value as string;
    } catch (e) {
      if (!(e instanceof JsonLoadError)) throw e;
      throw new IndexLoadError(this.failure(e, start, INDEX_ROOT, 1));
    }
  }

  /** Moves a slice error to document terms; `shift` UTF-16 units precede the slice in what was parsed. */
  private failure(e: JsonLoadError, start: number, path: string, shift: number): LoadFailure {
    if (e.rule === "depth") return { rule: e.rule, message: e.message.replace(/exceeds \d+$/, `exceeds ${ROOT_DEPTH}`), path: e.path ?? path };
    const at = e.path ?? e.location ?? path;
    const m = POSITION.exec(e.message);
    if (m === null) return { rule: e.rule, message: e.message, path: at };
    const units = Number(m[2]) - shift;
    return { rule: e.rule, message: `${m[1]}: ${positionText(this.bytes, byteOfUnit(this.bytes, start, units))}`, path: at };
  }
}
