import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldCodePoint, foldForms, foldText, hexRuns, SEPARATOR, significantLength } from "../../../capsules/guard/forms.js";

/** The folds of a text the slow, obvious way: each code point's fold, read one at a time (forms.ts's definition). */
function slowFolds(text: string): { compact: string; reversed: string; significant: number; tokens: string[] } {
  const pieces: string[] = [];
  const tokens: string[] = [];
  let token = "";
  for (const ch of text) {
    const f = foldCodePoint(ch.codePointAt(0)!);
    if (f === SEPARATOR) {
      if (token !== "") tokens.push(token);
      token = "";
    } else if (f !== "") {
      pieces.push(f);
      token += f;
    }
  }
  if (token !== "") tokens.push(token);
  return { compact: pieces.join(""), reversed: [...pieces].reverse().join(""), significant: pieces.length, tokens };
}

/**
 * Characters that exercise every path of the buffered fold: ASCII letters, digits and separators, ASCII folding to
 * two units (`m` → `rn`, `%`), invisible ones (soft hyphen, zero-width space), Latin-1 and wider letters
 * (Cyrillic, Greek, Han, full-width), a ligature that folds to several letters, an astral letter and digit, and
 * lone surrogates.
 */
const pieces = fc.constantFrom(
  "a", "Z", "m", "M", "0", "1", "|", "%", " ", "-", ".", "@", "/", "\t",
  "\u00ad", "\u200b", "é", "ß", "ø", "а", "о", "Ω", "ς", "中", "國", "Ａ", "１", "ﬁ", "ﷺ", "㎒",
  "𝐀", "𝟗", "\ud800", "\udc00",
);
const texts = fc.array(pieces, { maxLength: 60 }).map((a) => a.join(""));

describe("fold: the buffered folds equal each code point's fold read in turn", () => {
  it("compact form, reversed form, significant length and tokens", () => {
    fc.assert(
      fc.property(texts, (t) => {
        const slow = slowFolds(t);
        expect(foldForms(t)).toEqual({ compact: slow.compact, reversed: slow.reversed, significant: slow.significant });
        expect(foldText(t)).toEqual({ compact: slow.compact, tokens: slow.tokens });
        expect(significantLength(t)).toBe(slow.significant);
      }),
      { numRuns: 500 },
    );
  });

  it("long texts grow the buffers and take the decoder path, narrow and wide", () => {
    for (const unit of ["ab-m ", "中а ﷺ-", "x".repeat(3) + "𝐀"]) {
      for (const times of [1, 100, 3000]) {
        const t = unit.repeat(times);
        const slow = slowFolds(t);
        expect(foldForms(t)).toEqual({ compact: slow.compact, reversed: slow.reversed, significant: slow.significant });
        expect(foldText(t)).toEqual({ compact: slow.compact, tokens: slow.tokens });
      }
    }
  });

  it("a fold right after a long one is not mixed with what the long one left in the buffers", () => {
    foldForms("中".repeat(5000));
    expect(foldForms("Ab")).toEqual({ compact: "ab", reversed: "ba", significant: 2 });
    foldText("x y ".repeat(2000));
    expect(foldText("p q")).toEqual({ compact: "pq", tokens: ["p", "q"] });
  });
});

describe("hexRuns", () => {
  /** Plain hex runs the general way: NFKC, lower case, every non-letter and non-digit removed (forms.ts's definition). */
  const slowPlainRuns = (text: string): string[] => text.normalize("NFKC").toLowerCase().replace(/[^\p{L}\p{N}]/gu, "").match(/[0-9a-f]{12,}/g) ?? [];

  it("ASCII texts (read without the Unicode search) give the general plain runs first, then the look-alike runs", () => {
    const asciiHexish = fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEFolxOL :-_./+=\t\n!%#"), maxLength: 80 });
    fc.assert(
      fc.property(asciiHexish, (t) => {
        const plain = slowPlainRuns(t);
        const runs = hexRuns(t);
        expect(runs.slice(0, plain.length)).toEqual(plain);
        // Given its compact form, the same runs as when it folds the text itself.
        expect(hexRuns(t, foldText(t).compact)).toEqual(runs);
      }),
      { numRuns: 500 },
    );
    expect(hexRuns("AB:CD-EF 01:23:45:67")).toContain("abcdef01234567");
    expect(hexRuns("ａｂｃｄｅｆ０１２３４５６７")).toContain("abcdef01234567");
  });
});
