/**
 * capsule-v1 §14 items 1–13 and 15–16: the strict loader (src/json/parse.ts), the canonical serialisers
 * (src/json/canonical.ts, src/json/legacy.ts) and the capsule file loader (capsules/capsule/load.ts).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { canonicalBytes, canonicalText } from "../../../src/json/canonical.js";
import { legacyCanonicalBytes } from "../../../src/json/legacy.js";
import { JsonLoadError, parseStrictJson } from "../../../src/json/parse.js";
import { compareCodePoints, JsonFloat, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { sha256Hex } from "../../../src/hash.js";
import { CapsuleLoadError, loadCapsuleBytes, loadCapsuleFile } from "../../../capsules/capsule/load.js";
import { resolvePointer } from "../../../capsules/capsule/pointer.js";
import { describeShared, readShared } from "../../helpers/shared.js";
import { inlineBytes, vector } from "./helpers.js";

/** The loader's message for `text`, or "" when it loads. */
function loadError(text: string | Uint8Array): string {
  try {
    parseStrictJson(text);
    return "";
  } catch (e) {
    expect(e).toBeInstanceOf(JsonLoadError);
    return (e as Error).message;
  }
}

const bytes = (...b: number[]) => Uint8Array.from(b);

describe("§14.1 duplicate keys", () => {
  test.each(['{"a":1,"a":2}', '{"a":1,"\\u0061":2}'])("%s → duplicate JSON key: 'a'", (text) => {
    expect(loadError(text)).toBe("duplicate JSON key: 'a'");
    expect(() => loadCapsuleBytes(Buffer.from(text))).toThrow(new CapsuleLoadError("duplicate JSON key: 'a'"));
  });
});

describe("§14.2 non-finite tokens", () => {
  test.each(["NaN", "Infinity", "-Infinity"])("%s is rejected naming the token", (tok) => {
    expect(loadError(tok)).toBe(`non-finite JSON number is forbidden: ${tok}`);
    expect(loadError(`[${tok}]`)).toBe(`non-finite JSON number is forbidden: ${tok}`);
  });
});

describe("§14.3 float overflow and underflow", () => {
  test("[1e400] overflows", () => {
    expect(loadError("[1e400]")).toBe("JSON number overflows to a non-finite value: 1e400");
  });
  test("[1e-400] loads as the float 0.0", () => {
    const v = parseStrictJson("[1e-400]") as JsonValue[];
    expect(v[0]).toBeInstanceOf(JsonFloat);
    expect((v[0] as JsonFloat).value).toBe(0);
  });
});

describe("§14.4 I-JSON integer range", () => {
  test.each(['{"unsafe": 9007199254740992}', "[12345678901234567]", "[-9007199254740992]"])("%s is rejected", (text) => {
    expect(loadError(text)).toBe("JSON integer exceeds the I-JSON interoperable range");
  });
  test("±9007199254740991 load exactly", () => {
    expect(parseStrictJson("[9007199254740991,-9007199254740991]")).toEqual([9007199254740991, -9007199254740991]);
  });
});

describe("§14.5 surrogates", () => {
  test("a lone surrogate string", () => {
    expect(loadError('"\\ud800"')).toBe("json: lone Unicode surrogate is forbidden");
  });
  test("a lone surrogate key", () => {
    expect(loadError('{"\\udc00":1}')).toBe("json: object key: lone Unicode surrogate is forbidden");
  });
  test("an escaped pair combines into one scalar", () => {
    expect(parseStrictJson('"\\ud83d\\ude00"')).toBe("\u{1F600}");
  });
});

describe("§14.6 nesting", () => {
  const nest = (n: number, inner: string) => "[".repeat(n) + inner + "]".repeat(n);
  test("32 arrays around 0 load; 33 do not", () => {
    expect(loadError(nest(32, "0"))).toBe("");
    expect(loadError(nest(33, "0"))).toContain("JSON nesting exceeds 32");
  });
  test("33 arrays whose innermost is [] load; 34 do not", () => {
    expect(loadError(nest(33, ""))).toBe("");
    expect(loadError(nest(34, ""))).toContain("JSON nesting exceeds 32");
  });
  test("1,000,000 nested [ fail the same way without a stack overflow", () => {
    expect(loadError("[".repeat(1_000_000))).toContain("JSON nesting exceeds 32");
  });
});

