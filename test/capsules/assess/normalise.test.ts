/** capsules/assess/normalise.ts: the one-pass `normalisedViews` equals the per-view `normalisedView` exactly. */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { normalisedView, normalisedViews } from "../../../capsules/assess/normalise.js";
import { SAMPLES } from "./messages.js";

/** Characters that exercise every branch: ASCII, look-alikes, invisibles, NFKC-mapped, combining, CJK, astral, lone surrogates. */
const PIECES = [
  "a", "Z", "0", "@", ".", "/", " ", "\n",
  "а", "е", "о", "р", "с", "Ѕ", "ʀ", "ɡ", // Cyrillic and Latin small capitals that look like Latin
  "\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u180e", "\u202e", // invisibles and bidi controls
  "＠", "１", "ｔ", "．", "ﬁ", "㎏", "①", "ℌ", // NFKC-mapped (full-width, ligature, squared, circled)
  "e\u0301", "\u0301", "\u1100\u1161", // combining sequences
  "专", "業", "錢", "你好", "हिन्दी", "Привет",
  "😀", "𝐀", "\ud800", "\udc00", // astral (one NFKC-mapped), lone surrogates
];

function expectSameViews(message: string): void {
  const both = normalisedViews(message);
  expect(both.visible).toEqual(normalisedView(message, false));
  expect(both.skeleton).toEqual(normalisedView(message, true));
}

describe("normalisedViews", () => {
  test("equals normalisedView for both views on any mix of scripts, invisibles and look-alikes", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }), (parts) => expectSameViews(parts.join(""))),
      { numRuns: 500 },
    );
  });

  test("equals normalisedView on arbitrary strings (full Unicode, unpaired surrogates included)", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), expectSameViews), { numRuns: 500 });
  });

  test("equals normalisedView on every sample message", () => {
    for (const s of SAMPLES) expectSameViews(s.text);
  });

  test("an ASCII message is its own view, a look-alike only changes the skeleton", () => {
    const ascii = normalisedViews("call @desk_one");
    expect(ascii.visible.text).toBe("call @desk_one");
    expect(ascii.skeleton).toBe(ascii.visible);
    const spoofed = normalisedViews("call @dеsk_one"); // Cyrillic е
    expect(spoofed.visible.text).toBe("call @dеsk_one");
    expect(spoofed.skeleton.text).toBe("call @desk_one");
  });
});
