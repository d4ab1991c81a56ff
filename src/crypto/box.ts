/**
 * NaCl `box` (X25519 + XSalsa20-Poly1305) with the X25519 step on Node's built-in implementation: tweetnacl's pure-JS
 * scalar multiplication costs milliseconds per call (3–8 ms here under load, against about 0.2 ms for node:crypto's
 * with keys imported as JWK), which made sealing one object to a team of five cost tens of milliseconds. The output is byte for byte tweetnacl's `nacl.box`: the shared key is HSalsa20 of
 * the X25519 shared secret (tweetnacl's own `crypto_core_hsalsa20`), then `nacl.secretbox`. The tests open every box
 * made here with `nacl.box.open` and the reverse.
 */
import { createPrivateKey, createPublicKey, diffieHellman, generateKeyPairSync, type KeyObject } from "node:crypto";
import nacl from "tweetnacl";

export const BOX_KEY_BYTES = 32;
export const BOX_NONCE_BYTES = 24;

const SIGMA = new TextEncoder().encode("expand 32-byte k");
const ZERO16 = new Uint8Array(16);
/** tweetnacl's HSalsa20 core (present at runtime in `nacl.lowlevel`; its type declarations omit `lowlevel`). */
const hsalsa20 = (nacl as unknown as { lowlevel: { crypto_core_hsalsa20(out: Uint8Array, input: Uint8Array, key: Uint8Array, sigma: Uint8Array): number } }).lowlevel
  .crypto_core_hsalsa20;
/**
 * Keys are imported as JWK: OpenSSL 3's DER decoders cost about ten times more per key (2–3 ms under load here).
 * A private JWK must carry `x`; OpenSSL derives the public half from `d` and ignores it, so a placeholder (the base
 * point, 9) is given where the public key is what we are computing (the tests compare every result with tweetnacl).
 */
const BASE_POINT_X = Buffer.from(Uint8Array.of(9, ...new Uint8Array(31))).toString("base64url");

export interface BoxKeyPair {
  readonly publicKey: Uint8Array;
  readonly secretKey: Uint8Array;
}

/** Private key objects by the secret key's array (a member's key set reuses its array for every call). */
const privateObjects = new WeakMap<Uint8Array, KeyObject>();
/** Public key objects by hex (a team has few members); bounded. */
const publicObjects = new Map<string, KeyObject>();

function privateObject(secretKey: Uint8Array): KeyObject {
  if (secretKey.length !== BOX_KEY_BYTES) throw new RangeError(`an X25519 secret key has ${BOX_KEY_BYTES} bytes, got ${secretKey.length}`);
  let key = privateObjects.get(secretKey);
  if (key === undefined) {
    key = createPrivateKey({ key: { kty: "OKP", crv: "X25519", d: Buffer.from(secretKey).toString("base64url"), x: BASE_POINT_X }, format: "jwk" });
    privateObjects.set(secretKey, key);
  }
  return key;
}

function publicObject(publicKey: Uint8Array): KeyObject {
  if (publicKey.length !== BOX_KEY_BYTES) throw new RangeError(`an X25519 public key has ${BOX_KEY_BYTES} bytes, got ${publicKey.length}`);
  const x = Buffer.from(publicKey).toString("base64url");
  let key = publicObjects.get(x);
  if (key === undefined) {
    key = createPublicKey({ key: { kty: "OKP", crv: "X25519", x }, format: "jwk" });
    if (publicObjects.size >= 1024) publicObjects.clear();
    publicObjects.set(x, key);
  }
  return key;
}

function rawPublic(key: KeyObject): Uint8Array {
  const x = key.export({ format: "jwk" }).x;
  const raw = typeof x === "string" ? Buffer.from(x, "base64url") : Buffer.alloc(0);
  if (raw.length !== BOX_KEY_BYTES) throw new Error("unexpected X25519 public key encoding from node:crypto");
  return Uint8Array.from(raw);
}

/** The key pair of a 32-byte X25519 secret key (as `nacl.box.keyPair.fromSecretKey`). */
export function boxKeyPairFromSecret(secretKey: Uint8Array): BoxKeyPair {
  const key = privateObject(secretKey);
  const pair = Object.freeze({ publicKey: rawPublic(createPublicKey(key)), secretKey: Uint8Array.from(secretKey) });
  privateObjects.set(pair.secretKey, key);
  return pair;
}

/** A fresh random X25519 key pair. */
export function boxKeyPair(): BoxKeyPair {
  const { privateKey } = generateKeyPairSync("x25519");
  const d = privateKey.export({ format: "jwk" }).d;
  const secretKey = Uint8Array.from(Buffer.from(typeof d === "string" ? d : "", "base64url"));
  if (secretKey.length !== BOX_KEY_BYTES) throw new Error("unexpected X25519 private key encoding from node:crypto");
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
