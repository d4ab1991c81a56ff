/** The strict loader's own API: configurable limits, rule codes and paths (the §14 checklist lives in capsules tests). */
import { describe, expect, test } from "vitest";
import { JsonLoadError, parseStrictJson } from "../../../src/json/parse.js";
import { JsonFloat } from "../../../src/json/value.js";

function failure(input: string | Uint8Array, limits = {}): { rule: string; message: string; path?: string } {
  try {
    parseStrictJson(input, limits);
  } catch (e) {
    expect(e).toBeInstanceOf(JsonLoadError);
    const err = e as JsonLoadError;
    return { rule: err.rule, message: err.message, ...(err.path ? { path: err.path } : {}) };
  }
  throw new Error("expected a load error");
}

describe("strict JSON loader", () => {
  test("keeps the lexical difference between 1 and 1.0", () => {
    const v = parseStrictJson("[1, 1.0, 1e2, -0, -0.0]") as unknown[];
    expect(v[0]).toBe(1);
    expect(v[1]).toBeInstanceOf(JsonFloat);
    expect((v[1] as JsonFloat).token).toBe("1.0");
    expect(v[2]).toEqual(new JsonFloat(100, "1e2"));
    expect(Object.is(v[3], 0)).toBe(true);
    expect(Object.is((v[4] as JsonFloat).value, -0)).toBe(true);
  });

  test("objects are Maps: __proto__ and constructor are ordinary keys", () => {
    const v = parseStrictJson('{"__proto__":1,"constructor":2}') as Map<string, unknown>;
    expect([...v.keys()]).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  test("errors carry the rule and the path from the configured root", () => {
    expect(failure('{"a":[0,{"b":"\\ud800"}]}', { rootPath: "assessment" })).toEqual({
      rule: "lone-surrogate",
      message: "assessment.a[1].b: lone Unicode surrogate is forbidden",
      path: "assessment.a[1].b",
    });
    expect(failure('{"a":{"x":1,"x":2}}')).toEqual({ rule: "duplicate-key", message: "duplicate JSON key: 'x'" });
  });

  test("limits are configurable per document kind", () => {
    const big = `[${Array.from({ length: 600 }, (_, i) => i).join(",")}]`;
    expect(failure(big)).toEqual({ rule: "array-items", message: "json: array exceeds 512 items", path: "json" });
    expect((parseStrictJson(big, { maxItems: 1000 }) as unknown[]).length).toBe(600);
    expect(failure("[1,2,3]", { maxItems: 2 }).rule).toBe("array-items");
    expect(failure('{"a":1,"b":2}', { maxMembers: 1 })).toEqual({
      rule: "object-members",
      message: "json: object exceeds 1 members",
      path: "json",
    });
    expect(failure('"abcd"', { maxStringChars: 3 }).message).toBe("json: string exceeds the v1 resource limit");
    expect(failure('{"abcd":1}', { maxKeyChars: 3 }).message).toBe("json: object key exceeds the v1 resource limit");
    expect(failure("[[1]]", { maxDepth: 1 }).message).toBe("json[0][0]: JSON nesting exceeds 1");
    expect(failure(new Uint8Array(11), { maxBytes: 10 }).message).toBe("JSON input exceeds the v1 byte limit");
    expect(failure("x".repeat(11), { maxBytes: 10 }).message).toBe("JSON input exceeds the v1 byte limit");
  });

  test("string input is measured in UTF-8 bytes", () => {
    expect(failure('"ééé"', { maxBytes: 7 }).rule).toBe("size");
    expect(parseStrictJson('"ééé"', { maxBytes: 8 })).toBe("ééé");
  });

  test("string lengths count code points, not UTF-16 units", () => {
    expect(parseStrictJson('"😀😀"', { maxStringChars: 2 })).toBe("😀😀");
    expect(failure('"😀😀😀"', { maxStringChars: 2 }).rule).toBe("string-length");
  });

  test("a million open brackets fail with the depth error, not a stack overflow", () => {
    expect(failure("[".repeat(1_000_000)).rule).toBe("depth");
    expect(failure("{\"a\":".repeat(100_000)).rule).toBe("depth");
  });

  test("16-digit integers are compared exactly against 2^53-1", () => {
    expect(parseStrictJson("9007199254740991")).toBe(9007199254740991);
    expect(parseStrictJson("-9007199254740991")).toBe(-9007199254740991);
    expect(failure("9007199254740992").rule).toBe("integer-range");
    expect(failure("-9007199254740993").rule).toBe("integer-range");
    expect(failure("12345678901234567").rule).toBe("integer-range");
    expect(parseStrictJson("1000000000000000")).toBe(1e15);
  });
});

describe("where a failure happened (location)", () => {
  const at = (text: string): JsonLoadError => {
    try {
      parseStrictJson(text, { rootPath: "doc" });
    } catch (e) {
      if (e instanceof JsonLoadError) return e;
      throw e;
    }
    throw new Error("expected a load error");
  };

  test.each([
    ['{"a": [1, 2 3]}', "syntax", "doc.a[1]"],
    ['{"a": 1 "b": 2}', "syntax", "doc.a"],
    ['{"a": 1, 2: 3}', "syntax", "doc"],
    ['{"a": {"b": "x', "syntax", "doc.a.b"],
    ['{"a": ["\u0001"]}', "syntax", "doc.a[0]"],
    ['{"a": {"k": 1, "k": 2}}', "duplicate-key", "doc.a.k"],
    ['{"a": [0, {"n": NaN}]}', "non-finite", "doc.a[1].n"],
    ['{"a": [12345678901234567]}', "integer-range", "doc.a[0]"],
    ['{"a": 1e999}', "float-overflow", "doc.a"],
    ['{"a": "\\ud800"}', "lone-surrogate", "doc.a"],
  ])("%s: %s at %s", (text, rule, location) => {
    const e = at(text);
    expect([e.rule, e.location]).toEqual([rule, location]);
  });

  test("messages stay as they were: the location is not part of them", () => {
    expect(at('{"a": {"k": 1, "k": 2}}').message).toBe("duplicate JSON key: 'k'");
    expect(at('{"a": [1, 2 3]}').message).toBe("invalid JSON: Expecting ',' delimiter: line 1 column 13 (char 12)");
    expect(at('{"a": [1, 2 3]}').path).toBeUndefined();
  });
});
