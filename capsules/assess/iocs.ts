/**
 * IOC extraction of `assess` (docs/assess.md "IOC extraction"): the six kinds of assessment-v1 §2.3 found by the
 * bridge itself, in first-seen order, deduplicated. Each value is the message's own characters as written (defanged,
 * full-width or with look-alike letters as it may be), with only invisible characters left out (assessment-v1 §2.3
 * allows no format character in a value; a value is therefore a substring of the message once those are removed).
 * The search itself reads normalised views (normalise.ts, link-view.ts): invisibles dropped, NFKC, look-alikes read
 * as Latin for the ASCII-only kinds, defanging undone, links bounded by CJK text and glued labels.
 *
 * URLs and e-mail addresses: linkify-it, then the filters of link-filters.ts. Phone numbers: phones.ts in the
 * regions of phone-regions.ts. Telegram links (`t.me/…`, `telegram.me/…`, `tg://resolve?domain=…`) are channels,
 * not URLs. Handles: `@name` with Telegram's username rule. Wallets: wallets.ts.
 */
import LinkifyIt from "linkify-it";
import TLDS from "tlds" with { type: "json" };
import type { CountryCode } from "libphonenumber-js/max";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { CONFUSABLES } from "../../published/pack/normalize-tables.js";
import { refang } from "../../src/refang.js";
import { asciiDigitsSameLength } from "../guard/decimal-digits.js";
import { isLinkValue, trimEmail } from "./link-filters.js";
import { asWritten, refangedView, separatedView } from "./link-view.js";
import { normalisedView, normalisedViews, type TextView } from "./normalise.js";
import { phoneRegions } from "./phone-regions.js";
import { findPhones } from "./phones.js";
import { findWallets } from "./wallets.js";

export { DEFAULT_PHONE_REGION } from "./phone-regions.js";

export type IocLists = Record<IocKind, string[]>;

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
// Every top-level domain IANA lists (the `tlds` package: `.top`, `.xyz`, `.online`… that linkify-it's own short list
// lacks), plus the RFC 2606/6761 reserved names used by examples and tests.
linkify.tlds([...TLDS, "example", "test", "invalid"], false);

/**
 * Telegram links: `t.me/…`, `telegram.me/…`, `telegram.dog/…` (with or without a scheme, `www.`, `joinchat/`, `+`),
 * and the app's own `tg://resolve?domain=…` and `tg://join?invite=…` (with further `&…` parameters).
 */
const CHANNEL =
  /(?<![A-Za-z0-9_.\/-])(?:(?:https?:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)\/(?:joinchat\/\+?|\+)?[A-Za-z0-9_-]{3,64}(?![A-Za-z0-9_-])|tg:\/\/(?:resolve\?domain=[A-Za-z0-9_]{3,64}|join\?invite=[A-Za-z0-9_-]{3,64})(?:&[A-Za-z0-9_]+=[A-Za-z0-9_-]*)*(?![A-Za-z0-9_&=-]))/gi;
// Telegram usernames are ASCII: 5–32 of [A-Za-z0-9_], starting with a letter. Bounded by ASCII word characters
// only, so a handle written straight after or before CJK text is still found; not part of an e-mail or a path.
const HANDLE = /(?<![A-Za-z0-9_.@+\-\/])@([A-Za-z][A-Za-z0-9_]{4,31})(?![A-Za-z0-9_@]|\.[A-Za-z0-9])/g;
const TELEGRAM_HOST = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:www\.)?(?:t\.me|telegram\.me|telegram\.dog)(?:\/|$)/i;

function found(message: string, view: TextView, kind: IocKind, start: number, end: number): Found {
  return { kind, ...asWritten(message, view, start, end) };
}

function overlaps(a: { start: number; end: number }, spans: readonly { start: number; end: number }[]): boolean {
  return spans.some((b) => a.start < b.end && b.start < a.end);
}

/**
 * Every IOC of `message`, per kind in first-seen order, deduplicated. Phone numbers without a country code are read
 * in `region` when given (the judgement's), else in the regions the message suggests (phone-regions.ts). The text
 * is never logged or kept.
 */
export function extractIocs(message: string, region?: CountryCode): Extraction {
  const { found, wallet_checksums } = findAll(message, region);
  return { iocs: orderedLists(found), wallet_checksums };
}

