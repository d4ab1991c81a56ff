/**
 * The fast lane for one event: native `JSON.parse` of the event's bytes and the shape check over plain objects,
 * used only where a byte scan has proved that `JSON.parse` reads the bytes exactly as the strict loader would.
 *
 * What the scan proves (everything else sends the event down the strict lane, which then reports the exact error):
 * no number token with a fraction or an exponent (JSON.parse would read `1.0` as the integer 1), no integer of
 * more than 15 digits (always a safe integer), no `-0` (the strict loader reads the integer 0), no `\u` escape of a
 * surrogate (JSON.parse accepts a lone one), nesting of at most 16 (the loader's limit is 30 here), and the slice
 * is shorter than the longest string the loader accepts. It also counts the members of every object (the `:`
 * outside strings): after the shape check, the members of the objects it opened must number exactly that, else a
 * key was repeated (JSON.parse keeps the last one silently). The input's UTF-8 was checked before the scan.
 *
 * Only an event that passes the whole shape check on this lane is taken from it (it then has no findings on
 * either lane); any other event is parsed and checked again by the strict lane, so every error, message and path
 * is the strict lane's.
 *
 * The scan also says whether the slice is already its canonical text: compact (no whitespace outside strings),
 * every escape one JSON.stringify writes (`\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`, or `\u00xx` in lowercase for the
 * other control characters); with every object's keys in code-point order ({@link PlainJsonModel.ordered}), the
 * slice's bytes are then hashed as they are, instead of writing the checked event's JSON text. (Putting the members
 * of an unordered slice in order byte by byte in JS was measured slower than JSON.stringify of the checked event,
 * 19% of validation's time against 17%, and was dropped.)
 */
import { ShapeViolation, verdictChecker } from "../../src/json/shape-check.js";
import { PlainJsonModel } from "../../src/json/value-model.js";
import { closingQuote } from "../../src/json/tokenizer.js";
import { INDEX_DIALECT } from "./index-dialect.js";
import type { EventShape, RegionalEvent } from "./index-shape.js";

/** The facts of one scanned event slice. */
export interface SliceFacts {
  /** JSON.parse reads the slice as the strict loader does (see the module comment). */
  plain: boolean;
  /** The slice is compact and writes only the escapes JSON.stringify writes. */
  compact: boolean;
  /** Members (`:` outside strings) of every object in the slice. */
  members: number;
}

/** A slice the fast lane may take: its text, bytes and facts. */
export interface FastSlice {
  text: string;
  bytes: Uint8Array;
  members: number;
  compact: boolean;
}

/** Nesting the fast lane accepts (an event is 3 deep); the strict loader's limit for an event is 30. */
const MAX_FAST_DEPTH = 16;
/** The strict loader's longest string (code points, so at most this many bytes too). */
const MAX_FAST_BYTES = 11_184_812;

/**
 * End (exclusive) of the container starting at `start` (`{` or `[`), exactly where the tokenizer's `valueEnd`
 * puts it, with the slice's facts in `facts`; -1 where `valueEnd` would give -1 or the value is not a container.
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

/** One reusable checker per event shape (one per profile). */
const CHECKERS = new WeakMap<EventShape, (value: never, model: PlainJsonModel) => unknown>();

/** The outcome of the fast lane for a conforming event: the checked event, and its canonical bytes when the slice is them. */
export interface FastEvent {
  event: RegionalEvent;
  canonical: Uint8Array | undefined;
}

/**
 * The checked event when `slice` parses natively to an event that conforms to `shape` with no repeated key;
 * undefined when the strict lane must decide (a syntax error, any shape problem, a repeated key).
 */
export function fastEvent(slice: FastSlice, shape: EventShape): FastEvent | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(slice.text);
  } catch {
    return undefined;
  }
  const model = new PlainJsonModel();
  let check = CHECKERS.get(shape);
  if (check === undefined) CHECKERS.set(shape, (check = verdictChecker(shape, INDEX_DIALECT, { memberOrder: "code-point" })));
  let event: RegionalEvent;
  try {
    event = check(parsed as never, model) as RegionalEvent;
  } catch (e) {
    if (e instanceof ShapeViolation) return undefined;
    throw e;
  }
  if (model.members !== slice.members) return undefined;
  return { event, canonical: slice.compact && model.ordered ? slice.bytes : undefined };
}
