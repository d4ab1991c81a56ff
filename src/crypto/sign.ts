/**
 * Ed25519 signing keys on Node's built-in Ed25519 (RFC 8032, deterministic): the public key is derived from the
 * 32-byte seed (the secret) by node:crypto in about a millisecond, where tweetnacl's pure-JS derivation took
 * 17–25 ms of every sealed one-shot command, and signatures come out about 80 times faster. tweetnacl stays the
 * independent implementation the tests compare against (public keys and signatures byte for byte).
 */
import { createPrivateKey, createPublicKey, randomBytes, sign as nodeSign, verify as nodeVerify, type KeyObject } from "node:crypto";
import { sha256Hex } from "../hash.js";

export const SIGNING_SEED_BYTES = 32;
export const PUBLIC_KEY_BYTES = 32;
export const SIGNATURE_BYTES = 64;

// DER prefixes of PKCS#8 (private) and SPKI (public) Ed25519 keys (RFC 8410); the raw key follows.
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export interface SigningKey {
  readonly publicKey: Uint8Array;
  /** `ed25519:` + SHA-256 hex of the raw public key. */
  readonly fingerprint: string;
  /** The 32-byte secret seed (kept in key files or sealed; never printed). */
  readonly seed: Uint8Array;
  sign(message: Uint8Array): Uint8Array;
}

/** A fresh random seed from Node's CSPRNG. */
export function generateSigningSeed(): Uint8Array {
  return Uint8Array.from(randomBytes(SIGNING_SEED_BYTES));
}

export function signingKeyFingerprint(publicKey: Uint8Array): string {
  return `ed25519:${sha256Hex(publicKey)}`;
}

export function signingKeyFromSeed(seed: Uint8Array): SigningKey {
  if (seed.length !== SIGNING_SEED_BYTES) throw new RangeError(`an Ed25519 seed has ${SIGNING_SEED_BYTES} bytes, got ${seed.length}`);
  const keyObject: KeyObject = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, Buffer.from(seed)]), format: "der", type: "pkcs8" });
  // The SPKI DER of an Ed25519 key is a fixed prefix followed by the raw 32-byte public key.
  const spki = createPublicKey(keyObject).export({ format: "der", type: "spki" });
  if (spki.length !== SPKI_PREFIX.length + PUBLIC_KEY_BYTES || !spki.subarray(0, SPKI_PREFIX.length).equals(SPKI_PREFIX)) {
    throw new Error("unexpected Ed25519 public key encoding from node:crypto");
  }
  const publicKey = Uint8Array.from(spki.subarray(SPKI_PREFIX.length));
  return Object.freeze({
    publicKey,
    fingerprint: signingKeyFingerprint(publicKey),
    seed: Uint8Array.from(seed),
    sign: (message: Uint8Array) => new Uint8Array(nodeSign(null, message, keyObject)),
  });
}

const publicKeyCache = new Map<string, KeyObject | null>();

function publicKeyObject(publicKey: Uint8Array): KeyObject | null {
  const hex = Buffer.from(publicKey).toString("hex");
  let key = publicKeyCache.get(hex);
  if (key === undefined) {
    try {
      key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKey)]), format: "der", type: "spki" });
    } catch {
      key = null;
    }
    if (publicKeyCache.size > 64) publicKeyCache.clear();
    publicKeyCache.set(hex, key);
  }
  return key;
}

/** True when `signature` is a valid Ed25519 signature of `message` under `publicKey`; false for any malformed input. */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) return false;
  const key = publicKeyObject(publicKey);
  if (key === null) return false;
  try {
    return nodeVerify(null, message, key, signature);
  } catch {
    return false;
  }
}
