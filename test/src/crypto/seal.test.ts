/** Sealed-file format v1 (src/crypto/seal.ts): layout, round trip, and tampering anywhere fails authentication. */
import fc from "fast-check";
import nacl from "tweetnacl";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { describe, expect, test } from "vitest";
import { SealError } from "../../../src/crypto/errors.js";
import { SEAL_HEADER_BYTES, SEAL_MAGIC, SEAL_OVERHEAD, SealKind, seal, sealedVersion, storeKey, unseal } from "../../../src/crypto/seal.js";

const key = storeKey(nacl.randomBytes(32));
const other = storeKey(nacl.randomBytes(32));
const text = new TextEncoder().encode('{"capsule":"plaintext that must never be visible"}\n');
const NAME = "store/capsules/abc.sealed";

function sealError(fn: () => unknown): SealError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SealError);
    return e as SealError;
  }
  throw new Error("expected a SealError");
}

describe("layout", () => {
  test("magic, version and its complement, kind, reserved, key id, 24-byte nonce, tag + ciphertext", () => {
    const file = seal(text, key, SealKind.capsule, NAME);
    expect(file.length).toBe(SEAL_OVERHEAD + text.length);
    expect(SEAL_OVERHEAD).toBe(60);
    expect([...file.subarray(0, 8)]).toEqual([0x89, 0x45, 0x42, 0x53, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect([...SEAL_MAGIC]).toEqual([...file.subarray(0, 8)]);
    expect(file[8]).toBe(1);
    expect(file[9]).toBe(0xfe);
    expect(file[10]).toBe(SealKind.capsule);
    expect(file[11]).toBe(0);
    expect(Buffer.from(file.subarray(12, 20)).toString("hex")).toBe(key.idHex);
    expect(SEAL_HEADER_BYTES).toBe(44);
    expect(sealedVersion(file)).toBe(1);
  });

  test("key id and file key (node:crypto) are the SHA-256 and HMAC the format states, as @noble/hashes computes them", () => {
    const enc = new TextEncoder();
    const id = sha256(new Uint8Array([...enc.encode("evidence-bridge/key-id/v1\0"), ...key.bytes])).subarray(0, 8);
    expect([...key.id]).toEqual([...id]);
    const file = seal(text, key, SealKind.capsule, NAME);
    const fileKey = hmac(sha256, key.bytes, new Uint8Array([...enc.encode("evidence-bridge/seal/v1\0"), ...file.subarray(0, 20), ...enc.encode(NAME)]));
    const opened = nacl.secretbox.open(file.subarray(SEAL_HEADER_BYTES), file.subarray(20, SEAL_HEADER_BYTES), fileKey);
    expect(opened && Buffer.from(opened).toString("utf8")).toBe(Buffer.from(text).toString("utf8"));
  });

  test("a random nonce per seal: the same plaintext never gives the same file, and no plaintext is visible", () => {
    const a = seal(text, key, SealKind.capsule, NAME);
    const b = seal(text, key, SealKind.capsule, NAME);
    expect(Buffer.from(a.subarray(20, 44)).equals(Buffer.from(b.subarray(20, 44)))).toBe(false);
    expect(Buffer.from(a).includes(Buffer.from("plaintext"))).toBe(false);
  });

  test("the key id reveals nothing about the key but is stable", () => {
    expect(storeKey(key.bytes).idHex).toBe(key.idHex);
    expect(key.idHex).toMatch(/^[0-9a-f]{16}$/);
    expect(key.idHex).not.toBe(other.idHex);
    expect(Buffer.from(key.bytes).toString("hex")).not.toContain(key.idHex);
  });
});

describe("round trip", () => {
  test("any plaintext, name and kind", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2048 }), fc.string({ maxLength: 80 }), fc.constantFrom(1, 2, 3, 4), (pt, name, kind) => {
        const k = kind as SealKind;
        expect([...unseal(seal(pt, key, k, name), key, k, name)]).toEqual([...pt]);
      }),
      { numRuns: 200 },
    );
  });
});

