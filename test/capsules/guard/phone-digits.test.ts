import fc from "fast-check";
import { getCountries, getCountryCallingCode } from "libphonenumber-js";
import { describe, expect, it } from "vitest";
import { nationalIsARunOfDigits, nationalNumber, phoneDigits, plainCallingCodes } from "../../../capsules/guard/phone-digits.js";

const geographic = [...new Set(getCountries().map((c) => getCountryCallingCode(c)))];
// Non-geographic codes (freephone, satellite, …) and codes no country has.
const others = ["800", "808", "870", "878", "881", "882", "883", "888", "979", "0", "28", "999"];

describe("phone digits: the national number is read only when it may not be a run of the digits", () => {
  it("knows the calling codes from the library's metadata, with the rewriting ones left out", () => {
    const c = plainCallingCodes();
    expect(c).not.toBeNull();
    expect(c!.has("91")).toBe(true);
    expect(c!.has("49")).toBe(true);
    // +1 (the US Virgin Islands among others) and +54 (Argentina) rewrite national numbers.
    expect(c!.has("1")).toBe(false);
    expect(c!.has("54")).toBe(false);
  });

  it("never skips a number whose national number is not a run of its digits, in any calling code or writing", () => {
    const separator = fc.constantFrom("", " ", "-", ".", " (", ") ", "/");
    const number = fc.record({
      code: fc.constantFrom(...geographic, ...others),
      // National prefixes and mobile tokens (`0`, `15`, as Argentina writes them) where the rewriting rules apply.
      rest: fc.tuple(fc.constantFrom("", "0", "01", "011", "0230"), fc.constantFrom("", "15"), fc.array(fc.stringMatching(/^[0-9]{1,4}$/), { minLength: 1, maxLength: 4 })).map(([a, b, c]) => [a + b, ...c].filter((x) => x !== "")),
      seps: fc.array(separator, { minLength: 6, maxLength: 6 }),
      plus: fc.boolean(),
    });
    fc.assert(
      fc.property(number, ({ code, rest, seps, plus }) => {
        const value = `${plus ? "+" : ""}${code}${rest.map((r, i) => `${seps[i]}${r}`).join("")}`;
        const digits = phoneDigits(value);
        const national = nationalNumber(value, digits);
        if (nationalIsARunOfDigits(value, digits)) expect(national === undefined || digits.includes(national)).toBe(true);
      }),
      { numRuns: 6000 },
    );
  });

  it("reads the number when it is written with anything else", () => {
    expect(nationalIsARunOfDigits("+91 98765 43210", "919876543210")).toBe(true);
    expect(nationalIsARunOfDigits("+1 340 555 0100", "13405550100")).toBe(false);
    expect(nationalIsARunOfDigits("+91 98765 43210 ext 12", "91987654321012")).toBe(false);
    expect(nationalIsARunOfDigits("91 98765 43210 or +1 340 555 0100", "919876543210134055501OO")).toBe(false);
    expect(nationalIsARunOfDigits("＋91 98765 43210", "919876543210")).toBe(false);
    expect(nationalIsARunOfDigits("+800 1234 5678", "80012345678")).toBe(false);
    // The US Virgin Islands: the library inserts the area code, which is why +1 is always read.
    expect(nationalNumber("+1 340 555 0100", "13405550100")).toBe("3405550100");
  });

  it("folds full-width digits and keeps ASCII ones", () => {
    expect(phoneDigits("+91 ９８７６５ 43210")).toBe("919876543210");
    expect(phoneDigits("(0) 20-7946 0958")).toBe("02079460958");
  });
});
