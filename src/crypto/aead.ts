/**
 * AES-256-GCM on node:crypto for large local caches that must be sealed but are re-read often (capsules/team's view
 * cache): hardware AES opens megabytes in milliseconds where tweetnacl's secretbox takes a good part of a second.
 * Layout: `nonce(12) ‖ ciphertext ‖ tag(16)`; `aad` (a file's name and purpose) is authenticated, not stored.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

export const AEAD_KEY_BYTES = 32;

export function aeadSeal(plaintext: Uint8Array, key: Uint8Array, aad: Uint8Array): Uint8Array {
  if (key.length !== AEAD_KEY_BYTES) throw new RangeError(`an AES-256-GCM key has ${AEAD_KEY_BYTES} bytes`);
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, nonce);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return new Uint8Array(Buffer.concat([nonce, body, cipher.getAuthTag()]));
}

/** The plaintext, or null when the bytes do not authenticate under `key` and `aad`. */
export function aeadOpen(sealed: Uint8Array, key: Uint8Array, aad: Uint8Array): Uint8Array | null {
  if (key.length !== AEAD_KEY_BYTES || sealed.length < 28) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, 12));
    decipher.setAAD(aad);
    decipher.setAuthTag(sealed.subarray(sealed.length - 16));
    return new Uint8Array(Buffer.concat([decipher.update(sealed.subarray(12, sealed.length - 16)), decipher.final()]));
  } catch {
    return null;
  }
}
