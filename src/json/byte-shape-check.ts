/**
 * A verdict-only shape checker that reads strict JSON straight from UTF-8 bytes, in one pass, and writes the
 * canonical text of what it accepted (capsule-v1 §4.1: members in code-point order, no whitespace, strings as
 * `JSON.stringify` writes them) by copying byte spans of the input.
 *
 * It is an accelerator, not a judge: {@link ByteShapeChecker.check} returns a value only when it has proved that
 * the strict loader (`parse.ts`) accepts the bytes and the shape interpreter (`shape-check.ts`) finds no problem
 * with the same dialect; anything else (any shape problem, a repeated or unknown key, a number with a fraction or
 * exponent, `-0`, an integer of more than 15 digits, a string escape `JSON.stringify` would not write, a raw control
 * character, a grammar error) returns undefined, and the caller decides with the strict interpreters. So every
 * error, message and path still comes from them.
 *
 * Why the proof holds: the input's UTF-8 was checked beforehand (the caller's duty); the grammar read here is the
 * strict loader's, minus what is refused above; a string is accepted only when each escape is one `JSON.stringify`
 * writes (`\"` `\\` `\b` `\f` `\n` `\r` `\t`, and `\u00xx` in lowercase for the other control characters), so its
 * bytes are its canonical text and two strings are equal exactly when their bytes are; keys never carry an escape.
 * String formats are decided by the dialect's own `string` check over the decoded string, except the formats the
 * caller marks as decidable on the bytes (`any`: every string; `non-empty`: at least one character), which its
 * tests hold equal to the dialect. Integers, booleans, counts and uniqueness go through the same dialect functions
 * and `arrayProblems` as in `shape-check.ts`.
 *
 * The value returned is positional, for speed: an object is the array of its members' values in the shape's member
 * order ({@link ByteShapeChecker.position} gives a member's place), an array the array of its items; strings are
 * decoded only where they were needed (a dialect check, a unique list) or the member is named in `keep`, and are
 * undefined elsewhere. The canonical text comes from the bytes.
 *
 * Why one file of over 400 lines: the reader and the writer share the compiled shape nodes and the tape of what was
 * read (offsets only the reader can fill and only the writer reads); apart, each would have to expose both.
 *
 * Supported shapes: strings, booleans, integers, nullable, arrays (with `unique: "value"`) and objects of at most
 * 30 members, none optional, whose names need no escape; anything else (floats, tuples, records, rules, all-or-none
 * objects, a member order rule) is refused when the checker is built.
 */
import { arrayProblems } from "./shape-check.js";
import { canonicalStringEnd, NumberToken, skipWhitespace, type StringFacts } from "./tokenizer.js";
import { compareCodePoints } from "./value.js";
import type { ArrayShape, BoolShape, IntShape, ObjectShape, Shape, ShapeDialect, StringShape } from "./shape.js";

/** Where canonical bytes go (the bytes are copied or consumed at once, not kept). */
export interface CanonicalByteSink {
  bytes(b: Uint8Array): void;
}

/** How a string format is decided: on the bytes (`any`, `non-empty`), or by the dialect over the decoded string. */
export type ByteStringRule = "any" | "non-empty" | "dialect";

export interface ByteCheckOptions<F extends string> {
  /** The rule of each string format (default `dialect` for all). */
  stringRule?: (shape: StringShape<F>) => ByteStringRule;
  /** Members whose strings are decoded into the returned value even when their rule needs no decoding. */
  keep?: readonly string[];
}

const STRING = 0;
const BOOL = 1;
const INT = 2;
const ARRAY = 3;
const OBJECT = 4;

const RULE_DIALECT = 0;
const RULE_ANY = 1;
const RULE_NON_EMPTY = 2;

/**
 * One place in the shape tree, with everything the reader needs worked out once. Every node has the same fields
 * (one hidden class), so the reader's property loads stay monomorphic.
 */
