/**
 * Message fingerprints (issue 28 item 5; docs/guard.md "Message fingerprints"): what the guard keeps of every
 * message text the bridge was given, in this process or an earlier one, so that outward text quoting it is refused
 * after the text itself is gone.
 *
 * A text is normalised into its word tokens (forms.ts `foldText`: compatibility forms, case, look-alikes and digits
 * of every script folded; punctuation and spaces separate words) and cut into shingles:
 *
 * - every run of {@link WORD_SHINGLE} consecutive words;
 * - for scripts written without spaces (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar, Tibetan), every run of
 *   {@link CHAR_SHINGLE} consecutive characters of their words;
 * - a text of fewer than {@link WORD_SHINGLE} words (a judgement's `source`, a one-line message) is one shingle of
 *   all its words, when they hold more than {@link SHORT_MAX} letters and digits (shorter is not distinctive).
 *
 * Outward text is cut the same way, with every run of 1 to {@link WORD_SHINGLE} words (so a short text's shingle is
 * found inside a longer sentence). Five words and six characters: long enough that the fixed sentences of review
 * notes ("checked against the pack's cited sources", "duplicate of an earlier lead") share no shingle with ordinary
 * messages, short enough that a quoted clause is found.
 *
 * Shingles are kept as keyed hashes: HMAC-SHA-256 under a key derived from the store key, cut to 48 bits. Neither
 * the text nor an unkeyed hash of it is written (capsules/store/message-fingerprints.ts seals the hashes); the
 * plain shingles of texts not yet written are kept in memory only.
 */
import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { hmacSha256Bytes } from "../../src/hash.js";
import { foldText } from "./forms.js";
import { WindowKeys } from "./index-tables.js";
import { SHORT_MAX } from "./value-forms.js";

/** Words in a word shingle. */
export const WORD_SHINGLE = 5;
/** Characters in a character shingle (scripts without spaces between words). */
export const CHAR_SHINGLE = 6;

const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Tibetan}]/u;
const encoder = new TextEncoder();
const KEY_DOMAIN = encoder.encode("evidence-bridge/message-fingerprint/v1\0");

/** The key shingles are hashed under: derived from the store key (its 32 bytes), never the store key itself. */
export function fingerprintKey(storeKeyBytes: Uint8Array): Uint8Array {
  return hmacSha256Bytes(storeKeyBytes, KEY_DOMAIN);
}

/** The folded words of a text, and the characters of its words in scripts without spaces. */
function words(text: string): { tokens: string[]; chars: string[] } {
  const tokens = foldText(text).tokens;
  const chars: string[] = [];
  for (const t of tokens) if (NO_SPACE_SCRIPT.test(t)) for (const c of t) chars.push(c);
  return { tokens, chars };
}

function charShingles(chars: readonly string[], out: Set<string>): void {
  for (let i = 0; i + CHAR_SHINGLE <= chars.length; i++) out.add(`c\u0000${chars.slice(i, i + CHAR_SHINGLE).join("")}`);
}

const wordShingle = (tokens: readonly string[], from: number, to: number) => `w\u0000${tokens.slice(from, to).join(" ")}`;

/** The shingles a message text (or a judgement's `source`) is kept as. */
export function messageShingles(text: string): string[] {
  const { tokens, chars } = words(text);
  const out = new Set<string>();
  if (tokens.length >= WORD_SHINGLE) for (let i = 0; i + WORD_SHINGLE <= tokens.length; i++) out.add(wordShingle(tokens, i, i + WORD_SHINGLE));
  else if (tokens.join("").length > SHORT_MAX) out.add(wordShingle(tokens, 0, tokens.length));
  charShingles(chars, out);
  return [...out];
}

/** The shingles an outward text is looked up by: every run of 1 to {@link WORD_SHINGLE} words, and character runs. */
export function outwardShingles(text: string): string[] {
  const { tokens, chars } = words(text);
  const out = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    let letters = 0;
    for (let n = 1; n <= WORD_SHINGLE && i + n <= tokens.length; n++) {
      letters += tokens[i + n - 1].length;
      // A shorter run can only be a short text's whole shingle, which has more than SHORT_MAX letters and digits.
      if (n === WORD_SHINGLE || letters > SHORT_MAX) out.add(wordShingle(tokens, i, i + n));
    }
  }
  charShingles(chars, out);
  return [...out];
}

/** A shingle's keyed hash: HMAC-SHA-256 under `key`, its first 48 bits as a number. */
export function keyedShingleHash(key: Uint8Array | KeyObject, shingle: string): number {
  return createHmac("sha256", key).update(shingle, "utf8").digest().readUIntBE(0, 6);
}

/** Shingles whose keyed hash a process keeps (outward texts repeat: argument names, published values). */
const MEMO_MAX = 16_384;

/**
 * The fingerprints a process knows: keyed hashes read from the store (and written by this process), and the plain
 * shingles of message texts given to this process before its store could be written (memory only).
 */
export class MessageFingerprints {
  private readonly keyed = new WindowKeys();
  private readonly plain = new Set<string>();
  private key: KeyObject | undefined;
  private keyBytes: Uint8Array | undefined;
  private readonly memo = new Map<string, number>();

  /** True when nothing is known (every check passes). */
  get empty(): boolean {
    return this.keyed.size === 0 && this.plain.size === 0;
  }

  /** The key the keyed hashes were made with (the store's): needed before {@link addKeyed} hashes are looked up. */
  useKey(key: Uint8Array): void {
    if (this.keyBytes !== undefined && Buffer.from(this.keyBytes).equals(Buffer.from(key))) return;
    this.keyBytes = Uint8Array.from(key);
    // A key object: HMAC set-up from raw bytes cost most of a lookup.
    this.key = createSecretKey(this.keyBytes);
    this.memo.clear();
  }

  /** The keyed hash of an outward shingle (memoised: the hash depends on the key and the shingle only). */
  private hashOf(key: KeyObject, shingle: string): number {
    let h = this.memo.get(shingle);
    if (h === undefined) {
      h = keyedShingleHash(key, shingle);
      if (this.memo.size >= MEMO_MAX) this.memo.clear();
      this.memo.set(shingle, h);
    }
    return h;
  }

  /** Adds keyed hashes (read from a sealed fingerprint file, or just written). */
  addKeyed(hashes: readonly number[]): void {
    for (const h of hashes) this.keyed.add(h, 0);
  }

  /** Adds a message text's shingles in memory (a text not written to a store yet). */
  addText(text: string): void {
    for (const s of messageShingles(text)) this.plain.add(s);
  }

  /** True when `text` shares a shingle with a known message. */
  holdsShingleOf(text: string): boolean {
    if (this.empty || text === "") return false;
    const shingles = outwardShingles(text);
    if (this.plain.size > 0) for (const s of shingles) if (this.plain.has(s)) return true;
    if (this.keyed.size === 0 || this.key === undefined) return false;
    const key = this.key;
    return this.keyed.hasAny(shingles.map((s) => this.hashOf(key, s)));
  }
}
