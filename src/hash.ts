/** Hashing helpers over @noble/hashes: lowercase hex SHA-256 and HMAC-SHA256. */
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";

const encoder = new TextEncoder();

export function toBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === "string" ? encoder.encode(data) : data;
}

/** SHA-256 of bytes (strings are UTF-8 encoded first). */
export function sha256Bytes(data: Uint8Array | string): Uint8Array {
  return sha256(toBytes(data));
}

/** Lowercase hex SHA-256 of bytes (strings are UTF-8 encoded first). */
export function sha256Hex(data: Uint8Array | string): string {
  return bytesToHex(sha256(toBytes(data)));
}

/** Lowercase hex HMAC-SHA256. */
export function hmacSha256Hex(key: Uint8Array | string, data: Uint8Array | string): string {
  return bytesToHex(hmac(sha256, toBytes(key), toBytes(data)));
}

export { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
