/**
 * Text normalisation of the typology matcher (assessment-v1 §4.1): `normalizeText` is N(x), `matchForm` is
 * F(x) = casefold(N(x)). Applied identically to message text and pack terms. There is no whitespace collapsing.
 *
 * Unicode data (General Category, NFKD/NFKC, case folding) comes from the runtime's ICU; Node 20 ships a newer
 * Unicode version than the reference's CPython 3.11 (Unicode 14.0), so results can differ only for code points
 * assigned after 14.0.
 */
import { caseFold } from "./casefold.js";
import {
  ALWAYS_DROPPED_MARK_RANGES,
  CONFUSABLES,
  inRanges,
  REMOVED_RANGES,
  TRADITIONAL_TO_SIMPLIFIED,
} from "./normalize-tables.js";

const FORMAT_OR_ENCLOSING = /^[\p{Cf}\p{Me}]$/u;
/** Every character step 3 might drop (Cf, Me, Mn); everything else is always kept. */
const STRIPPABLE = /[\p{Cf}\p{Me}\p{Mn}]/gu;

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/**
 * Step 3, scanning left to right: drop Cf and Me; drop Mn inside the always-dropped blocks; drop any other Mn only
 * when the last kept character exists and is below U+0500. Only candidate characters are visited; the last kept
 * character before a candidate is the input character just before it unless that one was a candidate too.
 */
function stripMarks(s: string): string {
  let lastEnd = 0;
  let lastKept = -1;
  return s.replace(STRIPPABLE, (ch: string, offset: number) => {
    if (offset > lastEnd) lastKept = s.codePointAt(offset - 1 - (isLowSurrogate(s.charCodeAt(offset - 1)) && offset >= 2 ? 1 : 0)) as number;
    lastEnd = offset + ch.length;
    const cp = ch.codePointAt(0) as number;
    const drop =
      FORMAT_OR_ENCLOSING.test(ch) || inRanges(cp, ALWAYS_DROPPED_MARK_RANGES) || (lastKept !== -1 && lastKept < 0x0500);
    if (drop) return "";
    lastKept = cp;
    return ch;
  });
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}

function escapeForClass(ch: string): string {
  return /[\\\]\[^-]/.test(ch) ? `\\${ch}` : ch;
}

function hex(cp: number): string {
  return `\\u{${cp.toString(16)}}`;
}

/** Every character steps 5–7 change: table keys and the removal ranges, as one character class. */
const MAPPED = new RegExp(
  `[${[...CONFUSABLES.keys(), ...TRADITIONAL_TO_SIMPLIFIED.keys()].map(escapeForClass).join("")}${REMOVED_RANGES.map(([lo, hi]) => `${hex(lo)}-${hex(hi)}`).join("")}]`,
  "gu",
);

/** Steps 5–7: confusables, partial Traditional → Simplified, removal of invisible characters. */
function mapCharacters(s: string): string {
  return s.replace(MAPPED, (ch: string) => CONFUSABLES.get(ch) ?? TRADITIONAL_TO_SIMPLIFIED.get(ch) ?? "");
}

/** N(x) of assessment-v1 §4.1. */
export function normalizeText(x: string): string {
  if (isAscii(x)) return x;
  const decomposed = x.normalize("NFKD");
  const stripped = stripMarks(decomposed);
  const composed = stripped.normalize("NFKC");
  return mapCharacters(composed);
}

/** F(x) = casefold(N(x)), the form in which message text and terms are compared (§4.1, §4.2). */
export function matchForm(x: string): string {
  return caseFold(normalizeText(x));
}
