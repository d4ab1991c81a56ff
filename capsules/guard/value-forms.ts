/**
 * The forms one private value is searched in (docs/guard.md), by kind. All text forms are compact forms
 * (forms.ts: NFKD, case folding, confusable skeleton, only letters and digits), so separators, zero-width and
 * combining characters, case and look-alikes never matter; `@`, `.`, `:` and `/` are separators, so a handle
 * with or without `@` has one form, and a refanged e-mail or URL folds to the same form as the original.
 *
 * - every value: its compact form and that form reversed;
 * - phones: their digits, the national significant number (libphonenumber-js; phone-digits.ts) and every run of
 *   {@link PHONE_RUN} of their digits (also reversed), all as windows of {@link PHONE_RUN} digits: any text holding
 *   one of these holds such a window, so the windows alone are indexed (as numbers, outward-guard.ts);
 * - URLs: host + path and the host alone; channels: the name without `t.me/`;
 * - wallets: each half (also reversed);
 * - message texts: each line or sentence of at least {@link PIECE_MIN} significant characters;
 * - anything that is a hexadecimal string of {@link HEX_WINDOW}+ digits (message hashes, pseudonyms, hex wallets):
 *   its hex digits, matched by any {@link HEX_WINDOW}-digit window (see outward-guard.ts), in either case and as
 *   the bytes they encode in base64/base64url.
 *
 * A text form that a window already covers is left out: the compact form of a phone written only with digits and
 * separators (its digit windows), and any form of a hex value that holds {@link HEX_WINDOW}+ of its hex digits. So is
 * a form that holds a text form of one of the value's pieces (a URL and its host + path when its host is one, a
 * channel when its name is, a wallet when a half is): folding is per code point, so a text holding it holds that.
 *
 * Forms are computed with one fold pass per piece (forms.ts `foldForms`), and the forms of recently seen values
 * are kept (many capsules share values: term hits, signal names, a wallet seen in several messages).
 *
 * A compact form shorter than {@link SHORT_MAX} + 1 characters is not distinctive: it is matched only as a whole
 * token (forms.ts `wholeTokens`), never inside other text. Monetary values (a rate, a spread) are always matched
 * as whole tokens only: a few digits would otherwise be found inside any long number or digest. So are detector
 * signal names: public identifiers whose words occur in ordinary prose.
 */
import { nationalNumberForm, phoneDigits } from "./phone-digits.js";
import { compactForm, digitWindowKeys, foldDigits, foldForms, HEX_WINDOW, hexWindowKeys, refang } from "./forms.js";
import type { PrivateValue } from "./private-values.js";
import { FNV_OFFSET, stringHash } from "./string-hash.js";

/** Compact forms of at most this many characters match only as whole tokens. */
export const SHORT_MAX = 3;
/** Phone digits: any run this long identifies the number. */
export const PHONE_RUN = 7;
/** Message text pieces shorter than this (significant characters) are not searched on their own. */
export const PIECE_MIN = 16;
/** A wallet half shorter than this is not searched on its own. */
const HALF_MIN = 8;

/** A value's forms. Shared by every caller (cached) and kept by reference in small guards: never changed. */
export interface ValueForms {
  /** Compact forms searched anywhere in compact text (each longer than {@link SHORT_MAX}). */
  readonly text: readonly string[];
  /** Compact forms searched only as whole tokens. */
  readonly tokens: readonly string[];
  /**
   * The keys (forms.ts `hexWindowKeys`) of every {@link HEX_WINDOW}-digit window of the value's hex digits, lower
   * case: each one is a hit.
   */
  readonly hexKeys: readonly number[];
  /**
   * The keys (forms.ts `digitWindowKeys`) of every {@link PHONE_RUN}-digit window of a phone's digits and national
   * number, each also reversed: each one is a hit.
   */
  readonly digitKeys: readonly number[];
}

