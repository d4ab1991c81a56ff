/**
 * ownString (src/json/own-string.ts): the same text, for strings cut from a parsed document and for others, and what
 * the store keeps from a parsed capsule (row facts, private values) is equal to what it read.
 */
import { describe, expect, test } from "vitest";
import { ownString } from "../../../src/json/own-string.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { assessmentPrivateValues } from "../../../capsules/guard/private-values.js";

describe("ownString", () => {
  test("returns the same text, short or long, ASCII or not, cut from a parsed document or not", () => {
    const doc = parseStrictJson(`{"created_at":"2026-08-20T09:21:03.300009Z","h":"${"ab".repeat(32)}","s":"short","x":"${"y".repeat(5000)}"}`) as JsonObject;
    for (const v of doc.values()) expect(ownString(v as string)).toBe(v);
    for (const s of ["", "a", "twelve chars", "thirteen char", "Ѕcam desk in Cyrillic ѕ, long enough", "😀".repeat(20)]) expect(ownString(s)).toBe(s);
  });

  test("private values taken from a parsed assessment are equal to the document's values", () => {
    const doc = parseStrictJson(
      JSON.stringify({ detector: { iocs: { handles: ["@usdt_kitchen_00042"], phones: ["+91 98765 00042"] }, signals: [{ name: "account_rental_offer" }] } }),
    );
    expect(assessmentPrivateValues(doc).map((v) => v.value)).toEqual(["@usdt_kitchen_00042", "+91 98765 00042", "account_rental_offer"]);
  });
});
