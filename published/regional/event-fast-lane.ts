/**
 * The fast lane for one event: native `JSON.parse` of the event's bytes and the shape check over plain objects,
 * used only where a byte scan has proved that `JSON.parse` reads the bytes exactly as the strict loader would.
 *
 * What the scan (`scanContainer` in src/json/tokenizer.ts, run by the loader) proves (everything else sends the event down the strict lane, which then reports the exact error):
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
import { INDEX_DIALECT } from "./index-dialect.js";
import type { EventShape, RegionalEvent } from "./index-shape.js";

/** A slice the fast lane may take: its text, bytes and facts. */
export interface FastSlice {
  text: string;
  bytes: Uint8Array;
  members: number;
  compact: boolean;
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
