/** Field validators (capsule-v1 §5): messages, code-point lengths, and the RFC 3339 grammar of §5.5. */
import { describe, expect, test } from "vitest";
import {
  arrayAt,
  fieldsAt,
  identifierAt,
  integerAt,
  isRfc3339,
  mediaTypeAt,
  refsAt,
  sha256At,
  textAt,
} from "../../../capsules/capsule/fields.js";
import { JsonFloat } from "../../../src/json/value.js";
import { j } from "./helpers.js";

describe("§5 validators", () => {
  test("5.2 fields: missing first, then unknown, names sorted by code point", () => {
    expect(() => fieldsAt(j('{"b":1}'), "p", ["b", "a", "c"])).toThrow("p: missing field(s): a, c");
    expect(() => fieldsAt(j('{"a":1,"z":1,"\u00e9":1,"B":1}'), "p", ["a"])).toThrow("p: unknown field(s): B, z, \u00e9");
    expect(() => fieldsAt([], "p", ["a"])).toThrow("p: expected object");
    expect(fieldsAt(j('{"a":1}'), "p", ["a"]).get("a")).toBe(1);
  });

  test("5.3 array", () => {
    expect(() => arrayAt(j("{}"), "p")).toThrow("p: expected array");
    expect(() => arrayAt([1, 2, 3], "p", 2)).toThrow("p: exceeds 2 items");
  });

  test("5.4 text", () => {
    expect(() => textAt("", "p")).toThrow("p: expected non-empty string");
    expect(() => textAt(5, "p")).toThrow("p: expected non-empty string");
    expect(() => textAt(5, "p", 10, false)).toThrow("p: expected string");
    expect(textAt("", "p", 10, false)).toBe("");
    expect(() => textAt("abc", "p", 2)).toThrow("p: exceeds 2 characters");
    expect(textAt("\u{1F600}\u{1F600}", "p", 2)).toBe("\u{1F600}\u{1F600}");
    expect(() => textAt("a\udc00", "p")).toThrow("p: lone Unicode surrogate is forbidden");
  });

  test("5.6 identifier", () => {
    expect(identifierAt("a" + "b".repeat(127), "p")).toHaveLength(128);
    expect(() => identifierAt("a" + "b".repeat(128), "p")).toThrow("p: invalid identifier");
    for (const bad of ["A", "1a", "-a", "a b", "a/b", "é"]) expect(() => identifierAt(bad, "p")).toThrow("p: invalid identifier");
    for (const ok of ["a", "a.b-c_d9"]) expect(identifierAt(ok, "p")).toBe(ok);
  });

  test("5.7 sha256", () => {
    expect(() => sha256At("A".repeat(64), "p")).toThrow("p: expected lowercase sha256 hex");
    expect(() => sha256At("a".repeat(63), "p")).toThrow("p: expected lowercase sha256 hex");
    expect(sha256At("a".repeat(64), "p")).toBe("a".repeat(64));
  });

  test("5.8 integer: kind and range", () => {
    expect(() => integerAt(true, "p")).toThrow("p: expected integer in [0, 9007199254740991]");
    expect(() => integerAt(new JsonFloat(1, "1.0"), "p")).toThrow("p: expected integer in [0, 9007199254740991]");
    expect(() => integerAt(-1, "p")).toThrow("p: expected integer in [0, 9007199254740991]");
    expect(() => integerAt(0, "p", 1, 5)).toThrow("p: expected integer in [1, 5]");
    expect(integerAt(5, "p", 1, 5)).toBe(5);
  });

  test("5.9 refs: items are identifiers, then duplicates", () => {
    expect(() => refsAt(["a", "a"], "p")).toThrow("p: duplicate reference");
    expect(() => refsAt(["a", "B"], "p")).toThrow("p[1]: invalid identifier");
    expect(refsAt([], "p")).toEqual([]);
  });

  test("5.10 media type", () => {
    expect(mediaTypeAt("application/vnd.opentimestamps.ots", "p")).toBe("application/vnd.opentimestamps.ots");
    for (const bad of ["json", "text/", "/plain", "text/plain; charset=utf-8", "a/b/c"]) {
      expect(() => mediaTypeAt(bad, "p")).toThrow("p: invalid media type");
    }
  });
});

describe("§5.5 RFC 3339 grammar", () => {
  test.each([
    "2026-01-01T00:00:00Z",
    "2024-02-29T00:00:00Z",
    "2000-02-29T00:00:00Z",
    "0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59Z",
    "2026-01-01T00:00:00.123456789012345678901Z",
    "2026-01-01T00:00:00.1+05:30",
    "2026-01-01T00:00:00-00:00",
    "2026-01-01T00:00:00+23:59",
    "2026-08-04T09:26:52.865414+00:00",
  ])("accepts %s", (ts) => expect(isRfc3339(ts)).toBe(true));

  test.each([
    "",
    "2026-01-01t00:00:00Z",
    "2026-01-01T00:00:00z",
    "2026-01-01 00:00:00Z",
    "2026-01-01T00:00Z",
    "2026-01-01T00:00:00.Z",
    "2026-01-01T00:00:00",
    "2026-01-01T00:00:00+0000",
    "2026-01-01T00:00:00+00:00:00",
    "2026-01-01T00:00:00+00",
    "0000-01-01T00:00:00Z",
    "1900-02-29T00:00:00Z",
    "2100-02-29T00:00:00Z",
    "2026-02-29T00:00:00Z",
    "2026-04-31T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-00-01T00:00:00Z",
    "2026-01-00T00:00:00Z",
    "2026-01-01T24:00:00Z",
    "2026-01-01T00:60:00Z",
    "2026-01-01T00:00:60Z",
    "2026-01-01T00:00:00+24:00",
    "2026-01-01T00:00:00+23:60",
    "2026-01-01T00:00:00+00:99",
    "2026-01-01T00:00:00+05:60",
    "2026-01-01T00:00:00ZZ",
    "2026-01-01T00:00:00Z ",
    " 2026-01-01T00:00:00Z",
    "+2026-01-01T00:00:00Z",
    "20260-01-01T00:00:00Z",
    "2026-1-01T00:00:00Z",
    "٢٠٢٦-01-01T00:00:00Z",
    "2026-01-01T00:00:00.١Z",
  ])("rejects %j", (ts) => expect(isRfc3339(ts)).toBe(false));
});