const SCHEME = /^(?:h(?:tt|xx)ps?:\/\/|\/\/)?(?:www\.)?/i;
const CHANNEL_PREFIX = /^(?:h(?:tt|xx)ps?:\/\/)?(?:www\.)?(?:t|telegram)\.me\/(?:s\/)?|^@/i;

/**
 * Forms of recently seen values: a direct-mapped cache, one slot per value by a hash of its text, a value taking
 * the slot of whatever was there. Values repeat across capsules (term hits, signal names, amounts, a wallet seen in
 * several messages) and within one derivation (its guard, then its probe), while most of a store's values are one
 * capsule's: a map of thousands of entries cost more on each miss (two lookups, an insertion, entries kept alive
 * through collections) than computing the forms of a short value (docs/guard.md "Figures"). A slot holds the kind
 * and IOC kind its forms are for; a value of another kind with the same text has its forms computed again.
 */
const FORMS_CACHE_BITS = 10;
const FORMS_CACHE_MASK = (1 << FORMS_CACHE_BITS) - 1;
const slotValues: (string | undefined)[] = new Array<string | undefined>(FORMS_CACHE_MASK + 1).fill(undefined);
const slotKinds: (PrivateValue["kind"] | undefined)[] = new Array<PrivateValue["kind"] | undefined>(FORMS_CACHE_MASK + 1).fill(undefined);
const slotIocs: PrivateValue["ioc"][] = new Array<PrivateValue["ioc"]>(FORMS_CACHE_MASK + 1).fill(undefined);
const slotForms: (ValueForms | undefined)[] = new Array<ValueForms | undefined>(FORMS_CACHE_MASK + 1).fill(undefined);
const FORMS_CACHE_MAX_CHARS = 1024;

/** The cache slot of a value: FNV-1a of its text, folded to {@link FORMS_CACHE_BITS} bits. */
function slotOf(value: string): number {
  const h = stringHash(value, FNV_OFFSET);
  return (h ^ (h >>> FORMS_CACHE_BITS) ^ (h >>> 20)) & FORMS_CACHE_MASK;
}

/** Forgets every cached form (benchmarks: a run then costs what it costs in a fresh process). */
export function forgetValueForms(): void {
  slotValues.fill(undefined);
  slotForms.fill(undefined);
  recentDigests.length = 0;
  recentDigestFormsList.length = 0;
  recentNext = 0;
}

/** The forms of one private value (the same arrays for a value seen recently). */
export function valueForms(v: PrivateValue): ValueForms {
  // A digest or a pseudonym is found by its windows alone: computed in a pass, and kept only among the last few
  // (each is one capsule's; a derivation asks for the same digest several times in a row: its guard, then its
  // probe over own and store values).
  if (hexDigest(v)) return recentDigestForms(v.value);
  if (v.value.length > FORMS_CACHE_MAX_CHARS) return computeForms(v);
  const slot = slotOf(v.value);
  if (slotValues[slot] === v.value && slotKinds[slot] === v.kind && slotIocs[slot] === v.ioc) return slotForms[slot]!;
  const forms = computeForms(v);
  slotValues[slot] = v.value;
  slotKinds[slot] = v.kind;
  slotIocs[slot] = v.ioc;
  slotForms[slot] = forms;
  return forms;
}

const HEX_PLAIN = /^[0-9a-f]+$/;
const SURROGATE = /[\ud800-\udfff]/;
/** The characters a value {@link plainHex} reads as hex may hold. */
const HEX_SPELLING = /^[\s:\-0-9a-fA-Fx]*$/;
/** A phone written with ASCII digits and separators only (its compact form is its digits). */
const DIGITS_AND_SEPARATORS = /^[\s+().\-/0-9]*$/;
/** A value written as {@link HEX_WINDOW}+ hex digits (optionally after `0x`): every form of it is a window. */
const HEX_ONLY = /^(?:0x)?[0-9a-fA-F]{12,}$/;

