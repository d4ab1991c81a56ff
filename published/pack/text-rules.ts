/**
 * String rules shared by the pack loader and the observation checks (assessment-v1 §0, §3.1, §4.5):
 * Python `str.strip()` blankness, control and format characters.
 */

/** Python `str.isspace()` characters (bidi WS/B/S or category Zs). Not JS `trim()`: U+FEFF and U+200B are not space. */
export function isPythonSpace(cp: number): boolean {
  return (
    (cp >= 0x09 && cp <= 0x0d) ||
    (cp >= 0x1c && cp <= 0x20) ||
    cp === 0x85 ||
    cp === 0xa0 ||
    cp === 0x1680 ||
    (cp >= 0x2000 && cp <= 0x200a) ||
    cp === 0x2028 ||
    cp === 0x2029 ||
    cp === 0x202f ||
    cp === 0x205f ||
    cp === 0x3000
  );
}

/** True when the string is empty after Python `str.strip()`. */
export function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isPythonSpace(s.charCodeAt(i))) return false;
  return true;
}

/** True for a C0/C1 control character (category Cc) other than TAB, LF and CR. */
export function hasForbiddenControl(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0x7f && c <= 0x9f)) return true;
  }
  return false;
}

const CONTROL_OR_FORMAT = /[\p{Cc}\p{Cf}]/u;

/** True for any control (Cc, including TAB/LF/CR) or format (Cf, including bidi controls) character. */
export function hasControlOrFormat(s: string): boolean {
  return CONTROL_OR_FORMAT.test(s);
}

const TIMESTAMP = /^([0-9]{4})-([0-9]{2})-([0-9]{2})T([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]{6})?Z$/;

/** assessment-v1 §2.2 timestamp grammar: `YYYY-MM-DDTHH:MM:SS[.ffffff]Z`, a real date, hour ≤ 23, second ≤ 59. */
export function isAssessmentTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number);
  if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}
