/**
 * IOC extraction of `assess` (docs/assess.md "IOC extraction"): the six kinds of assessment-v1 §2.3 found by the
 * bridge itself, in first-seen order, deduplicated, each value the message's own characters with invisible
 * characters removed (and, for the ASCII-only kinds, look-alike letters read as the Latin letters they imitate).
 *
 * URLs and e-mail addresses: linkify-it. Phone numbers: libphonenumber-js (`searchPhoneNumbersInText`, valid numbers only,
 * default region IN for numbers written without a country code). Telegram links (`t.me/…`, `telegram.me/…`) are
 * channels, not URLs. Handles: `@name` with Telegram's username rule. Wallets: wallets.ts.
 */
import LinkifyIt from "linkify-it";
import { searchPhoneNumbersInText, type CountryCode } from "libphonenumber-js/max";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { CONFUSABLES } from "../../published/pack/normalize-tables.js";
import { asciiDigitsSameLength } from "../guard/decimal-digits.js";
import { normalisedView, normalisedViews, type TextView } from "./normalise.js";
import { findWallets } from "./wallets.js";

export type IocLists = Record<IocKind, string[]>;

/** Region assumed for phone numbers written without a country code. */
export const DEFAULT_PHONE_REGION: CountryCode = "IN";
/** Per kind at most this many values are recorded (assessment-v1 §2.3 limit). */
export const MAX_VALUES_PER_KIND = 256;
const MAX_VALUE_CHARS = 2048;

/** What the extraction found, with the wallet checksum outcome as counts (values stay private). */
export interface Extraction {
  iocs: IocLists;
  wallet_checksums: { verified: number; failed: number; none: number };
}

interface Found {
  kind: IocKind;
  /** Offsets in the message (first-seen order uses `start`). */
  start: number;
  end: number;
  value: string;
}

const linkify = new LinkifyIt();
// RFC 2606/6761 reserved names used by examples and tests; real TLDs come from linkify-it's own list.
linkify.tlds(["example", "test", "invalid"], true);

const CHANNEL = /(?<![A-Za-z0-9_.\/-])(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/(?:joinchat\/\+?|\+)?[A-Za-z0-9_-]{3,64}(?![A-Za-z0-9_-])/gi;
// Telegram usernames are ASCII: 5–32 of [A-Za-z0-9_], starting with a letter. Bounded by ASCII word characters
// only, so a handle written straight after or before CJK text is still found; not part of an e-mail or a path.
const HANDLE = /(?<![A-Za-z0-9_.@+\-\/])@([A-Za-z][A-Za-z0-9_]{4,31})(?![A-Za-z0-9_@]|\.[A-Za-z0-9])/g;
const TELEGRAM_HOST = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)(?:\/|$)/i;

function span(view: TextView, kind: IocKind, start: number, end: number): Found {
  return { kind, start: view.origin[start], end: view.origin[end], value: view.text.slice(start, end) };
}

function overlaps(a: { start: number; end: number }, spans: readonly { start: number; end: number }[]): boolean {
  return spans.some((b) => a.start < b.end && b.start < a.end);
}

/** Every IOC of `message`, per kind in first-seen order, deduplicated. The text is never logged or kept. */
export function extractIocs(message: string, region: CountryCode = DEFAULT_PHONE_REGION): Extraction {
  const { found, wallet_checksums } = findAll(message, region);
  return { iocs: orderedLists(found), wallet_checksums };
}

