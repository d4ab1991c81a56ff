/**
 * JSON the way the reference hosted server (a Python program) reads and writes it, for the test double.
 *
 * Reading follows `json.loads`: `NaN`, `Infinity` and `-Infinity` are accepted, duplicate keys keep the first
 * position and the last value, numbers keep their kind (`1` is an int, `1.0` a float) and big integers keep every
 * digit. Writing follows `json.dumps`: `", "` / `": "` separators (or compact), `ensure_ascii` with lower-case
 * `\uXXXX` escapes, and Python `repr` for floats (`1.0`, `1e-05`, `Infinity`).
 */

/** A number as Python holds it: an int (exact digits) or a float (binary64). */
export class PyNum {
  private constructor(
    readonly kind: "int" | "float",
    /** Decimal digits of an int (no leading `+`, no `-0`); unused for floats. */
    readonly digits: string,
    readonly value: number,
  ) {}

  static int(digits: string | number): PyNum {
    const text = typeof digits === "number" ? BigInt(Math.trunc(digits)).toString() : BigInt(digits).toString();
    return new PyNum("int", text, Number(text));
  }

  static float(value: number): PyNum {
    return new PyNum("float", "", value);
  }

  /** Python text of the number as `json.dumps` writes it. */
  toPython(): string {
    return this.kind === "int" ? this.digits : pyFloatRepr(this.value);
  }
}

export type PyValue = null | boolean | string | PyNum | PyValue[] | PyObject;
export type PyObject = Map<string, PyValue>;

export function isPyObject(v: PyValue | undefined): v is PyObject {
  return v instanceof Map;
}

export class PyJsonError extends Error {
  override readonly name = "PyJsonError";
}

/** Python `float.__repr__` (also what `json.dumps` writes, with `Infinity` / `NaN` for the non-finite values). */
export function pyFloatRepr(x: number): string {
  if (Number.isNaN(x)) return "NaN";
  if (x === Infinity) return "Infinity";
  if (x === -Infinity) return "-Infinity";
  if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
  const sign = x < 0 ? "-" : "";
  const [mantissa, expText] = Math.abs(x).toExponential().split("e");
  const digits = mantissa.replace(".", "");
  const e = Number(expText);
  if (e >= -4 && e < 16) {
    if (e < 0) return `${sign}0.${"0".repeat(-e - 1)}${digits}`;
    const intPart = digits.slice(0, e + 1).padEnd(e + 1, "0");
    const frac = digits.slice(e + 1) || "0";
    return `${sign}${intPart}.${frac}`;
  }
  const mant = digits[0] + (digits.length > 1 ? `.${digits.slice(1)}` : "");
  const abs = Math.abs(e);
  return `${sign}${mant}e${e < 0 ? "-" : "+"}${abs < 10 ? "0" : ""}${abs}`;
}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

export interface ParseOptions {
  /** Also reject duplicate keys and `NaN` / `Infinity` (the economic manifest and ledger rules). */
  strict?: boolean;
}

/** `json.loads` of a text. Throws {@link PyJsonError} on anything Python rejects. */
export function pyParse(text: string, opts: ParseOptions = {}): PyValue {
  const strict = opts.strict === true;
  let i = 0;
  const skip = () => {
    while (i < text.length && WS.has(text.charCodeAt(i))) i++;
  };
  const fail = (what: string): never => {
    throw new PyJsonError(`${what} at char ${i}`);
  };

  const parseString = (): string => {
    // text[i] is the opening quote
    i++;
    let out = "";
    let start = i;
    for (;;) {
      if (i >= text.length) fail("Unterminated string");
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        out += text.slice(start, i);
        i++;
        return out;
      }
      if (c < 0x20) fail("Invalid control character");
      if (c === 0x5c) {
        out += text.slice(start, i);
        const e = text[i + 1];
        i += 2;
        switch (e) {
          case '"':
            out += '"';
            break;
          case "\\":
            out += "\\";
            break;
          case "/":
            out += "/";
            break;
          case "b":
            out += "\b";
            break;
          case "f":
            out += "\f";
            break;
          case "n":
            out += "\n";
            break;
          case "r":
            out += "\r";
            break;
          case "t":
            out += "\t";
            break;
          case "u": {
            const hex = text.slice(i, i + 4);
            if (!/^[0-9a-fA-F]{4}$/.test(hex)) fail("Invalid \\uXXXX escape");
            out += String.fromCharCode(parseInt(hex, 16));
            i += 4;
            break;
          }
          default:
            fail("Invalid \\escape");
        }
        start = i;
        continue;
      }
      i++;
    }
  };

  const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;

  const parseValue = (depth: number): PyValue => {
    if (depth > 900) fail("maximum recursion depth exceeded");
    skip();
    const c = text[i];
    if (c === "{") {
      i++;
      const obj: PyObject = new Map();
      skip();
      if (text[i] === "}") {
        i++;
        return obj;
      }
      for (;;) {
        skip();
        if (text[i] !== '"') fail("Expecting property name enclosed in double quotes");
        const key = parseString();
        skip();
        if (text[i] !== ":") fail("Expecting ':' delimiter");
        i++;
        if (strict && obj.has(key)) fail(`duplicate key ${JSON.stringify(key)}`);
        obj.set(key, parseValue(depth + 1));
        skip();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") {
          i++;
          return obj;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === "[") {
      i++;
      const arr: PyValue[] = [];
      skip();
      if (text[i] === "]") {
        i++;
        return arr;
      }
      for (;;) {
        arr.push(parseValue(depth + 1));
        skip();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") {
          i++;
          return arr;
        }
        fail("Expecting ',' delimiter");
      }
    }
    if (c === '"') return parseString();
    if (text.startsWith("null", i)) {
      i += 4;
      return null;
    }
    if (text.startsWith("true", i)) {
      i += 4;
      return true;
    }
    if (text.startsWith("false", i)) {
      i += 5;
      return false;
    }
    if (strict && (text.startsWith("NaN", i) || text.startsWith("Infinity", i) || text.startsWith("-Infinity", i))) {
      fail("non-finite number");
    }
    if (text.startsWith("NaN", i)) {
      i += 3;
      return PyNum.float(NaN);
    }
    if (text.startsWith("Infinity", i)) {
      i += 8;
      return PyNum.float(Infinity);
    }
    if (text.startsWith("-Infinity", i)) {
      i += 9;
      return PyNum.float(-Infinity);
    }
    NUMBER.lastIndex = i;
    const m = NUMBER.exec(text);
    if (!m) return fail("Expecting value");
    i += m[0].length;
    if (m[1] === undefined && m[2] === undefined) return PyNum.int(m[0]);
    const f = Number(m[0]);
    if (strict && !Number.isFinite(f)) fail("non-finite number");
    return PyNum.float(f);
  };

  const value = parseValue(0);
  skip();
  if (i !== text.length) fail("Extra data");
  return value;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** `json.loads` of bytes: UTF-8 (a leading BOM is accepted, as Python's `utf-8-sig` detection does). */
export function pyParseBytes(bytes: Uint8Array, opts: ParseOptions = {}): PyValue {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new PyJsonError("body is not UTF-8");
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return pyParse(text, opts);
}

export interface DumpOptions {
  /** `ensure_ascii` (default true). */
  ascii?: boolean;
  /** Compact `","` / `":"` separators (default false: `", "` / `": "`). */
  compact?: boolean;
  /** `sort_keys` (default false); sorts by code point like Python. */
  sortKeys?: boolean;
}

function quote(s: string, ascii: boolean): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += "\\\\";
    else if (c === 0x0a) out += "\\n";
    else if (c === 0x0d) out += "\\r";
    else if (c === 0x09) out += "\\t";
    else if (c === 0x08) out += "\\b";
    else if (c === 0x0c) out += "\\f";
    else if (c < 0x20 || (ascii && c > 0x7e)) out += `\\u${c.toString(16).padStart(4, "0")}`;
    else out += s[i];
  }
  return `${out}"`;
}

