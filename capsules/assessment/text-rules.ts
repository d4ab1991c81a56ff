/**
 * String predicates of the assessment intake (assessment-v1 §0, §2): identifiers, hex digests, the strict UTC
 * timestamp grammar of §2.2, Python-compatible "blank", and the control/format/bidi character rule.
 */

export const HEX24 = /^[0-9a-f]{24}$/;
export const HEX64 = /^[0-9a-f]{64}$/;
/** "Identifier (lower)" of assessment-v1 §0. */
export const IDENTIFIER_LOWER = /^[a-z][a-z0-9._-]{0,127}$/;

/** Python `str.isspace()` characters (assessment-v1 §0): differs from JS `\s` (no U+FEFF, adds U+001C–U+001F, U+0085). */
const PY_BLANK = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** True when the string is empty or only Python whitespace. */
export function isPythonBlank(s: string): boolean {
  return PY_BLANK.test(s);
}

/** Control (Cc), format (Cf: includes every bidi control, ZWJ, BOM, soft hyphen) and line/paragraph separators. */
const CONTROL_FORMAT = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/u;

/** The first control, format or bidi character of `s`, as `U+XXXX`, or undefined when there is none. */
export function firstControlOrFormat(s: string): string | undefined {
  const m = CONTROL_FORMAT.exec(s);
  if (!m) return undefined;
  return `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{6})?Z$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * §2.2 grammar: `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, ASCII digits, a real Gregorian date (year ≥ 1), hour ≤ 23,
 * minute ≤ 59, second ≤ 59 (no leap second). Every such string also passes the capsule timestamp rule.
 */
export function isUtcTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    hour <= 23 &&
    minute <= 59 &&
    second <= 59
  );
}

/** An `https://` URL with a host part, without whitespace or control characters. */
export function isHttpsUrl(s: string): boolean {
  return /^https:\/\/[^\s/?#]+[^\s]*$/u.test(s) && firstControlOrFormat(s) === undefined;
}
