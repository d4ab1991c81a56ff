/**
 * Strict reading of the team's small JSON documents (join request, invitation, membership, entries): exactly the
 * named members, lowercase hex of a fixed length, integers in range. Every problem is a {@link TeamError}
 * `malformed` naming the document and the member. Documents are canonical JSON (src/json/canonical.ts); a reader
 * re-serialises what it parsed and refuses bytes that differ, so one document has one byte form.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { TeamError } from "./errors.js";

export function malformed(what: string, rule: string): TeamError {
  return new TeamError("malformed", `${what}: ${rule}`);
}

/** Parses canonical JSON bytes into an object with exactly `members` (sorted or not). */
export function exactObject(bytes: Uint8Array, what: string, members: readonly string[]): JsonObject {
  let v: JsonValue;
  try {
    v = parseStrictJson(bytes);
  } catch {
    throw malformed(what, "not strict JSON");
  }
  const o = objectWith(v, what, members);
  if (Buffer.compare(Buffer.from(canonicalBytes(o, what)), Buffer.from(bytes)) !== 0) throw malformed(what, "not in canonical form (sorted members, no spaces)");
  return o;
}

/** `v` as an object with exactly `members`. */
export function objectWith(v: JsonValue | undefined, what: string, members: readonly string[]): JsonObject {
  if (!isJsonObject(v)) throw malformed(what, "expected an object");
  const have = [...v.keys()].sort();
  const want = [...members].sort();
  for (const k of have) if (!want.includes(k)) throw malformed(`${what}.${k}`, "unknown member");
  for (const k of want) if (!v.has(k)) throw malformed(`${what}.${k}`, "missing");
  return v;
}

export function hexField(o: JsonObject, key: string, what: string, digits: number): string {
  const v = o.get(key);
  if (typeof v !== "string" || v.length !== digits || !/^[0-9a-f]*$/.test(v)) throw malformed(`${what}.${key}`, `expected ${digits} lowercase hexadecimal digits`);
  return v;
}

export function stringField(o: JsonObject, key: string, what: string): string {
  const v = o.get(key);
  if (typeof v !== "string") throw malformed(`${what}.${key}`, "expected a string");
  return v;
}

export function literalField<T extends string>(o: JsonObject, key: string, what: string, allowed: readonly T[]): T {
  const v = o.get(key);
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) throw malformed(`${what}.${key}`, `expected one of ${allowed.join(", ")}`);
  return v as T;
}

export function intField(o: JsonObject, key: string, what: string, min: number, max: number): number {
  const v = o.get(key);
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min || v > max) throw malformed(`${what}.${key}`, `expected an integer from ${min} to ${max}`);
  return v;
}

export function arrayField(o: JsonObject, key: string, what: string): JsonValue[] {
  const v = o.get(key);
  if (!Array.isArray(v)) throw malformed(`${what}.${key}`, "expected an array");
  return v;
}

/** `domain` (UTF-8) followed by `body`: what a signature covers. */
export function domainBytes(domain: string, body: Uint8Array): Uint8Array {
  return new Uint8Array(Buffer.concat([Buffer.from(domain, "utf8"), body]));
}