/** A message hash or a pseudonym written in hex: its only forms are its windows. */
function hexDigest(v: PrivateValue): boolean {
  return (v.kind === "message_sha256" || v.kind === "source_pseudonym") && HEX_ONLY.test(v.value);
}

/** The hex digits of a value as the hex index reads it (`0x`, white space, `:` and `-` dropped, lower case). */
function plainHex(raw: string): string | undefined {
  // Anything but hex digits, `x` and those separators: not hex (the common case, answered without a copy).
  if (!HEX_SPELLING.test(raw)) return undefined;
  const plain = raw.replace(/[\s:-]/g, "").toLowerCase().replace(/^0x/, "");
  return HEX_PLAIN.test(plain) ? plain : undefined;
}

/** Adds `s` to a short list unless it holds it (a value has a few forms: a Set would cost more than it saves). */
function addNew(list: string[], s: string): void {
  if (!list.includes(s)) list.push(s);
}

/** How many digests {@link recentDigestForms} keeps: a capsule's (its message hash, its pseudonym) and a few more. */
const RECENT_DIGESTS = 8;
const recentDigests: string[] = [];
const recentDigestFormsList: ValueForms[] = [];
let recentNext = 0;

/** {@link digestForms}, from the last {@link RECENT_DIGESTS} asked for when it is one of them (the same arrays). */
function recentDigestForms(value: string): ValueForms {
  for (let i = 0; i < recentDigests.length; i++) if (recentDigests[i] === value) return recentDigestFormsList[i];
  const forms = digestForms(value);
  recentDigests[recentNext] = value;
  recentDigestFormsList[recentNext] = forms;
  recentNext = (recentNext + 1) % RECENT_DIGESTS;
  return forms;
}

/** The forms of a digest or pseudonym written in hex: its windows alone ({@link computeForms} would add nothing else). */
function digestForms(value: string): ValueForms {
  return { text: NONE, tokens: NONE, hexKeys: hexWindowKeys(value.toLowerCase().replace(/^0x/, "")), digitKeys: NONE };
}

