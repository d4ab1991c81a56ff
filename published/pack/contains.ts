/**
 * Literal containment with the word-boundary rule (assessment-v1 §4.2). Both arguments are already in match form
 * F(x). Terms are literals: no pattern is ever built from pack data.
 */

/** Python 3 `\w` on `str` as the spec fixes it: letters of any script, any Unicode number, underscore. */
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;

function isAsciiAlnum(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

/** The code point that ends just before UTF-16 index `end` (a surrogate pair counts as one), or undefined. */
function codePointBefore(s: string, end: number): string | undefined {
  if (end <= 0) return undefined;
  const low = s.charCodeAt(end - 1);
  if (low >= 0xdc00 && low <= 0xdfff && end >= 2) {
    const high = s.charCodeAt(end - 2);
    if (high >= 0xd800 && high <= 0xdbff) return s.slice(end - 2, end);
  }
  return s[end - 1];
}

function codePointAt(s: string, start: number): string | undefined {
  if (start >= s.length) return undefined;
  return String.fromCodePoint(s.codePointAt(start) as number);
}

function isWordChar(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  if (code < 0x80) return isAsciiAlnum(code) || code === 0x5f;
  return WORD_CHAR.test(ch);
}

/**
 * `contains(H, t)` of §4.2 over match forms: empty terms never match; a term that starts and ends with an ASCII
 * alphanumeric must occur with no word character immediately before or after it (every occurrence is tried);
 * any other term is a plain substring.
 */
export function containsTerm(haystack: string, term: string): boolean {
  if (term.length === 0) return false;
  const bounded = isAsciiAlnum(term.charCodeAt(0)) && isAsciiAlnum(term.charCodeAt(term.length - 1));
  if (!bounded) return haystack.includes(term);
  for (let at = haystack.indexOf(term); at !== -1; at = haystack.indexOf(term, at + 1)) {
    if (isWordChar(codePointBefore(haystack, at))) continue;
    if (isWordChar(codePointAt(haystack, at + term.length))) continue;
    return true;
  }
  return false;
}