class Node<F extends string> {
  kind = STRING;
  nullable = false;
  /** Decode this string (or the strings of this array) into the value. */
  decode = false;
  rule = RULE_DIALECT;
  /** The shape itself (without `nullable`), for the dialect's checks. */
  shape: Shape<F>;
  /** Vocabulary values and the UTF-8 of their canonical string content. */
  vocabulary: readonly string[] | null = null;
  vocabularyBytes: Uint8Array[] | null = null;
  /** A constant boolean: 1 true, 0 false, -1 either. */
  constant = -1;
  item: Node<F> | null = null;
  unique = false;
  /** Object members in shape order: their nodes, names and UTF-8 names. */
  members: Node<F>[] = [];
  names: string[] = [];
  keys: Uint8Array[] = [];
  /** Each UTF-8 name's whole four-byte words (big-endian), for comparing keys four bytes at a time. */
  keyWords: Int32Array[] = [];
  /** Where each member's canonical `"name":` bytes lie in the checker's key table: start, end (in pairs). */
  memberKeys: number[] = [];
  /** Member positions in code-point order of the names, and each member's rank in that order. */
  sorted: number[] = [];
  rank: number[] = [];
  /** Bits of every member. */
  all = 0;

  constructor(shape: Shape<F>) {
    this.shape = shape;
  }
}

/** Thrown to abandon the check: the strict interpreters decide. */
const BAIL: unique symbol = Symbol("byte-shape-check bail");

const utf8 = new TextEncoder();

/** Container nesting a shape may have (well inside the strict loader's limits for any caller here). */
const MAX_DEPTH = 16;

/** The longest string the strict loader accepts (code points, so bytes too): longer inputs are not checked here. */
export const MAX_BYTE_CHECK_BYTES = 11_184_812;

/**
 * Tape of the values read, four integers per value in document pre-order: start and end offsets in the input, the
 * tape offset after the value's subtree, and `meta` (bit 0: the value's bytes are already its canonical text; bit 1:
 * the member's key is written `"name":` right before it; the rest: 1 + the member's position in its object, or 0).
 * A container whose bytes are canonical keeps no children.
 */
const NODE = 4;

export class ByteShapeChecker<F extends string> {
  private readonly root: Node<F>;
  /** Every object member's canonical `"name":` bytes, end to end (one source for the sink's copies). */
  private readonly keyTable: Buffer;
  private readonly keyView: DataView;
  private b: Buffer = Buffer.alloc(0);
  /** A DataView of `b`, for reading four bytes at a time. */
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  /** The checked bytes as Latin-1 text (made on first use): an ASCII string is sliced from it, not decoded. */
  private text: string | undefined;
  private textStart = 0;
  private i = 0;
  private end = 0;
  private readonly num = new NumberToken();
  private readonly stringFacts: StringFacts = { escaped: false, ascii: true };
  /** Something in the container being read is not canonical (whitespace, member order, a non-canonical child). */
  private dirty = false;
  private tape = new Int32Array(1024);
  private tp = 0;
  /** Scratch for emission: member tape offsets by position, one frame per open object. */
  private slots = new Int32Array(256);
  /** The canonical text being written, and the input span waiting to be appended to it (-1: none). */
  private out = new Uint8Array(1 << 14);
  private outView = new DataView(this.out.buffer);
  private outPos = 0;
  private pendingStart = -1;
  private pendingEnd = -1;

