/**
 * The value of every Unicode decimal digit (general category Nd: Devanagari ९, Arabic-Indic ٩, Bengali ৯, Thai ๙,
 * full-width ９, …), so the outward guard reads a number written in any script's digits as the same number
 * (docs/guard.md "Digits of every script"). NFKC folds only some of them (full-width, mathematical); the others
 * are digits of their own script to NFKC, and the confusable skeleton maps a few to look-alike letters.
 *
 * No table: Unicode's stability policy encodes the decimal digits of a script as one contiguous range of ten, zero
 * first, so a maximal run of consecutive Nd code points is whole ranges of ten and a digit's value is its distance
 * from the start of its run, modulo 10. The test checks this against the numbering systems ICU knows (Intl) and
 * that every run in the engine's Unicode data is a multiple of ten long.
 */
const ND = /^\p{Nd}$/u;
const NON_ASCII = /[^\x00-\x7f]/;
const values = new Map<number, number>();

/** The value 0–9 of a decimal digit code point of any script, or -1 when `cp` is not one. */
export function decimalDigitValue(cp: number): number {
  if (cp < 128) return cp >= 48 && cp <= 57 ? cp - 48 : -1;
  const known = values.get(cp);
  if (known !== undefined) return known;
  let value = -1;
  if (ND.test(String.fromCodePoint(cp))) {
    let start = cp;
    while (ND.test(String.fromCodePoint(start - 1))) start--;
    value = (cp - start) % 10;
  }
  values.set(cp, value);
  return value;
}

/** `text` with every decimal digit of another script written as the ASCII digit of the same value. */
export function asciiDigits(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  let out = "";
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const d = cp < 128 ? -1 : decimalDigitValue(cp);
    out += d < 0 ? ch : String.fromCharCode(48 + d);
  }
  return out;
}

/**
 * `text` with every decimal digit of another script in the Basic Multilingual Plane written as the ASCII digit of
 * the same value, one code unit for one: offsets into the result are offsets into `text` (a search over it yields
 * spans of the text as written). Digits outside the BMP (Adlam, mathematical, …) are left as they are.
 */
export function asciiDigitsSameLength(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    const d = unit < 128 || (unit >= 0xd800 && unit <= 0xdfff) ? -1 : decimalDigitValue(unit);
    out += d < 0 ? text[i] : String.fromCharCode(48 + d);
  }
  return out;
}
