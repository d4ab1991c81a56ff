/**
 * Outward texts as the outward guard (outward-guard.ts) searches them, prepared once per text and kept: every
 * decoding layer folded to compact forms, whole tokens, hex and digit window keys. Independent of the private values,
 * so a text met again (a pack label, a template sentence, a member name: the same in every candidate) costs a
 * lookup.
 *
 * Texts met more than once by a guard over one capsule are also summed up in one {@link SharedTexts} summary: every
 * {@link KEY_SHORT} and {@link KEY_LONG} characters of their compact forms, their tokens and their window keys. A
 * small guard asks it once per form, token and key of its values; only when one is found does it search each text.
 */
import { BoundedCache } from "./bounded-cache.js";
import { bytesHex, compactKeepingIds, decimalRunsAsHex, decodingLayers, digitWindowKeys, HEX_WINDOW, hexRuns, hexWindowKeys, wholeTokens } from "./forms.js";
import { KEY_LONG, KEY_SHORT, WindowKeys } from "./index-tables.js";
import { textKeyHash } from "./probe.js";
import { PHONE_RUN } from "./value-forms.js";

/** An outward text as the guard searches it. */
export interface Prepared {
  /** Compact forms of the text, its refanged form and every decoding layer. */
  readonly compacts: readonly string[];
  /** The compact forms joined by a separator (small guards search this once per form). */
  readonly joined: string;
  /** Whole tokens of the same texts. */
  readonly tokens: readonly string[];
  /**
   * Keys of every {@link HEX_WINDOW}-digit window of the hex runs of the same texts and of every byte string a
   * base64 run decoded to, read forwards and backwards.
   */
  readonly hexKeys: readonly number[];
  /** Keys of every {@link PHONE_RUN}-digit window of the runs of digits in the compact forms. */
  readonly digitKeys: readonly number[];
  /** {@link hexKeys} and {@link digitKeys} as tables, made the first time a small guard asks (index-tables.ts `meets`). */
  hexTable?: WindowKeys;
  digitTable?: WindowKeys;
  /** How many small-guard checks met this text. */
  met: number;
  /** The hashes of this text's keys (probe.ts `textHashes`), made the first time a guard is narrowed to it. */
  hashes?: Uint32Array;
  /** The generation of the shared summary that holds this text (0: none). */
  shared: number;
}

const DIGEST = /^[0-9a-f]{24,}$/;

/** Recently prepared texts (outward texts repeat: pack labels, template sentences, argument names). */
const PREPARED_CACHE_SIZE = 4096;
const preparedCache = new BoundedCache<string, Prepared>(PREPARED_CACHE_SIZE);
const PREPARED_CACHE_MAX_CHARS = 4096;

/** `text` prepared (cached). */
export function prepared(text: string): Prepared {
  const cached = preparedCache.get(text);
  if (cached !== undefined) return cached;
  // A digest (all hex) is searched by its hex windows, its decodings and as a token, not as text: short text forms
  // made of the letters a-f and digits would otherwise turn up in random digests.
  const digest = DIGEST.test(text);
  const layers = decodingLayers(text);
  const compacts = new Set<string>();
  const tokens = new Set<string>();
  const hex = new Set<string>();
  for (const t of layers.texts) {
    // Our identifiers (UUIDs, hex ids) are read without digit–letter folding (forms.ts `compactKeepingIds`).
    const compact = compactKeepingIds(t);
    if (!digest || t !== text) compacts.add(compact);
    for (const tok of wholeTokens(t)) tokens.add(tok);
    for (const run of hexRuns(t, compact)) hex.add(run);
    // A long decimal integer is also read as hex (an EVM address or a digest written as a number).
    for (const run of decimalRunsAsHex(t)) hex.add(run);
  }
  for (const b of layers.bytes) if (b.length * 2 >= HEX_WINDOW) hex.add(bytesHex(b));
  // Reversed hex (a hash written backwards): its runs read backwards meet the forward windows of the value.
  // Keys may repeat (a lookup more costs less than a set of every key).
  const hexKeys: number[] = [];
  for (const run of hex) {
    hexWindowKeys(run, hexKeys);
    hexWindowKeys(run, hexKeys, true);
  }
  const digitKeys: number[] = [];
  for (const c of compacts) digitWindowKeys(c, PHONE_RUN, digitKeys);
  const cs = [...compacts];
  const p: Prepared = { compacts: cs, joined: cs.join("\u0000"), tokens: [...tokens], hexKeys, digitKeys, met: 0, shared: 0 };
  if (text.length <= PREPARED_CACHE_MAX_CHARS) preparedCache.set(text, p);
  return p;
}