  constructor(
    shape: Shape<F>,
    private readonly dialect: ShapeDialect<F>,
    opts: ByteCheckOptions<F> = {},
  ) {
    const rule = opts.stringRule ?? (() => "dialect");
    const table: number[] = [];
    const keep = new Set(opts.keep ?? []);
    const build = (s: Shape<F>, decode: boolean, depth: number): Node<F> => {
      if (depth > MAX_DEPTH) throw new Error(`byte-shape-check: shapes nest deeper than ${MAX_DEPTH}`);
      let nullable = false;
      if (s.kind === "nullable") {
        nullable = true;
        s = s.inner;
        if (s.kind === "nullable") throw new Error("byte-shape-check: nested nullable");
      }
      const n = new Node<F>(s);
      n.nullable = nullable;
      n.decode = decode;
      switch (s.kind) {
        case "string": {
          n.kind = STRING;
          const r = rule(s);
          n.rule = r === "any" ? RULE_ANY : r === "non-empty" ? RULE_NON_EMPTY : RULE_DIALECT;
          if (s.oneOf !== undefined) {
            n.vocabulary = s.oneOf;
            n.vocabularyBytes = s.oneOf.map((v) => utf8.encode(JSON.stringify(v).slice(1, -1)));
          }
          return n;
        }
        case "bool":
          n.kind = BOOL;
          n.constant = s.value === undefined ? -1 : s.value ? 1 : 0;
          return n;
        case "int":
          n.kind = INT;
          return n;
        case "array":
          if (s.rules !== undefined || s.order !== undefined || (s.unique !== undefined && s.unique !== "value")) {
            throw new Error("byte-shape-check: unsupported array shape (rules, order or unique by key)");
          }
          n.kind = ARRAY;
          n.unique = s.unique !== undefined;
          // Uniqueness is decided over the decoded items, as the shape interpreter decides it.
          n.item = build(s.item, decode || n.unique, depth + 1);
          return n;
        case "object": {
          const names = Object.keys(s.fields);
          if (s.rules !== undefined || s.allOrNone || (s.optional?.length ?? 0) > 0 || names.length > 30) {
            throw new Error("byte-shape-check: unsupported object shape (rules, optional members, over 30 members)");
          }
          if (names.some((name) => JSON.stringify(name) !== `"${name}"`)) throw new Error("byte-shape-check: a member name needs an escape");
          n.kind = OBJECT;
          n.names = names;
          n.keys = names.map((name) => utf8.encode(name));
          n.keyWords = n.keys.map((key) => {
            const view = new DataView(key.buffer, key.byteOffset, key.byteLength);
            return Int32Array.from({ length: key.length >> 2 }, (_, w) => view.getInt32(4 * w));
          });
          for (const name of names) {
            const bytes = utf8.encode(`"${name}":`);
            n.memberKeys.push(table.length, table.length + bytes.length);
            table.push(...bytes);
          }
          n.sorted = names.map((_, i) => i).sort((a, b) => compareCodePoints(names[a], names[b]));
          n.rank = new Array<number>(names.length);
          n.sorted.forEach((pos, r) => (n.rank[pos] = r));
          n.all = names.length === 0 ? 0 : (2 ** names.length - 1) | 0;
          n.members = names.map((name) => build(s.fields[name], keep.has(name), depth + 1));
          return n;
        }
        default:
          throw new Error(`byte-shape-check: unsupported shape kind ${s.kind}`);
      }
    };
    this.root = build(shape, false, 0);
    this.keyTable = Buffer.from(table);
    this.keyView = new DataView(this.keyTable.buffer, this.keyTable.byteOffset, this.keyTable.byteLength);
  }

  /** The place of member `name` in the positional value of an object of the shape reached by `path` (member names). */
  position(...path: string[]): number {
    let n = this.root;
    for (let k = 0; ; k++) {
      while (n.kind === ARRAY) n = n.item!;
      const pos = n.names.indexOf(path[k]);
      if (pos < 0) throw new Error(`byte-shape-check: no member ${path[k]}`);
      if (k === path.length - 1) return pos;
      n = n.members[pos];
    }
  }

  /**
   * The positional value when bytes [start, end) of `b` are exactly one value the strict loader accepts and the
   * shape interpreter finds no problem with; undefined when the strict interpreters must decide. `b` must be valid
   * UTF-8 as a whole.
   */
  check(b: Buffer, start: number, end: number): unknown {
    if (end - start > MAX_BYTE_CHECK_BYTES) return undefined;
    if (b !== this.b) {
      this.b = b;
      this.view = new DataView(b.buffer, b.byteOffset, b.byteLength);
    }
    this.text = undefined;
    this.textStart = start;
    this.i = start;
    this.end = end;
    this.tp = 0;
    this.dirty = false;
    try {
      const value = this.value(this.root, 0);
      return this.i === end ? value : undefined;
    } catch (e) {
      if (e === BAIL) return undefined;
      throw e;
    }
  }

  /** Writes the canonical text of the value the last successful {@link check} accepted. */
  writeCanonical(sink: CanonicalByteSink): void {
    this.outPos = 0;
    this.pendingStart = this.pendingEnd = -1;
    this.emit(this.root, 0, 0);
    this.flush();
    sink.bytes(this.out.subarray(0, this.outPos));
  }

  // -- reading ------------------------------------------------------------------------------------------------

  /** Skips JSON whitespace; any makes the container being read non-canonical. */
  private ws(): void {
    const i = skipWhitespace(this.b, this.i);
    if (i !== this.i) {
      this.dirty = true;
      this.i = i;
    }
  }

