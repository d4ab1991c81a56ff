/**
 * `json-pointer-equals-v1` (capsule-v1 §8.5.1, §8.5.2): RFC 6901 resolution with strict array indices, and
 * type-strict equality over the value model (boolean ≠ integer ≠ float ≠ string).
 */
import { JsonFloat, type JsonValue } from "../../src/json/value.js";

export class PointerError extends Error {
  override readonly name = "PointerError";
}

const CANONICAL_INDEX = /^(0|[1-9][0-9]*)$/;

/** Resolves `pointer` in `doc`; throws {@link PointerError} with the message of the first failing token. */
export function resolvePointer(doc: JsonValue, pointer: string): JsonValue {
  if (pointer === "") return doc;
  let cur = doc;
  for (const raw of pointer.slice(1).split("/")) {
    if (/~(?![01])/.test(raw)) throw new PointerError("malformed JSON pointer escape");
    const tok = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(cur)) {
      if (!CANONICAL_INDEX.test(tok)) throw new PointerError("JSON pointer array token is not a canonical index");
      // Digit strings longer than any array length are out of range without converting them.
      if (tok.length > 15 || Number(tok) >= cur.length) throw new PointerError("JSON pointer array index is out of range");
      cur = cur[Number(tok)];
    } else if (cur instanceof Map) {
      if (!cur.has(tok)) throw new PointerError("JSON pointer object key is absent");
      cur = cur.get(tok)!;
    } else {
      throw new PointerError("JSON pointer descends through a scalar");
    }
  }
  return cur;
}

/** Type-strict JSON equality: identical kinds at every level; object member order is irrelevant. */
export function strictJsonEquals(a: JsonValue, b: JsonValue): boolean {
  if (a === null || typeof a !== "object") return a === b;
  if (a instanceof JsonFloat) return b instanceof JsonFloat && a.value === b.value;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!strictJsonEquals(a[i], b[i])) return false;
    return true;
  }
  if (!(b instanceof Map) || a.size !== b.size) return false;
  for (const [k, v] of a) {
    if (!b.has(k) || !strictJsonEquals(v, b.get(k)!)) return false;
  }
  return true;
}
