/** Exact vectors for the canonical serialisers, the Python float rendering and the value echo. */
import { describe, expect, test } from "vitest";
import { canonicalBytes, canonicalText } from "../../../src/json/canonical.js";
import { echo, pyRepr } from "../../../src/json/echo.js";
import { legacyCanonicalBytes, pythonFloatRepr } from "../../../src/json/legacy.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { JsonFloat, type JsonObject } from "../../../src/json/value.js";
import { sha256Hex } from "../../../src/hash.js";
import { describeShared, readShared } from "../../helpers/shared.js";

describeShared("canonicalization golden vector (capsule-v1 §13.1)", () => {
  test("gives the exact 168 bytes and digest", () => {
    const vector = parseStrictJson(readShared("data/capsule-v1/test-vectors/canonicalization-v1.json")) as JsonObject;
    const bytes = canonicalBytes(vector.get("value"));
    const expected = Buffer.from(vector.get("canonical_utf8_base64") as string, "base64");
    expect(bytes.length).toBe(168);
    expect(Buffer.from(bytes).equals(expected)).toBe(true);
    expect(sha256Hex(bytes)).toBe(vector.get("sha256"));
    expect(sha256Hex(bytes)).toBe("847e7b6cd757da7a292170b591d2193bf6ed45d7f44c04f73ffd42add332e310");
  });

  test("golden capsules' content hashes recompute", () => {
    for (const [file, hash] of [
      ["palimpsest-erasure-v1.json", "c887abd3016e432359ab1d4b7d54896211ed5483ad2bc91434eb3cd74bbbe721"],
      ["nemesis-ddti-v1.json", "0c84a1cc37ff55952696e8dc68bf6c1eb9b22e3b47ba11fcd5bf790c540087e7"],
    ]) {
      const capsule = parseStrictJson(readShared("data/capsule-v1/test-vectors", file)) as JsonObject;
      expect(sha256Hex(canonicalBytes(capsule.get("content")))).toBe(hash);
    }
  });
});

describe("canonical v1 escaping (capsule-v1 §4.1.3)", () => {
  test.each([
    ["\u000b", '"\\u000b"'],
    ["\u001f", '"\\u001f"'],
    ["\u0000", '"\\u0000"'],
    ["\u007f", '"\u007f"'],
    ["/", '"/"'],
    ["\u2028\u2029", '"\u2028\u2029"'],
    ["\ufeff", '"\ufeff"'],
    ["\b\t\n\f\r", '"\\b\\t\\n\\f\\r"'],
    ['q"b\\', '"q\\"b\\\\"'],
    ["😀", '"😀"'],
  ])("%j → %s", (input, out) => {
    expect(canonicalText(input)).toBe(out);
  });

  test("integers: shortest form, -0 is 0", () => {
    expect(canonicalText([0, -0, -5, 9007199254740991, -9007199254740991])).toBe(
      "[0,0,-5,9007199254740991,-9007199254740991]",
    );
  });

  test("integer out of range is refused with its path", () => {
    expect(() => canonicalBytes({ unsafe: 2 ** 53 })).toThrow("content.unsafe: integer exceeds the I-JSON interoperable range");
  });

  test("unsupported builder values name their type", () => {
    expect(() => canonicalBytes({ a: undefined })).toThrow("content.a: unsupported JSON value undefined");
    expect(() => canonicalBytes({ a: new Date(0) })).toThrow("content.a: unsupported JSON value Date");
  });

  test("integer-like keys keep code point order, not JS object order", () => {
    expect(canonicalText(new Map([["10", 1], ["9", 2], ["a", 3]]))).toBe('{"10":1,"9":2,"a":3}');
  });

  test("depth over 32 is refused in document order before the kind check", () => {
    let v: unknown = 1.5;
    for (let i = 0; i < 33; i++) v = [v];
    expect(() => canonicalBytes(v)).toThrow(/JSON nesting exceeds 32$/);
  });
});

describe("Python float repr (capsule-v1 §4.2.2)", () => {
  test.each([
    [1.0, "1.0"],
    [1e2, "100.0"],
    [0.0001, "0.0001"],
    [1e-5, "1e-05"],
    [1.5e-7, "1.5e-07"],
    [1e15, "1000000000000000.0"],
    [1234567890123456.8, "1234567890123456.8"],
    [1e16, "1e+16"],
    [1.5e16, "1.5e+16"],
    [1.2345678901234568e20, "1.2345678901234568e+20"],
    [5e-324, "5e-324"],
    [1.7976931348623157e308, "1.7976931348623157e+308"],
    [-0.0, "-0.0"],
    [0, "0.0"],
    [4.45, "4.45"],
    [-2.5, "-2.5"],
    [0.1, "0.1"],
    [123.456, "123.456"],
  ])("%d → %s", (x, out) => {
    expect(pythonFloatRepr(x)).toBe(out);
  });

  test("legacy canonical bytes render lexical floats and integers as CPython does", () => {
    const doc = parseStrictJson('[1.0, 1e2, -0.0, 1e16, 1e-5, 1e-400, -0, {"b":1,"a":2.50}]');
    expect(new TextDecoder().decode(legacyCanonicalBytes(doc))).toBe(
      '[1.0,100.0,-0.0,1e+16,1e-05,0.0,0,{"a":2.5,"b":1}]',
    );
  });

  test("legacy serialisation differs from v1 only in allowing floats", () => {
    expect(() => canonicalBytes([new JsonFloat(1, "1.0")])).toThrow("floats are forbidden");
    expect(new TextDecoder().decode(legacyCanonicalBytes([new JsonFloat(1, "1.0")]))).toBe("[1.0]");
  });
});

describe("value echo (capsule-v1 §6.2)", () => {
  test.each([
    [null, "None"],
    [true, "True"],
    [false, "False"],
    [42, "42"],
    [new Map(), "{}"],
    [[1, "a"], "[1, 'a']"],
    ["palimpsest-evidence-capsule/v2", "'palimpsest-evidence-capsule/v2'"],
    ["it's", '"it\'s"'],
    ["it's \"x\"\né\u2028", "'it\\'s \"x\"\\né\\u2028'"],
    ["\u0000\u00a0\t", "'\\x00\\xa0\\t'"],
    ["\u{e0001}", "'\\U000e0001'"],
    [new JsonFloat(1, "1.0"), "1.0"],
  ])("%o → %s", (v, out) => {
    expect(echo(v as never)).toBe(out);
  });

  test("objects echo in document order", () => {
    expect(echo(new Map<string, never>([["b", 1 as never], ["a", "x" as never]]))).toBe("{'b': 1, 'a': 'x'}");
    expect(pyRepr("a\\b")).toBe("'a\\\\b'");
  });
});
