/**
 * Strict JSON loader over bytes (capsule-v1 §3).
 *
 * Enforces: strict UTF-8 without BOM, CPython-strict grammar, NaN/Infinity rejection, float overflow, the I-JSON
 * integer range, duplicate keys (after escape decoding), lone surrogates, nesting depth, member/item counts and
 * string/key lengths, all while parsing (no unbounded recursion: containers are parsed with an explicit stack).
 * The lexical difference between `1` (integer) and `1.0` (float) is kept.
 */
import { isUtf8 } from "node:buffer";
import { pyRepr } from "./echo.js";
import { codePointLength, hasLoneSurrogate, JsonFloat, type JsonObject, type JsonValue, MAX_SAFE } from "./value.js";

export interface StrictJsonLimits {
  /** Maximum input size in bytes (default 32 MiB). */
  maxBytes: number;
  /** Maximum number of containers enclosing any value (default 32). */
  maxDepth: number;
  /** Maximum array items (default 512). */
  maxItems: number;
  /** Maximum object members (default 512). */
  maxMembers: number;
  /** Maximum string length in code points (default 11,184,812). */
  maxStringChars: number;
  /** Maximum key length in code points (default 16,384). */
  maxKeyChars: number;
  /** Root of error paths (default `json`). */
  rootPath: string;
}

export const V1_LIMITS: Readonly<StrictJsonLimits> = Object.freeze({
  maxBytes: 33_554_432,
  maxDepth: 32,
  maxItems: 512,
  maxMembers: 512,
  maxStringChars: 11_184_812,
  maxKeyChars: 16_384,
  rootPath: "json",
});

export type JsonLoadRule =
  | "size"
  | "utf8"
  | "bom"
  | "syntax"
  | "non-finite"
  | "integer-range"
  | "float-overflow"
  | "duplicate-key"
  | "lone-surrogate"
  | "depth"
  | "array-items"
  | "object-members"
  | "string-length"
  | "key-length";

/**
 * A loader failure. `message` is the exact capsule-v1 §3 text; `path` is set for path-bearing rules. `location`
 * is the JSON path where any failure inside the document happened (for rules whose message names no path: the
 * innermost member or item open there; a repeated key's own path), for callers that report paths.
 */
export class JsonLoadError extends Error {
  override readonly name = "JsonLoadError";
  constructor(
    readonly rule: JsonLoadRule,
    message: string,
    readonly path?: string,
    location?: string,
  ) {
    super(message);
    this.location = location ?? path;
  }

  readonly location: string | undefined;
}

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const encoder = new TextEncoder();

/** Decodes strict UTF-8 and rejects a BOM. Exposed for callers that need the text of a JSON document. */
export function decodeStrictUtf8(bytes: Uint8Array): string {
  let text: string;
  // Valid input (checked natively) decodes on Node's fast path, several times faster than the fatal decoder on
  // large documents; invalid input takes the fatal decoder, whose error is the message.
  if (isUtf8(bytes)) text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8");
  else {
    try {
      text = decoder.decode(bytes);
    } catch (e) {
      throw new JsonLoadError("utf8", `JSON is not UTF-8: ${(e as Error).message}`);
    }
  }
  if (text.charCodeAt(0) === 0xfeff) {
    throw new JsonLoadError("bom", "invalid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)");
  }
  return text;
}

/** What {@link observeStrictParses} installed: called with the text of every document about to be parsed. */
let parseObserver: ((text: string) => void) | undefined;

/**
 * Installs (or, with `undefined`, removes) an observer of every document {@link parseStrictJson} parses. Tests use it
 * to count how often one process parses the same input (issue 14: once per input); nothing in the product installs
 * one, and an uninstalled observer costs one comparison per document.
 */
export function observeStrictParses(observer: ((text: string) => void) | undefined): void {
  parseObserver = observer;
}

