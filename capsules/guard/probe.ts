/**
 * Probes: 32-bit hashes of the keys by which the outward guard can find a set of private values, so a large store
 * can be asked "may any of these values occur in this note?" with lookups instead of computing every value's forms
 * (docs/guard.md "Small outward values against a large store"). A value is found in an outward text only through
 * one of its forms (value-forms.ts), and each form is found only where the outward text holds its key:
 *
 * - a text form: its first {@link KEY_SHORT} characters, a substring of the outward compact text;
 * - a whole-token form: that token;
 * - a hex or digit run: one of its windows (forms.ts `hexWindowKeys`, `digitWindowKeys`).
 *
 * The probe of a set of values is the set of hashes of those keys (distinct, in no particular order); an outward
 * value's hashes are those of every key it holds. Two sets that share no hash share no key, so none of the values can occur; a shared hash (a
 * shared key or a collision) only means the values must be searched. Probes are written, sealed, with each
 * capsule's derivation (capsules/store/derivation-cache.ts). They hold hashes of fragments of private values, so
 * they are private values themselves: sealed on disk, never outward.
 */
import { KEY_SHORT } from "./index-tables.js";
import type { PrivateValue } from "./private-values.js";
import { FNV_OFFSET, stringHash } from "./string-hash.js";
import { valueForms, type ValueForms } from "./value-forms.js";

const TEXT_SEED = FNV_OFFSET;
const TOKEN_SEED = 0x9747b28c;
const HEX_SEED = 0x2545f491;
const DIGIT_SEED = 0x68e31da4;

/** A window key (a number below 2^48) mixed to 32 bits from `seed`. */
export function windowHash(key: number, seed: number): number {
  const hi = (key / 0x100000000) | 0;
  const h = Math.imul((key | 0) ^ Math.imul(hi ^ seed, 0x9e3779b1), 0x85ebca6b);
  return (h ^ (h >>> 15)) >>> 0;
}

/** The hash of a text key: `n` characters of `s` from `at` (the whole of `s` by default). */
export const textKeyHash = (s: string, at = 0, n = s.length - at): number => stringHash(s, TEXT_SEED, at, n);
export const tokenHash = (token: string): number => stringHash(token, TOKEN_SEED);
export const hexKeyHash = (key: number): number => windowHash(key, HEX_SEED);
export const digitKeyHash = (key: number): number => windowHash(key, DIGIT_SEED);

/**
 * Hashes gathered into a typed array (no number is boxed), then sorted and made distinct. The working arrays are
 * shared by every list (one is filled at a time: nothing in between can start another), so a probe allocates only
 * its result.
 */
let scratch = new Uint32Array(1024);
let spare = new Uint32Array(1024);
const counts = new Uint32Array(256);

/** Puts `h` at index `n` of the working array (grown when full); returns the new length. */
function append(n: number, h: number): number {
  if (n === scratch.length) {
    const b = new Uint32Array(scratch.length * 2);
    b.set(scratch);
    scratch = b;
    spare = new Uint32Array(b.length);
  }
  scratch[n] = h;
  return n + 1;
}

class HashList {
  private n = 0;

  add(h: number): void {
    this.n = append(this.n, h);
  }

  sortedDistinct(): Uint32Array {
    const n = this.n;
    if (n <= SMALL_SORT) insertionSort(n);
    else radixSort(n);
    const s = scratch;
    let m = 0;
    for (let i = 0; i < n; i++) if (i === 0 || s[i] !== s[m - 1]) s[m++] = s[i];
    return s.slice(0, m);
  }
}

/** Lists this short are sorted in place by insertion (a radix sort clears its counts four times whatever `n` is). */
const SMALL_SORT = 32;

/** Sorts the first `n` numbers of {@link scratch} ascending, by insertion. */
function insertionSort(n: number): void {
  const s = scratch;
  for (let i = 1; i < n; i++) {
    const h = s[i];
    let j = i - 1;
    while (j >= 0 && s[j] > h) {
      s[j + 1] = s[j];
      j--;
    }
    s[j + 1] = h;
  }
}

/**
 * Sorts the first `n` numbers of {@link scratch} ascending: four passes over 8-bit digits (a few thousand steps for a
 * probe of a few hundred hashes, where `TypedArray.prototype.sort` took several times as long).
 */
