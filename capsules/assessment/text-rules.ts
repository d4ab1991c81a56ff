/**
 * String predicates of the assessment intake (assessment-v1 §0, §2): identifiers, hex digests, the strict UTC
 * timestamp grammar of §2.2, Python-compatible "blank", and the control/format/bidi character rule.
 * The identifier, blank and timestamp rules are the pack's (`src/pack`), defined once for both.
 */
export { IDENTIFIER_LOWER } from "../../published/pack/vocabulary.js";
/** True when the string is empty or only Python whitespace (`str.isspace()`: no U+FEFF, adds U+001C–U+001F, U+0085). */
export { isBlank as isPythonBlank } from "../../published/pack/text-rules.js";
/**
 * §2.2 grammar: `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, ASCII digits, a real Gregorian date (year ≥ 1), hour ≤ 23,
 * minute ≤ 59, second ≤ 59 (no leap second). Every such string also passes the capsule timestamp rule.
 */
export { isAssessmentTimestamp as isUtcTimestamp } from "../../published/pack/text-rules.js";

export const HEX24 = /^[0-9a-f]{24}$/;
export const HEX64 = /^[0-9a-f]{64}$/;

/** Control (Cc), format (Cf: includes every bidi control, ZWJ, BOM, soft hyphen) and line/paragraph separators. */
const CONTROL_FORMAT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The first control, format or bidi character of `s`, as `U+XXXX`, or undefined when there is none. */
export function firstControlOrFormat(s: string): string | undefined {
  const m = CONTROL_FORMAT.exec(s);
  if (!m) return undefined;
  return `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

/** An `https://` URL with a host part, without whitespace or control characters. */
export function isHttpsUrl(s: string): boolean {
  return /^https:\/\/[^\s/?#]+[^\s]*$/u.test(s) && firstControlOrFormat(s) === undefined;
}
