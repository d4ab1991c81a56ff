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
const NONSPACING_MARK = /^\p{Mn}$/u;
/** Quick test: does the string contain any character step 3 might drop? */
const ANY_STRIPPABLE = /[\p{Cf}\p{Me}\p{Mn}]/u;

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

/** Step 3: drop format and enclosing marks, and non-spacing marks by the block / previous-character rule. */
function stripMarks(s: string): string {
  if (!ANY_STRIPPABLE.test(s)) return s;
  let out = "";
  let lastKept = -1;
  for (const ch of s) {
    const cp = ch.codePointAt(0) as number;
    if (FORMAT_OR_ENCLOSING.test(ch)) continue;
    if (NONSPACING_MARK.test(ch)) {
      if (inRanges(cp, ALWAYS_DROPPED_MARK_RANGES)) continue;
      if (lastKept !== -1 && lastKept < 0x0500) continue;
    }
    out += ch;
    lastKept = cp;
  }
  return out;
}

/** Steps 5–7: confusables, partial Traditional → Simplified, removal of invisible characters. */
function mapCharacters(s: string): string {
  let out = "";
  for (const ch of s) {
    const mapped = CONFUSABLES.get(ch) ?? TRADITIONAL_TO_SIMPLIFIED.get(ch);
    if (mapped !== undefined) out += mapped; // table outputs are never removable characters
    else if (!inRanges(ch.codePointAt(0) as number, REMOVED_RANGES)) out += ch;
  }
  return out;
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
