/**
 * CPython `json.dumps(v, sort_keys=True, separators=(",", ":"))` with its default `ensure_ascii=True`: the bytes
 * behind an economic observation's `observation_id` (hosted-tool-server.md §4.5). Keys sorted by code point;
 * every character outside U+0020–U+007E escaped (`\uXXXX`, lowercase hex, astral characters as surrogate pairs),
 * with the short escapes for `"`, `\`, `\n`, `\r`, `\t`, `\b`, `\f`; floats in Python `repr` form.
 */
import { pythonFloatRepr } from "../../src/json/legacy.js";
import { compareCodePoints, JsonFloat, type JsonValue } from "../../src/json/value.js";

const SHORT: Record<string, string> = { '"': '\\"', "\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f" };

function asciiString(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c <= 0x7e && c !== 0x22 && c !== 0x5c) continue;
    out += s.slice(start, i) + (SHORT[s[i]] ?? `\\u${c.toString(16).padStart(4, "0")}`);
    start = i + 1;
  }
  return out + s.slice(start) + '"';
}

/** Python-style compact, sorted, ASCII-escaped JSON of a strictly parsed value. */
export function pythonAsciiJson(v: JsonValue): string {
  if (v === null) return "null";
  if (v === true) return "true";
  if (v === false) return "false";
  if (typeof v === "string") return asciiString(v);
  if (typeof v === "number") return String(v);
  if (v instanceof JsonFloat) return pythonFloatRepr(v.value);
  if (Array.isArray(v)) return `[${v.map(pythonAsciiJson).join(",")}]`;
  const keys = [...v.keys()].sort(compareCodePoints);
  return `{${keys.map((k) => `${asciiString(k)}:${pythonAsciiJson(v.get(k)!)}`).join(",")}}`;
}
