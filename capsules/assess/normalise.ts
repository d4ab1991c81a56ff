/**
 * The one Unicode normalisation of `assess` (docs/assess.md "Normalisation"): a per-character view of the message
 * that keeps, for every character of the view, the offset of the message character it came from, so a match in the
 * view maps back to a span of the message.
 *
 * - `visible`: invisible characters removed (General Category Cf — zero-width space/joiners, bidi controls, BOM,
 *   soft hyphen — and the other invisibles of assessment-v1 §4.1 step 7), every other character NFKC-mapped on its
 *   own (full-width `＠１２` → `@12`, ligatures split).
 * - `skeleton`: `visible` plus the look-alike table of §4.1 step 5 (Cyrillic/Greek letters and Latin small
 *   capitals that look like Latin letters), for formats that are ASCII by definition (handles, channels, wallets).
 *
 * Characters are mapped one at a time (not whole-string NFKC): a combining sequence stays as written, which is
 * what an IOC (ASCII by format) needs, and the offsets stay exact.
 */
import { CONFUSABLES, inRanges, REMOVED_RANGES } from "../../published/pack/normalize-tables.js";

export interface TextView {
  /** The normalised text. */
  text: string;
  /** `origin[i]`: offset in the message (UTF-16 units) of the character that produced `text[i]`; one extra entry = message length. */
  origin: number[];
}

const INVISIBLE = /^\p{Cf}$/u;

function isInvisible(ch: string, cp: number): boolean {
  return INVISIBLE.test(ch) || inRanges(cp, REMOVED_RANGES);
}

function isAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) >= 0x80) return false;
  return true;
}

const LOOK_ALIKE = new RegExp(`[${[...CONFUSABLES.keys()].join("")}]`, "u");
const INVISIBLE_ANY = new RegExp(
  `[\\p{Cf}${REMOVED_RANGES.map(([lo, hi]) => `\\u{${lo.toString(16)}}-\\u{${hi.toString(16)}}`).join("")}]`,
  "u",
);

/** True when the view would equal the message (nothing invisible, NFKC-stable, no look-alike to map). */
function isIdentity(message: string, lookAlikes: boolean): boolean {
  return isAscii(message) || (!INVISIBLE_ANY.test(message) && (!lookAlikes || !LOOK_ALIKE.test(message)) && message.normalize("NFKC") === message);
}

function identityView(message: string): TextView {
  const origin = new Array<number>(message.length + 1);
  for (let i = 0; i <= message.length; i++) origin[i] = i;
  return { text: message, origin };
}

/** The view of `message`; `lookAlikes` also maps look-alike letters to Latin. */
export function normalisedView(message: string, lookAlikes: boolean): TextView {
  if (isIdentity(message, lookAlikes)) return identityView(message);
  let text = "";
  const origin: number[] = [];
  for (let i = 0; i < message.length; ) {
    const cp = message.codePointAt(i)!;
    const ch = String.fromCodePoint(cp);
    if (!isInvisible(ch, cp)) {
      let out = cp < 0x80 ? ch : ch.normalize("NFKC");
      if (lookAlikes && cp >= 0x80) out = [...out].map((c) => CONFUSABLES.get(c) ?? c).join("");
      for (let k = 0; k < out.length; k++) origin.push(i);
      text += out;
    }
    i += ch.length;
  }
  origin.push(message.length);
  return { text, origin };
}

/**
 * Both views of a message in one pass, equal to `normalisedView(message, false)` and `normalisedView(message, true)`
 * (a property test holds them equal): ASCII characters are copied as they are, and every other character is
 * classified, NFKC-mapped and look-alike-mapped once per distinct code point of the message.
 */
export function normalisedViews(message: string): { visible: TextView; skeleton: TextView } {
  if (isIdentity(message, true)) {
    const view = identityView(message);
    return { visible: view, skeleton: view };
  }
  const visibleIsIdentity = isIdentity(message, false);
  const visible: string[] = [];
  const visibleOrigin: number[] = [];
  const skeleton: string[] = [];
  const skeletonOrigin: number[] = [];
  // Per distinct non-ASCII code point: [visible form, skeleton form], or null when the character is invisible.
  const forms = new Map<number, readonly [string, string] | null>();
  for (let i = 0; i < message.length; ) {
    const cp = message.codePointAt(i)!;
    if (cp < 0x80) {
      const ch = message[i];
      visible.push(ch);
      visibleOrigin.push(i);
      skeleton.push(ch);
      skeletonOrigin.push(i);
      i += 1;
      continue;
    }
    let form = forms.get(cp);
    if (form === undefined) {
      const ch = String.fromCodePoint(cp);
      if (isInvisible(ch, cp)) form = null;
      else {
        const out = ch.normalize("NFKC");
        form = [out, [...out].map((c) => CONFUSABLES.get(c) ?? c).join("")];
      }
      forms.set(cp, form);
    }
    if (form !== null) {
      visible.push(form[0]);
      for (let k = 0; k < form[0].length; k++) visibleOrigin.push(i);
      skeleton.push(form[1]);
      for (let k = 0; k < form[1].length; k++) skeletonOrigin.push(i);
    }
    i += cp > 0xffff ? 2 : 1;
  }
  visibleOrigin.push(message.length);
  skeletonOrigin.push(message.length);
  return {
    visible: visibleIsIdentity ? identityView(message) : { text: visible.join(""), origin: visibleOrigin },
    skeleton: { text: skeleton.join(""), origin: skeletonOrigin },
  };
}

/** The normalised form of a short value (an IOC the client names): the `skeleton` view, case-folded for matching. */
export function comparableForm(value: string): string {
  return normalisedView(value, true).text.toLowerCase();
}

/** True when `value` occurs in `message` once both are normalised (invisibles dropped, NFKC, look-alikes, case). */
export function occursNormalised(message: string, value: string): boolean {
  const v = comparableForm(value);
  return v.length > 0 && comparableForm(message).includes(v);
}

/** `text` without its invisible characters (those the `visible` view removes), every other character as written. */
export function withoutInvisibles(text: string): string {
  return INVISIBLE_ANY.test(text) ? text.replace(new RegExp(INVISIBLE_ANY.source, "gu"), "") : text;
}
