/**
 * Rule 8 of product.md §8: a candidate's `created_at` is truncated to the hour in UTC. The exact second (or
 * microsecond) of a post or a submission can identify it.
 */

/** The assessment timestamp grammar (assessment-v1 §2.2): UTC, `Z`, optional six fractional digits. */
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{6})?Z$/;

/** `2026-08-20T12:58:37.641214Z` → `2026-08-20T12:00:00Z`; `undefined` when `ts` is not a valid timestamp. */
export function truncateToHour(ts: string): string | undefined {
  const m = TIMESTAMP.exec(ts);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return undefined;
  if (year < 1 || day > daysInMonth(year, month)) return undefined;
  return `${y}-${mo}-${d}T${h}:00:00Z`;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
