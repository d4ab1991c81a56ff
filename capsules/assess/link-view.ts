/**
 * The views links are searched in (docs/assess.md "IOC extraction"), derived from the normalised views of
 * normalise.ts with the offsets kept, and the way back from a match to the message's own characters.
 *
 * - {@link separatedView}: one character for one, so the offsets stay: characters of scripts written without spaces
 *   between words (Han, Hiragana, Katakana, Thai, Lao, Khmer, Myanmar) and full-width or ideographic punctuation
 *   (`，。：；！？（）【】「」`…) become spaces, so a link written straight after or before such text (`网址：www…`,
 *   `官网https://…，`) is bounded there; and a colon glued before a value (`Email:x@…`, `Web:www…`,
 *   `เว็บไซต์:www…`: a letter after it, no digit before it) becomes a space. A colon followed by `//` stays a colon.
 * - {@link refangedView}: the defanging marks of src/refang.ts undone (`hxxps://evil[.]example` reads
 *   `https://evil.example`); every character a mark stands for maps back to the mark's first character.
 * - {@link asWritten}: the message's characters a match covers, invisible characters left out: a value is recorded
 *   as the message writes it, defanged, full-width or with look-alike letters as it may be.
 */
import { defangMarks } from "../../src/refang.js";
import { withoutInvisibles, type TextView } from "./normalise.js";

/** Scripts written without spaces between words. */
const NO_SPACE_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/** Ideographic and full-width punctuation (CJK Symbols and Punctuation, full-width forms other than `．／＠＿－`). */
const WIDE_PUNCTUATION = /[\u3000-\u303f\uff01-\uff0d\uff1a-\uff1f\uff3b-\uff3e\uff40\uff5b-\uff65]/u;
const FULL_WIDTH_COLON = 0xff1a;

/** Characters that end a link: see the module comment. */
function isSeparator(ch: string): boolean {
  return NO_SPACE_SCRIPT.test(ch) || WIDE_PUNCTUATION.test(ch);
}

const DIGIT = /[0-9]/;
const ASCII_LETTER = /[A-Za-z]/;

/** The `visible` view with link separators as spaces (same length and offsets). */
export function separatedView(message: string, visible: TextView): TextView {
  const t = visible.text;
  // UTF-16 units: a replaced astral character becomes two spaces, so the offsets stay aligned.
  let units: string[] | undefined;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 0x3a /* : */) {
      // A label glued to its value: a letter after, and no digit before (a scheme's colon has `//` after it, a port
      // or a time digits).
      const glued = i + 1 < t.length && ASCII_LETTER.test(t[i + 1]) && !(i > 0 && DIGIT.test(t[i - 1]));
      const wide = message.codePointAt(visible.origin[i]) === FULL_WIDTH_COLON && t.slice(i + 1, i + 3) !== "//";
      if (glued || wide) (units ??= t.split(""))[i] = " ";
      continue;
    }
    if (c < 0x80) continue;
    const cp = message.codePointAt(visible.origin[i])!;
    if (cp >= 0x80 && isSeparator(String.fromCodePoint(cp))) (units ??= t.split(""))[i] = " ";
  }
  return units === undefined ? visible : { text: units.join(""), origin: visible.origin };
}

/** `view` with its defanging marks undone; the same view when it has none. */
export function refangedView(view: TextView): TextView {
  const marks = defangMarks(view.text);
  if (marks.length === 0) return view;
  let text = "";
  const origin: number[] = [];
  let at = 0;
  for (const m of marks) {
    text += view.text.slice(at, m.start);
    for (let i = at; i < m.start; i++) origin.push(view.origin[i]);
    text += m.to;
    for (let k = 0; k < m.to.length; k++) origin.push(view.origin[m.start]);
    at = m.end;
  }
  text += view.text.slice(at);
  for (let i = at; i <= view.text.length; i++) origin.push(view.origin[i]);
  return { text, origin };
}

/**
 * The message's characters behind `view.text.slice(start, end)`, invisible characters left out. The end is the
 * message offset of the first view character after the match that comes from a later message character (so a
 * character the view expanded, or a defanging mark, is taken whole).
 */
export function asWritten(message: string, view: TextView, start: number, end: number): { start: number; end: number; value: string } {
  const from = view.origin[start];
  const last = view.origin[end - 1];
  let k = end;
  while (k < view.text.length && view.origin[k] <= last) k++;
  const to = k < view.text.length ? view.origin[k] : message.length;
  // Between the match and the next view character lie only characters the view dropped (invisible): left out below.
  const raw = message.slice(from, to);
  return { start: from, end: to, value: withoutInvisibles(raw) };
}
