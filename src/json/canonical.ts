/**
 * `palimpsest-json-sorted-utf8-v1` (capsule-v1 §4.1): the canonical bytes behind `content_sha256`.
 *
 * Accepts the parser's value model and, for builders, plain JS values (plain objects, arrays, strings, booleans,
 * null, numbers: a non-integral number, NaN or ±∞ is a float). The domain check walks in document order and
 * reports the first violation (§4.1.2); serialisation then sorts keys by code point.
 */
import { pythonFloatRepr } from "./legacy.js";
import { compareCodePoints, codePointLength, hasLoneSurrogate, isPlainObject, JsonFloat, MAX_SAFE } from "./value.js";

export const CANONICALIZATION_V1 = "palimpsest-json-sorted-utf8-v1";
export const CANONICAL_CONTENT_LIMIT = 25_165_824;
const MAX_DEPTH = 32;
const MAX_ITEMS = 512;
const MAX_STRING_CHARS = 11_184_812;
const MAX_KEY_CHARS = 16_384;

export class CanonicalError extends Error {
  override readonly name = "CanonicalError";
  constructor(
    message: string,
    readonly path?: string,
  ) {
    super(message);
  }
}

export interface CanonicalRules {
  allowFloats: boolean;
  maxBytes: number;
  oversizeMessage: string;
}

const V1_RULES: CanonicalRules = {
  allowFloats: false,
  maxBytes: CANONICAL_CONTENT_LIMIT,
  oversizeMessage: "canonical content exceeds the v1 byte limit",
};

const encoder = new TextEncoder();

/** Canonical v1 bytes of `value`; errors name paths rooted at `rootPath` (default `content`). */
export function canonicalBytes(value: unknown, rootPath = "content"): Uint8Array {
  return serialize(value, rootPath, V1_RULES);
}

/** Canonical v1 text (the UTF-8 decoding of {@link canonicalBytes}). */
export function canonicalText(value: unknown, rootPath = "content"): string {
  checkDomain(value, rootPath, 0, V1_RULES);
  return write(value, V1_RULES);
}

/** Shared by the v1 and legacy serialisers: domain check in document order, then sorted serialisation. */
export function serialize(value: unknown, rootPath: string, rules: CanonicalRules): Uint8Array {
  checkDomain(value, rootPath, 0, rules);
  const bytes = encoder.encode(write(value, rules));
  if (bytes.length > rules.maxBytes) throw new CanonicalError(rules.oversizeMessage);
  return bytes;
}

type Entries = [string, unknown][];


/** Object members in document (insertion) order, or undefined when `v` is not an object. */
function entriesOf(v: unknown): Entries | undefined {
  if (v instanceof Map) return [...v.entries()];
  if (typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat) && isPlainObject(v)) {
    return Object.entries(v as Record<string, unknown>);
  }
  return undefined;
}

function typeName(v: unknown): string {
  if (typeof v === "object" && v !== null) return (v as object).constructor?.name ?? "object";
  return typeof v;
}

function checkDomain(v: unknown, p: string, depth: number, rules: CanonicalRules): void {
  if (depth > MAX_DEPTH) throw new CanonicalError(`${p}: JSON nesting exceeds ${MAX_DEPTH}`, p);
  if (v === null || typeof v === "boolean") return;
  if (typeof v === "number" || v instanceof JsonFloat) {
    const isFloat = v instanceof JsonFloat || !Number.isInteger(v);
    const n = v instanceof JsonFloat ? v.value : v;
    if (isFloat) {
      if (!rules.allowFloats) {
        throw new CanonicalError(`${p}: floats are forbidden in hashed content; encode decimals as strings`, p);
      }
      if (!Number.isFinite(n)) throw new CanonicalError(`${p}: non-finite float is forbidden`, p);
      return;
    }
    if (Math.abs(n) > MAX_SAFE) throw new CanonicalError(`${p}: integer exceeds the I-JSON interoperable range`, p);
    return;
  }
  if (typeof v === "string") {
    if (v.length > MAX_STRING_CHARS && codePointLength(v) > MAX_STRING_CHARS) {
      throw new CanonicalError(`${p}: string exceeds the v1 resource limit`, p);
    }
    if (hasLoneSurrogate(v)) throw new CanonicalError(`${p}: lone Unicode surrogate is forbidden`, p);
    return;
  }
  if (Array.isArray(v)) {
    if (v.length > MAX_ITEMS) throw new CanonicalError(`${p}: array exceeds ${MAX_ITEMS} items`, p);
    for (let i = 0; i < v.length; i++) checkDomain(v[i], `${p}[${i}]`, depth + 1, rules);
    return;
  }
  const entries = entriesOf(v);
  if (entries === undefined) throw new CanonicalError(`${p}: unsupported JSON value ${typeName(v)}`, p);
  if (entries.length > MAX_ITEMS) throw new CanonicalError(`${p}: object exceeds ${MAX_ITEMS} members`, p);
  for (const [k, x] of entries) {
    if (k.length > MAX_KEY_CHARS && codePointLength(k) > MAX_KEY_CHARS) {
      throw new CanonicalError(`${p}: object key exceeds the v1 resource limit`, p);
    }
    if (hasLoneSurrogate(k)) throw new CanonicalError(`${p}: object key: lone Unicode surrogate is forbidden`, p);
    checkDomain(x, `${p}.${k}`, depth + 1, rules);
  }
}

function byKey(a: [string, unknown], b: [string, unknown]): number {
  return compareCodePoints(a[0], b[0]);
}

/** Serialises a value already known to be in the domain. */
function write(v: unknown, rules: CanonicalRules): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof JsonFloat) return pythonFloatRepr(v.value);
  if (typeof v === "number") return Number.isInteger(v) ? String(v) : pythonFloatRepr(v);
  if (Array.isArray(v)) {
    let out = "[";
    for (let i = 0; i < v.length; i++) out += (i ? "," : "") + write(v[i], rules);
    return out + "]";
  }
  const entries = entriesOf(v)!.sort(byKey);
  let out = "{";
  for (let i = 0; i < entries.length; i++) {
    out += (i ? "," : "") + JSON.stringify(entries[i][0]) + ":" + write(entries[i][1], rules);
  }
  return out + "}";
}