  /** Appends a tape entry for a value starting at `start`; returns its offset. */
  private open(start: number, meta: number): number {
    const p = this.tp;
    if (p + NODE > this.tape.length) {
      const grown = new Int32Array(this.tape.length * 2);
      grown.set(this.tape);
      this.tape = grown;
    }
    this.tape[p] = start;
    this.tape[p + 3] = meta;
    this.tp = p + NODE;
    return p;
  }

  /** Closes tape entry `p` at the current position; a canonical value drops its children. */
  private close(p: number, canonical: boolean): void {
    const t = this.tape;
    t[p + 1] = this.i;
    if (canonical) {
      this.tp = p + NODE;
      t[p + 3] |= 1;
    }
    t[p + 2] = this.tp;
  }

  private value(n: Node<F>, meta: number): unknown {
    const b = this.b;
    const start = this.i;
    const c = b[start];
    if (n.nullable && c === 0x6e) {
      if (b[start + 1] !== 0x75 || b[start + 2] !== 0x6c || b[start + 3] !== 0x6c) throw BAIL;
      this.i = start + 4;
      this.close(this.open(start, meta), true);
      return null;
    }
    switch (n.kind) {
      case STRING:
        return this.string(n, meta);
      case BOOL: {
        let v: boolean;
        if (c === 0x74 && b[start + 1] === 0x72 && b[start + 2] === 0x75 && b[start + 3] === 0x65) {
          this.i = start + 4;
          v = true;
        } else if (c === 0x66 && b[start + 1] === 0x61 && b[start + 2] === 0x6c && b[start + 3] === 0x73 && b[start + 4] === 0x65) {
          this.i = start + 5;
          v = false;
        } else throw BAIL;
        if (n.constant !== -1 && v !== (n.constant === 1)) throw BAIL;
        this.close(this.open(start, meta), true);
        return v;
      }
      case INT: {
        const v = this.integer();
        if (this.dialect.int(n.shape as IntShape, v) !== undefined) throw BAIL;
        this.close(this.open(start, meta), true);
        return v;
      }
      case ARRAY:
        return this.array(n, meta);
      default:
        return this.object(n, meta);
    }
  }

  /** An integer token of at most 15 digits (a safe integer), not `-0`, with no fraction or exponent. */
  private integer(): number {
    const b = this.b;
    const num = this.num;
    if (!num.scan(b, this.i) || num.isFloat || num.end > this.end || num.intDigits > 15) throw BAIL;
    const negative = num.intStart > this.i;
    if (negative && b[num.intStart] === 0x30) throw BAIL;
    let v = 0;
    for (let k = num.intStart; k < num.end; k++) v = v * 10 + (b[k] - 0x30);
    this.i = num.end;
    return negative ? -v : v;
  }

  private string(n: Node<F>, meta: number): string | undefined {
    const b = this.b;
    const start = this.i;
    if (b[start] !== 0x22) throw BAIL;
    const facts = this.stringFacts;
    const i = canonicalStringEnd(b, this.view, start, this.end, facts);
    if (i < 0) throw BAIL;
    const escaped = facts.escaped;
    const from = start + 1;
    let value: string | undefined;
    const vocabulary = n.vocabulary;
    if (vocabulary !== null) {
      const bytes = n.vocabularyBytes!;
      const len = i - from;
      for (let k = 0; k < bytes.length; k++) {
        if (sameBytes(bytes[k], b, from, len)) {
          value = vocabulary[k];
          break;
        }
      }
      if (value === undefined || this.dialect.string(n.shape as StringShape<F>, value) !== undefined) throw BAIL;
    } else {
      const rule = n.rule;
      if (rule === RULE_NON_EMPTY && i === from) throw BAIL;
      if (rule === RULE_DIALECT || n.decode) {
        value = escaped ? (JSON.parse(b.toString("utf8", start, i + 1)) as string) : facts.ascii ? this.ascii(from, i) : b.toString("utf8", from, i);
        if (rule === RULE_DIALECT && this.dialect.string(n.shape as StringShape<F>, value) !== undefined) throw BAIL;
      }
    }
    this.i = i + 1;
    this.close(this.open(start, meta), true);
    return value;
  }

