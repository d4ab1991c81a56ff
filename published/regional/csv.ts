/**
 * CSV cells (RFC 4180) with the index format's formula rule: a text cell whose first non-whitespace character is
 * `=`, `+`, `-` or `@` gets a leading apostrophe, so a spreadsheet shows it as text instead of evaluating it.
 *
 * Our reading of "whitespace" and of the four characters is deliberately wide (docs/regional-index.md):
 * - skipped before the first significant character: every JS `\s` character (space, tab, CR, LF, VT, FF, NBSP,
 *   U+1680, U+2000–U+200A, U+2028/9, U+202F, U+205F, U+3000 ideographic space, U+FEFF), every control character
 *   (`\p{Cc}`) and every format character (`\p{Cf}`: zero-width space and joiners, word joiner, bidi marks, soft
 *   hyphen), since spreadsheets strip or ignore some of them;
 * - treated as the four characters: anything whose NFKC form is one of them (full-width `＝＋－＠`, small
 *   `﹦﹢﹣﹫`, superscript and subscript `⁺₊⁼₌`), and U+2212 MINUS SIGN.
 * A cell that only starts with a tab or CR, with no formula character after the leading space, is left alone.
 */

const IGNORABLE = /^[\s\p{Cc}\p{Cf}]$/u;
const TRIGGERS = new Set(["=", "+", "-", "@"]);
const MINUS_SIGN = "\u2212";

/** True when a spreadsheet could read the cell as a formula under the rule above. */
export function isFormulaLike(cell: string): boolean {
  // Fast path: a printable ASCII first character is neither skipped nor a look-alike; only the four decide.
  const first = cell.charCodeAt(0);
  if (first > 0x20 && first < 0x7f) return first === 0x3d || first === 0x2b || first === 0x2d || first === 0x40;
  for (const ch of cell) {
    if (IGNORABLE.test(ch)) continue;
    return TRIGGERS.has(ch) || ch === MINUS_SIGN || (ch.charCodeAt(0) >= 0x80 && TRIGGERS.has(ch.normalize("NFKC")));
  }
  return false;
}

/** The formula rule: a leading apostrophe for a formula-like text cell; any other text unchanged. */
export function neutralizeFormula(cell: string): string {
  return isFormulaLike(cell) ? `'${cell}` : cell;
}

const NEEDS_QUOTES = /[",\r\n]/;

/** RFC 4180 field: quoted (with `"` doubled) when it holds a comma, quote, CR or LF. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** A text cell: formula rule, then RFC 4180 quoting. */
export function csvText(value: string): string {
  return csvField(neutralizeFormula(value));
}

/** One record ending with LF, as the publisher's CSV (Python's csv writer with `lineterminator="\n"`). */
export function csvLine(fields: readonly string[]): string {
  return `${fields.join(",")}\n`;
}

/** One record with the RFC 4180 line break (CRLF). */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.join(",")}\r\n`;
}