describe("§14.7 encoding", () => {
  test("a UTF-8 BOM is not stripped", () => {
    expect(loadError(bytes(0xef, 0xbb, 0xbf, 0x7b, 0x7d))).toMatch(/^invalid JSON: Unexpected UTF-8 BOM/);
  });
  test.each([[[0xff]], [[0x22, 0xed, 0xa0, 0x80, 0x22]]])("bytes %j are not UTF-8", (b) => {
    expect(loadError(bytes(...b))).toMatch(/^JSON is not UTF-8/);
  });
});

describe("§14.8 grammar", () => {
  test.each([
    '"a\tb"',
    "01",
    "+1",
    ".5",
    "1.",
    "[1,]",
    "{'a':1}",
    "/**/{}",
    "\u00a0{}",
    "{} x",
    '"\\x"',
  ])("%j is invalid JSON", (text) => {
    expect(loadError(text)).toMatch(/^invalid JSON: /);
  });
  test("raw DEL and raw U+2028 inside strings load", () => {
    expect(parseStrictJson('"a\u007fb"')).toBe("a\u007fb");
    expect(parseStrictJson('"a\u2028b"')).toBe("a\u2028b");
  });
});

describe("§14.9 counts and key length", () => {
  test("513 items", () => {
    expect(loadError(`[${Array(513).fill(0).join(",")}]`)).toMatch(/array exceeds 512 items$/);
    expect(loadError(`[${Array(512).fill(0).join(",")}]`)).toBe("");
  });
  test("513 members", () => {
    const members = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}":0`).join(",");
    expect(loadError(`{${members(513)}}`)).toMatch(/object exceeds 512 members$/);
    expect(loadError(`{${members(512)}}`)).toBe("");
  });
  test("a 16,385-character key", () => {
    expect(loadError(`{"${"k".repeat(16_385)}":0}`)).toMatch(/object key exceeds the v1 resource limit$/);
    expect(loadError(`{"${"\u{1F600}".repeat(16_384)}":0}`)).toBe("");
  });
});

describe("§14.10 capsule files", () => {
  const dir = mkdtempSync(join(tmpdir(), "capsule-load-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("33,554,433 bytes → capsule exceeds the v1 byte limit", () => {
    const file = join(dir, "big.json");
    writeFileSync(file, Buffer.alloc(33_554_433, 0x20));
    expect(() => loadCapsuleFile(file)).toThrow(new CapsuleLoadError("capsule exceeds the v1 byte limit"));
    expect(() => loadCapsuleBytes(Buffer.alloc(33_554_433, 0x20))).toThrow("capsule exceeds the v1 byte limit");
  });
  test("a file of exactly 32 MiB is read in full and loads", () => {
    const file = join(dir, "limit.json");
    const b = Buffer.alloc(33_554_432, 0x20);
    b.write("{}", 0);
    writeFileSync(file, b);
    expect(loadCapsuleFile(file)).toEqual(new Map());
  });
  test("a file holding 5 → capsule envelope must be a JSON object", () => {
    const file = join(dir, "five.json");
    writeFileSync(file, "5");
    expect(() => loadCapsuleFile(file)).toThrow(new CapsuleLoadError("capsule envelope must be a JSON object"));
  });
  test("a missing file → capsule cannot be read", () => {
    expect(() => loadCapsuleFile(join(dir, "missing.json"))).toThrow(/^capsule cannot be read: /);
  });
});

describe("§14.11 prototype keys are ordinary keys", () => {
  test("__proto__ and constructor are two plain members", () => {
    const v = parseStrictJson('{"__proto__":1,"constructor":2}') as JsonObject;
    expect(v).toBeInstanceOf(Map);
    expect([...v.entries()]).toEqual([
      ["__proto__", 1],
      ["constructor", 2],
    ]);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
  });
  test("pointer /constructor on {} → JSON pointer object key is absent", () => {
    expect(() => resolvePointer(parseStrictJson("{}"), "/constructor")).toThrow("JSON pointer object key is absent");
    expect(() => resolvePointer(parseStrictJson("{}"), "/__proto__")).toThrow("JSON pointer object key is absent");
  });
});

