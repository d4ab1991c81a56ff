/** Ed25519 (src/crypto/sign.ts): Node's signatures equal tweetnacl's, verification rejects every alteration. */
import fc from "fast-check";
import nacl from "tweetnacl";
import { describe, expect, test } from "vitest";
import { sha256Hex } from "../../../src/hash.js";
import { generateSigningSeed, signingKeyFingerprint, signingKeyFromSeed, verifySignature } from "../../../src/crypto/sign.js";

const seed = generateSigningSeed();
const key = signingKeyFromSeed(seed);

describe("signing key", () => {
  test("public key and signatures are exactly tweetnacl's (RFC 8032 deterministic Ed25519)", () => {
    const pair = nacl.sign.keyPair.fromSeed(seed);
    expect([...key.publicKey]).toEqual([...pair.publicKey]);
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (msg) => {
        const sig = key.sign(msg);
        expect([...sig]).toEqual([...nacl.sign.detached(msg, pair.secretKey)]);
        expect(nacl.sign.detached.verify(msg, sig, pair.publicKey)).toBe(true);
      }),
      { numRuns: 30 },
    );
  });

  test("public keys derived by node:crypto equal tweetnacl's for random seeds", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (s) => {
        expect([...signingKeyFromSeed(s).publicKey]).toEqual([...nacl.sign.keyPair.fromSeed(s).publicKey]);
      }),
      { numRuns: 50 },
    );
  });

  test("RFC 8032 test vector 1 (empty message)", () => {
    const k = signingKeyFromSeed(Buffer.from("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "hex"));
    expect(Buffer.from(k.publicKey).toString("hex")).toBe("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
    expect(Buffer.from(k.sign(new Uint8Array(0))).toString("hex")).toBe(
      "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b",
    );
  });

  test("fingerprint is ed25519: + SHA-256 of the raw public key", () => {
    expect(key.fingerprint).toBe(`ed25519:${sha256Hex(key.publicKey)}`);
    expect(signingKeyFingerprint(key.publicKey)).toBe(key.fingerprint);
  });

  test("wrong seed length is refused", () => {
    expect(() => signingKeyFromSeed(new Uint8Array(31))).toThrow(RangeError);
  });
});

describe("verifySignature", () => {
  const msg = new TextEncoder().encode("evidence-bridge-receipt/v1:" + "a".repeat(64));
  const sig = key.sign(msg);
  test("accepts the valid signature", () => {
    expect(verifySignature(key.publicKey, msg, sig)).toBe(true);
  });
  test("rejects any flipped bit in signature or message, another key, malformed lengths", () => {
    for (let i = 0; i < sig.length * 8; i += 7) {
      const bad = Uint8Array.from(sig);
      bad[i >> 3] ^= 1 << (i & 7);
      expect(verifySignature(key.publicKey, msg, bad)).toBe(false);
    }
    const badMsg = Uint8Array.from(msg);
    badMsg[0] ^= 1;
    expect(verifySignature(key.publicKey, badMsg, sig)).toBe(false);
    expect(verifySignature(signingKeyFromSeed(generateSigningSeed()).publicKey, msg, sig)).toBe(false);
    expect(verifySignature(key.publicKey.subarray(1), msg, sig)).toBe(false);
    expect(verifySignature(key.publicKey, msg, sig.subarray(1))).toBe(false);
    expect(verifySignature(new Uint8Array(32).fill(0xff), msg, sig)).toBe(false);
  });
});
