/**
 * Equality of a capsule's stored content (the value model) with the content our adapter rebuilds (plain JS), without
 * converting the rebuild first: exactly `strictJsonEquals(stored, fromJs(rebuilt))` (capsules/capsule/pointer.ts,
 * js-input.ts), one walk and no copies. It runs once per capsule on the feed's path.
 *
 * The conversion rules it mirrors: a non-integral JS number (NaN and ±∞ included) is a float, an integral one an
 * integer (`-0` is `0`); a plain object (prototype `Object.prototype` or null) is an object of its own enumerable
 * string members; a `Map` is an object; anything else (class instances) equals nothing. The rebuild comes from the
 * adapter, whose nesting is fixed and shallow, so fromJs's depth cut-off never applies.
 */
import { JsonFloat, type JsonValue } from "../../src/json/value.js";
import { isPlainObject } from "../../src/json/value.js";

const isEnumerable = Object.prototype.propertyIsEnumerable;

/** True when `rebuilt`, read as the value model, is strictly equal to `stored`. */
export function equalsRebuilt(stored: JsonValue, rebuilt: unknown): boolean {
  if (stored === null || typeof stored !== "object") return stored === rebuilt;
  if (stored instanceof JsonFloat) {
    if (typeof rebuilt === "number") return !Number.isInteger(rebuilt) && stored.value === rebuilt;
    return rebuilt instanceof JsonFloat && stored.value === rebuilt.value;
  }
  if (Array.isArray(stored)) {
    if (!Array.isArray(rebuilt) || stored.length !== rebuilt.length) return false;
    for (let i = 0; i < stored.length; i++) if (!equalsRebuilt(stored[i], rebuilt[i])) return false;
    return true;
  }
  if (typeof rebuilt !== "object" || rebuilt === null || Array.isArray(rebuilt) || rebuilt instanceof JsonFloat) return false;
  if (rebuilt instanceof Map) {
    if (stored.size !== rebuilt.size) return false;
    for (const [k, v] of stored) if (!rebuilt.has(k) || !equalsRebuilt(v, rebuilt.get(k))) return false;
    return true;
  }
  if (!isPlainObject(rebuilt)) return false;
  const members = rebuilt as Record<string, unknown>;
  if (stored.size !== Object.keys(members).length) return false;
  for (const [k, v] of stored) if (!isEnumerable.call(members, k) || !equalsRebuilt(v, members[k])) return false;
  return true;
}
