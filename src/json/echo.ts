/**
 * Value echo `<r(x)>` for error messages (capsule-v1 §6.2): the reference's Python `repr` of JSON values.
 */
import { pythonFloatRepr } from "./legacy.js";
import { JsonFloat, type JsonValue } from "./value.js";

const NON_PRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}]/u;

/** Python `repr` of a string. */
export function pyRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += "\\" + quote;
    else if (ch === "\t") out += "\\t";
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (cp !== 0x20 && NON_PRINTABLE.test(ch)) {
      if (cp <= 0xff) out += "\\x" + cp.toString(16).padStart(2, "0");
      else if (cp <= 0xffff) out += "\\u" + cp.toString(16).padStart(4, "0");
      else out += "\\U" + cp.toString(16).padStart(8, "0");
    } else out += ch;
  }
  return out + quote;
}

/** Python `repr` of a JSON value (objects and arrays in document order). */
export function echo(v: JsonValue | undefined): string {
  if (v === null || v === undefined) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "number") return String(v);
  if (typeof v === "string") return pyRepr(v);
  if (v instanceof JsonFloat) return pythonFloatRepr(v.value);
  if (Array.isArray(v)) return "[" + v.map(echo).join(", ") + "]";
  const parts: string[] = [];
  for (const [k, x] of v) parts.push(`${pyRepr(k)}: ${echo(x)}`);
  return "{" + parts.join(", ") + "}";
}
