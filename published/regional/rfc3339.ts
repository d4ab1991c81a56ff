/**
 * RFC 3339 §5.6 `date-time` (the JSON Schema `date-time` format) and instant comparison.
 *
 * Accepted: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, `T` and `Z` in either case (RFC 3339 §5.6 note), real
 * calendar days (leap years included), any number of fraction digits. A leap second (`:60`) is accepted only where
 * the time, moved to UTC, is 23:59:60 (the JSON Schema test suite's reading of §5.7).
 */


export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  if (m === 2) return isLeapYear(y) ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** True for a real proleptic Gregorian date (month 1–12, day within the month). */
export function isCalendarDate(y: number, m: number, d: number): boolean {
  return m >= 1 && m <= 12 && d >= 1 && d <= daysInMonth(y, m);
}

/** Days from 1970-01-01 to the given proleptic Gregorian date (exact for any year 0–9999). */
export function epochDays(y: number, m: number, d: number): number {
  const yy = m <= 2 ? y - 1 : y;
  const era = Math.floor(yy / 400);
  const yoe = yy - era * 400;
  const mp = (m + 9) % 12;
  const doy = Math.floor((153 * mp + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** An instant: whole UTC seconds since the epoch plus the fraction digits without trailing zeros. */
export interface Instant {
  seconds: number;
  fraction: string;
}

/** Value of `n` ASCII digits at `i`, or -1. */
function digits(s: string, i: number, n: number): number {
  let v = 0;
  for (let k = i; k < i + n; k++) {
    const c = s.charCodeAt(k) - 0x30;
    if (!(c >= 0 && c <= 9)) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** Parses an RFC 3339 date-time into an instant, or returns undefined when the text is not one. */
export function parseRfc3339(text: string): Instant | undefined {
  // YYYY-MM-DDTHH:MM:SS is 19 characters; then [.fraction] and Z or ±HH:MM.
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  const hour = digits(text, 11, 2);
  const minute = digits(text, 14, 2);
  const second = digits(text, 17, 2);
  if (year < 0 || month < 0 || day < 0 || hour < 0 || minute < 0 || second < 0) return undefined;
  if (text[4] !== "-" || text[7] !== "-" || (text[10] !== "T" && text[10] !== "t") || text[13] !== ":" || text[16] !== ":") return undefined;
  if (!isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 60) return undefined;
  let i = 19;
  let fraction = "";
  if (text[i] === ".") {
    const start = ++i;
    while (i < text.length && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    if (i === start) return undefined;
    fraction = text.slice(start, i).replace(/0+$/, "");
  }
  let offsetMinutes = 0;
  const z = text[i];
  if ((z === "Z" || z === "z") && i + 1 === text.length) {
    offsetMinutes = 0;
  } else if ((z === "+" || z === "-") && i + 6 === text.length && text[i + 3] === ":") {
    const oh = digits(text, i + 1, 2);
    const om = digits(text, i + 4, 2);
    if (oh < 0 || om < 0 || oh > 23 || om > 59) return undefined;
    offsetMinutes = (z === "-" ? -1 : 1) * (oh * 60 + om);
  } else {
    return undefined;
  }
  const localMinutes = hour * 60 + minute;
  if (second === 60) {
    const utcMinutes = (((localMinutes - offsetMinutes) % 1440) + 1440) % 1440;
    if (utcMinutes !== 23 * 60 + 59) return undefined;
  }
  const seconds = epochDays(year, month, day) * 86400 + (localMinutes - offsetMinutes) * 60 + second;
  return { seconds, fraction };
}

export function isRfc3339DateTime(text: string): boolean {
  return parseRfc3339(text) !== undefined;
}

/** Orders two instants (negative, zero, positive). */
export function compareInstants(a: Instant, b: Instant): number {
  if (a.seconds !== b.seconds) return a.seconds - b.seconds;
  const n = Math.max(a.fraction.length, b.fraction.length);
  const fa = a.fraction.padEnd(n, "0");
  const fb = b.fraction.padEnd(n, "0");
  return fa < fb ? -1 : fa > fb ? 1 : 0;
}

/** `YYYY-MM-DDTHH:MM:SSZ` without a leap second, given a valid date-time: fixed width, so text order is time order. */
function isPlainUtc(s: string): boolean {
  return s.length === 20 && s.charCodeAt(19) === 0x5a && s.charCodeAt(10) === 0x54 && !(s.charCodeAt(17) === 0x36 && s.charCodeAt(18) === 0x30);
}

/**
 * Orders two valid RFC 3339 date-times as instants (negative, zero, positive). Two in the common form
 * `YYYY-MM-DDTHH:MM:SSZ` are compared as text, which gives the same order without parsing either.
 */
export function compareDateTimes(a: string, b: string): number {
  if (isPlainUtc(a) && isPlainUtc(b)) return a < b ? -1 : a > b ? 1 : 0;
  return compareInstants(parseRfc3339(a)!, parseRfc3339(b)!);
}