describe("tampering fails authentication, never garbage", () => {
  const file = seal(text, key, SealKind.capsule, NAME);

  test("every single-bit flip in the header, nonce and the first ciphertext bytes", () => {
    const messages = new Set<string>();
    for (let byte = 0; byte < Math.min(file.length, SEAL_HEADER_BYTES + 32); byte++) {
      for (let bit = 0; bit < 8; bit++) {
        const bad = Uint8Array.from(file);
        bad[byte] ^= 1 << bit;
        const e = sealError(() => unseal(bad, key, SealKind.capsule, NAME));
        expect(e.code, `byte ${byte} bit ${bit}`).toBe("auth");
        expect(e.message.startsWith(`sealed file failed authentication: ${NAME}`)).toBe(true);
        messages.add(e.message);
      }
    }
    // Flips of the nonce and ciphertext give exactly the plain message.
    expect(messages.has(`sealed file failed authentication: ${NAME}`)).toBe(true);
  });

  test("a flipped bit anywhere (property)", () => {
    fc.assert(
      fc.property(fc.nat({ max: file.length * 8 - 1 }), (pos) => {
        const bad = Uint8Array.from(file);
        bad[pos >> 3] ^= 1 << (pos & 7);
        expect(sealError(() => unseal(bad, key, SealKind.capsule, NAME)).code).toBe("auth");
      }),
      { numRuns: 500 },
    );
  });

  test("nonce and ciphertext flips give exactly 'sealed file failed authentication: <name>'", () => {
    for (const pos of [20, 43, 44, 59, 60, file.length - 1]) {
      const bad = Uint8Array.from(file);
      bad[pos] ^= 0x80;
      expect(sealError(() => unseal(bad, key, SealKind.capsule, NAME)).message).toBe(`sealed file failed authentication: ${NAME}`);
    }
  });

  test("truncation to any length, and appended bytes", () => {
    for (let len = 0; len < file.length; len++) {
      expect(sealError(() => unseal(file.subarray(0, len), key, SealKind.capsule, NAME)).code).toBe("auth");
    }
    const longer = new Uint8Array([...file, 0]);
    expect(sealError(() => unseal(longer, key, SealKind.capsule, NAME)).code).toBe("auth");
  });

  test("another name, another kind, another key", () => {
    expect(sealError(() => unseal(file, key, SealKind.capsule, "store/capsules/other.sealed")).message).toBe(
      "sealed file failed authentication: store/capsules/other.sealed",
    );
    expect(sealError(() => unseal(file, key, SealKind.message, NAME)).message).toBe(
      `sealed file failed authentication: ${NAME} (not a retained message file)`,
    );
    const e = sealError(() => unseal(file, other, SealKind.capsule, NAME));
    expect(e.code).toBe("auth");
    expect(e.message).toBe(
      `sealed file failed authentication: ${NAME} (sealed under key id ${key.idHex}, this installation's key id is ${other.idHex}: wrong key or a damaged file)`,
    );
  });

  test("plaintext or empty input is not a sealed file", () => {
    expect(sealError(() => unseal(text, key, SealKind.capsule, NAME)).message).toBe(
      `sealed file failed authentication: ${NAME} (not an evidence-bridge sealed file)`,
    );
    expect(sealError(() => unseal(new Uint8Array(0), key, SealKind.capsule, NAME)).code).toBe("auth");
  });
});

describe("versions", () => {
  test("a well-formed header from a future format version gets its own precise error", () => {
    const future = seal(text, key, SealKind.capsule, NAME);
    future[8] = 2;
    future[9] = 0xfd;
    const e = sealError(() => unseal(future, key, SealKind.capsule, NAME));
    expect(e.code).toBe("version");
    expect(e.message).toBe(`sealed file ${NAME} uses format version 2; this build reads version 1 only: upgrade evidence-bridge to open it`);
    expect(sealedVersion(future)).toBe(2);
  });

  test("a version byte without its complement is damage, not a version", () => {
    const bad = seal(text, key, SealKind.capsule, NAME);
    bad[8] = 2;
    expect(sealError(() => unseal(bad, key, SealKind.capsule, NAME)).message).toBe(`sealed file failed authentication: ${NAME} (damaged header)`);
  });
});