function computeForms(v: PrivateValue): ValueForms {
  const text: string[] = [];
  const tokens: string[] = [];
  const digitRuns: string[] = [];
  const value = v.value;
  // A value that is 12+ hex digits is found by any 12-digit window of it (outward-guard.ts reads hex runs forwards
  // and backwards, in the plain and the compact form of every decoding layer), so a text form holding 12+ of its
  // hex digits adds nothing.
  const valueHex = plainHex(value);
  const hexIndexed = valueHex !== undefined && valueHex.length >= HEX_WINDOW;
  /**
   * Adds the forms of `raw` (a piece of the value); true when any text holding the value as written, in a form
   * searched anywhere, is found through them: they are text forms (searched inside any text), or its hex windows
   * find it. Then every piece that holds `raw` needs no forms of its own (a text holding the larger piece holds
   * this one, and so does each of its compact and reversed forms: folding is per code point).
   */
  const addText = (raw: string, alsoReversed = true): boolean => {
    // Checked before folding (12+ hex digits are never a short form, so the order changes nothing else).
    if (hexIndexed) {
      const h = plainHex(raw);
      if (h !== undefined && h.length >= HEX_WINDOW && valueHex.includes(h)) return true;
    }
    const f = foldForms(raw);
    if (f.compact === "") return false;
    if (f.significant <= SHORT_MAX) {
      addNew(tokens, f.compact);
      if (alsoReversed) addNew(tokens, f.reversed);
      return false;
    }
    addNew(text, f.compact);
    // Folded after reversing: a character may fold to several (m → rn), which must not be reversed themselves.
    if (alsoReversed) addNew(text, f.reversed);
    return true;
  };
  if (v.kind === "monetary_value" || v.kind === "signal_name") {
    // An amount or a rate is a few digits: found only as a whole token, never inside other digits or hex. A detector
    // signal name is one of a published vocabulary of identifiers made of words (`account_rental_offer`): what is
    // private is that this capsule has it, so it is found as the identifier, not inside prose that uses the words
    // ("bank-account rental offers" in a pack source title).
    const c = compactForm(value);
    if (c !== "") tokens.push(c);
    return { text: NONE, tokens: orNone(tokens), hexKeys: NONE, digitKeys: NONE };
  }

  if (v.kind === "ioc_value" && v.ioc === "phones") {
    const digits = phoneDigits(value);
    const national = nationalNumberForm(value, digits);
    for (const d of national === undefined || digits.includes(national) ? [digits] : [digits, national]) {
      if (d.length < PHONE_RUN) continue;
      addNew(digitRuns, d);
    }
    // Written with digits and separators only: every occurrence of its compact form (or of that reversed) holds
    // one of the digit windows.
    if (!(digits.length >= PHONE_RUN && (DIGITS_AND_SEPARATORS.test(value) || compactForm(value) === foldDigits(digits)))) addText(value);
  } else {
    // The pieces of an IOC come first: the value itself needs no forms when a piece of it, as written, is found
    // anywhere (a URL's host, a channel's name, a wallet's half). Found texts are the same; fewer forms to make.
    let covered = false;
    if (v.kind === "ioc_value") {
      switch (v.ioc) {
        case "urls": {
          const refanged = refang(value);
          const rest = refanged.replace(SCHEME, "");
          const host = rest.split(/[/?#]/, 1)[0];
          // The host is a piece of the refanged value and of its host + path.
          const hostFound = host.includes(".") && addText(host);
          if (!hostFound) addText(rest.split(/[?#]/, 1)[0]);
          covered = hostFound && refanged === value;
          break;
        }
        case "channels":
          // The name is the end of the value (refanged: `assess` records `t[.]me/name` as written).
          covered = addText(refang(value).replace(CHANNEL_PREFIX, ""));
          break;
        case "emails":
          // A defanged address (`ops[at]desk[.]example`, recorded as written) is also found written plainly.
          if (refang(value) !== value) addText(refang(value));
          break;
        case "wallets": {
          // Halves of the value as written (an odd middle character belongs to neither, so either split is found).
          // By code point: split as UTF-16 only when no surrogate pair can be cut.
          const cps = SURROGATE.test(value) ? [...value] : value;
          const half = Math.floor(cps.length / 2);
          if (half >= HALF_MIN) {
            const first = addText(typeof cps === "string" ? cps.slice(0, half) : cps.slice(0, half).join(""));
            const second = addText(typeof cps === "string" ? cps.slice(cps.length - half) : cps.slice(cps.length - half).join(""));
            covered = first || second;
          }
          break;
        }
        default:
          break;
      }
    }
    if (!covered) addText(value);
  }

  if (v.kind === "message_text") {
    for (const piece of value.split(/[\r\n.!?\u3002\uff01\uff1f]+/u)) {
      if (compactForm(piece).length >= PIECE_MIN) addText(piece);
    }
  }

  // Windows are indexed forwards only; a check also reads every hex run of the outward text backwards.
  const hexKeys = hexIndexed ? hexWindowKeys(valueHex) : NONE;
  let digitKeys: readonly number[] = NONE;
  if (digitRuns.length > 0) {
    const keys: number[] = [];
    for (let i = 0; i < digitRuns.length; i++) {
      digitWindowKeys(digitRuns[i], PHONE_RUN, keys);
      // The run reversed (a number written backwards), read from its end: no reversed copy is made.
      digitWindowKeys(digitRuns[i], PHONE_RUN, keys, true);
    }
    digitKeys = keys;
  }
  return { text: orNone(text), tokens: orNone(tokens), hexKeys: orNone(hexKeys), digitKeys: orNone(digitKeys) };
}

/** One empty list for every value without forms of a sort (most values: fewer objects kept per cached value). */
const NONE: readonly never[] = Object.freeze([]);

function orNone<T>(list: readonly T[]): readonly T[] {
  return list.length === 0 ? NONE : list;
}
