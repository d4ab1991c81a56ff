/** Normalisation N(x), match form F(x) and full case folding (assessment-v1 §4.1). */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { caseFold } from "../../../published/pack/casefold.js";
import { CONFUSABLES, REMOVED_RANGES, TRADITIONAL_TO_SIMPLIFIED } from "../../../published/pack/normalize-tables.js";
import { matchForm, normalizeText } from "../../../published/pack/normalize.js";

describe("N(x)", () => {
  test("is the identity on ASCII (including case and whitespace)", () => {
    expect(normalizeText("Mirror  Transaction\r\n\t~")).toBe("Mirror  Transaction\r\n\t~");
  });

  test("applies NFKD/NFKC: fullwidth, ligatures and compatibility forms fold to plain letters", () => {
    expect(normalizeText("ｆｅｉｑｉａｎ")).toBe("feiqian");
    expect(normalizeText("ﬁnance")).toBe("finance");
    expect(normalizeText("𝐟𝐞𝐢𝐪𝐢𝐚𝐧")).toBe("feiqian");
    expect(normalizeText("①")).toBe("1");
  });

  test("drops combining accents in the always-dropped blocks", () => {
    expect(normalizeText("cártel de sinaloa")).toBe("cartel de sinaloa");
    expect(normalizeText("f\u0336e\u0336i\u0336")).toBe("fei");
    expect(normalizeText("a\u20d7b\ufe20c\u1ab0d\u1dc0")).toBe("abcd");
  });

  test("drops Cf and Me characters", () => {
    expect(normalizeText("fei\u200bqi\u200dan\u00ad")).toBe("feiqian");
    expect(normalizeText("fe\u2060iq\ufeffian")).toBe("feiqian");
    expect(normalizeText("x\u20ddy")).toBe("xy");
  });

  test("keeps other non-spacing marks after characters at or above U+0500, and a leading mark", () => {
    // Devanagari anusvara U+0902 (Mn) after U+0939 stays; a Hebrew point after a Hebrew letter stays.
    expect(normalizeText("\u0939\u0902")).toBe("\u0939\u0902");
    expect(normalizeText("\u05d1\u05bc")).toBe("\u05d1\u05bc");
    // A leading mark (empty buffer) is kept.
    expect(normalizeText("\u0902a")).toBe("\u0902a");
    // The same mark after a Latin letter (< U+0500) is dropped.
    expect(normalizeText("a\u0902")).toBe("a");
    // Mc (spacing) marks are never dropped.
    expect(normalizeText("a\u0903")).toBe("a\u0903");
  });

  test("maps confusables one to one", () => {
    expect(normalizeText("f\u0435iqi\u0430n")).toBe("feiqian"); // Cyrillic е, а
    expect(normalizeText("\u0391\u0392\u039f")).toBe("ABO"); // Greek capitals
    expect(normalizeText("\ua731\u1d04\u1d00\u1d0d")).toBe("scam"); // small capitals
    expect(normalizeText("fei\u2013qian\u2014x\u2212y")).toBe("fei-qian-x-y");
    expect(CONFUSABLES.size).toBe(85);
  });

  test("maps Traditional to Simplified with the partial table only", () => {
    expect(normalizeText("地下錢莊")).toBe("地下钱莊"); // 錢 mapped, 莊 not
    expect(normalizeText("對敲")).toBe("對敲"); // 對 is not in the table
    expect(normalizeText("外匯額度")).toBe("外匯额度"); // 匯 not mapped, 額 mapped
    expect(normalizeText("殺豬盤")).toBe("殺豬盤");
    expect(TRADITIONAL_TO_SIMPLIFIED.size).toBe(53);
    expect([...TRADITIONAL_TO_SIMPLIFIED].filter(([a, b]) => a === b).map(([a]) => a)).toEqual(["彩", "幕", "查"]);
  });

  test("removes the invisible fillers of step 7", () => {
    expect(normalizeText("a\u3164b\u115fc\u1160d\uffa0e\u17b4f\u180eg")).toBe("abcdefg");
  });

  test("does not collapse whitespace; NBSP becomes a space", () => {
    expect(matchForm("mirror  transaction")).toBe("mirror  transaction");
    expect(matchForm("mirror\u00a0transaction")).toBe("mirror transaction");
    expect(matchForm("mirror\ntransaction")).toBe("mirror\ntransaction");
  });
});

describe("case folding (Python str.casefold)", () => {
  test.each([
    ["ASCII", "FeiQian", "feiqian"],
    ["sharp s", "Straße", "strasse"],
    ["capital sharp s", "STRAẞE", "strasse"],
    ["final sigma", "ΣΟΦΟΣ λόγος", "σοφοσ λόγοσ"],
    ["dotless i stays", "ı", "ı"],
    ["dotted capital I", "İ", "i\u0307"],
    ["Cherokee lowercase folds to uppercase", "\uab70\u13f8", "\u13a0\u13f0"],
    ["Cherokee uppercase stays", "\u13a0", "\u13a0"],
    ["ligature", "ﬀ", "ff"],
    ["micro sign", "µ", "μ"],
    ["Armenian ech-yiwn", "\u0587", "\u0565\u0582"],
  ])("%s", (_name, input, folded) => {
    expect(caseFold(input)).toBe(folded);
  });

  test("F(x) = casefold(N(x))", () => {
    expect(matchForm("ＦＥＩＱＩＡＮ")).toBe("feiqian");
    expect(matchForm("ΑΒΟ")).toBe("abo");
    expect(matchForm("STRAẞE")).toBe("strasse");
  });
});

describe("properties", () => {
  const anyText = fc.string({ unit: "binary", maxLength: 24 });

  test("on ASCII, F is toLowerCase", () => {
    fc.assert(fc.property(fc.string({ unit: "binary-ascii", maxLength: 40 }), (s) => matchForm(s) === s.toLowerCase()));
  });

  test("the match form contains no format character and nothing from the removal list", () => {
    fc.assert(
      fc.property(anyText, (s) => {
        const f = normalizeText(s);
        for (const ch of f) {
          const cp = ch.codePointAt(0)!;
          if (/\p{Cf}/u.test(ch)) return false;
          if (REMOVED_RANGES.some(([lo, hi]) => cp >= lo && cp <= hi)) return false;
        }
        return true;
      }),
    );
  });

  test("the match form is well-formed UTF-16 for well-formed input", () => {
    fc.assert(fc.property(anyText, (s) => !/\p{Surrogate}/u.test(matchForm(s))));
  });
});
