/**
 * content_sha256 under our reading (product.md §10): SHA-256 of the capsule-v1 canonical bytes of the top-level
 * object without content_sha256, with v1's 512-item and byte caps lifted for large indexes.
 */
import fc from "fast-check";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { describe, expect, test } from "vitest";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { sha256Hex } from "../../../src/hash.js";
import { canonicalDigestHex, canonicalJsonText } from "../../../published/regional/canonical-digest.js";
import { buildSyntheticIndex } from "../../../published/regional/synthetic.js";
import { validateRegionalIndex } from "../../../published/regional/validate.js";
import { bytes, changed, fixture, index } from "./helpers.js";

describe("the digest rule", () => {
  test("equals sha256(canonicalBytes(index without content_sha256)) inside the v1 caps", () => {
    for (const region of ["bri", "gwadar", "balochistan", "myanmar"]) {
      const o = JSON.parse(fixture(`valid/${region}.json`).toString("utf8"));
      const { content_sha256, ...rest } = o;
      expect(sha256Hex(canonicalBytes(rest))).toBe(content_sha256);
      expect(canonicalDigestHex(rest)).toBe(content_sha256);
    }
  });

  test("the uncapped writer agrees with canonicalBytes on arbitrary JSON (keys in any order, any text)", () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: "small" },
        fc.constant(null),
        fc.boolean(),
        fc.integer({ min: -1e15, max: 1e15 }),
        fc.string({ unit: "binary" }),
        fc.array(tie("value"), { maxLength: 5 }),
        fc.dictionary(fc.string({ unit: "binary", maxLength: 6 }), tie("value"), { maxKeys: 6 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, (v) => {
        const text = new TextDecoder().decode(canonicalBytes(v));
        const parsed = parseStrictJson(JSON.stringify(v));
        expect(canonicalDigestHex(v)).toBe(sha256Hex(text));
        expect(canonicalDigestHex(parsed)).toBe(sha256Hex(text));
        expect(canonicalJsonText(parsed)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  test("index-like keys keep code-point order (JS would put them first)", () => {
    const v = parseStrictJson('{"b":1,"10":2,"9":3,"a":{"2":0,"1":0}}');
    expect(canonicalJsonText(v)).toBe(new TextDecoder().decode(canonicalBytes(v)));
    expect(canonicalJsonText(v)).toBe('{"10":2,"9":3,"a":{"1":0,"2":0},"b":1}');
  });

  test("the streamed native SHA-256 equals @noble/hashes over the whole canonical text, across chunk boundaries", () => {
    // Pieces of every size: many small ones, some near the 64 KiB chunk, one larger than the 128 KiB buffer.
    // Members already in code-point order, so JSON.stringify writes the canonical text.
    const value = {
      huge: "z\u{1F600}".repeat(70000),
      near: ["x".repeat(65535), "y".repeat(65537), "ü".repeat(40000)],
      small: Array.from({ length: 3000 }, (_, i) => `é${i}`),
      tail: 1,
    };
    const text = JSON.stringify(value);
    expect(text.length).toBeGreaterThan(3 * 65536);
    expect(canonicalDigestHex(value)).toBe(bytesToHex(sha256(new TextEncoder().encode(text))));
  });

  test("holds for an index far beyond 512 events, where canonicalBytes refuses", () => {
    const big = buildSyntheticIndex({ region: "bri", events: 700 });
    const { content_sha256: _d, ...rest } = big;
    expect(() => canonicalBytes(rest)).toThrow(/array exceeds 512 items/);
    const report = validateRegionalIndex(bytes(big));
    expect(report.conforms).toBe(true);
    expect(report.warnings).toEqual([]);
    expect(report.content_sha256.status).toBe("verified");
  });

  test("key order and whitespace in the file do not matter; values do", () => {
    const o = index();
    const reordered = Object.fromEntries(Object.entries(o).reverse());
    expect(validateRegionalIndex(JSON.stringify(reordered, null, 3)).content_sha256.status).toBe("verified");
    const edited = { ...o, label: `${o.label} ` };
    const report = validateRegionalIndex(bytes(edited));
    expect(report.conforms).toBe(true);
    expect(report.content_sha256).toMatchObject({ status: "mismatch", declared: o.content_sha256 });
    expect(report.content_sha256.computed).toMatch(/^[0-9a-f]{64}$/);
    expect(report.content_sha256.computed).not.toBe(o.content_sha256);
  });

  test("a float makes the digest not_checked (capsule-v1 bytes cannot hold one), with the reason", () => {
    const text = JSON.stringify(index()).replace('"hours":48', '"hours":48.0');
    const report = validateRegionalIndex(text);
    expect(report.content_sha256).toMatchObject({ status: "not_checked", computed: null, reason: expect.stringContaining("float") });
    const inEvent = JSON.stringify(index()).replace('"version_count":1', '"version_count":1.0');
    expect(validateRegionalIndex(inEvent).content_sha256.status).toBe("not_checked");
  });

  test("a missing or malformed content_sha256 is not_checked or mismatch, never verified", () => {
    const o = index();
    delete o.content_sha256;
    expect(validateRegionalIndex(bytes(o)).content_sha256).toMatchObject({ status: "not_checked", declared: null });
    const upper = index();
    upper.content_sha256 = upper.content_sha256.toUpperCase();
    expect(validateRegionalIndex(bytes(upper)).content_sha256.status).toBe("mismatch");
  });

  test("a plain object (an MCP argument) gets the same report as its JSON text", () => {
    const o = index("myanmar");
    expect(validateRegionalIndex(o)).toEqual(validateRegionalIndex(bytes(o)));
    const broken = JSON.parse(new TextDecoder().decode(changed((x) => (x.events[0].topics = ["a", "a"]))));
    expect(validateRegionalIndex(broken)).toEqual(validateRegionalIndex(bytes(broken)));
  });

  test("a plain object holding what JSON cannot is refused with its path", () => {
    const o = index();
    o.events[0].headline = "\ud800";
    expect(validateRegionalIndex(o).errors).toEqual([
      { path: "index.events[0].headline", rule: "json-lone-surrogate", message: "index.events[0].headline: lone Unicode surrogate is forbidden" },
    ]);
    const inf = index();
    inf.counts.sources = Infinity;
    expect(validateRegionalIndex(inf).errors[0]).toMatchObject({ path: "index.counts.sources", rule: "json-non-finite" });
  });
});