function findAll(message: string, region: CountryCode): { found: Found[]; wallet_checksums: Extraction["wallet_checksums"]; skeleton: TextView } {
  const { visible, skeleton } = normalisedViews(message);
  const found: Found[] = [];
  const wallet_checksums = { verified: 0, failed: 0, none: 0 };

  CHANNEL.lastIndex = 0;
  for (let m = CHANNEL.exec(skeleton.text); m !== null; m = CHANNEL.exec(skeleton.text)) {
    found.push(span(skeleton, "channels", m.index, m.index + m[0].length));
  }
  for (const w of findWallets(skeleton.text)) {
    const f = span(skeleton, "wallets", w.start, w.end);
    if (overlaps(f, found)) continue;
    found.push(f);
    if (w.checksum === true) wallet_checksums.verified++;
    else if (w.checksum === false) wallet_checksums.failed++;
    else wallet_checksums.none++;
  }
  // The visible view first (a genuine internationalised name stays as written), then the skeleton view for
  // addresses that only parse once look-alike letters are read as Latin.
  for (const view of skeleton.text === visible.text ? [visible] : [visible, skeleton]) {
    for (const m of linkify.match(view.text) ?? []) {
      const kind: IocKind = m.schema === "mailto:" ? "emails" : TELEGRAM_HOST.test(m.raw) ? "channels" : "urls";
      // In the visible view a match right after a look-alike letter is the tail of a disguised token: the skeleton
      // view finds the whole of it.
      if (view === visible && m.index > 0 && CONFUSABLES.has(view.text[m.index - 1])) continue;
      const f = span(view, kind, m.index, m.lastIndex);
      if (kind === "emails" && f.value.toLowerCase().startsWith("mailto:")) f.value = f.value.slice(7);
      if (!overlaps(f, found)) found.push(f);
    }
  }
  HANDLE.lastIndex = 0;
  for (let m = HANDLE.exec(skeleton.text); m !== null; m = HANDLE.exec(skeleton.text)) {
    const f = span(skeleton, "handles", m.index, m.index + m[0].length);
    if (!overlaps(f, found)) found.push(f);
  }
  // Digits of any script are searched as ASCII digits (offsets are the same), and recorded as the message writes them.
  for (const n of findPhones(asciiDigitsSameLength(visible.text), region)) {
    const f = span(visible, "phones", n.start, n.end);
    if (!overlaps(f, found)) found.push(f);
  }
  return { found, wallet_checksums, skeleton };
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

/**
 * The phone numbers of `text` (offsets), as libphonenumber-js finds them, except that digits after a comma or a
 * semicolon are never an extension. The library reads a comma as a dialling pause, so "call 98765 43210, 91234 56789"
 * would be one number with extension 91234, and the second number would be lost. Such a match ends with its number,
 * and the search goes on right after it. An extension with a label (`ext. 12`, `x123`, `#`) stays part of the number.
 *
 * The library's lazy search (`searchPhoneNumbersInText`) is read one match at a time, so a search that goes on after
 * such a number costs the distance to the next number, not the rest of the text: a message that is a long list of
 * numbers separated by commas is linear, not quadratic (the eager `findNumbers` searched the whole rest each time).
 */
function findPhones(text: string, region: CountryCode): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let from = 0;
  search: for (;;) {
    for (const n of searchPhoneNumbersInText(from === 0 ? text : text.slice(from), { defaultCountry: region })) {
      const start = from + n.startsAt;
      const end = from + n.endsAt;
      const raw = text.slice(start, end);
      if (DATE_START.test(raw) || TIME_AFTER.test(text.slice(end, end + 2))) continue;
      const list = n.number.ext === undefined ? null : LIST_EXTENSION.exec(raw);
      if (list !== null && list[2] === n.number.ext) {
        out.push({ start, end: start + list[1].length });
        from = start + list[1].length;
        continue search;
      }
      out.push({ start, end });
    }
    return out;
  }
}

function orderedLists(found: Found[]): IocLists {
  const out = Object.fromEntries(IOC_KINDS.map((k) => [k, [] as string[]])) as IocLists;
  found.sort((a, b) => a.start - b.start || a.end - b.end);
  for (const f of found) {
    const list = out[f.kind];
    if (f.value.length === 0 || f.value.length > MAX_VALUE_CHARS || list.length >= MAX_VALUES_PER_KIND) continue;
    if (!list.includes(f.value)) list.push(f.value);
  }
  return out;
}

/**
 * Where a client-named IOC sits in the message once both are normalised (invisibles dropped, NFKC, look-alikes,
 * ASCII case): the message's own normalised characters there, or undefined when it does not occur.
 */
export function locateClientIoc(message: string, value: string): { start: number; value: string } | undefined {
  const view = normalisedView(message, true);
  return locateIn(view, asciiLower(view.text), value);
}

const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** {@link locateClientIoc} in the message's skeleton view and its ASCII-lowercased text (computed once per message). */
function locateIn(view: TextView, lowered: string, value: string): { start: number; value: string } | undefined {
  const needle = asciiLower(normalisedView(value, true).text);
  if (needle.length === 0) return undefined;
  const at = lowered.indexOf(needle);
  if (at === -1) return undefined;
  return { start: view.origin[at], value: view.text.slice(at, at + needle.length) };
}

/**
 * The bridge's extraction plus the IOCs the client named (each located in the message, see
 * {@link locateClientIoc}), per kind in first-seen order and unique. A client IOC that does not occur is reported
 * by kind and index only (never its value).
 */
export function extractWithClientIocs(
  message: string,
  client: Partial<Record<IocKind, readonly string[]>>,
  region: CountryCode = DEFAULT_PHONE_REGION,
): (Extraction & { missing?: undefined }) | { missing: { kind: IocKind; index: number } } {
  const { found, wallet_checksums, skeleton } = findAll(message, region);
  let lowered: string | undefined;
  for (const kind of IOC_KINDS) {
    const values = client[kind] ?? [];
    for (let i = 0; i < values.length; i++) {
      lowered ??= asciiLower(skeleton.text);
      const loc = locateIn(skeleton, lowered, values[i]);
      if (loc === undefined) return { missing: { kind, index: i } };
      found.push({ kind, start: loc.start, end: loc.start + 1, value: loc.value });
    }
  }
  return { iocs: orderedLists(found), wallet_checksums };
}
