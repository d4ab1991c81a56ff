/**
 * Name-based UUIDs, version 5 (RFC 4122 §4.3, RFC 9562 §5.5): SHA-1 over the namespace's 16 bytes followed by the
 * name's UTF-8 bytes; the first 16 bytes of the digest with the version (5) and the variant (10xx) set. The export
 * formats use them so that the same approved candidate always gets the same STIX id and MISP uuid.
 */
import { createHash } from "node:crypto";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for the lowercase 8-4-4-4-12 hexadecimal form. */
export function isUuid(s: string): boolean {
  return UUID.test(s);
}

/** The version digit of a UUID in the 8-4-4-4-12 form. */
export function uuidVersion(s: string): number {
  return Number.parseInt(s[14], 16);
}

/** UUIDv5 of `name` in `namespace` (a UUID in the 8-4-4-4-12 form), lowercase. */
export function uuidV5(namespace: string, name: string): string {
  if (!isUuid(namespace)) throw new Error("uuidV5: the namespace must be a lowercase UUID");
  const digest = createHash("sha1").update(Buffer.from(namespace.replace(/-/g, ""), "hex")).update(name, "utf8").digest();
  const b = digest.subarray(0, 16);
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const hex = b.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The namespace of every UUID the exports derive (a random UUID chosen once for this project; the STIX and MISP
 * names below it carry the object type, so no two kinds of object share an id).
 */
export const EXPORT_NAMESPACE = "4f0c2d8e-7a31-4b52-9e6d-3c1a5b7f9d20";
