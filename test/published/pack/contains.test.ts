/** Literal containment with the word-boundary rule (assessment-v1 §4.2). */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { containsTerm } from "../../../published/pack/contains.js";
import { matchForm } from "../../../published/pack/normalize.js";

const contains = (text: string, term: string) => containsTerm(matchForm(text), matchForm(term));

describe("contains(H, term)", () => {
  test("the spec's examples", () => {
    expect(contains("feiqian-service", "feiqian")).toBe(true);
    expect(contains("feiqianXYZ", "feiqian")).toBe(false);
    expect(contains("feiqian_x", "feiqian")).toBe(false);
    expect(contains("用feiqian服务", "feiqian")).toBe(false);
  });

  test("every occurrence is tried: a later free occurrence matches", () => {
    expect(contains("feiqianx and feiqian.", "feiqian")).toBe(true);
    expect(contains("xfeiqian feiqianx", "feiqian")).toBe(false);
  });

  test("matching is case-insensitive and normalised on both sides", () => {
    expect(contains("Need FEIQIAN now", "feiqian")).toBe(true);
    expect(contains("need ｆｅｉｑｉａｎ now", "FeiQian")).toBe(true);
    expect(contains("f\u0435iqian", "feiqian")).toBe(true);
    expect(contains("fei\u200bqian", "feiqian")).toBe(true);
  });

  test("letters and numbers of any script are word characters; marks and punctuation are not", () => {
    expect(contains("\u0663feiqian", "feiqian")).toBe(false); // Arabic-Indic digit (Nd)
    expect(contains("Ⅻfeiqian", "feiqian")).toBe(false); // NFKC turns Ⅻ into the letters "XII"
    expect(contains("\u{20000}feiqian", "feiqian")).toBe(false); // astral CJK letter before (a surrogate pair)
    expect(contains("feiqian\u{20000}", "feiqian")).toBe(false);
    expect(contains("feiqian\u0903", "feiqian")).toBe(true); // Mc mark after: not a word character
    expect(contains("«feiqian»", "feiqian")).toBe(true);
    expect(contains("(feiqian)", "feiqian")).toBe(true);
  });

  test("terms with a non-alphanumeric end are plain substrings", () => {
    expect(contains("我们地下钱庄服务", "地下钱庄")).toBe(true);
    expect(contains("我们地下錢莊服务", "地下錢莊")).toBe(true); // both sides normalised the same way
    expect(contains("xx-release-", "-release-")).toBe(true);
    expect(contains("abc.def", ".def")).toBe(true);
  });

  test("multi-word ASCII terms need a boundary at both ends and exact inner whitespace", () => {
    expect(contains("a golden triangle sez deal", "golden triangle sez")).toBe(true);
    expect(contains("golden triangle sezz", "golden triangle sez")).toBe(false);
    expect(contains("golden  triangle sez", "golden triangle sez")).toBe(false);
    expect(contains("50,000 usd quota left", "50,000 usd quota")).toBe(true);
  });

  test("an empty term (after normalisation) never matches", () => {
    expect(containsTerm("anything", "")).toBe(false);
    expect(contains("anything", "\u200b")).toBe(false);
  });

  test("terms are literals, never patterns", () => {
    expect(contains("feiqian", "fei.*")).toBe(false);
    expect(contains("say fei.* please", "fei.*")).toBe(true);
    expect(contains("aaaa", "a+")).toBe(false);
    expect(contains("x [a-z] y", "[a-z]")).toBe(true);
  });
});

describe("agrees with an escaped-regex reference using Unicode look-around", () => {
  const word = "[\\p{L}\\p{N}_]";
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const reference = (h: string, t: string) => {
    if (t === "") return false;
    const bounded = /^[A-Za-z0-9]/.test(t) && /[A-Za-z0-9]$/.test(t);
    if (!bounded) return h.includes(t);
    return new RegExp(`(?<!${word})${escape(t)}(?!${word})`, "u").test(h);
  };
  const piece = fc.constantFrom("fei", "qian", " ", "-", "_", "x", "1", "用", "\u0663", "\u0903", "\u{20000}", ".", "é", "σ");
  const text = fc.array(piece, { maxLength: 12 }).map((a) => a.join(""));

  test("over random haystacks and terms", () => {
    fc.assert(
      fc.property(text, text, (h, t) => containsTerm(h, t) === reference(h, t)),
      { numRuns: 2000 },
    );
  });
});
