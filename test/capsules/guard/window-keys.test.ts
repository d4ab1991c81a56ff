import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compactForm, digitWindowKeys, hexWindowKey, hexWindowKeys, HEX_WINDOW } from "../../../capsules/guard/forms.js";

/** The windows of every run of `digits` characters in `text`, read whole, as numbers (the slow, obvious way). */
function wholeWindows(text: string, digit: (ch: string) => number, base: number, width: number): number[] {
  const out: number[] = [];
  let run: number[] = [];
  const flush = () => {
    for (let i = 0; i + width <= run.length; i++) out.push(run.slice(i, i + width).reduce((k, d) => k * base + d, 0));
    run = [];
  };
  for (const ch of text) {
    const d = digit(ch);
    if (d < 0) flush();
    else run.push(d);
  }
  flush();
  return out;
}

const hexDigit = (ch: string) => "0123456789abcdef".indexOf(ch);
const hexText = fc.stringMatching(/^[0-9a-fx-]{0,80}$/);

describe("window keys: rolling numbers equal the windows read whole", () => {
  it("hex windows, forwards and backwards, including the largest and smallest", () => {
    fc.assert(
      fc.property(hexText, (t) => {
        expect(hexWindowKeys(t)).toEqual(wholeWindows(t, hexDigit, 16, HEX_WINDOW));
        expect(hexWindowKeys(t, [], true)).toEqual(wholeWindows([...t].reverse().join(""), hexDigit, 16, HEX_WINDOW));
      }),
    );
    expect(hexWindowKeys("f".repeat(13))).toEqual([2 ** 48 - 1, 2 ** 48 - 1]);
    expect(hexWindowKeys("0".repeat(12))).toEqual([0]);
    expect(hexWindowKeys("0123456789abcdef")).toEqual([0, 1, 2, 3, 4].map((i) => hexWindowKey("0123456789abcdef".slice(i, i + 12))));
  });

  it("without an array to append to, the keys are those appended to one, in an array of exactly their number", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9a-f]{0,80}$/), (t) => {
        const keys = hexWindowKeys(t);
        expect(keys).toEqual(hexWindowKeys(t, []));
        expect(keys.length).toBe(Math.max(0, t.length - HEX_WINDOW + 1));
      }),
    );
    for (const t of ["0123456789abcdefx0123456789abc", "0123456789AB0123456789ab", "12345678901"]) {
      expect(hexWindowKeys(t)).toEqual(hexWindowKeys(t, []));
      expect(hexWindowKeys(t, undefined, true)).toEqual(hexWindowKeys(t, [], true));
    }
    expect(hexWindowKeys("0123456789abcdefx0123456789abc")).toHaveLength(7);
  });

  it("decimal windows of a compact form (0 and 1 read back from their skeleton letters)", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9 a+-]{0,40}$/), (t) => {
        const c = compactForm(t);
        const expected = wholeWindows(c, (ch) => (/[0-9]/.test(ch) ? Number(ch) : ch === "o" ? 0 : ch === "l" ? 1 : -1), 10, 7);
        expect(digitWindowKeys(c, 7)).toEqual(expected);
        // Backwards: the windows of the compact form reversed.
        const back = wholeWindows([...c].reverse().join(""), (ch) => (/[0-9]/.test(ch) ? Number(ch) : ch === "o" ? 0 : ch === "l" ? 1 : -1), 10, 7);
        expect(digitWindowKeys(c, 7, [], true)).toEqual(back);
      }),
    );
    expect(digitWindowKeys("98765432", 7)).toEqual([9876543, 8765432]);
    expect(digitWindowKeys("98765432", 7, [], true)).toEqual([2345678, 3456789]);
  });
});
