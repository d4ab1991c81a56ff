/**
 * src/hash.ts hashes with node:crypto; @noble/hashes is the independent, portable implementation. Every helper
 * must give byte-identical results for bytes and for strings (UTF-8, lone surrogates included).
 */
import fc from "fast-check";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { describe, expect, test } from "vitest";
import { hmacSha256Bytes, hmacSha256Hex, sha256Bytes, sha256Hex } from "../../src/hash.js";

/** What the helpers hash for a string: its UTF-8 bytes, a lone surrogate as U+FFFD (as TextEncoder writes it). */
const utf8 = (s: string) => new TextEncoder().encode(s);
const input = fc.oneof(fc.uint8Array({ maxLength: 600 }), fc.string({ unit: "binary", maxLength: 200 }), fc.string({ unit: "grapheme", maxLength: 80 }));
const asBytes = (v: Uint8Array | string) => (typeof v === "string" ? utf8(v) : v);

describe("SHA-256 on node:crypto equals @noble/hashes", () => {
  test("random bytes and strings", () => {
    fc.assert(
      fc.property(input, (v) => {
        const expected = sha256(asBytes(v));
        expect(sha256Hex(v)).toBe(bytesToHex(expected));
        const got = sha256Bytes(v);
        expect(got.constructor).toBe(Uint8Array);
        expect([...got]).toEqual([...expected]);
      }),
      { numRuns: 300 },
    );
  });

  test("a known vector, a lone surrogate and a multi-block input", () => {
    expect(sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    expect(sha256Hex("a\ud800b")).toBe(bytesToHex(sha256(utf8ToBytes("a\ufffdb"))));
    const big = new Uint8Array(3 * 65536 + 17).map((_, i) => (i * 31) & 0xff);
    expect(sha256Hex(big)).toBe(bytesToHex(sha256(big)));
  });
});

describe("HMAC-SHA256 on node:crypto equals @noble/hashes", () => {
  test("random keys (empty, short, longer than a block) and messages", () => {
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ maxLength: 130 }), fc.string({ unit: "binary", maxLength: 90 })), input, (k, v) => {
        const expected = hmac(sha256, asBytes(k), asBytes(v));
        expect(hmacSha256Hex(k, v)).toBe(bytesToHex(expected));
        expect([...hmacSha256Bytes(k, v)]).toEqual([...expected]);
      }),
      { numRuns: 300 },
    );
  });

  test("RFC 4231 test case 2", () => {
    expect(hmacSha256Hex("Jefe", "what do ya want for nothing?")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  });
});
