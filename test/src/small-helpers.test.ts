/** The shared small helpers (src/errno.ts, src/json/value.ts): one definition each, used across the roots. */
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { errno } from "../../src/errno.js";
import { isPlainObject, isRecord } from "../../src/json/value.js";

describe("errno", () => {
  test("the code of a system error; undefined for anything else", () => {
    let caught: unknown;
    try {
      readFileSync("/nonexistent-evidence-bridge-path");
    } catch (e) {
      caught = e;
    }
    expect(errno(caught)).toBe("ENOENT");
    expect(errno(new Error("x"))).toBeUndefined();
    expect(errno(null)).toBeUndefined();
    expect(errno("ENOENT")).toBeUndefined();
  });
});

describe("isRecord and isPlainObject", () => {
  test("isRecord: any non-null, non-array object", () => {
    expect([{}, Object.create(null), new Map(), new Date()].map(isRecord)).toEqual([true, true, true, true]);
    expect([null, [], "s", 1, undefined].map(isRecord)).toEqual([false, false, false, false, false]);
  });
  test("isPlainObject: object literals and null-prototype objects only", () => {
    expect([{}, Object.create(null)].map(isPlainObject)).toEqual([true, true]);
    expect([new Map(), [], new Date(), Object.create({})].map(isPlainObject)).toEqual([false, false, false, false]);
  });
});
