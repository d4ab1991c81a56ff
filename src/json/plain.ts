/**
 * Conversion from the strict value model to plain JS values, for schema libraries (zod) that work on plain
 * objects. Objects become null-prototype records (so `__proto__` stays an ordinary key); floats become numbers,
 * and `floatPaths` reports where they were so a caller can insist on integers.
 */
import { JsonFloat, type JsonValue } from "./value.js";

export type Plain = null | boolean | number | string | Plain[] | { [key: string]: Plain };

export function toPlain(v: JsonValue): Plain {
  if (v === null || typeof v !== "object") return v;
  if (v instanceof JsonFloat) return v.value;
  if (Array.isArray(v)) return v.map(toPlain);
  const out = Object.create(null) as { [key: string]: Plain };
  for (const [k, x] of v) {
    Object.defineProperty(out, k, { value: toPlain(x), enumerable: true, writable: true, configurable: true });
  }
  return out;
}
