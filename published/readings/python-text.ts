/**
 * Python `str` behaviour the hosted server's ledger rules depend on: `str.splitlines()` (line numbering of the
 * JSONL ledger) and `str.strip()` / `str.isspace()` (the "non-blank" tests).
 */

/** `str.splitlines()` boundaries: \n, \r, \r\n, \v, \f, \x1c, \x1d, \x1e, \x85, U+2028, U+2029. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/;

/** Python `str.splitlines()` without keepends: a final line break does not start an empty line. */
export function pySplitlines(text: string): string[] {
  if (text === "") return [];
  const lines = text.split(new RegExp(LINE_BREAK.source, "g"));
  if (lines[lines.length - 1] === "" ) lines.pop();
  return lines;
}

/** Python whitespace (`str.isspace()`): bidi classes WS, B, S and category Zs. */
const PY_SPACE = /^[\t\n\v\f\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** `not s.strip()`: empty or only Python whitespace. */
export function pyIsBlank(s: string): boolean {
  return PY_SPACE.test(s);
}
