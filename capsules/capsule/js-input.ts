/**
 * Reading plain JS values as the JSON value model (capsule-v1 §11.1): builders and in-process callers may pass
 * plain objects and JS numbers. Plain objects become `Map`s (insertion order kept), non-integral numbers, NaN and
 * ±∞ become floats (rejected in hashed content), integer `-0` becomes `0`. Values that are already in the model
 * are returned as they are, without copying. Anything else (undefined, functions, class instances) is left in
 * place so the structure rules and the domain check name it.
 */
import { JsonFloat } from "../../src/json/value.js";
import { MAX_NESTING } from "./limits.js";
import { isPlainObject } from "../../src/json/value.js";

/** Below this depth nothing can be valid anyway; stopping here bounds work on cyclic or absurdly deep input. */
const MAX_WALK_DEPTH = MAX_NESTING + 4;

export function fromJs(v: unknown, depth = 0): unknown {
  if (typeof v === "number") {
    if (!Number.isInteger(v)) return new JsonFloat(v);
    return v === 0 ? 0 : v;
  }
  if (typeof v !== "object" || v === null || v instanceof JsonFloat || depth > MAX_WALK_DEPTH) return v;
  if (Array.isArray(v)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x = fromJs(v[i], depth + 1);
      if (x !== v[i] && out === undefined) out = v.slice(0, i);
      if (out !== undefined) out.push(x);
    }
    return out ?? v;
  }
  if (v instanceof Map) {
    let changed = false;
    const entries: [unknown, unknown][] = [];
    for (const [k, x] of v) {
      const y = fromJs(x, depth + 1);
      if (y !== x) changed = true;
      entries.push([k, y]);
    }
    return changed ? new Map(entries) : v;
  }
  if (!isPlainObject(v)) return v;
  const out = new Map<string, unknown>();
  for (const [k, x] of Object.entries(v)) out.set(k, fromJs(x, depth + 1));
  return out;
}
