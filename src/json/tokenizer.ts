/**
 * The lexical layer of strict JSON, over UTF-8 bytes: the one tokenizer of the project.
 *
 * The strict loader (`parse.ts`) reads its tokens with these functions, and scanners that only need where a value
 * starts and ends (the regional index loader, which parses each event from its span when asked) use
 * {@link valueEnd}. Every structural byte of JSON is ASCII and no byte of a multi-byte UTF-8 sequence is, so byte
 * offsets are exact token boundaries; positions in messages are counted as the loader counts them (UTF-16 units of
 * the decoded text) by {@link positionText}, only when a message is made.
 *
 * Nothing here builds a value or checks a limit: a span found here is only known to hold a well-formed value once
 * the loader has parsed it.
 */

/** Offset of the first byte at or after `i` that is not JSON whitespace (space, tab, LF, CR). */
export function skipWhitespace(b: Uint8Array, i: number): number {
  const n = b.length;
  while (i < n) {
    const c = b[i];
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
    else break;
  }
  return i;
}

/** Whether the bytes at `i` are the ASCII word `word`. */
export function wordAt(b: Uint8Array, i: number, word: string): boolean {
  if (i + word.length > b.length) return false;
  for (let k = 0; k < word.length; k++) if (b[i + k] !== word.charCodeAt(k)) return false;
  return true;
}

export function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/**
 * Where a number token ends, and what it is. `scan` reads the token starting at `start` (a `-` or a digit) the way
 * Python's strict decoder does: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?`, where an exponent without
 * digits is not part of the token. One instance is reused for every number of a document.
 */
export class NumberToken {
  /** Offset just after the token. */
  end = 0;
  /** Offset of the first digit of the integer part. */
  intStart = 0;
  /** Digits in the integer part. */
  intDigits = 0;
  /** Whether it has a fraction or an exponent. */
  isFloat = false;
  /** Where a failing token fails (set when `scan` returns false). */
  failAt = 0;
  /** The loader's message detail for that failure: `Expecting value` (no digit) or `Extra data` (`1.`). */
  failure: "Expecting value" | "Extra data" = "Expecting value";

  scan(b: Uint8Array, start: number): boolean {
    const n = b.length;
    let i = start;
    if (b[i] === 0x2d) i++;
    this.intStart = i;
    const first = b[i];
    if (first === 0x30) {
      i++;
    } else if (first >= 0x31 && first <= 0x39) {
      i++;
      while (i < n && isDigit(b[i])) i++;
    } else {
      return this.fail(start, "Expecting value");
    }
    this.intDigits = i - this.intStart;
    let isFloat = false;
    if (b[i] === 0x2e) {
      let j = i + 1;
      while (j < n && isDigit(b[j])) j++;
      if (j === i + 1) return this.fail(i, "Extra data");
      i = j;
      isFloat = true;
    }
    const e = b[i];
    if (e === 0x65 || e === 0x45) {
      let j = i + 1;
      const sign = b[j];
      if (sign === 0x2b || sign === 0x2d) j++;
      const digits = j;
      while (j < n && isDigit(b[j])) j++;
      if (j > digits) {
        i = j;
        isFloat = true;
      }
    }
    this.end = i;
    this.isFloat = isFloat;
    return true;
  }

  private fail(at: number, failure: NumberToken["failure"]): false {
    this.failAt = at;
    this.failure = failure;
    return false;
  }
}

/**
 * Offset of the first byte at or after `i` that is `"`, `\` or a control character (below 0x20), or `b.length`
 * when there is none: the end of the plain run inside a string.
 */
export function stringRunEnd(b: Uint8Array, i: number): number {
  const n = b.length;
  while (i < n) {
    const c = b[i];
    if (c === 0x22 || c === 0x5c || c < 0x20) return i;
    i++;
  }
  return n;
}

/** What {@link canonicalStringEnd} found besides the end: whether the string has escapes, whether it is all ASCII. */
export interface StringFacts {
  escaped: boolean;
  ascii: boolean;
}

/**
 * Offset of the quote closing the string that opens at `open`, when every byte of it up to `end` is one
 * `JSON.stringify` would write there: no raw control character, and only the escapes `\"` `\\` `\b` `\f` `\n` `\r`
 * `\t` and, for the other control characters, `\u00xx` in lowercase hex. -1 otherwise (also when no quote closes it
 * before `end`). Such a string's bytes are its canonical text (capsule-v1 §4.1) once the input is valid UTF-8.
 * `view` is a DataView of `b`: bytes are read four at a time while none is a quote, a backslash or a control
 * character (exact word tests).
 */