/** Parses one strict JSON document from bytes (or a string, measured as UTF-8). Throws {@link JsonLoadError}. */
export function parseStrictJson(input: Uint8Array | string, limits: Partial<StrictJsonLimits> = {}): JsonValue {
  const lim: StrictJsonLimits = { ...V1_LIMITS, ...limits };
  let text: string;
  if (typeof input === "string") {
    // Measure without allocating a copy when the string is obviously small or obviously large.
    const bytes = input.length * 3 <= lim.maxBytes ? input.length : encoder.encode(input).length;
    if (bytes > lim.maxBytes) throw new JsonLoadError("size", "JSON input exceeds the v1 byte limit");
    if (hasLoneSurrogate(input)) throw new JsonLoadError("utf8", "JSON is not UTF-8: lone surrogate in input text");
    if (input.charCodeAt(0) === 0xfeff) {
      throw new JsonLoadError("bom", "invalid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)");
    }
    text = input;
  } else {
    if (input.length > lim.maxBytes) throw new JsonLoadError("size", "JSON input exceeds the v1 byte limit");
    text = decodeStrictUtf8(input);
  }
  if (parseObserver !== undefined) parseObserver(text);
  return new Parser(text, lim).parseDocument();
}

type Frame =
  | { kind: "array"; value: JsonValue[] }
  | { kind: "object"; value: JsonObject; key: string };

class Parser {
  private i = 0;
  /** Path segments of the value being parsed: strings are keys, numbers are indexes. */
  private readonly segs: (string | number)[] = [];

  constructor(
    private readonly s: string,
    private readonly lim: StrictJsonLimits,
  ) {}

  parseDocument(): JsonValue {
    this.ws();
    const v = this.parseValue();
    this.ws();
    if (this.i < this.s.length) this.syntax("Extra data");
    return v;
  }

  private path(): string {
    let p = this.lim.rootPath;
    for (const seg of this.segs) {
      p += typeof seg === "number" ? `[${seg}]` : `.${seg}`;
    }
    return p;
  }

  private syntax(detail: string): never {
    const { line, col } = this.position();
    throw new JsonLoadError("syntax", `invalid JSON: ${detail}: line ${line} column ${col} (char ${this.i})`, undefined, this.path());
  }

  /** A failure whose message names no path, located at the current path. */
  private scalar(rule: JsonLoadRule, message: string): never {
    throw new JsonLoadError(rule, message, undefined, this.path());
  }

  private position(): { line: number; col: number } {
    let line = 1;
    let last = -1;
    for (let k = 0; k < this.i && k < this.s.length; k++) {
      if (this.s.charCodeAt(k) === 10) {
        line++;
        last = k;
      }
    }
    return { line, col: this.i - last };
  }