function findAll(message: string, region: CountryCode | undefined): { found: Found[]; wallet_checksums: Extraction["wallet_checksums"]; skeleton: TextView } {
  const { visible, skeleton } = normalisedViews(message);
  const links = refangedView(separatedView(message, visible));
  const skeletonLinks = skeleton === visible ? links : refangedView(separatedView(message, skeleton));
  const out: Found[] = [];
  const wallet_checksums = { verified: 0, failed: 0, none: 0 };

  CHANNEL.lastIndex = 0;
  for (let m = CHANNEL.exec(skeletonLinks.text); m !== null; m = CHANNEL.exec(skeletonLinks.text)) {
    out.push(found(message, skeletonLinks, "channels", m.index, m.index + m[0].length));
  }
  for (const w of findWallets(skeleton.text)) {
    const f = found(message, skeleton, "wallets", w.start, w.end);
    if (overlaps(f, out)) continue;
    out.push(f);
    if (w.checksum === true) wallet_checksums.verified++;
    else if (w.checksum === false) wallet_checksums.failed++;
    else wallet_checksums.none++;
  }
  // The visible view first (a genuine internationalised name stays as written), then the skeleton view for
  // addresses that only parse once look-alike letters are read as Latin.
  for (const view of skeletonLinks === links ? [links] : [links, skeletonLinks]) {
    for (const m of linkify.match(view.text) ?? []) {
      const kind: IocKind = m.schema === "mailto:" ? "emails" : TELEGRAM_HOST.test(m.raw) ? "channels" : "urls";
      // In the visible view a match right after a look-alike letter is the tail of a disguised token: the skeleton
      // view finds the whole of it.
      if (view === links && m.index > 0 && CONFUSABLES.has(view.text[m.index - 1])) continue;
      let start = m.index;
      if (kind === "emails") start += trimEmail(m.raw);
      else if (kind === "urls" && !isLinkValue(m.raw, m.schema)) continue;
      if (start >= m.lastIndex) continue;
      const f = found(message, view, kind, start, m.lastIndex);
      if (!overlaps(f, out)) out.push(f);
    }
  }
  HANDLE.lastIndex = 0;
  for (let m = HANDLE.exec(skeleton.text); m !== null; m = HANDLE.exec(skeleton.text)) {
    const f = found(message, skeleton, "handles", m.index, m.index + m[0].length);
    if (!overlaps(f, out)) out.push(f);
  }
  // Digits of any script are searched as ASCII digits (offsets are the same), and recorded as the message writes them.
  const taken = (a: number, b: number): boolean => {
    const from = visible.origin[a];
    const to = visible.origin[b - 1] + 1;
    return out.some((s) => s.start <= from && to <= s.end);
  };
  for (const n of findPhones(asciiDigitsSameLength(visible.text), phoneRegions(message, region), taken)) {
    const f = found(message, visible, "phones", n.start, n.end);
    if (!overlaps(f, out)) out.push(f);
  }
  return { found: out, wallet_checksums, skeleton };
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
 * defanging undone, ASCII case): the message's own characters there (invisibles left out), or undefined when it does
 * not occur.
 */
export function locateClientIoc(message: string, value: string): { start: number; value: string } | undefined {
  const view = refangedView(normalisedView(message, true));
  return locateIn(message, view, asciiLower(view.text), value);
}

const asciiLower = (s: string): string => s.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** {@link locateClientIoc} in a refanged skeleton view and its ASCII-lowercased text (computed once per message). */
function locateIn(message: string, view: TextView, lowered: string, value: string): { start: number; value: string } | undefined {
  const needle = asciiLower(refang(normalisedView(value, true).text));
  if (needle.length === 0) return undefined;
  const at = lowered.indexOf(needle);
  if (at === -1) return undefined;
  const w = asWritten(message, view, at, at + needle.length);
  return { start: w.start, value: w.value };
}

/**
 * The bridge's extraction plus the IOCs the client named (each located in the message, see
 * {@link locateClientIoc}), per kind in first-seen order and unique. A client IOC that does not occur is reported
 * by kind and index only (never its value). `region` as for {@link extractIocs}.
 */
export function extractWithClientIocs(
  message: string,
  client: Partial<Record<IocKind, readonly string[]>>,
  region?: CountryCode,
): (Extraction & { missing?: undefined }) | { missing: { kind: IocKind; index: number } } {
  const { found, wallet_checksums, skeleton } = findAll(message, region);
  let view: TextView | undefined;
  let lowered: string | undefined;
  for (const kind of IOC_KINDS) {
    const values = client[kind] ?? [];
    for (let i = 0; i < values.length; i++) {
      view ??= refangedView(skeleton);
      lowered ??= asciiLower(view.text);
      const loc = locateIn(message, view, lowered, values[i]);
      if (loc === undefined) return { missing: { kind, index: i } };
      found.push({ kind, start: loc.start, end: loc.start + 1, value: loc.value });
    }
  }
  return { iocs: orderedLists(found), wallet_checksums };
}
