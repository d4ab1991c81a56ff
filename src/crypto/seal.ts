/**
 * The sealed-file format v1: a versioned header followed by a tweetnacl `secretbox` (XSalsa20-Poly1305).
 *
 * Byte layout (all offsets in bytes):
 *
 * | offset | size | field |
 * |---|---|---|
 * | 0  | 8  | magic `89 45 42 53 0D 0A 1A 0A` ("\x89EBS\r\n\x1a\n") |
 * | 8  | 1  | format version (1) |
 * | 9  | 1  | bitwise complement of the version (0xFE), so a flipped version bit is detected as damage |
 * | 10 | 1  | kind: 1 capsule, 2 retained message, 3 row index, 4 signing key, 7 export id registry, 8 release nonces |
 * | 11 | 1  | reserved, 0 |
 * | 12 | 8  | key id: first 8 bytes of SHA-256("evidence-bridge/key-id/v1\0" ‖ store key) |
 * | 20 | 24 | nonce, random per file |
 * | 44 | n+16 | secretbox(plaintext, nonce, file key): Poly1305 tag then ciphertext |
 *
 * The box is tweetnacl's (node:crypto has no XSalsa20); the key id and the file key are hashed with node:crypto.
 * The file key is HMAC-SHA256(store key, "evidence-bridge/seal/v1\0" ‖ bytes 0..19 ‖ UTF-8 name), so every
 * header byte and the file's own name are authenticated: a flipped bit anywhere, a truncated file or a file
 * moved to another name fails with "sealed file failed authentication: <name>". Only a well-formed header that
 * announces a newer version gets a different message.
 */
import nacl from "tweetnacl";
import { bytesToHex, hmacSha256Bytes, sha256Bytes } from "../hash.js";
import { SealError } from "./errors.js";

export const SEAL_MAGIC = Uint8Array.of(0x89, 0x45, 0x42, 0x53, 0x0d, 0x0a, 0x1a, 0x0a);
export const SEAL_VERSION = 1;
export const SEAL_HEADER_BYTES = 44;
export const SEAL_OVERHEAD = SEAL_HEADER_BYTES + nacl.secretbox.overheadLength;
export const STORE_KEY_BYTES = 32;
export const KEY_ID_BYTES = 8;

export const SealKind = { capsule: 1, message: 2, index: 3, signingKey: 4, exportIds: 7, releaseNonces: 8 } as const;
export type SealKind = (typeof SealKind)[keyof typeof SealKind];
const KIND_NAMES: Record<number, string> = { 1: "capsule", 2: "retained message", 3: "row index", 4: "signing key", 7: "export id registry", 8: "release nonces" };

const encoder = new TextEncoder();
const KEY_ID_DOMAIN = encoder.encode("evidence-bridge/key-id/v1\0");
const FILE_KEY_DOMAIN = encoder.encode("evidence-bridge/seal/v1\0");

/** A 32-byte store key with its public 8-byte key id. */
export interface StoreKey {
  readonly bytes: Uint8Array;
  readonly id: Uint8Array;
  /** Hex of {@link id}: the store key's fingerprint (reveals nothing about the key). */
  readonly idHex: string;
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}

export function storeKey(bytes: Uint8Array): StoreKey {
  if (bytes.length !== STORE_KEY_BYTES) throw new RangeError(`a store key has ${STORE_KEY_BYTES} bytes, got ${bytes.length}`);
  const id = sha256Bytes(concat(KEY_ID_DOMAIN, bytes)).slice(0, KEY_ID_BYTES);
  return Object.freeze({ bytes: Uint8Array.from(bytes), id, idHex: bytesToHex(id) });
}

function fileKey(key: StoreKey, header20: Uint8Array, name: string): Uint8Array {
  return hmacSha256Bytes(key.bytes, concat(FILE_KEY_DOMAIN, header20, encoder.encode(name)));
}

/** Seals `plaintext` in memory for the file called `name` (the name is authenticated with the contents). */
export function seal(plaintext: Uint8Array, key: StoreKey, kind: SealKind, name: string): Uint8Array {
  const out = new Uint8Array(SEAL_OVERHEAD + plaintext.length);
  out.set(SEAL_MAGIC, 0);
  out[8] = SEAL_VERSION;
  out[9] = ~SEAL_VERSION & 0xff;
  out[10] = kind;
  out[11] = 0;
  out.set(key.id, 12);
  const nonce = nacl.randomBytes(nacl.secretbox.nonceLength);
  out.set(nonce, 20);
  out.set(nacl.secretbox(plaintext, nonce, fileKey(key, out.subarray(0, 20), name)), SEAL_HEADER_BYTES);
  return out;
}

function authError(label: string, detail?: string): SealError {
  return new SealError("auth", `sealed file failed authentication: ${label}${detail ? ` (${detail})` : ""}`, label);
}

/** The format version a sealed file announces, or undefined when the header is not a well-formed sealed header. */
export function sealedVersion(file: Uint8Array): number | undefined {
  if (file.length < 10) return undefined;
  for (let i = 0; i < SEAL_MAGIC.length; i++) if (file[i] !== SEAL_MAGIC[i]) return undefined;
  if ((file[8] ^ file[9]) !== 0xff) return undefined;
  return file[8];
}

/** The store key id (hex) a sealed file's header records, or undefined when the header is not a sealed header. */
export function sealedKeyId(header: Uint8Array): string | undefined {
  if (sealedVersion(header) === undefined || header.length < 20) return undefined;
  return bytesToHex(header.subarray(12, 20));
}

/**
 * Opens a sealed file named `name` (`label` is how errors name it). Checks the header, then authenticates;
 * throws {@link SealError} and never returns unauthenticated bytes.
 */
export function unseal(file: Uint8Array, key: StoreKey, kind: SealKind, name: string, label = name): Uint8Array {
  if (file.length < SEAL_MAGIC.length || SEAL_MAGIC.some((b, i) => file[i] !== b)) {
    throw authError(label, "not an evidence-bridge sealed file");
  }
  const version = sealedVersion(file);
  if (version === undefined) throw authError(label, "damaged header");
  if (version !== SEAL_VERSION) {
    throw new SealError(
      "version",
      `sealed file ${label} uses format version ${version}; this build reads version ${SEAL_VERSION} only: upgrade evidence-bridge to open it`,
      label,
    );
  }
  if (file.length < SEAL_OVERHEAD) throw authError(label, "truncated");
  if (file[10] !== kind) throw authError(label, `not a ${KIND_NAMES[kind]} file`);
  if (file[11] !== 0) throw authError(label, "damaged header");
  const nonce = file.subarray(20, SEAL_HEADER_BYTES);
  const opened = nacl.secretbox.open(file.subarray(SEAL_HEADER_BYTES), nonce, fileKey(key, file.subarray(0, 20), name));
  if (opened === null) {
    const fileId = bytesToHex(file.subarray(12, 20));
    if (fileId !== key.idHex) {
      throw authError(label, `sealed under key id ${fileId}, this installation's key id is ${key.idHex}: wrong key or a damaged file`);
    }
    throw authError(label);
  }
  return opened;
}