  private ws(): void {
    const s = this.s;
    let i = this.i;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) i++;
      else break;
    }
    this.i = i;
  }

  /** Parses any value with an explicit container stack (no recursion). */
  private parseValue(): JsonValue {
    const stack: Frame[] = [];
    let value: JsonValue;
    for (;;) {
      // --- parse the start of a value at the current position ---
      if (stack.length > this.lim.maxDepth) {
        throw new JsonLoadError("depth", `${this.path()}: JSON nesting exceeds ${this.lim.maxDepth}`, this.path());
      }
      const c = this.s.charCodeAt(this.i);
      if (c === 0x5b /* [ */) {
        this.i++;
        this.ws();
        if (this.s.charCodeAt(this.i) === 0x5d) {
          this.i++;
          value = [];
        } else {
          stack.push({ kind: "array", value: [] });
          this.segs.push(0);
          continue;
        }
      } else if (c === 0x7b /* { */) {
        this.i++;
        this.ws();
        if (this.s.charCodeAt(this.i) === 0x7d) {
          this.i++;
          value = new Map();
        } else {
          const obj: JsonObject = new Map();
          const key = this.parseKey(obj);
          stack.push({ kind: "object", value: obj, key });
          this.segs.push(key);
          continue;
        }
      } else {
        value = this.parseScalar();
      }

      // --- attach the finished value to its container, closing as many containers as end here ---
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return value;
        this.ws();
        const d = this.s.charCodeAt(this.i);
        if (top.kind === "array") {
          top.value.push(value);
          if (d === 0x2c /* , */) {
            this.i++;
            this.ws();
            if (top.value.length >= this.lim.maxItems) {
              this.segs.pop();
              throw new JsonLoadError(
                "array-items",
                `${this.path()}: array exceeds ${this.lim.maxItems} items`,
                this.path(),
              );
            }
            this.segs[this.segs.length - 1] = top.value.length;
            break; // parse next item
          }
          if (d === 0x5d /* ] */) {
            this.i++;
            stack.pop();
            this.segs.pop();
            value = top.value;
            continue;
          }
          this.syntax("Expecting ',' delimiter");
        } else {
          top.value.set(top.key, value);
          if (d === 0x2c) {
            this.i++;
            this.ws();
            this.segs.pop();
            if (top.value.size >= this.lim.maxMembers) {
              throw new JsonLoadError(
                "object-members",
                `${this.path()}: object exceeds ${this.lim.maxMembers} members`,
                this.path(),
              );
            }
            top.key = this.parseKey(top.value);
            this.segs.push(top.key);
            break;
          }
          if (d === 0x7d /* } */) {
            this.i++;
            stack.pop();
            this.segs.pop();
            value = top.value;
            continue;
          }
          this.syntax("Expecting ',' delimiter");
        }
      }
    }
  }

  /** Parses `"key" :` (with whitespace) for an object whose path is the current path. */
  private parseKey(obj: JsonObject): string {
    if (this.s.charCodeAt(this.i) !== 0x22) {
      this.syntax("Expecting property name enclosed in double quotes");
    }
    const key = this.parseString(true);
    if (obj.has(key)) {
      const at = this.path();
      throw new JsonLoadError("duplicate-key", `duplicate JSON key: ${pyRepr(key)}`, undefined, `${at}.${key}`);
    }
    this.ws();
    if (this.s.charCodeAt(this.i) !== 0x3a) this.syntax("Expecting ':' delimiter");
    this.i++;
    this.ws();
    return key;
  }

  private parseScalar(): JsonValue {
    const s = this.s;
    const c = s.charCodeAt(this.i);
    if (c === 0x22) return this.parseString(false);
    if (c === 0x74 && s.startsWith("true", this.i)) {
      this.i += 4;
      return true;
    }
    if (c === 0x66 && s.startsWith("false", this.i)) {
      this.i += 5;
      return false;
    }
    if (c === 0x6e && s.startsWith("null", this.i)) {
      this.i += 4;
      return null;
    }
    if (c === 0x4e && s.startsWith("NaN", this.i)) {
      this.scalar("non-finite", "non-finite JSON number is forbidden: NaN");
    }
    if (c === 0x49 && s.startsWith("Infinity", this.i)) {
      this.scalar("non-finite", "non-finite JSON number is forbidden: Infinity");
    }
    if (c === 0x2d && s.startsWith("-Infinity", this.i)) {
      this.scalar("non-finite", "non-finite JSON number is forbidden: -Infinity");
    }
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.parseNumber();
    this.syntax("Expecting value");
  }

  private parseNumber(): JsonValue {
    const s = this.s;
    const start = this.i;
    let i = start;
    if (s.charCodeAt(i) === 0x2d) i++;
    const intStart = i;
    const first = s.charCodeAt(i);
    if (first === 0x30) {
      i++;
    } else if (first >= 0x31 && first <= 0x39) {
      while (i < s.length && isDigit(s.charCodeAt(i))) i++;
    } else {
      this.syntax("Expecting value");
    }
    const intDigits = i - intStart;
    let isFloat = false;
    if (s.charCodeAt(i) === 0x2e) {
      const fracStart = i + 1;
      let j = fracStart;
      while (j < s.length && isDigit(s.charCodeAt(j))) j++;
      if (j === fracStart) {
        this.i = i;
        this.syntax("Extra data");
      }
      i = j;
      isFloat = true;
    }
    const e = s.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      let j = i + 1;
      const sign = s.charCodeAt(j);
      if (sign === 0x2b || sign === 0x2d) j++;
      const expStart = j;
      while (j < s.length && isDigit(s.charCodeAt(j))) j++;
      if (j > expStart) {
        i = j;
        isFloat = true;
      }
      // Otherwise the `e` is not part of the number and the caller reports the trailing data.
    }
    this.i = i;
    const token = s.slice(start, i);
    if (isFloat) {
      const value = Number(token);
      if (!Number.isFinite(value)) {
        this.scalar("float-overflow", `JSON number overflows to a non-finite value: ${token}`);
      }
      return new JsonFloat(value, token);
    }
    if (intDigits > 16) {
      this.scalar("integer-range", "JSON integer exceeds the I-JSON interoperable range");
    }
    // Exact comparison (no lossy conversion) for the only digit count that can cross the limit.
    if (intDigits === 16 && absBigInt(token) > MAX_SAFE_BIG) {
      this.scalar("integer-range", "JSON integer exceeds the I-JSON interoperable range");
    }
    const n = Number(token);
    return n === 0 ? 0 : n; // integer -0 is the integer 0
  }

  /** Parses a string token starting at the opening quote. */
  private parseString(isKey: boolean): string {
    const s = this.s;
    let i = this.i + 1;
    let out = "";
    let chunkStart = i;
    let sawEscapedSurrogate = false;
    for (;;) {
      if (i >= s.length) {
        this.syntax("Unterminated string starting at");
      }
      const c = s.charCodeAt(i);
      if (c === 0x22) break;
      if (c < 0x20) {
        this.i = i;
        this.syntax("Invalid control character at");
      }
      if (c !== 0x5c) {
        i++;
        continue;
      }
      out += s.slice(chunkStart, i);
      const e = s.charCodeAt(i + 1);
      switch (e) {
        case 0x22:
          out += '"';
          break;
        case 0x5c:
          out += "\\";
          break;
        case 0x2f:
          out += "/";
          break;
        case 0x62:
          out += "\b";
          break;
        case 0x66:
          out += "\f";
          break;
        case 0x6e:
          out += "\n";
          break;
        case 0x72:
          out += "\r";
          break;
        case 0x74:
          out += "\t";
          break;
        case 0x75: {
          const hex = s.slice(i + 2, i + 6);
          if (!/^[0-9a-fA-F]{4}$/.test(hex)) {
            this.i = i;
            this.syntax("Invalid \\uXXXX escape");
          }
          const unit = parseInt(hex, 16);
          if (unit >= 0xd800 && unit <= 0xdfff) sawEscapedSurrogate = true;
          out += String.fromCharCode(unit);
          i += 4;
          break;
        }
        default:
          this.i = i;
          this.syntax("Invalid \\escape");
      }
      i += 2;
      chunkStart = i;
    }
    out += s.slice(chunkStart, i);
    this.i = i + 1;
    // A raw surrogate pair in the decoded text is always paired; only escapes can produce lone surrogates.
    if (sawEscapedSurrogate && hasLoneSurrogate(out)) {
      const p = this.path();
      throw new JsonLoadError(
        "lone-surrogate",
        isKey ? `${p}: object key: lone Unicode surrogate is forbidden` : `${p}: lone Unicode surrogate is forbidden`,
        p,
      );
    }
    if (isKey) {
      if (out.length > this.lim.maxKeyChars && codePointLength(out) > this.lim.maxKeyChars) {
        const p = this.path();
        throw new JsonLoadError("key-length", `${p}: object key exceeds the v1 resource limit`, p);
      }
    } else if (out.length > this.lim.maxStringChars && codePointLength(out) > this.lim.maxStringChars) {
      const p = this.path();
      throw new JsonLoadError("string-length", `${p}: string exceeds the v1 resource limit`, p);
    }
    return out;
  }
}

const MAX_SAFE_BIG = BigInt(MAX_SAFE);

function absBigInt(token: string): bigint {
  return BigInt(token.charCodeAt(0) === 0x2d ? token.slice(1) : token);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