describeShared("§14.12 canonicalization vector (§13.1)", () => {
  const doc = parseStrictJson(readShared("data", "capsule-v1", "test-vectors", "canonicalization-v1.json")) as JsonObject;
  const expected = Buffer.from(doc.get("canonical_utf8_base64") as string, "base64");

  test("exact 168 bytes and their SHA-256", () => {
    const out = canonicalBytes(doc.get("value"));
    expect(out.length).toBe(168);
    expect(Buffer.from(out).equals(expected)).toBe(true);
    expect(sha256Hex(out)).toBe("847e7b6cd757da7a292170b591d2193bf6ed45d7f44c04f73ffd42add332e310");
    expect(doc.get("sha256")).toBe(sha256Hex(out));
  });

  test("a UTF-16 code-unit key sort would put U+10000 first and fail the vector", () => {
    const keys = ["\u{10000}", "\ue000"];
    expect([...keys].sort()).toEqual(["\u{10000}", "\ue000"]); // JS default: wrong
    expect([...keys].sort(compareCodePoints)).toEqual(["\ue000", "\u{10000}"]);
    const utf16Sorted = Buffer.from(
      canonicalText(doc.get("value")).replace(
        '{"\ue000":"bmp-private-use","\u{10000}":"non-bmp"}',
        '{"\u{10000}":"non-bmp","\ue000":"bmp-private-use"}',
      ),
    );
    expect(utf16Sorted.length).toBe(168);
    expect(utf16Sorted.equals(expected)).toBe(false);
  });
});

describe("§14.13 string escapes", () => {
  test.each([
    ["\u000b", '"\\u000b"'],
    ["\u001f", '"\\u001f"'],
    ["\u007f", '"\u007f"'],
    ["/", '"/"'],
    ["\u2028", '"\u2028"'],
    ["\u0000", '"\\u0000"'],
    ["\b\f\n\r\t", '"\\b\\f\\n\\r\\t"'],
  ])("%j → %s", (s, out) => {
    expect(canonicalText(s)).toBe(out);
  });
});

describe("§14.15 builder integers", () => {
  test("in-memory {unsafe: 2^53} → content.unsafe: integer exceeds the I-JSON interoperable range", () => {
    expect(() => canonicalBytes({ unsafe: 2 ** 53 })).toThrow("content.unsafe: integer exceeds the I-JSON interoperable range");
    expect(() => canonicalBytes(new Map([["unsafe", 2 ** 53]]))).toThrow(
      "content.unsafe: integer exceeds the I-JSON interoperable range",
    );
  });
});

describe("§14.16 legacy ledger canonicalization", () => {
  test.each([
    ["1.0", "1.0"],
    ["1e2", "100.0"],
    ["-0.0", "-0.0"],
    ["1e16", "1e+16"],
    ["1e-5", "1e-05"],
    ["1e-400", "0.0"],
    ["-0", "0"],
    ["0.0001", "0.0001"],
    ["1.5e16", "1.5e+16"],
    ["1e15", "1000000000000000.0"],
    ["5e-324", "5e-324"],
    ["4.45", "4.45"],
  ])("%s → %s", (token, out) => {
    expect(Buffer.from(legacyCanonicalBytes(parseStrictJson(token))).toString()).toBe(out);
    expect(Buffer.from(legacyCanonicalBytes(parseStrictJson(`{"a":[${token}]}`))).toString()).toBe(`{"a":[${out}]}`);
  });
  test("JSON.stringify would render integral floats wrongly (so these tests can fail)", () => {
    expect(JSON.stringify(1.0)).not.toBe("1.0");
    expect(JSON.stringify(1e16)).not.toBe("1e+16");
  });
});

describeShared("§14.16 payload hash of P's reading", () => {
  test("8f305911… from the strictly parsed `reading` artifact", () => {
    const reading = inlineBytes(vector("P"), 0);
    expect(sha256Hex(legacyCanonicalBytes(parseStrictJson(reading)))).toBe(
      "8f3059118bcd84f95011e2675af70f6b915e79670694c5c59b660822e72a918e",
    );
  });
});