function codePointCompare(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let k = 0; k < Math.min(x.length, y.length); k++) {
    const d = x[k].codePointAt(0)! - y[k].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

/** `json.dumps` of a value. Plain JS numbers are written as ints when integral, else as floats. */
export function pyDumps(value: PyValue | number | undefined, opts: DumpOptions = {}): string {
  const ascii = opts.ascii ?? true;
  const item = opts.compact ? "," : ", ";
  const colon = opts.compact ? ":" : ": ";
  const parts: string[] = [];
  const write = (v: PyValue | number | undefined): void => {
    if (v === null || v === undefined) parts.push("null");
    else if (v === true) parts.push("true");
    else if (v === false) parts.push("false");
    else if (typeof v === "string") parts.push(quote(v, ascii));
    else if (typeof v === "number") parts.push(Number.isInteger(v) ? String(v) : pyFloatRepr(v));
    else if (v instanceof PyNum) parts.push(v.toPython());
    else if (Array.isArray(v)) {
      parts.push("[");
      v.forEach((e, k) => {
        if (k > 0) parts.push(item);
        write(e);
      });
      parts.push("]");
    } else {
      parts.push("{");
      const keys = [...v.keys()];
      if (opts.sortKeys) keys.sort(codePointCompare);
      keys.forEach((key, k) => {
        if (k > 0) parts.push(item);
        parts.push(quote(key, ascii), colon);
        write(v.get(key));
      });
      parts.push("}");
    }
  };
  write(value);
  return parts.join("");
}

/** Builds an ordered object from entries (a small convenience for payload construction). */
export function obj(entries: Array<[string, PyValue]>): PyObject {
  return new Map(entries);
}

/** Deep copy (payload building never mutates a parsed or cached value). */
export function deepCopy(v: PyValue): PyValue {
  if (Array.isArray(v)) return v.map(deepCopy);
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, deepCopy(x)] as [string, PyValue]));
  return v;
}

/** Python `str()` of a value as the reference would print it inside a message (`None`, `True`, `'x'` in reprs). */
export function pyStr(v: PyValue | undefined): string {
  if (v === undefined || v === null) return "None";
  if (v === true) return "True";
  if (v === false) return "False";
  if (typeof v === "string") return v;
  if (v instanceof PyNum) return v.kind === "float" ? pyFloatRepr(v.value).replace("Infinity", "inf").replace("NaN", "nan") : v.digits;
  return pyRepr(v);
}

/** Python `repr()` of a value (strings single-quoted unless they contain `'` and no `"`). */
export function pyRepr(v: PyValue | undefined): string {
  if (typeof v === "string") {
    const useDouble = v.includes("'") && !v.includes('"');
    const q = useDouble ? '"' : "'";
    let out = q;
    for (const ch of v) {
      const c = ch.codePointAt(0)!;
      if (ch === "\\") out += "\\\\";
      else if (ch === q) out += `\\${q}`;
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (ch === "\t") out += "\\t";
      else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, "0")}`;
      else out += ch;
    }
    return out + q;
  }
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  if (v instanceof Map) return `{${[...v].map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(", ")}}`;
  return pyStr(v);
}