function radixSort(n: number): void {
  let from = scratch;
  let to = spare;
  for (let shift = 0; shift < 32; shift += 8) {
    counts.fill(0);
    for (let i = 0; i < n; i++) counts[(from[i] >>> shift) & 0xff]++;
    let sum = 0;
    for (let d = 0; d < 256; d++) {
      const c = counts[d];
      counts[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const h = from[i];
      to[counts[(h >>> shift) & 0xff]++] = h;
    }
    const t = from;
    from = to;
    to = t;
  }
  // Four passes: the sorted numbers are back in the array they started in.
}

/**
 * The probe of `values`: the distinct hashes of every key of every form of every value, in no particular order (a
 * probe is only ever read whole, {@link OutwardProbe.sharesAny}).
 */
export function valuesProbe(values: readonly PrivateValue[]): Uint32Array {
  const hashes = new DistinctHashes();
  // A value met twice (a capsule's own values are among its store values) has the same forms object: hashed once.
  const seen: ValueForms[] = [];
  // Index loops: the lists are of several element kinds (empty, small integers, doubles), which iterators handle slowly.
  for (let i = 0; i < values.length; i++) {
    const f = valueForms(values[i]);
    if (seen.includes(f)) continue;
    seen.push(f);
    for (let j = 0; j < f.text.length; j++) hashes.add(textKeyHash(f.text[j], 0, KEY_SHORT));
    for (let j = 0; j < f.tokens.length; j++) hashes.add(tokenHash(f.tokens[j]));
    const hex = f.hexKeys;
    for (let j = 0; j < hex.length; j++) hashes.add(hexKeyHash(hex[j]));
    const digits = f.digitKeys;
    for (let j = 0; j < digits.length; j++) hashes.add(digitKeyHash(digits[j]));
  }
  return hashes.done();
}

/**
 * Distinct hashes in the order first added: an open-addressing table whose slots are marked with the number of the
 * list being made, so no list clears it (shared by every list, one made at a time, like {@link HashList}).
 */
let marks = new Int32Array(1024);
// Hashes are kept as 32-bit signed integers here (small integers to the JIT; a uint32 of 2^31 or more would be a
// double).
let slots = new Int32Array(1024);
let listNumber = 0;

class DistinctHashes {
  private readonly mark: number;
  private n = 0;

  constructor() {
    if (++listNumber === 0x7fffffff) {
      marks.fill(0);
      listNumber = 1;
    }
    this.mark = listNumber;
  }

  add(hash: number): void {
    const h = hash | 0;
    const mask = marks.length - 1;
    let i = (Math.imul(h, 0x2c1b3c6d) >>> 16) & mask;
    while (marks[i] === this.mark) {
      if (slots[i] === h) return;
      i = (i + 1) & mask;
    }
    marks[i] = this.mark;
    slots[i] = h;
    this.n = append(this.n, h);
    // At most half full: past that, a table twice the size, filled again from the list so far.
    if (this.n * 2 > marks.length) {
      marks = new Int32Array(marks.length * 2);
      slots = new Int32Array(marks.length);
      const again = scratch.slice(0, this.n);
      this.n = 0;
      for (const x of again) this.add(x);
    }
  }

  done(): Uint32Array {
    return scratch.slice(0, this.n);
  }
}

/**
 * The hashes of one outward text's keys (sorted, distinct): every {@link KEY_SHORT} characters of its compact forms
 * (`joined`: the compact forms separated by a character no form holds), its whole tokens, and its hex and digit
 * window keys. Computed once per text and kept with it (outward-guard.ts).
 */
export function textHashes(joined: string, tokens: readonly string[], hexKeys: readonly number[], digitKeys: readonly number[]): Uint32Array {
  const hashes = new HashList();
  for (let i = 0; i + KEY_SHORT <= joined.length; i++) hashes.add(textKeyHash(joined, i, KEY_SHORT));
  for (const t of tokens) hashes.add(tokenHash(t));
  for (const k of hexKeys) hashes.add(hexKeyHash(k));
  for (const k of digitKeys) hashes.add(digitKeyHash(k));
  return hashes.sortedDistinct();
}

/**
 * The hashes of an outward value's keys (those of each of its texts, {@link textHashes}), asked whether a probe
 * shares any: a bit per value of a hash's low bits answers most hashes of a probe at once, the hashes of every
 * text together, sorted, the rest.
 */
export class OutwardProbe {
  private readonly bits: Uint32Array;
  private readonly mask: number;
  private readonly sorted: Uint32Array;

  constructor(lists: readonly Uint32Array[]) {
    // One sorted list, however many texts (an export's decisions have hundreds): one search per shared bit.
    if (lists.length === 1) this.sorted = lists[0];
    else {
      const all = new HashList();
      for (const list of lists) for (let i = 0; i < list.length; i++) all.add(list[i]);
      this.sorted = all.sortedDistinct();
    }
    // About 32 bits per hash (a few of them set), from 2^10 to 2^18 bits: a note's few hundred hashes need no 8 KB.
    const n = this.sorted.length;
    let size = 1 << 10;
    while (size < 1 << 18 && size < n * 32) size <<= 1;
    this.mask = size - 1;
    const bits = (this.bits = new Uint32Array(size >>> 5));
    const mask = this.mask;
    const s = this.sorted;
    for (let i = 0; i < s.length; i++) bits[(s[i] & mask) >>> 5] |= 1 << (s[i] & 31);
  }

  /** True when `probe` holds a hash of this outward value. */
  sharesAny(probe: Uint32Array): boolean {
    const bits = this.bits;
    const mask = this.mask;
    for (let i = 0; i < probe.length; i++) {
      const h = probe[i];
      if ((bits[(h & mask) >>> 5] & (1 << (h & 31))) !== 0 && this.has(h)) return true;
    }
    return false;
  }

  private has(h: number): boolean {
    const s = this.sorted;
    let lo = 0;
    let hi = s.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (s[mid] === h) return true;
      if (s[mid] < h) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  }
}
