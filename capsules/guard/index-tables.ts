/**
 * The lookup tables of the outward guard (outward-guard.ts): sets of numeric windows (phone digits, hex digits) in
 * typed open-addressing arrays, and compact text forms filed by one of their keys. How forms are stored and looked
 * up lives here; what is caught (the forms themselves) is value-forms.ts and forms.ts.
 */
import type { PrivateKind } from "./private-values.js";

/** Every private kind, in a fixed order: tables store a kind as its index here. */
export const KINDS: readonly PrivateKind[] = [
  "ioc_value",
  "matched_term",
  "term_hit",
  "signal_name",
  "observation_summary",
  "observation_uri",
  "observation_source",
  "market_rate_warning",
  "monetary_value",
  "source_pseudonym",
  "message_sha256",
  "message_text",
];

/**
 * A set of window keys (48-bit hex windows, or decimal digit windows) with a kind each: open addressing in typed
 * arrays (a Map of a million numbers would cost ten times the memory).
 */
const EMPTY_KEYS = new Float64Array(0);

/**
 * A table of at most this many keys also keeps a bit per value of a key's low {@link FILTER_BITS} bits, so a lookup
 * that misses (most do: a candidate's texts give thousands of windows, a capsule has about a hundred) costs one bit
 * test instead of a probe; past it the bits would be mostly set, and the table alone answers.
 */
const FILTER_MAX = 1024;
const FILTER_BITS = 14;
/** An outward text's table ({@link WindowKeys.of}) has a filter of about this many bits per key, at most 2^20 bits. */
const TEXT_FILTER_BITS_PER_KEY = 16;
const TEXT_FILTER_MAX_BITS = 20;
/**
 * A filter that may grow ({@link WindowKeys.filtered} with fewer start bits: the shared summary of texts) doubles
 * when it would hold fewer bits per key than this: it stays as small as its keys allow, so the few kilobytes a
 * guard asks about each capsule stay in the processor's caches (a filter of 2^20 bits, 128 KB, did not).
 */
const GROWN_FILTER_BITS_PER_KEY = 16;

/**
 * A set of at most this many keys added as lists ({@link WindowKeys.addAll}: a capsule's windows, about a hundred)
 * keeps the lists and builds no table: a guard over one capsule is made for one candidate check, and the
 * candidate's texts have tables of their own ({@link WindowKeys.meets}).
 */
const LIST_MAX = 512;

export class WindowKeys {
  private keys = EMPTY_KEYS;
  private kinds = new Uint8Array(0);
  private count = 0;
  /** Made with the first key; undefined again once the table holds more than {@link filterMax}. */
  private filter: Uint32Array | undefined;
  private filterMask = (1 << FILTER_BITS) - 1;
  private filterMax = FILTER_MAX;
  /** The filter doubles (up to this mask) while it has fewer than {@link GROWN_FILTER_BITS_PER_KEY} bits per key. */
  private filterLimit = (1 << FILTER_BITS) - 1;
  /** Keys added by {@link addAll} and not filed in the table yet, with their kind (the arrays are not copied). */
  private lists: { keys: readonly number[]; kind: number }[] = [];
  private listed = 0;

  /** Number of keys (a key listed twice counts twice until the lists are filed). */
  get size(): number {
    return this.count + this.listed;
  }

  /**
   * An empty set that keeps a filter of 2^`bits` bits for as long as it holds at most `max` keys: a large set asked
   * about keys it mostly lacks (the shared summary of texts, prepared-texts.ts) answers those with one bit test.
   */
  static filtered(bits: number, max: number, startBits = bits): WindowKeys {
    const t = new WindowKeys();
    t.filterMask = (1 << Math.min(startBits, bits)) - 1;
    t.filterLimit = (1 << bits) - 1;
    t.filterMax = max;
    return t;
  }

  /** A table of `keys` (every kind 0): an outward text's windows, kept with it for {@link meets}. */
  static of(keys: readonly number[]): WindowKeys {
    // Built once and asked often: a filter with few bits set, whatever the number of keys.
    let bits = FILTER_BITS;
    while (bits < TEXT_FILTER_MAX_BITS && 1 << bits < keys.length * TEXT_FILTER_BITS_PER_KEY) bits++;
    const t = WindowKeys.filtered(bits, keys.length);
    t.reserve(keys.length);
    for (let i = 0; i < keys.length; i++) t.add(keys[i], 0);
    return t;
  }

