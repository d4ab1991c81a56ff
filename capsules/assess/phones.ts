/**
 * Phone numbers of a message (docs/assess.md "Phones"): libphonenumber-js (`searchPhoneNumbersInText`, full
 * metadata, valid numbers only) over the text with every script's digits read as ASCII digits, in the regions of
 * phone-regions.ts: the whole text in the first region, then each digit run no number covers yet in the others, in
 * order, until one reads a valid number there.
 *
 * Not phone numbers, whatever the library reads:
 * - a date with a four-digit year at the start of the match, or a time (`:` and a digit) right after it;
 * - a match inside a dotted quad that is an IPv4 address (`192.168.1.105`);
 * - a number labelled as something else: the label's word right before it (only separators and words such as
 *   `no.`, `number`, `#`, `:`, `号`, `№` between) names an order, a parcel or waybill, an invoice, a ticket, an
 *   account, a QQ number or a tax or company number, in the languages of the corpus (non-phone-labels.ts).
 *
 * Digits after a comma or a semicolon are never an extension (the library reads a comma as a dialling pause): such a
 * match ends with its number and the search goes on right after it, reading the library's lazy search one match at
 * a time, so a long comma-separated list of numbers costs linear time.
 */
import { searchPhoneNumbersInText, type CountryCode } from "libphonenumber-js/max";
import { NON_PHONE_LABEL } from "./non-phone-labels.js";

export interface Span {
  start: number;
  end: number;
}

/**
 * Dates and times the library can read as a number (in the ASCII-digit view): a match that starts with a dotted,
 * slashed or dashed date with a four-digit year (`27.11.2026 10` of `27.11.2026 10:30`), or that is followed at once
 * by `:` and a digit (the minutes of a time). A two-digit year is not read as a date: phone numbers are written in
 * groups of two (`01.23.45.67.89`).
 */
const DATE_START = /^(?:\d{1,2}([./-])\d{1,2}\1\d{4}|\d{4}([./-])\d{1,2}\2\d{1,2})(?!\d)/;
const TIME_AFTER = /^:\d/;
/** A match whose "extension" is only digits after a comma or semicolon: the number, then the digits. */
const LIST_EXTENSION = /^(.*\d)\s*[,;][\s,;]*(\d+)$/s;
/** How far before a number its label is looked for. */
const LABEL_WINDOW = 48;
const DOTTED = /[0-9.]/;
/** A dotted quad of decimal octets (0–255, no leading zero): an IPv4 address (node:net is not imported below bridge/). */
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
const isIPv4 = (s: string): boolean => IPV4.test(s);

/** True when `text.slice(start, end)` is a phone number by the rules above (dates, times, IPv4, labels). */
function isPhone(text: string, start: number, end: number): boolean {
  const raw = text.slice(start, end);
  if (DATE_START.test(raw) || TIME_AFTER.test(text.slice(end, end + 2))) return false;
  let a = start;
  let b = end;
  while (a > 0 && DOTTED.test(text[a - 1])) a--;
  while (b < text.length && DOTTED.test(text[b])) b++;
  if (text.slice(a, b).includes(".") && isIPv4(text.slice(a, b).replace(/^\.+|\.+$/g, ""))) return false;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  return !NON_PHONE_LABEL.test(text.slice(Math.max(lineStart, start - LABEL_WINDOW), start));
}

/** The numbers libphonenumber-js reads in `text` in `region`, by the rules above, from offset `from`. */
function searchRegion(text: string, region: CountryCode, out: Span[]): void {
  let from = 0;
  search: for (;;) {
    for (const n of searchPhoneNumbersInText(from === 0 ? text : text.slice(from), { defaultCountry: region })) {
      const start = from + n.startsAt;
      const end = from + n.endsAt;
      const list = n.number.ext === undefined ? null : LIST_EXTENSION.exec(text.slice(start, end));
      if (list !== null && list[2] === n.number.ext) {
        if (isPhone(text, start, start + list[1].length)) out.push({ start, end: start + list[1].length });
        from = start + list[1].length;
        continue search;
      }
      if (isPhone(text, start, end)) out.push({ start, end });
    }
    return;
  }
}

/**
 * Runs of digits and phone separators with at least seven digits, not inside a word or a code (`SF1402…`, hex):
 * where a number of another region may be.
 */
const DIGIT_RUN = /(?<![A-Za-z0-9])[+(]?\d[\d\s().\-/]*\d(?![A-Za-z0-9])/g;
const MIN_RUN_DIGITS = 7;

/**
 * The phone numbers of `text` (ASCII digits), as offsets, in first-found order per region. `regions` is never empty;
 * the first is searched over the whole text, the others only in digit runs `taken` does not claim (offsets in `text`).
 */
export function findPhones(text: string, regions: readonly CountryCode[], taken: (start: number, end: number) => boolean = () => false): Span[] {
  const out: Span[] = [];
  searchRegion(text, regions[0], out);
  if (regions.length === 1) return out;
  DIGIT_RUN.lastIndex = 0;
  for (let m = DIGIT_RUN.exec(text); m !== null; m = DIGIT_RUN.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[0].replace(/\D/g, "").length < MIN_RUN_DIGITS || out.some((s) => s.start < end && start < s.end)) continue;
    // A run inside another IOC (a wallet, a link) is no number of its own.
    if (taken(start, end)) continue;
    // The run with one character of context on each side (the library looks at the characters around a number).
    const from = Math.max(0, start - 1);
    const window = text.slice(from, Math.min(text.length, end + 1));
    for (let r = 1; r < regions.length; r++) {
      const found: Span[] = [];
      searchRegion(window, regions[r], found);
      const kept = found.map((s) => ({ start: s.start + from, end: s.end + from })).filter((s) => isPhone(text, s.start, s.end));
      if (kept.length === 0) continue;
      out.push(...kept);
      break;
    }
  }
  return out;
}