  /**
   * Whether the key starting at `start` (after its opening quote) is exactly `key` (then a quote follows it);
   * `words` holds the key's whole four-byte words, compared four bytes at a time.
   */
  private keyAt(key: Uint8Array, words: Int32Array, start: number): boolean {
    const n = key.length;
    const b = this.b;
    if (start + n >= this.end) return false;
    const view = this.view;
    let j = 0;
    for (let w = 0; w < words.length; w++, j += 4) if (view.getInt32(start + j) !== words[w]) return false;
    for (; j < n; j++) if (b[start + j] !== key[j]) return false;
    return b[start + n] === 0x22;
  }

  /** Bytes [start, end), all ASCII, as a string: a slice of the checked bytes' Latin-1 text. */
  private ascii(start: number, end: number): string {
    this.text ??= latin1(this.b, this.textStart, this.end);
    return this.text.slice(start - this.textStart, end - this.textStart);
  }

  private array(n: Node<F>, meta: number): unknown[] {
    const b = this.b;
    const start = this.i;
    if (b[start] !== 0x5b) throw BAIL;
    const p = this.open(start, meta);
    const outer = this.dirty;
    this.dirty = false;
    this.i++;
    this.ws();
    const items: unknown[] = [];
    const item = n.item!;
    if (b[this.i] === 0x5d) this.i++;
    else {
      for (;;) {
        items.push(this.value(item, 0));
        this.ws();
        const c = b[this.i];
        if (c === 0x2c) {
          this.i++;
          this.ws();
          continue;
        }
        if (c !== 0x5d) throw BAIL;
        this.i++;
        break;
      }
    }
    const shape = n.shape as ArrayShape<F>;
    if (this.dialect.count(shape, items.length) !== undefined) throw BAIL;
    if (n.unique && items.length > 1 && arrayProblems(shape, items, this.dialect) !== undefined) throw BAIL;
    const canonical = !this.dirty;
    this.dirty = outer || this.dirty;
    this.close(p, canonical);
    return items;
  }

  private object(n: Node<F>, meta: number): unknown[] {
    const b = this.b;
    const start = this.i;
    if (b[start] !== 0x7b) throw BAIL;
    const p = this.open(start, meta);
    const outer = this.dirty;
    this.dirty = false;
    this.i++;
    this.ws();
    const keys = n.keys;
    const out: unknown[] = new Array(keys.length);
    let seen = 0;
    let expect = 0;
    let lastRank = -1;
    if (b[this.i] === 0x7d) this.i++;
    else {
      for (;;) {
        if (b[this.i] !== 0x22) throw BAIL;
        const keyStart = this.i + 1;
        // The expected member first (files keep one member order), compared in place; else every member.
        const words = n.keyWords;
        let pos = expect < keys.length && this.keyAt(keys[expect], words[expect], keyStart) ? expect : -1;
        if (pos < 0) {
          for (let k = 0; k < keys.length; k++) {
            if (this.keyAt(keys[k], words[k], keyStart)) {
              pos = k;
              break;
            }
          }
        }
        if (pos < 0) throw BAIL;
        const bit = 1 << pos;
        if ((seen & bit) !== 0) throw BAIL;
        seen |= bit;
        expect = pos + 1;
        this.i = keyStart + keys[pos].length + 1;
        this.ws();
        if (b[this.i] !== 0x3a) throw BAIL;
        this.i++;
        this.ws();
        const r = n.rank[pos];
        if (r < lastRank) this.dirty = true;
        lastRank = r;
        // Whether the input holds the canonical `"name":` right before the value (then it is copied with it).
        const keyed = this.i === keyStart + keys[pos].length + 2 ? 2 : 0;
        out[pos] = this.value(n.members[pos], ((pos + 1) << 2) | keyed);
        this.ws();
        const c = b[this.i];
        if (c === 0x2c) {
          this.i++;
          this.ws();
          continue;
        }
        if (c !== 0x7d) throw BAIL;
        this.i++;
        break;
      }
    }
    if (seen !== n.all) throw BAIL;
    const canonical = !this.dirty;
    this.dirty = outer || this.dirty;
    this.close(p, canonical);
    return out;
  }

  // -- writing ------------------------------------------------------------------------------------------------
  //
  // The canonical text is gathered in `out` as pieces: spans of the input, which are merged while they follow one
  // another in the input (a run of members already in code-point order is one copy), and bytes of the key table.

