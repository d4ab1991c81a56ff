/** The one JSON tokenizer (issue 14 item 2): spans, number tokens and positions, against independent oracles. */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import { JsonFloat } from "../../../src/json/value.js";
import { byteOfUnit, NumberToken, positionText, skipWhitespace, stringRunEnd, valueEnd } from "../../../src/json/tokenizer.js";

const encoder = new TextEncoder();
const ws = fc.array(fc.constantFrom(" ", "\n", "\r", "\t"), { maxLength: 3 }).map((a) => a.join(""));
const indent = fc.constantFrom(undefined, 0, 1, 2, "\t");

describe("valueEnd: the span of one value", () => {
  test("ends exactly where the value's text ends, whatever precedes and follows it", () => {
    fc.assert(
      fc.property(fc.jsonValue(), indent, ws, ws, (v, ind, before, after) => {
        const text = JSON.stringify(v, null, ind);
        const head = encoder.encode(`[0,${before}`);
        const bytes = encoder.encode(`[0,${before}${text}${after},"]}"]`);
        const start = skipWhitespace(bytes, 3);
        expect(start).toBe(head.length);
        const end = valueEnd(bytes, start);
        expect(end).toBe(start + encoder.encode(text).length);
        expect(skipWhitespace(bytes, end)).toBe(end + after.length);
      }),
      { numRuns: 400 },
    );
  });

  test("a string or container cut short has no end", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: "binary" }), fc.array(fc.jsonValue()), fc.dictionary(fc.string(), fc.jsonValue())),
        fc.nat(),
        (v, cut) => {
          const bytes = encoder.encode(JSON.stringify(v));
          const k = 1 + (cut % (bytes.length - 1));
          expect(valueEnd(bytes.subarray(0, k), 0)).toBe(-1);
        },
      ),
    );
  });

  test("a quote after an odd run of backslashes does not close the string; after an even run it does", () => {
    expect(valueEnd(encoder.encode('"a\\"b"x'), 0)).toBe(6);
    expect(valueEnd(encoder.encode('"a\\\\"b"'), 0)).toBe(5);
    expect(valueEnd(encoder.encode('["\\\\\\"]"]'), 0)).toBe(9);
  });

  test("no value, a bad literal or a cut number has no end", () => {
    for (const t of ["", "x", "tru", "nul", "fals", "-", "-x", "1.", "NaN", "Infinity", "-Infinity", "\u{feff}1", "}"]) {
      expect(valueEnd(encoder.encode(t), 0), t).toBe(-1);
    }
    for (const [t, end] of [["true,", 4], ["false]", 5], ["null}", 4], ["-0.5e+3x", 7], ["12e", 2], ["0123", 1]] as const) {
      expect(valueEnd(encoder.encode(t), 0), t).toBe(end);
    }
  });

  test("the loader accepts every span of a well-formed document", () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 3 }), { maxLength: 6 }), (items) => {
        // Integers past the I-JSON range are the loader's to refuse, not a span question.
        const safe = items.filter((v) => !/\d{16,}/.test(JSON.stringify(v)));
        const bytes = encoder.encode(JSON.stringify(safe, null, 1));
        let k = skipWhitespace(bytes, 1);
        for (const item of safe) {
          const end = valueEnd(bytes, k);
          expect(end).toBeGreaterThan(k);
          const parsed = parseStrictJson(bytes.subarray(k, end), { maxDepth: 64 });
          expect(plain(parsed)).toEqual(JSON.parse(JSON.stringify(item)));
          k = skipWhitespace(bytes, skipWhitespace(bytes, end) + 1);
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe("NumberToken: Python's number grammar", () => {
  const full = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?/;
  const integer = /^-?(?:0|[1-9]\d*)/;

  test("agrees with the grammar's regular expression on any text of number characters", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(..."-0123456789.eE+x"), { minLength: 1, maxLength: 12 }), (chars) => {
        const text = chars.join("");
        const bytes = encoder.encode(text);
        const num = new NumberToken();
        const ok = num.scan(bytes, 0);
        const int = integer.exec(text);
        if (int === null) {
          expect(ok).toBe(false);
          expect([num.failure, num.failAt]).toEqual(["Expecting value", 0]);
          return;
        }
        if (text[int[0].length] === "." && !/\d/.test(text[int[0].length + 1] ?? "")) {
          expect(ok).toBe(false);
          expect([num.failure, num.failAt]).toEqual(["Extra data", int[0].length]);
          return;
        }
        const m = full.exec(text)!;
        expect(ok).toBe(true);
        expect(num.end).toBe(m[0].length);
        expect(num.isFloat).toBe(m[0].length > int[0].length);
        expect(num.intDigits).toBe(int[0].replace("-", "").length);
        expect(num.intStart).toBe(text.startsWith("-") ? 1 : 0);
      }),
      { numRuns: 2000 },
    );
  });
});

describe("strings and positions", () => {
  test("stringRunEnd stops at a quote, a backslash or a control character", () => {
    expect(stringRunEnd(encoder.encode('abc"'), 0)).toBe(3);
    expect(stringRunEnd(encoder.encode("ab\\c"), 0)).toBe(2);
    expect(stringRunEnd(encoder.encode("é\u001f"), 0)).toBe(2);
    expect(stringRunEnd(encoder.encode("a\u007f€"), 0)).toBe(5);
  });

  test("the loader decodes every string, ASCII or not, escaped or raw, to itself", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 40 }), fc.string({ unit: "grapheme-ascii", maxLength: 10 }), (s, a) => {
        for (const v of [s, a, a + s]) {
          expect(parseStrictJson(JSON.stringify(v))).toBe(v);
          expect(parseStrictJson(encoder.encode(JSON.stringify({ [v]: v })))).toEqual(new Map([[v, v]]));
        }
      }),
    );
  });

  test("positions count UTF-16 units and lines as the decoded text does, and byteOfUnit inverts them", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom("\n", "a", "é", "€", "😀"), fc.string({ unit: "binary", maxLength: 3 })), { maxLength: 20 }), fc.nat(), (parts, pick) => {
        const text = parts.join("");
        const bytes = encoder.encode(text);
        const codePoints = [...text];
        const cp = pick % (codePoints.length + 1);
        const prefix = codePoints.slice(0, cp).join("");
        const byteOffset = encoder.encode(prefix).length;
        const units = prefix.length;
        const lastNewline = prefix.lastIndexOf("\n");
        const line = prefix.split("\n").length;
        expect(positionText(bytes, byteOffset)).toBe(`line ${line} column ${units - lastNewline} (char ${units})`);
        expect(byteOfUnit(bytes, 0, units)).toBe(byteOffset);
      }),
    );
  });
});

function plain(v: unknown): unknown {
  if (v instanceof Map) return Object.fromEntries([...v].map(([k, x]) => [k, plain(x)]));
  if (Array.isArray(v)) return v.map(plain);
  if (v instanceof JsonFloat) return v.value;
  return v;
}