export function canonicalStringEnd(b: Uint8Array, view: DataView<ArrayBufferLike>, open: number, end: number, facts: StringFacts): number {
  let i = open + 1;
  let escaped = false;
  let high = 0;
  for (;;) {
    while (i + 4 <= end) {
      const w = view.getInt32(i);
      const q = w ^ 0x22222222;
      const s = w ^ 0x5c5c5c5c;
      if ((((q - 0x01010101) & ~q) | ((s - 0x01010101) & ~s) | ((w - 0x20202020) & ~w)) & 0x80808080) break;
      high |= w;
      i += 4;
    }
    if (i >= end) return -1;
    const c = b[i];
    if (c === 0x22) break;
    if (c === 0x5c) {
      escaped = true;
      const e = b[i + 1];
      if (e === 0x22 || e === 0x5c || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
        i += 2;
        continue;
      }
      if (e !== 0x75 || b[i + 2] !== 0x30 || b[i + 3] !== 0x30) return -1;
      const h = b[i + 4];
      const l = b[i + 5];
      const low = l >= 0x30 && l <= 0x39 ? l - 0x30 : l >= 0x61 && l <= 0x66 ? l - 0x57 : -1;
      if ((h !== 0x30 && h !== 0x31) || low < 0) return -1;
      const unit = (h - 0x30) * 16 + low;
      if (unit === 0x08 || unit === 0x09 || unit === 0x0a || unit === 0x0c || unit === 0x0d) return -1;
      i += 6;
      continue;
    }
    if (c < 0x20) return -1;
    high |= c;
    i++;
  }
  facts.escaped = escaped;
  facts.ascii = (high & 0x80808080) === 0;
  return i;
}

/**
 * Offset of the quote that closes the string opening at `open`, or `b.length` when none does. A quote ends the
 * string unless an odd run of backslashes precedes it. `indexOf` finds quotes natively, several times faster than
 * a byte loop; escapes and control characters are left for the loader.
 */
export function closingQuote(b: Uint8Array, open: number): number {
  let k = open;
  for (;;) {
    k = b.indexOf(0x22, k + 1);
    if (k === -1) return b.length;
    let j = k - 1;
    while (b[j] === 0x5c) j--;
    if (((k - 1 - j) & 1) === 0) return k;
  }
}

const NUMBER = new NumberToken();

/**
 * End (exclusive) of the JSON value starting at `start`, as the loader would consume it, or -1 where the loader
 * fails at or inside it (no value starts there, a number is cut short, a string or container is not closed).
 * Containers are matched by their brackets outside strings: what is between them is the loader's to check.
 */
export function valueEnd(b: Uint8Array, start: number): number {
  const c = b[start];
  if (c === 0x22 || c === 0x7b || c === 0x5b) {
    let depth = 0;
    let k = start;
    while (k < b.length) {
      const x = b[k];
      if (x === 0x22) {
        k = closingQuote(b, k);
        if (k >= b.length) return -1;
      } else if (x === 0x7b || x === 0x5b) depth++;
      else if (x === 0x7d || x === 0x5d) depth--;
      k++;
      if (depth === 0) return k;
    }
    return -1;
  }
  if (c === 0x74) return wordAt(b, start, "true") ? start + 4 : -1;
  if (c === 0x66) return wordAt(b, start, "false") ? start + 5 : -1;
  if (c === 0x6e) return wordAt(b, start, "null") ? start + 4 : -1;
  if (c === 0x2d || isDigit(c)) return NUMBER.scan(b, start) ? NUMBER.end : -1;
  return -1;
}

/** `line L column C (char N)` of a byte offset, counted as the loader counts: UTF-16 units, lines split at `\n`. */
export function positionText(b: Uint8Array, byteOffset: number): string {
  let chars = 0;
  let line = 1;
  let lastNewline = -1;
  const end = Math.min(byteOffset, b.length);
  for (let k = 0; k < end; k++) {
    const x = b[k];
    if ((x & 0xc0) === 0x80) continue;
    if (x === 0x0a) {
      line++;
      lastNewline = chars;
    }
    chars += x >= 0xf0 ? 2 : 1;
  }
  return `line ${line} column ${chars - lastNewline} (char ${chars})`;
}

/** Byte offset of the UTF-16 offset `units` counted from byte `start`. */
export function byteOfUnit(b: Uint8Array, start: number, units: number): number {
  let k = start;
  let n = 0;
  while (n < units && k < b.length) {
    const x = b[k];
    n += x >= 0xf0 ? 2 : 1;
    k += x < 0x80 ? 1 : x < 0xe0 ? 2 : x < 0xf0 ? 3 : 4;
  }
  return k;
}

