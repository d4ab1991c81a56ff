/**
 * The hosted server's clocks for economic observations (hosted-tool-server.md §4.2, §4.5), as CPython 3.11+
 * `date.fromisoformat` / `datetime.fromisoformat` read them: timestamps must match
 * `YYYY-MM-DDTHH:MM:SS[.f{1,6}](Z|±HH:MM)`, then be real calendar times; dates must be real `YYYY-MM-DD` dates
 * (other ISO 8601 date spellings Python accepts are refused with a separate message).
 */
import { epochDays, isCalendarDate, isLeapYear } from "../regional/rfc3339.js";

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?(?:Z|([+-])(\d{2}):(\d{2}))$/;

export interface EconTimestamp {
  /** UTC instant as [whole seconds since the epoch, microseconds], for comparison. */
  seconds: number;
  micros: number;
  /** Python `datetime.isoformat()` of the parsed value (offset kept, `Z` as `+00:00`, 6-digit fraction or none). */
  isoformat: string;
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, "0");
}

/** Parses a timestamp, or returns undefined where the server says "must be a timezone-aware ISO-8601 timestamp". */
export function parseEconTimestamp(value: unknown): EconTimestamp | undefined {
  if (typeof value !== "string") return undefined;
  const m = TIMESTAMP.exec(value);
  if (m === null) return undefined;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number);
  if (year < 1 || !isCalendarDate(year, month, day) || hour > 23 || minute > 59 || second > 59) return undefined;
  const micros = m[7] === undefined ? 0 : Number(m[7].padEnd(6, "0"));
  let offset = 0;
  if (m[8] !== undefined) {
    const oh = Number(m[9]);
    const om = Number(m[10]);
    if (oh > 23 || om > 59) return undefined;
    offset = (m[8] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const seconds = epochDays(year, month, day) * 86400 + (hour * 60 + minute - offset) * 60 + second;
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  const isoformat =
    `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}T${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}` +
    (micros ? `.${pad(micros, 6)}` : "") +
    `${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
  return { seconds, micros, isoformat };
}

export function compareEconTimestamps(a: EconTimestamp, b: EconTimestamp): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.micros - b.micros;
}

/** Other ISO 8601 date spellings that Python's `date.fromisoformat` accepts: basic and week dates. */
const OTHER_ISO_DATE = /^(?:\d{8}|\d{4}-W\d{2}(?:-\d)?|\d{4}W\d{2}\d?)$/;

export type EconDate = { ok: true; days: number } | { ok: false; reason: "not-iso-date" | "not-yyyy-mm-dd" };

/** Parses a `YYYY-MM-DD` date as the server does (§4.2 messages "must be an ISO-8601 date" / "must use YYYY-MM-DD form"). */
export function parseEconDate(value: unknown): EconDate {
  if (typeof value !== "string") return { ok: false, reason: "not-iso-date" };
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (m !== null) {
    const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
    return y >= 1 && isCalendarDate(y, mo, d) ? { ok: true, days: epochDays(y, mo, d) } : { ok: false, reason: "not-iso-date" };
  }
  return { ok: false, reason: OTHER_ISO_DATE.test(value) && weekOrBasicValid(value) ? "not-yyyy-mm-dd" : "not-iso-date" };
}

function weekOrBasicValid(value: string): boolean {
  const basic = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  if (basic !== null) return Number(basic[1]) >= 1 && isCalendarDate(Number(basic[1]), Number(basic[2]), Number(basic[3]));
  const week = /^(\d{4})-?W(\d{2})-?(\d)?$/.exec(value)!;
  const year = Number(week[1]);
  const w = Number(week[2]);
  const d = week[3] === undefined ? 1 : Number(week[3]);
  // ISO years have 52 or 53 weeks: 53 when 1 January is a Thursday, or a Wednesday in a leap year.
  const jan1 = (((epochDays(year, 1, 1) + 3) % 7) + 7) % 7; // 0 = Monday
  const weeks = jan1 === 3 || (jan1 === 2 && isLeapYear(year)) ? 53 : 52;
  return year >= 1 && w >= 1 && w <= weeks && d >= 1 && d <= 7;
}
