/**
 * src/crypto/box.ts against tweetnacl: the same key pairs from the same secrets, and boxes each side opens of the
 * other (node:crypto's X25519 + HSalsa20 is exactly `nacl.box`). Low-order public keys are refused, never used.
 */
import { describe, expect, test } from "vitest";
import fc from "fast-check";
import nacl from "tweetnacl";
import { boxBefore, boxKeyPair, boxKeyPairFromSecret, boxOpen, boxSeal } from "../../../src/crypto/box.js";

describe("box on node:crypto X25519", () => {
  test("property: key pairs match tweetnacl, and boxes cross-open both ways", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 300 }), (s1, s2, msg) => {
        const a = boxKeyPairFromSecret(s1);
        const b = nacl.box.keyPair.fromSecretKey(s2);
        expect(Buffer.from(a.publicKey).equals(Buffer.from(nacl.box.keyPair.fromSecretKey(s1).publicKey))).toBe(true);
        const nonce = nacl.randomBytes(24);
        const ours = boxSeal(msg, nonce, b.publicKey, a.secretKey);
        expect(Buffer.from(ours).equals(Buffer.from(nacl.box(msg, nonce, b.publicKey, a.secretKey)))).toBe(true);
        expect(nacl.box.open(ours, nonce, a.publicKey, b.secretKey)).not.toBeNull();
        const theirs = nacl.box(msg, nonce, a.publicKey, b.secretKey);
        expect(Buffer.from(boxOpen(theirs, nonce, b.publicKey, a.secretKey)!).equals(Buffer.from(msg))).toBe(true);
      }),
      { numRuns: 25 },
    );
  });

  test("fresh pairs are valid tweetnacl pairs; a tampered box does not open", () => {
    const a = boxKeyPair();
    expect(Buffer.from(nacl.box.keyPair.fromSecretKey(a.secretKey).publicKey).equals(Buffer.from(a.publicKey))).toBe(true);
    const b = boxKeyPair();
    const nonce = nacl.randomBytes(24);
    const sealed = boxSeal(new Uint8Array([1, 2, 3]), nonce, b.publicKey, a.secretKey);
    sealed[0] ^= 1;
    expect(boxOpen(sealed, nonce, a.publicKey, b.secretKey)).toBeNull();
  });

  test("a low-order public key (all zeros) is refused, not used", () => {
    expect(boxBefore(new Uint8Array(32), boxKeyPair().secretKey)).toBeUndefined();
    expect(() => boxSeal(new Uint8Array(1), new Uint8Array(24), new Uint8Array(32), boxKeyPair().secretKey)).toThrow(/not a usable X25519 key/);
  });
});
