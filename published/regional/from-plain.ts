/**
 * Plain JS values (what an MCP client's arguments arrive as, after JSON.parse) into the strict value model, with
 * the loader's value rules: finite numbers, integers within ±(2^53−1), no lone surrogates, nesting up to 32. A
 * non-integral number becomes a float; an integral one an integer (JSON.parse has already lost `1.0` versus `1`).
 */
import type { JsonLoadRule } from "../../src/json/parse.js";
import { hasLoneSurrogate, indexPath, JsonFloat, MAX_SAFE, memberPath, type JsonObject, type JsonValue } from "../../src/json/value.js";

const MAX_DEPTH = 32;

export class PlainValueError extends Error {
  override readonly name = "PlainValueError";
  constructor(
    readonly path: string,
    readonly rule: JsonLoadRule,
    detail: string,
  ) {
    super(`${path}: ${detail}`);
  }
}

function text(s: string, path: string, what: string): string {
  if (hasLoneSurrogate(s)) throw new PlainValueError(path, "lone-surrogate", `${what}lone Unicode surrogate is forbidden`);
  return s;
}

/** Converts `v`, whose path is `path` and which `depth` containers enclose. Throws {@link PlainValueError}. */
export function fromPlain(v: unknown, path: string, depth = 0): JsonValue {
  if (depth > MAX_DEPTH) throw new PlainValueError(path, "depth", `JSON nesting exceeds ${MAX_DEPTH}`);
  if (v === null || typeof v === "boolean") return v;
  if (typeof v === "string") return text(v, path, "");
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new PlainValueError(path, "non-finite", "non-finite number is forbidden");
    if (!Number.isInteger(v)) return new JsonFloat(v);
    if (Math.abs(v) > MAX_SAFE) throw new PlainValueError(path, "integer-range", "integer exceeds the I-JSON interoperable range");
    return Object.is(v, -0) ? 0 : v;
  }
  if (v instanceof JsonFloat) return v;
  if (typeof v !== "object") throw new PlainValueError(path, "syntax", `not a JSON value (${typeof v})`);
  if (Array.isArray(v)) return v.map((x, i) => fromPlain(x, indexPath(path, i), depth + 1));
  const proto = Object.getPrototypeOf(v);
  const entries = v instanceof Map ? [...v] : proto === Object.prototype || proto === null ? Object.entries(v) : undefined;
  if (entries === undefined) throw new PlainValueError(path, "syntax", `not a JSON value (${proto?.constructor?.name ?? "object"})`);
  const out: JsonObject = new Map();
  for (const [k, x] of entries) {
    if (typeof k !== "string") throw new PlainValueError(path, "syntax", "object keys must be strings");
    out.set(text(k, path, "object key: "), fromPlain(x, memberPath(path, k), depth + 1));
  }
  return out;
}
