/**
 * `palimpsest-json-sorted-utf8-v1` (capsule-v1 §4.1): the canonical bytes behind `content_sha256`.
 *
 * Accepts the parser's value model and, for builders, plain JS values (plain objects, arrays, strings, booleans,
 * null, numbers: a non-integral number, NaN or ±∞ is a float). The domain check walks in document order and
 * reports the first violation (§4.1.2); serialisation then sorts keys by code point.
 */
import { pythonFloatRepr } from "./legacy.js";
import { compareCodePoints, codePointLength, hasLoneSurrogate, isPlainObject, JsonFloat, MAX_SAFE, pathOf } from "./value.js";

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

/** Object keys in document (insertion) order, or undefined when `v` is not an object. */
function keysOf(v: unknown): string[] | undefined {
  if (v instanceof Map) return Array.from(v.keys() as Iterable<string>);
  if (typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof JsonFloat) && isPlainObject(v)) {
    return Object.keys(v);
  }
  return undefined;
}

/** The member `k` of an object `keysOf` accepted (an own `__proto__` is read as a member, not as the prototype). */
function member(v: unknown, k: string): unknown {
  if (v instanceof Map) return v.get(k);
  return k === "__proto__" ? Object.getOwnPropertyDescriptor(v, k)?.value : (v as Record<string, unknown>)[k];
}

function typeName(v: unknown): string {
  if (typeof v === "object" && v !== null) return (v as object).constructor?.name ?? "object";
  return typeof v;
}

function checkDomain(v: unknown, rootPath: string, depth: number, rules: CanonicalRules): void {
  new DomainCheck(rootPath, rules).check(v, depth);
}

/**
 * The domain check (§4.1.2), in document order. The path of the value being checked is kept as segments and
 * written out only for an error: most documents have none, and a string per value was most of the check's cost.
 */
class DomainCheck {
  private readonly segs: (string | number)[] = [];

  constructor(
    private readonly root: string,
    private readonly rules: CanonicalRules,
  ) {}

  private fail(problem: string): never {
    const p = pathOf(this.root, this.segs);
    throw new CanonicalError(`${p}: ${problem}`, p);
  }

  check(v: unknown, depth: number): void {
    if (depth > MAX_DEPTH) this.fail(`JSON nesting exceeds ${MAX_DEPTH}`);
    if (v === null || typeof v === "boolean") return;
    if (typeof v === "number" || v instanceof JsonFloat) {
      const isFloat = v instanceof JsonFloat || !Number.isInteger(v);
      const n = v instanceof JsonFloat ? v.value : v;
      if (isFloat) {
        if (!this.rules.allowFloats) this.fail("floats are forbidden in hashed content; encode decimals as strings");
        if (!Number.isFinite(n)) this.fail("non-finite float is forbidden");
        return;
      }
      if (Math.abs(n) > MAX_SAFE) this.fail("integer exceeds the I-JSON interoperable range");
      return;
    }
    if (typeof v === "string") {
      if (v.length > MAX_STRING_CHARS && codePointLength(v) > MAX_STRING_CHARS) this.fail("string exceeds the v1 resource limit");
      if (hasLoneSurrogate(v)) this.fail("lone Unicode surrogate is forbidden");
      return;
    }
    const segs = this.segs;
    if (Array.isArray(v)) {
      if (v.length > MAX_ITEMS) this.fail(`array exceeds ${MAX_ITEMS} items`);
      segs.push(0);
      for (let i = 0; i < v.length; i++) {
        segs[segs.length - 1] = i;
        this.check(v[i], depth + 1);
      }
      segs.pop();
      return;
    }
    const keys = keysOf(v);
    if (keys === undefined) this.fail(`unsupported JSON value ${typeName(v)}`);
    if (keys.length > MAX_ITEMS) this.fail(`object exceeds ${MAX_ITEMS} members`);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k.length > MAX_KEY_CHARS && codePointLength(k) > MAX_KEY_CHARS) this.fail("object key exceeds the v1 resource limit");
      if (hasLoneSurrogate(k)) this.fail("object key: lone Unicode surrogate is forbidden");
      segs.push(k);
      this.check(member(v, k), depth + 1);
      segs.pop();
    }
  }
}

/** `keys` in code point order: returned as they are when already sorted (most objects are), else sorted in place. */
function sorted(keys: string[]): string[] {
  for (let i = 1; i < keys.length; i++) {
    if (compareCodePoints(keys[i - 1], keys[i]) > 0) return keys.sort(compareCodePoints);
  }
  return keys;
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
  const keys = sorted(keysOf(v)!);
  let out = "{";
  for (let i = 0; i < keys.length; i++) {
    out += (i ? "," : "") + JSON.stringify(keys[i]) + ":" + write(member(v, keys[i]), rules);
  }
  return out + "}";
}
