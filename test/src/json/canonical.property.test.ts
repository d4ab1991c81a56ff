/** Property tests of palimpsest-json-sorted-utf8-v1 (issue 2 item 3). */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { canonicalBytes, canonicalText, CanonicalError } from "../../../src/json/canonical.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { JsonFloat, compareCodePoints, type JsonValue } from "../../../src/json/value.js";

const decoder = new TextDecoder("utf-8", { fatal: true });

/** Well-formed strings over the whole scalar range, including controls, surrogate pairs and U+E000+. */
const scalarString = fc.string({ unit: "grapheme-ascii", maxLength: 8 }).chain((ascii) =>
  fc
    .array(
      fc.oneof(
        fc.integer({ min: 0, max: 0x1f }),
        fc.integer({ min: 0x20, max: 0xd7ff }),
        fc.integer({ min: 0xe000, max: 0xffff }),
        fc.integer({ min: 0x10000, max: 0x10ffff }),
      ),
      { maxLength: 8 },
    )
    .map((cps) => ascii + String.fromCodePoint(...cps)),
);

const safeInt = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

const { value: contentValue } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    fc.constant(null),
    fc.boolean(),
    safeInt,
    scalarString,
    fc.array(tie("value"), { maxLength: 5 }),
    fc.dictionary(scalarString, tie("value"), { maxKeys: 5 }),
  ),
}));

function errorOf(fn: () => unknown): { name: string; message: string } | undefined {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(CanonicalError);
    return { name: (e as Error).name, message: (e as Error).message };
  }
  return undefined;
}

/** Plain-object value → the parser's value model, keeping insertion order. */
function toModel(v: unknown): JsonValue {
  if (Array.isArray(v)) return v.map(toModel);
  if (v !== null && typeof v === "object") {
    return new Map(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, toModel(x)]));
  }
  return v as JsonValue;
}

function shuffledModel(v: JsonValue, seed: number): JsonValue {
  if (Array.isArray(v)) return v.map((x, i) => shuffledModel(x, seed + i));
  if (v instanceof Map) {
    const entries = [...v.entries()];
    // Deterministic reverse-rotate by seed: a different insertion order with the same members.
    const k = entries.length ? seed % entries.length : 0;
    const reordered = [...entries.slice(k), ...entries.slice(0, k)].reverse();
    return new Map(reordered.map(([key, x]) => [key, shuffledModel(x, seed + 1)]));
  }
  return v;
}

describe("canonical v1 properties", () => {
  test("serialising is deterministic and independent of member insertion order", () => {
    fc.assert(
      fc.property(contentValue, fc.nat(), (v, seed) => {
        const a = canonicalBytes(v);
        const b = canonicalBytes(toModel(v));
        const c = canonicalBytes(shuffledModel(toModel(v), seed));
        expect(Buffer.from(b).equals(Buffer.from(a))).toBe(true);
        expect(Buffer.from(c).equals(Buffer.from(a))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test("canonical bytes parse back to an equal value and re-serialise to the same bytes", () => {
    fc.assert(
      fc.property(contentValue, (v) => {
        const bytes = canonicalBytes(v);
        const parsed = parseStrictJson(bytes, { rootPath: "json" });
        expect(Buffer.from(canonicalBytes(parsed)).equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  test("every well-formed string round-trips exactly", () => {
    fc.assert(
      fc.property(scalarString, (s) => {
        const bytes = canonicalBytes(s);
        expect(parseStrictJson(bytes)).toBe(s);
        // The output is UTF-8 and contains no raw control character.
        expect(/[\u0000-\u001f]/.test(decoder.decode(bytes))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  test("object members are ordered by Unicode code point, not UTF-16 code unit", () => {
    fc.assert(
      fc.property(fc.uniqueArray(scalarString, { maxLength: 12 }), (keys) => {
        const obj = new Map(keys.map((k, i) => [k, i] as [string, JsonValue]));
        const parsed = parseStrictJson(canonicalBytes(obj)) as Map<string, JsonValue>;
        const order = [...parsed.keys()];
        const byCodePoint = [...keys].sort((a, b) => {
          const x = Array.from(a, (c) => c.codePointAt(0)!);
          const y = Array.from(b, (c) => c.codePointAt(0)!);
          for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i] - y[i];
          return x.length - y.length;
        });
        expect(order).toEqual(byCodePoint);
        for (let i = 1; i < order.length; i++) expect(compareCodePoints(order[i - 1], order[i])).toBeLessThan(0);
      }),
      { numRuns: 1000 },
    );
  });

  test("U+E000 sorts before U+10000 (a UTF-16 sort would put U+10000 first)", () => {
    expect(canonicalText({ "\u{10000}": 1, "\ue000": 2 })).toBe('{"\ue000":2,"\u{10000}":1}');
  });

  test("floats are refused anywhere in v1 content, naming their path", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.double({ noInteger: true, noDefaultInfinity: false }),
          fc.constantFrom(Number.NaN, Infinity, -Infinity),
        ),
        fc.array(fc.constantFrom("a", "b", "c"), { minLength: 0, maxLength: 4 }),
        (x, keys) => {
          let v: unknown = x;
          for (const k of keys) v = { [k]: v };
          const path = ["content", ...[...keys].reverse()].join(".");
          expect(errorOf(() => canonicalBytes(v))).toEqual({
            name: "CanonicalError",
            message: `${path}: floats are forbidden in hashed content; encode decimals as strings`,
          });
        },
      ),
      { numRuns: 500 },
    );
    // Lexical floats from the parser are floats even when integral.
    expect(() => canonicalBytes(new Map([["x", new JsonFloat(1, "1.0")]]))).toThrow(
      "content.x: floats are forbidden in hashed content; encode decimals as strings",
    );
  });
});

describe("plain JS input", () => {
  test("an own __proto__ member is a member, in objects with and without a prototype", () => {
    expect(canonicalText(JSON.parse('{"b":{"__proto__":1,"a":[2]},"a":null}'))).toBe('{"a":null,"b":{"__proto__":1,"a":[2]}}');
    const bare = Object.create(null) as Record<string, unknown>;
    bare.__proto__ = 5;
    bare.z = 1;
    expect(canonicalText(bare)).toBe('{"__proto__":5,"z":1}');
  });

  test("errors name the path of the offending value, written only then", () => {
    let caught: unknown;
    try {
      canonicalText({ a: { b: [1, { c: 1.5 }] } });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(CanonicalError);
    expect((caught as CanonicalError).message).toBe("content.a.b[1].c: floats are forbidden in hashed content; encode decimals as strings");
    expect((caught as CanonicalError).path).toBe("content.a.b[1].c");
    expect(() => canonicalText(new Map([["k", [0, new Map([["x", "\ud800"]])]]]))).toThrow("content.k[1].x: lone Unicode surrogate is forbidden");
  });
});
