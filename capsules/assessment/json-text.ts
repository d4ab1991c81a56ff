/**
 * Python `json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)` text of a parsed
 * value, writing each float as its original lexeme when it has one (assessment-v1 §5.3 option 1), otherwise as
 * its Python repr (option 2). Keys sort by code point; string escaping equals the canonical rules of §0.
 */
import { pythonFloatRepr } from "../../src/json/legacy.js";
import { compareCodePoints, JsonFloat, type JsonValue } from "../../src/json/value.js";

export function pythonJsonText(v: JsonValue): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return JSON.stringify(v);
  if (v instanceof JsonFloat) return v.token ?? pythonFloatRepr(v.value);
  if (Array.isArray(v)) return `[${v.map(pythonJsonText).join(",")}]`;
  const keys = [...v.keys()].sort(compareCodePoints);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${pythonJsonText(v.get(k)!)}`).join(",")}}`;
}