  /** Writes tape entry `p` (of node `n`) canonically; `frame` is the first free slot of the emission scratch. */
  private emit(n: Node<F>, p: number, frame: number): void {
    const t = this.tape;
    const start = t[p];
    if ((t[p + 3] & 1) !== 0) return this.piece(start, t[p + 1]);
    const next = t[p + 2];
    // The opening bracket is the input's.
    this.piece(start, start + 1);
    if (n.kind === ARRAY) {
      for (let c = p + NODE; c < next; c = t[c + 2]) {
        if (c !== p + NODE) this.punctuation(0x2c);
        this.emit(n.item!, c, frame);
      }
      return this.punctuation(0x5d);
    }
    const count = n.names.length;
    if (frame + count > this.slots.length) {
      const grown = new Int32Array(2 * (frame + count));
      grown.set(this.slots);
      this.slots = grown;
    }
    const slots = this.slots;
    for (let c = p + NODE; c < next; c = t[c + 2]) slots[frame + (t[c + 3] >> 2) - 1] = c;
    for (let r = 0; r < count; r++) {
      const pos = n.sorted[r];
      if (r > 0) this.punctuation(0x2c);
      const c = slots[frame + pos];
      if ((t[c + 3] & 2) !== 0) {
        const valueStart = t[c];
        this.piece(valueStart - n.keys[pos].length - 3, valueStart);
      } else {
        this.flush();
        this.copy(this.keyTable, n.memberKeys[2 * pos], n.memberKeys[2 * pos + 1]);
      }
      this.emit(n.members[pos], c, frame + count);
    }
    this.punctuation(0x7d);
  }

  /** Input bytes [start, end), merged with the pending span when it ends where this starts. */
  private piece(start: number, end: number): void {
    if (start === this.pendingEnd) {
      this.pendingEnd = end;
      return;
    }
    this.flush();
    this.pendingStart = start;
    this.pendingEnd = end;
  }

  /**
   * A `,` or closing bracket: the input's own byte when it follows the pending span (the input holds that byte
   * right after the value just written), else the byte itself.
   */
  private punctuation(c: number): void {
    if (this.pendingEnd >= 0 && this.b[this.pendingEnd] === c) {
      this.pendingEnd++;
      return;
    }
    this.flush();
    this.reserve(1);
    this.out[this.outPos++] = c;
  }

  private flush(): void {
    if (this.pendingEnd < 0) return;
    this.copy(this.b, this.pendingStart, this.pendingEnd);
    this.pendingStart = this.pendingEnd = -1;
  }

  /** Appends bytes [start, end) of `src` (the input or the key table) to `out`. */
  private copy(src: Uint8Array, start: number, end: number): void {
    const n = end - start;
    this.reserve(n);
    const out = this.out;
    let pos = this.outPos;
    if (n > 64) out.set(src.subarray(start, end), pos);
    else {
      // Four bytes at a time (unaligned DataView access), the rest one by one: a span is too short for a native copy.
      const from = src === this.b ? this.view : this.keyView;
      const to = this.outView;
      let k = start;
      for (; k + 4 <= end; k += 4, pos += 4) to.setInt32(pos, from.getInt32(k));
      for (; k < end; k++) out[pos++] = src[k];
    }
    this.outPos += n;
  }

  private reserve(n: number): void {
    if (this.outPos + n <= this.out.length) return;
    const grown = new Uint8Array(Math.max(2 * this.out.length, this.outPos + n));
    grown.set(this.out.subarray(0, this.outPos));
    this.out = grown;
    this.outView = new DataView(grown.buffer);
  }
}

/**
 * Bytes [start, end) of `b`, all ASCII, as a string. Node's `Buffer#latin1Slice` (what `toString("latin1")` calls
 * after choosing the encoding, which costs more than the slice for short strings), when present.
 */
const latin1: (b: Buffer, start: number, end: number) => string =
  typeof (Buffer.prototype as unknown as { latin1Slice?: unknown }).latin1Slice === "function"
    ? (b, start, end) => (b as unknown as { latin1Slice(start: number, end: number): string }).latin1Slice(start, end)
    : (b, start, end) => b.toString("latin1", start, end);

function sameBytes(bytes: Uint8Array, b: Uint8Array, start: number, n: number): boolean {
  if (bytes.length !== n) return false;
  for (let j = 0; j < n; j++) if (b[start + j] !== bytes[j]) return false;
  return true;
}
