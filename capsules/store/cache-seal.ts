/**
 * Sealing of the derivation cache files (derivation-cache.ts): ChaCha20-Poly1305 (RFC 8439) from `node:crypto`, under
 * a key derived from the store key for the file's name. The cache is read whole by every feed, and tweetnacl's
 * XSalsa20-Poly1305 (src/crypto/seal.ts, the capsules' format) runs in JavaScript: in a fresh process, before the JIT
 * has warmed up, it took about 120 ms for the 0.15 MB cache of 1,000 capsules, against about 1 ms here.
 *
 * Byte layout: | 0 | 8 | magic `89 45 42 43 0D 0A 1A 0A` ("\x89EBC\r\n\x1a\n") | 8 | 1 | version 1 | 9 | 8 | store
 * key id | 17 | 12 | nonce, random per write | 29 | n | ciphertext | 29+n | 16 | Poly1305 tag |.
 * The file key is HMAC-SHA256(store key, "evidence-bridge/cache-seal/v1\0" ‖ UTF-8 name), and bytes 0..28 are the
 * additional authenticated data: a flipped bit, a truncated file, another store's key or a file moved to another
 * name fails. Only cache files use it; what it holds is derived again from the capsules whenever it fails.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { hmacSha256Bytes } from "../../src/hash.js";
import type { StoreKey } from "../../src/crypto/seal.js";

const MAGIC = Buffer.from([0x89, 0x45, 0x42, 0x43, 0x0d, 0x0a, 0x1a, 0x0a]);
const VERSION = 1;
const HEADER = 29;
const TAG = 16;
const DOMAIN = Buffer.from("evidence-bridge/cache-seal/v1\0", "utf8");

function fileKey(key: StoreKey, name: string): Buffer {
  return Buffer.from(hmacSha256Bytes(key.bytes, Buffer.concat([DOMAIN, Buffer.from(name, "utf8")])));
}

/** Seals `plaintext` for the cache file called `name`. */
export function sealCache(plaintext: Uint8Array, key: StoreKey, name: string): Buffer {
  const header = Buffer.alloc(HEADER);
  MAGIC.copy(header, 0);
  header[8] = VERSION;
  Buffer.from(key.id).copy(header, 9);
  randomBytes(12).copy(header, 17);
  const cipher = createCipheriv("chacha20-poly1305", fileKey(key, name), header.subarray(17, HEADER), { authTagLength: TAG });
  cipher.setAAD(header, { plaintextLength: plaintext.length });
  return Buffer.concat([header, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
}

/** Opens a cache file called `name`; undefined when it is not one this key sealed under this name, intact. */
export function openCache(file: Uint8Array, key: StoreKey, name: string): Buffer | undefined {
  const f = Buffer.from(file.buffer, file.byteOffset, file.length);
  if (f.length < HEADER + TAG || !f.subarray(0, 8).equals(MAGIC) || f[8] !== VERSION) return undefined;
  const decipher = createDecipheriv("chacha20-poly1305", fileKey(key, name), f.subarray(17, HEADER), { authTagLength: TAG });
  decipher.setAAD(f.subarray(0, HEADER), { plaintextLength: f.length - HEADER - TAG });
  decipher.setAuthTag(f.subarray(f.length - TAG));
  try {
    const plain = decipher.update(f.subarray(HEADER, f.length - TAG));
    // A stream cipher's final() authenticates and adds no bytes: no copy of the whole plaintext for it.
    const rest = decipher.final();
    return rest.length === 0 ? plain : Buffer.concat([plain, rest]);
  } catch {
    return undefined;
  }
}
