/**
 * Message hashing and source pseudonyms (assessment-v1 §5.1, §5.2). Both results are private: never log or print them.
 */
import { hmacSha256Hex, sha256Hex } from "./hash.js";

/** §5.1: lowercase hex SHA-256 over the UTF-8 bytes of the exact text (no normalisation, no trimming). */
export function messageSha256(text: string | Uint8Array): string {
  return sha256Hex(text);
}

/**
 * §5.2: HMAC-SHA256 with key = UTF-8(key) over UTF-8(raw source), lowercase hex, first 24 hex characters;
 * `""` when the key or the raw source is empty.
 */
export function pseudonym(key: string, value: string): string {
  if (key === "" || value === "") return "";
  return hmacSha256Hex(key, value).slice(0, 24);
}
