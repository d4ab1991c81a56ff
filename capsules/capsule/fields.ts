/**
 * Field validators of Evidence Capsule v1 (capsule-v1 §5). Each takes a value and its path and throws
 * {@link CapsuleSchemaError} with the first message of its table row that applies. Values are `unknown` so that a
 * verifier stays total on any input.
 */
import { echo } from "../../src/json/echo.js";
import { codePointLength, compareCodePoints, hasLoneSurrogate, MAX_SAFE, type JsonObject } from "../../src/json/value.js";

/** The first structure failure (capsule-v1 §7); `message` is the exact normative text. */
export class CapsuleSchemaError extends Error {
  override readonly name = "CapsuleSchemaError";
}

export const TEXT_MAX = 16_384;

function fail(message: string): never {
  throw new CapsuleSchemaError(message);
}

/** `<r(x)>` (capsule-v1 §6.2) that never throws, whatever a JS caller passed in. */
export function echoValue(v: unknown): string {
  try {
    return echo(v as never);
  } catch {
    return typeof v === "object" && v !== null ? `<${(v as object).constructor?.name ?? "object"}>` : `<${typeof v}>`;
  }
}

/** 5.1 object. */
export function objectAt(v: unknown, p: string): JsonObject {
  if (!(v instanceof Map)) fail(`${p}: expected object`);
  return v as JsonObject;
}

/** 5.2 fields(R): an object whose keys are exactly `names` (all required, nothing else). */
export function fieldsAt(v: unknown, p: string, names: readonly string[]): JsonObject {
  const obj = objectAt(v, p);
  const missing = names.filter((n) => !obj.has(n));
  if (missing.length > 0) fail(`${p}: missing field(s): ${missing.sort(compareCodePoints).join(", ")}`);
  if (obj.size !== names.length) {
    const unknown = [...obj.keys()].map(String).filter((k) => !names.includes(k));
    fail(`${p}: unknown field(s): ${unknown.sort(compareCodePoints).join(", ")}`);
  }
  return obj;
}

/** 5.3 array(max). */
export function arrayAt(v: unknown, p: string, max = 512): unknown[] {
  if (!Array.isArray(v)) fail(`${p}: expected array`);
  if (v.length > max) fail(`${p}: exceeds ${max} items`);
  return v;
}

/** 5.4 text(max, nonempty). */
export function textAt(v: unknown, p: string, max = TEXT_MAX, nonEmpty = true): string {
  if (typeof v !== "string" || (nonEmpty && v.length === 0)) {
    fail(nonEmpty ? `${p}: expected non-empty string` : `${p}: expected string`);
  }
  if (v.length > max && codePointLength(v) > max) fail(`${p}: exceeds ${max} characters`);
  if (hasLoneSurrogate(v)) fail(`${p}: lone Unicode surrogate is forbidden`);
  return v;
}

/** 5.5 timestamp. */
export function timestampAt(v: unknown, p: string): string {
  const s = textAt(v, p);
  if (!isRfc3339(s)) fail(`${p}: invalid RFC 3339 timestamp`);
  return s;
}

const IDENTIFIER = /^[a-z][a-z0-9._-]{0,127}$/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+-]+$/;

/** 5.6 identifier. */
export function identifierAt(v: unknown, p: string): string {
  const s = textAt(v, p);
  if (!IDENTIFIER.test(s)) fail(`${p}: invalid identifier`);
  return s;
}

/** 5.7 sha256 (lowercase hex only). */
export function sha256At(v: unknown, p: string): string {
  const s = textAt(v, p);
  if (!SHA256_HEX.test(s)) fail(`${p}: expected lowercase sha256 hex`);
  return s;
}

/** 5.8 integer(min, max): integer kind (never boolean, never float) in [min, max]. */
export function integerAt(v: unknown, p: string, min = 0, max = MAX_SAFE): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
    fail(`${p}: expected integer in [${min}, ${max}]`);
  }
  return v;
}

/** 5.9 refs: up to 512 identifiers without duplicates. */
export function refsAt(v: unknown, p: string): string[] {
  const items = arrayAt(v, p);
  const refs = items.map((item, i) => identifierAt(item, `${p}[${i}]`));
  if (new Set(refs).size !== refs.length) fail(`${p}: duplicate reference`);
  return refs;
}

/** 5.10 media type. */
export function mediaTypeAt(v: unknown, p: string): string {
  const s = textAt(v, p);
  if (!MEDIA_TYPE.test(s)) fail(`${p}: invalid media type`);
  return s;
}

/** A string member that must be one of `allowed`; otherwise `<p>: <what> <r(v)>`. */
export function oneOfAt<T extends string>(v: unknown, p: string, allowed: readonly T[], what: string): T {
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) fail(`${p}: ${what} ${echoValue(v)}`);
  return v as T;
}

// ---------------------------------------------------------------------------------------------------------------
// RFC 3339 timestamp grammar (capsule-v1 §5.5): ASCII digits only, uppercase T and Z, real calendar dates,
// no 24:00, no leap second, offset hour 00-23 and minute 00-59, a fraction of at least one digit.

/** Reads `n` ASCII digits at `i` as a number, or -1 when any is not an ASCII digit. */
function digits(s: string, i: number, n: number): number {
  if (i + n > s.length) return -1;
  let value = 0;
  for (let k = i; k < i + n; k++) {
    const c = s.charCodeAt(k) - 0x30;
    if (c < 0 || c > 9) return -1;
    value = value * 10 + c;
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** True when `s` matches the capsule-v1 §5.5 timestamp grammar exactly. */
export function isRfc3339(s: string): boolean {
  const year = digits(s, 0, 4);
  const month = digits(s, 5, 2);
  const day = digits(s, 8, 2);
  if (s[4] !== "-" || s[7] !== "-" || s[10] !== "T") return false;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  const hour = digits(s, 11, 2);
  const minute = digits(s, 14, 2);
  const second = digits(s, 17, 2);
  if (s[13] !== ":" || s[16] !== ":") return false;
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return false;
  let i = 19;
  if (s[i] === ".") {
    const start = ++i;
    while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
    if (i === start) return false;
  }
  if (s[i] === "Z") return i + 1 === s.length;
  if (s[i] !== "+" && s[i] !== "-") return false;
  if (i + 6 !== s.length || s[i + 3] !== ":") return false;
  const offHour = digits(s, i + 1, 2);
  const offMinute = digits(s, i + 4, 2);
  return offHour >= 0 && offHour <= 23 && offMinute >= 0 && offMinute <= 59;
}