export function hexTableOf(p: Prepared): WindowKeys {
  return (p.hexTable ??= WindowKeys.of(p.hexKeys));
}

export function digitTableOf(p: Prepared): WindowKeys {
  return (p.digitTable ??= WindowKeys.of(p.digitKeys));
}

/**
 * The hash a text form is looked up by in the shared summary: of its first {@link KEY_LONG} characters, or
 * {@link KEY_SHORT}. A hash both sides share only sends the guard to search the texts (collisions cost time, not
 * findings).
 */
export function summaryKey(form: string): number {
  return textKeyHash(form, 0, form.length >= KEY_LONG ? KEY_LONG : KEY_SHORT);
}

/** The hash of a whole token in the shared summary. */
export function summaryToken(token: string): number {
  return textKeyHash(token);
}

/**
 * Bits of the summary's filters, at most: 2^20 bits (128 KB) answer most lookups of keys it lacks with one bit test.
 * Each starts at 2^{@link SUMMARY_START_BITS} bits and doubles as keys are added (index-tables.ts `filtered`).
 */
const SUMMARY_FILTER_BITS = 20;
const SUMMARY_START_BITS = 12;

/** Entries (keys, tokens, windows) past which the summary starts again from nothing. */
const SHARED_MAX = 1 << 19;
/** A text with more entries than this is always searched on its own. */
const SHARED_TEXT_MAX = 1 << 15;

/**
 * What the texts met more than once hold, together: every {@link summaryKey} that any of their compact forms has at
 * any position, their tokens, and their hex and digit window keys. A superset of what any one of them holds, so a
 * form, token or key it lacks is in none of them. Started again from nothing past {@link SHARED_MAX} entries (texts
 * join the new one when next met).
 */
export class SharedTexts {
  /** Hashes (probe.ts `textKeyHash`) of every summary key. */
  readonly keys = WindowKeys.filtered(SUMMARY_FILTER_BITS, SHARED_MAX, SUMMARY_START_BITS);
  /** Hashes of every token. */
  readonly tokens = WindowKeys.filtered(SUMMARY_FILTER_BITS - 2, SHARED_MAX, SUMMARY_START_BITS);
  readonly hex = WindowKeys.filtered(SUMMARY_FILTER_BITS, SHARED_MAX, SUMMARY_START_BITS);
  readonly digits = WindowKeys.filtered(SUMMARY_FILTER_BITS - 4, SHARED_MAX, SUMMARY_START_BITS);
  private entries = 0;

  constructor(readonly generation: number) {}

  /** Entries `p` would add. */
  static weight(p: Prepared): number {
    return 2 * p.joined.length + p.tokens.length + p.hexKeys.length + p.digitKeys.length;
  }

  /** False when `p` does not fit (the caller starts a new summary). */
  add(p: Prepared): boolean {
    if (p.shared === this.generation) return true;
    const w = SharedTexts.weight(p);
    if (this.entries + w > SHARED_MAX) return false;
    this.entries += w;
    const j = p.joined;
    for (let i = 0; i + KEY_SHORT <= j.length; i++) {
      this.keys.add(textKeyHash(j, i, KEY_SHORT), 0);
      if (i + KEY_LONG <= j.length) this.keys.add(textKeyHash(j, i, KEY_LONG), 0);
    }
    for (const t of p.tokens) this.tokens.add(summaryToken(t), 0);
    for (const k of p.hexKeys) this.hex.add(k, 0);
    for (const k of p.digitKeys) this.digits.add(k, 0);
    p.shared = this.generation;
    return true;
  }
}

let shared = new SharedTexts(1);

/** True when `p` may join the shared summary (texts too large are searched on their own). */
export function shareable(p: Prepared): boolean {
  return SharedTexts.weight(p) <= SHARED_TEXT_MAX;
}

/**
 * The shared summary, holding every text of `list` (added now when they are not in it yet); undefined when they
 * do not fit in one summary together.
 */
export function sharedHolding(list: readonly Prepared[]): SharedTexts | undefined {
  for (let attempt = 0; attempt < 2; attempt++) {
    const s = shared;
    let fits = true;
    for (const p of list) {
      if (s.add(p)) continue;
      // Full: start again, and add the whole list to the new summary (texts added so far are not in it).
      shared = new SharedTexts(s.generation + 1);
      fits = false;
      break;
    }
    if (fits) return s;
  }
  return undefined;
}

/** Forgets every prepared text and the shared summary (outward-guard.ts `forgetGuardCaches`). */
export function forgetPreparedTexts(): void {
  preparedCache.clear();
  shared = new SharedTexts(shared.generation + 1);
}
