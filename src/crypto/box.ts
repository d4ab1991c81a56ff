/**
 * NaCl `box` (X25519 + XSalsa20-Poly1305) with the X25519 step on Node's built-in implementation: tweetnacl's pure-JS
 * scalar multiplication costs milliseconds per call (4–8 ms here under load), which made sealing one object to a team
 * of five cost tens of milliseconds. The output is byte for byte tweetnacl's `nacl.box`: the shared key is HSalsa20 of
 * the X25519 shared secret (tweetnacl's own `crypto_core_hsalsa20`), then `nacl.secretbox`. The tests open every box
 * made here with `nacl.box.open` and the reverse.
 */
import { createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, type KeyObject } from "node:crypto";
import nacl from "tweetnacl";

export const BOX_KEY_BYTES = 32;
export const BOX_NONCE_BYTES = 24;

// DER prefixes of PKCS#8 (private) and SPKI (public) X25519 keys (RFC 8410); the raw 32-byte key follows.
const PKCS8_PREFIX = Buffer.from("302e020100300506032b656e04220420", "hex");
const SPKI_PREFIX = Buffer.from("302a300506032b656e032100", "hex");
const SIGMA = new TextEncoder().encode("expand 32-byte k");
const ZERO16 = new Uint8Array(16);
/** tweetnacl's HSalsa20 core (present at runtime in `nacl.lowlevel`; its type declarations omit `lowlevel`). */
const hsalsa20 = (nacl as unknown as { lowlevel: { crypto_core_hsalsa20(out: Uint8Array, input: Uint8Array, key: Uint8Array, sigma: Uint8Array): number } }).lowlevel
  .crypto_core_hsalsa20;

export interface BoxKeyPair {
  readonly publicKey: Uint8Array;
  readonly secretKey: Uint8Array;
}

function privateObject(secretKey: Uint8Array): KeyObject {
  if (secretKey.length !== BOX_KEY_BYTES) throw new RangeError(`an X25519 secret key has ${BOX_KEY_BYTES} bytes, got ${secretKey.length}`);
  return createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, Buffer.from(secretKey)]), format: "der", type: "pkcs8" });
}

function publicObject(publicKey: Uint8Array): KeyObject {
  if (publicKey.length !== BOX_KEY_BYTES) throw new RangeError(`an X25519 public key has ${BOX_KEY_BYTES} bytes, got ${publicKey.length}`);
  return createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(publicKey)]), format: "der", type: "spki" });
}

function rawPublic(key: KeyObject): Uint8Array {
  const spki = key.export({ format: "der", type: "spki" });
  if (spki.length !== SPKI_PREFIX.length + BOX_KEY_BYTES || !spki.subarray(0, SPKI_PREFIX.length).equals(SPKI_PREFIX)) {
    throw new Error("unexpected X25519 public key encoding from node:crypto");
  }
  return Uint8Array.from(spki.subarray(SPKI_PREFIX.length));
}

/** The key pair of a 32-byte X25519 secret key (as `nacl.box.keyPair.fromSecretKey`). */
export function boxKeyPairFromSecret(secretKey: Uint8Array): BoxKeyPair {
  return Object.freeze({ publicKey: rawPublic(createPublicKey(privateObject(secretKey))), secretKey: Uint8Array.from(secretKey) });
}

/** A fresh random X25519 key pair. */
export function boxKeyPair(): BoxKeyPair {
  const { privateKey } = generateKeyPairSync("x25519");
  const pkcs8 = privateKey.export({ format: "der", type: "pkcs8" });
  const secretKey = Uint8Array.from(pkcs8.subarray(pkcs8.length - BOX_KEY_BYTES));
  return Object.freeze({ publicKey: rawPublic(createPublicKey(privateKey)), secretKey });
}

/** `crypto_box_beforenm`: the shared secretbox key, or undefined for a public key X25519 refuses (low order). */
export function boxBefore(theirPublic: Uint8Array, mySecret: Uint8Array): Uint8Array | undefined {
  let shared: Buffer;
  try {
    shared = diffieHellman({ privateKey: privateObject(mySecret), publicKey: publicObject(theirPublic) });
  } catch {
    return undefined;
  }
  const key = new Uint8Array(32);
  hsalsa20(key, ZERO16, new Uint8Array(shared), SIGMA);
  return key;
}

/** `nacl.box(message, nonce, theirPublic, mySecret)`. */
export function boxSeal(message: Uint8Array, nonce: Uint8Array, theirPublic: Uint8Array, mySecret: Uint8Array): Uint8Array {
  const key = boxBefore(theirPublic, mySecret);
  if (key === undefined) throw new RangeError("box: the recipient's public key is not a usable X25519 key");
  return nacl.secretbox(message, nonce, key);
}

/** `nacl.box.open(box, nonce, theirPublic, mySecret)`: null when it does not authenticate. */
export function boxOpen(box: Uint8Array, nonce: Uint8Array, theirPublic: Uint8Array, mySecret: Uint8Array): Uint8Array | null {
  const key = boxBefore(theirPublic, mySecret);
  return key === undefined ? null : nacl.secretbox.open(box, nonce, key);
}