  /**
   * Adds every key of `keys` with `kind`. While the set is small the array itself is kept (it must not change
   * afterwards: value-forms.ts never changes a value's windows once computed); past {@link LIST_MAX} keys everything is filed.
   */
  addAll(keys: readonly number[], kind: number): void {
    if (keys.length === 0) return;
    if (this.count === 0 && this.listed + keys.length <= LIST_MAX) {
      this.lists.push({ keys, kind });
      this.listed += keys.length;
      return;
    }
    this.file(keys.length);
    for (let i = 0; i < keys.length; i++) this.add(keys[i], kind);
  }

  /** Files the listed keys in the table (and reserves room for `more`). */
  private file(more = 0): void {
    if (this.listed === 0 && more === 0) return;
    this.reserve(this.listed + more);
    const lists = this.lists;
    this.lists = [];
    this.listed = 0;
    for (const l of lists) for (let i = 0; i < l.keys.length; i++) this.add(l.keys[i], l.kind);
  }

  /**
   * True when this set and the set of `keys` share a key; `table` gives the same keys as a table
   * ({@link WindowKeys.of}, built once per outward text and kept with it). A small set asks the text's table for
   * each of its keys (a hundred lookups, not one per window of the text: the fixed sentences of a candidate have
   * thousands, from their base64 decodings); a large one looks each of `keys` up in its own.
   */
  meets(keys: readonly number[], table: () => WindowKeys): boolean {
    if (keys.length === 0) return false;
    if (this.listed === 0) return this.hasAny(keys);
    return this.mayMeet(table());
  }

  /**
   * False when no key of this set is in `table`; true when one is, or when this set is filed in a table of its own
   * (then only a lookup of each key of the other set would tell).
   */
  mayMeet(table: WindowKeys): boolean {
    if (this.listed === 0) return this.count > 0;
    for (const l of this.lists) if (table.hasAny(l.keys)) return true;
    return false;
  }

  private slot(key: number, keys: Float64Array): number {
    const mask = keys.length - 1;
    let i = (Math.imul(key | 0, 0x9e3779b1) ^ Math.floor(key / 0x1000000)) & mask;
    while (keys[i] !== -1 && keys[i] !== key) i = (i + 1) & mask;
    return i;
  }

  /** Adds one key (filed in the table). */
  add(key: number, kind: number): void {
    if (this.listed > 0) this.file();
    // At most half full while small (most lookups miss, and a miss probes until an empty slot), at most 70 % full
    // from 2^16 slots on (a million windows take 16 MB, not 32).
    const limit = this.keys.length < 1 << 16 ? 5 : 7;
    if ((this.count + 1) * 10 > this.keys.length * limit) this.grow();
    const i = this.slot(key, this.keys);
    if (this.keys[i] === key) return;
    this.keys[i] = key;
    this.kinds[i] = kind;
    this.count++;
    if (this.count === 1) this.filter = new Uint32Array((this.filterMask + 1) >>> 5);
    if (this.filter !== undefined) {
      if (this.count > this.filterMax) this.filter = undefined;
      else if (this.count * GROWN_FILTER_BITS_PER_KEY > this.filterMask + 1 && this.filterMask < this.filterLimit) this.refilter();
      else {
        const b = (key | 0) & this.filterMask;
        this.filter[b >>> 5] |= 1 << (b & 31);
      }
    }
  }

  /** Doubles the filter and sets a bit for every key of the table (the key just added among them). */
  private refilter(): void {
    this.filterMask = this.filterMask * 2 + 1;
    const filter = (this.filter = new Uint32Array((this.filterMask + 1) >>> 5));
    const keys = this.keys;
    for (let j = 0; j < keys.length; j++) {
      if (keys[j] === -1) continue;
      const b = (keys[j] | 0) & this.filterMask;
      filter[b >>> 5] |= 1 << (b & 31);
    }
  }

  /** True when any of `keys` is in the set (one loop, the table read once: a candidate looks up a thousand keys). */
  hasAny(keys: readonly number[]): boolean {
    if (this.listed > 0) this.file();
    if (this.count === 0) return false;
    const table = this.keys;
    const mask = table.length - 1;
    const filter = this.filter;
    const fmask = this.filterMask;
    for (let j = 0; j < keys.length; j++) {
      const key = keys[j];
      if (filter !== undefined) {
        const b = (key | 0) & fmask;
        if ((filter[b >>> 5] & (1 << (b & 31))) === 0) continue;
      }
      let i = (Math.imul(key | 0, 0x9e3779b1) ^ Math.floor(key / 0x1000000)) & mask;
      for (let t = table[i]; t !== -1; t = table[i]) {
        if (t === key) return true;
        i = (i + 1) & mask;
      }
    }
    return false;
  }

