/**
 * decimal-digits.ts reads a digit's value from its distance to the start of its run of Nd code points. Checked
 * against an independent source, the digits of every numbering system ICU knows (Intl), and against the assumption
 * itself: in the engine's Unicode data every maximal run of decimal digits is whole ranges of ten.
 */
import { describe, expect, it } from "vitest";
import { asciiDigits, decimalDigitValue } from "../../../capsules/guard/decimal-digits.js";

const ND = /^\p{Nd}$/u;

describe("decimalDigitValue", () => {
  it("agrees with the digits of every numbering system Intl formats", () => {
    let checked = 0;
    for (const system of Intl.supportedValuesOf("numberingSystem")) {
      const format = new Intl.NumberFormat("en", { numberingSystem: system, useGrouping: false });
      for (let d = 0; d <= 9; d++) {
        const digit = format.format(d);
        // Systems that write digits as several characters, or with letters (hanidec's 〇 is Nd, roman numerals are not), are read one code point at a time.
        if ([...digit].length !== 1 || !ND.test(digit)) continue;
        expect(decimalDigitValue(digit.codePointAt(0)!), `${system} ${d}`).toBe(d);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(400); // dozens of scripts, ten digits each
  });

  it("every maximal run of Nd code points is whole ranges of ten (the rule the values rest on)", () => {
    let runStart = -1;
    for (let cp = 0; cp <= 0x110000; cp++) {
      const digit = cp < 0x110000 && ND.test(String.fromCodePoint(cp));
      if (digit && runStart < 0) runStart = cp;
      if (!digit && runStart >= 0) {
        expect((cp - runStart) % 10, `run at U+${runStart.toString(16)}`).toBe(0);
        runStart = -1;
      }
    }
  });

  it("is -1 for everything that is not a decimal digit", () => {
    // Superscripts and fractions are No, Roman numerals and the ideographic zero Nl: not decimal digits.
    for (const ch of ["a", " ", "/", ":", "²", "½", "Ⅻ", "〇", "\u{1f600}"]) expect(decimalDigitValue(ch.codePointAt(0)!), ch).toBe(-1);
  });
});

describe("asciiDigits", () => {
  it("writes the digits of every script as ASCII and leaves everything else", () => {
    expect(asciiDigits("+९१ ९७६५४ ३२१०८")).toBe("+91 97654 32108");
    expect(asciiDigits("٩١٩٥٥٥٤٤٣٣٢")).toBe("91955544332");
    expect(asciiDigits("call ৯৮১১১ २२३३३ now")).toBe("call 98111 22333 now");
    expect(asciiDigits("\u{1e959}\u{1e950}")).toBe("90"); // Adlam, astral
    const plain = "ASCII only 0123 stays the same string";
    expect(asciiDigits(plain)).toBe(plain);
  });
});
