/**
 * The JSON value model (capsule-v1 §2).
 *
 * Integer versus float is lexical: `1` is an integer, `1.0` is a float. Integers are JS numbers (always inside
 * ±(2^53−1)); floats are wrapped in {@link JsonFloat}; objects are `Map`s, so key order is kept exactly and no
 * key can touch a prototype.
 */
export class JsonFloat {
  constructor(
    readonly value: number,
    /** The token as written in the source, when the value came from a parser. */
    readonly token?: string,
  ) {}
}

export type JsonObject = Map<string, JsonValue>;
export type JsonArray = JsonValue[];
export type JsonValue = null | boolean | number | string | JsonFloat | JsonArray | JsonObject;

export const MAX_SAFE = 9_007_199_254_740_991;

export function isJsonObject(v: unknown): v is JsonObject {
  return v instanceof Map;
}

export function isJsonFloat(v: unknown): v is JsonFloat {
  return v instanceof JsonFloat;
}

/** Integer kind: a JS number that is not wrapped as a float. */
export function isJsonInteger(v: unknown): v is number {
  return typeof v === "number";
}

export function kindOf(v: JsonValue): "null" | "boolean" | "integer" | "float" | "string" | "array" | "object" {
  if (v === null) return "null";
  if (typeof v === "boolean") return "boolean";
  if (typeof v === "number") return "integer";
  if (typeof v === "string") return "string";
  if (v instanceof JsonFloat) return "float";
  if (Array.isArray(v)) return "array";
  return "object";
}

/** Appends an object member to a path (`a` + `b` → `a.b`), capsule-v1 §6.1. */
export function memberPath(path: string, key: string): string {
  return `${path}.${key}`;
}

/** Appends an array index to a path (`a` + 3 → `a[3]`), capsule-v1 §6.1. */
export function indexPath(path: string, index: number): string {
  return `${path}[${index}]`;
}

/** The path of `segs` (keys and indexes) from `root`: `index` + ["events", 3, "headline"] → `index.events[3].headline`. */
export function pathOf(root: string, segs: readonly PropertyKey[]): string {
  let p = root;
  for (const s of segs) p = typeof s === "number" ? indexPath(p, s) : memberPath(p, String(s));
  return p;
}

/** Number of Unicode code points in a string (capsule-v1 §0.2: lengths never count UTF-16 units). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

const SURROGATE = /[\ud800-\udfff]/;

/** True when the string contains an unpaired UTF-16 surrogate. */
export function hasLoneSurrogate(s: string): boolean {
  // Fast path: most strings have no surrogate at all (a regex scan is far cheaper than a JS loop).
  if (!SURROGATE.test(s)) return false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    return true;
  }
  return false;
}

/**
 * Compares two strings by Unicode code point (not UTF-16 code unit): U+E000 sorts before U+10000.
 */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs === ys) return x - y;
    // A surrogate (part of a non-BMP scalar) is above every BMP scalar it differs from at this position
    // only when that BMP scalar is >= U+E000; below U+D800 plain unit order already agrees.
    return xs ? (y >= 0xe000 ? 1 : x - y) : x >= 0xe000 ? -1 : x - y;
  }
  return a.length - b.length;
}

/** A non-null, non-array object: what JSON calls an object, as plain JS input (any prototype). */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** An object literal or a null-prototype object (not a Map, class instance or array). */
export function isPlainObject(v: object): boolean {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}