  /** True when `key` is in the set (one bit test for most misses while the set is small). */
  has(key: number): boolean {
    if (this.listed > 0) this.file();
    if (this.count === 0) return false;
    const filter = this.filter;
    if (filter !== undefined) {
      const b = (key | 0) & this.filterMask;
      if ((filter[b >>> 5] & (1 << (b & 31))) === 0) return false;
    }
    return this.keys[this.slot(key, this.keys)] === key;
  }

  /** The kind index of a key, or -1. */
  get(key: number): number {
    if (this.listed > 0) this.file();
    if (this.count === 0) return -1;
    const i = this.slot(key, this.keys);
    return this.keys[i] === key ? this.kinds[i] : -1;
  }

  /** Makes room for `more` keys at once (a guard over one capsule then allocates its table once). */
  reserve(more: number): void {
    let size = Math.max(64, this.keys.length);
    while ((this.count + more) * 10 > size * (size < 1 << 16 ? 5 : 7)) size *= 2;
    if (size > this.keys.length) this.grow(size);
  }

  private grow(to = Math.max(64, this.keys.length * 2)): void {
    const oldKeys = this.keys;
    const oldKinds = this.kinds;
    const size = to;
    this.keys = new Float64Array(size).fill(-1);
    this.kinds = new Uint8Array(size);
    for (let j = 0; j < oldKeys.length; j++) {
      if (oldKeys[j] === -1) continue;
      const i = this.slot(oldKeys[j], this.keys);
      this.keys[i] = oldKeys[j];
      this.kinds[i] = oldKinds[j];
    }
  }
}

/** Compact forms at least this long are indexed by KEY_LONG of their characters. */
export const KEY_LONG = 8;
/** Shorter compact forms (down to 4 characters) by KEY_SHORT of their characters. */
export const KEY_SHORT = 4;

/**
 * An indexed text form: one character naming its kind (code {@link KIND_BASE} + index in {@link KINDS}), one giving
 * the offset in the form of the key it is filed under, then the form. One string per form keeps the index of a
 * large store small (no object per form).
 */
export type Tagged = string;
const KIND_BASE = 0x41;
/** A key is taken at most this far into a form (the offset is one UTF-16 code unit of the tag). */
const MAX_OFFSET = 0xffff;
/** Characters of a tag before the form. */
const TAG = 2;

function tag(form: string, kind: number, offset: number): Tagged {
  return String.fromCharCode(KIND_BASE + kind, offset) + form;
}

export function kindOf(t: Tagged): PrivateKind {
  return KINDS[t.charCodeAt(0) - KIND_BASE];
}

/** True when the form of `t` occurs in `c` where its key sits at `p`. */
export function formAtKey(c: string, p: number, t: Tagged): boolean {
  const start = p - t.charCodeAt(1);
  const n = t.length - TAG;
  if (start < 0 || start + n > c.length) return false;
  for (let i = 0; i < n; i++) if (c.charCodeAt(start + i) !== t.charCodeAt(i + TAG)) return false;
  return true;
}

export type Bucket = Tagged | Tagged[];

function bucketSize(b: Bucket | undefined): number {
  return b === undefined ? 0 : typeof b === "string" ? 1 : b.length;
}

/**
 * Files a form under one of its keys: its first, middle or last `width` characters, whichever bucket holds the
 * fewest forms. Many forms share a start (a URL's scheme and host, a template sentence) or an end (`for sale`), and
 * a crowded bucket is searched at every position where an outward text has its key; the scan reads every position,
 * so any key of a form finds it.
 */
export function fileForm(index: Map<string, Bucket>, form: string, width: number, kind: number): void {
  const last = Math.min(form.length - width, MAX_OFFSET);
  let offset = 0;
  let key = form.slice(0, width);
  let size = bucketSize(index.get(key));
  for (const o of last > 0 ? [last >> 1, last] : []) {
    if (size === 0) break;
    const k = form.substr(o, width);
    const n = bucketSize(index.get(k));
    if (n < size) {
      offset = o;
      key = k;
      size = n;
    }
  }
  const t = tag(form, kind, offset);
  const b = index.get(key);
  if (b === undefined) index.set(key, t);
  else if (typeof b === "string") index.set(key, [b, t]);
  else b.push(t);
}