/**
 * What a scan of one container found, for a caller that parses it natively (the regional fast lane,
 * published/regional/event-fast-lane.ts): whether `JSON.parse` reads it as the strict loader does.
 */
export interface SliceFacts {
  /** JSON.parse reads the slice as the strict loader does (see the module comment). */
  plain: boolean;
  /** The slice is compact and writes only the escapes JSON.stringify writes. */
  compact: boolean;
  /** Members (`:` outside strings) of every object in the slice. */
  members: number;
}

/** Nesting `plain` allows (well inside the strict loader's limits for any caller here). */
const MAX_FAST_DEPTH = 16;
/** The strict loader's longest string (code points, so at most this many bytes too): `plain` slices are shorter. */
const MAX_FAST_BYTES = 11_184_812;

/**
 * End (exclusive) of the container starting at `start` (`{` or `[`), exactly where the tokenizer's `valueEnd`
 * puts it, with the slice's facts in `facts` (`plain`: no fraction or exponent, no integer over 15 digits, no `-0`,
 * no `\\u` escape of a surrogate, nesting within 16; `compact`: no whitespace outside strings and only the escapes
 * JSON.stringify writes); -1 where `valueEnd` would give -1 or the value is not a container.
 */
export function scanContainer(b: Uint8Array, start: number, facts: SliceFacts): number {
  const first = b[start];
  if (first !== 0x7b && first !== 0x5b) return -1;
  const n = b.length;
  let depth = 0;
  let maxDepth = 0;
  let members = 0;
  let plain = true;
  let compact = true;
  let k = start;
  while (k < n) {
    const x = b[k];
    if (x === 0x22) {
      k = closingQuote(b, k);
      if (k >= n) return -1;
      k++;
    } else if (x === 0x7b || x === 0x5b) {
      if (++depth > maxDepth) maxDepth = depth;
      k++;
    } else if (x === 0x7d || x === 0x5d) {
      k++;
      if (--depth === 0) {
        facts.members = members;
        facts.compact = false;
        facts.plain = plain && maxDepth <= MAX_FAST_DEPTH && k - start <= MAX_FAST_BYTES && escapes(b, start, k, facts);
        facts.compact = facts.plain && compact && facts.compact;
        return k;
      }
    } else if (x === 0x3a) {
      members++;
      k++;
    } else if (x === 0x2d || (x >= 0x30 && x <= 0x39)) {
      // An integer token: at most 15 digits, no `-0`, no fraction or exponent after it.
      let j = x === 0x2d ? k + 1 : k;
      if (x === 0x2d && b[j] === 0x30) plain = false;
      const digits = j;
      while (j < n && b[j] >= 0x30 && b[j] <= 0x39) j++;
      const next = b[j];
      if (j - digits > 15 || next === 0x2e || next === 0x65 || next === 0x45) plain = false;
      k = j > k ? j : k + 1;
    } else {
      if (x === 0x20 || x === 0x0a || x === 0x0d || x === 0x09) compact = false;
      k++;
    }
  }
  return -1;
}

/** Short escapes JSON.stringify writes (after the backslash): `"` `\` b f n r t. */
const SHORT = new Set([0x22, 0x5c, 0x62, 0x66, 0x6e, 0x72, 0x74]);
/** Control characters JSON.stringify writes with a short escape (so `\u00xx` of them is not canonical). */
const SHORT_CONTROLS = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d]);

/**
 * Checks every backslash of bytes [start, end): false when a `\u` escape is of a surrogate (or malformed: JSON.parse
 * will refuse it anyway). Sets `facts.compact` to whether every escape is one JSON.stringify writes.
 */
function escapes(b: Uint8Array, start: number, end: number, facts: SliceFacts): boolean {
  facts.compact = true;
  const slice = b.subarray(start, end);
  let j = slice.indexOf(0x5c);
  while (j >= 0) {
    const e = slice[j + 1];
    if (e === 0x75) {
      let unit = 0;
      let lower = true;
      for (let h = j + 2; h < j + 6; h++) {
        const c = slice[h];
        let d: number;
        if (c >= 0x30 && c <= 0x39) d = c - 0x30;
        else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
        else if (c >= 0x41 && c <= 0x46) {
          d = c - 0x37;
          lower = false;
        } else return false;
        unit = unit * 16 + d;
      }
      if (unit >= 0xd800 && unit <= 0xdfff) return false;
      if (!lower || unit >= 0x20 || SHORT_CONTROLS.has(unit)) facts.compact = false;
      j = slice.indexOf(0x5c, j + 6);
    } else {
      if (!SHORT.has(e)) facts.compact = false;
      j = slice.indexOf(0x5c, j + 2);
    }
  }
  return true;
}
