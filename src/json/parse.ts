/**
 * Strict JSON loader over bytes (capsule-v1 §3).
 *
 * Enforces: strict UTF-8 without BOM, CPython-strict grammar, NaN/Infinity rejection, float overflow, the I-JSON
 * integer range, duplicate keys (after escape decoding), lone surrogates, nesting depth, member/item counts and
 * string/key lengths, all while parsing (no unbounded recursion: containers are parsed with an explicit stack).
 * The lexical difference between `1` (integer) and `1.0` (float) is kept.
 */
import { isAscii, isUtf8 } from "node:buffer";
import { pyRepr } from "./echo.js";
import { isDigit, NumberToken, positionText, skipWhitespace, stringRunEnd, wordAt } from "./tokenizer.js";
import { codePointLength, hasLoneSurrogate, JsonFloat, type JsonObject, type JsonValue, MAX_SAFE, pathOf } from "./value.js";

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
  let bytes: Buffer;
  // The text itself, when every character is ASCII: strings are then sliced from it rather than decoded one by one.
  let ascii: string | undefined;
  if (typeof input === "string") {
    // UTF-8 takes at least a byte per UTF-16 unit: a string longer than the cap is over it without encoding it.
    if (input.length > lim.maxBytes) throw new JsonLoadError("size", "JSON input exceeds the v1 byte limit");
    if (hasLoneSurrogate(input)) throw new JsonLoadError("utf8", "JSON is not UTF-8: lone surrogate in input text");
    if (input.charCodeAt(0) === 0xfeff) {
      throw new JsonLoadError("bom", "invalid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)");
    }
    bytes = Buffer.from(input, "utf8");
    if (bytes.length > lim.maxBytes) throw new JsonLoadError("size", "JSON input exceeds the v1 byte limit");
    if (bytes.length === input.length) ascii = input;
    if (parseObserver !== undefined) parseObserver(input);
  } else {
    if (input.length > lim.maxBytes) throw new JsonLoadError("size", "JSON input exceeds the v1 byte limit");
    bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
    if (isAscii(bytes)) ascii = bytes.toString("latin1");
    else checkStrictUtf8(bytes);
    if (parseObserver !== undefined) parseObserver(ascii ?? bytes.toString("utf8"));
  }
  return new Parser(bytes, ascii, lim).parseDocument();
}

/** Rejects bytes that are not strict UTF-8 or that start with a BOM, with the loader's messages. */
export function checkStrictUtf8(bytes: Uint8Array): void {
  if (!isUtf8(bytes)) {
    try {
      decoder.decode(bytes);
    } catch (e) {
      throw new JsonLoadError("utf8", `JSON is not UTF-8: ${(e as Error).message}`);
    }
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    throw new JsonLoadError("bom", "invalid JSON: Unexpected UTF-8 BOM (decode using utf-8-sig)");
  }
}

type Frame =
  | { kind: "array"; value: JsonValue[] }
  | { kind: "object"; value: JsonObject; key: string };

/** Builds values from the tokens of {@link ./tokenizer.ts}, over the document's bytes (offsets are byte offsets). */
class Parser {
  private i = 0;
  /** Path segments of the value being parsed: strings are keys, numbers are indexes. */
  private readonly segs: (string | number)[] = [];
  private readonly num = new NumberToken();

  constructor(
    private readonly b: Buffer,
    private readonly ascii: string | undefined,
    private readonly lim: StrictJsonLimits,
  ) {}

  parseDocument(): JsonValue {
    this.i = skipWhitespace(this.b, this.i);
    const v = this.parseValue();
    this.i = skipWhitespace(this.b, this.i);
    if (this.i < this.b.length) this.syntax("Extra data");
    return v;
  }

  private path(): string {
    return pathOf(this.lim.rootPath, this.segs);
  }

  private syntax(detail: string): never {
    throw new JsonLoadError("syntax", `invalid JSON: ${detail}: ${positionText(this.b, this.i)}`, undefined, this.path());
  }

  /** A failure whose message names no path, located at the current path. */
  private scalar(rule: JsonLoadRule, message: string): never {
    throw new JsonLoadError(rule, message, undefined, this.path());
  }

  /** The text of bytes [start, end), which hold no quote, backslash or control character. */
  private text(start: number, end: number): string {
    return this.ascii !== undefined ? this.ascii.slice(start, end) : this.b.toString("utf8", start, end);
  }

  private ws(): void {
    this.i = skipWhitespace(this.b, this.i);
  }

  /** Parses any value with an explicit container stack (no recursion). */
  private parseValue(): JsonValue {
    const b = this.b;
    const stack: Frame[] = [];
    let value: JsonValue;
    for (;;) {
      // --- parse the start of a value at the current position ---
      if (stack.length > this.lim.maxDepth) {
        throw new JsonLoadError("depth", `${this.path()}: JSON nesting exceeds ${this.lim.maxDepth}`, this.path());
      }
      const c = b[this.i];
      if (c === 0x5b /* [ */) {
        this.i++;
        this.ws();
        if (b[this.i] === 0x5d) {
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
        if (b[this.i] === 0x7d) {
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
        const d = b[this.i];
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
    if (this.b[this.i] !== 0x22) {
      this.syntax("Expecting property name enclosed in double quotes");
    }
    const key = this.parseString(true);
    if (obj.has(key)) {
      const at = this.path();
      throw new JsonLoadError("duplicate-key", `duplicate JSON key: ${pyRepr(key)}`, undefined, `${at}.${key}`);
    }
    this.ws();
    if (this.b[this.i] !== 0x3a) this.syntax("Expecting ':' delimiter");
    this.i++;
    this.ws();
    return key;
  }

  private parseScalar(): JsonValue {
    const b = this.b;
    const c = b[this.i];
    if (c === 0x22) return this.parseString(false);
    if (c === 0x74 && wordAt(b, this.i, "true")) {
      this.i += 4;
      return true;
    }
    if (c === 0x66 && wordAt(b, this.i, "false")) {
      this.i += 5;
      return false;
    }
    if (c === 0x6e && wordAt(b, this.i, "null")) {
      this.i += 4;
      return null;
    }
    if (c === 0x4e && wordAt(b, this.i, "NaN")) {
      this.scalar("non-finite", "non-finite JSON number is forbidden: NaN");
    }
    if (c === 0x49 && wordAt(b, this.i, "Infinity")) {
      this.scalar("non-finite", "non-finite JSON number is forbidden: Infinity");
    }
    if (c === 0x2d && wordAt(b, this.i, "-Infinity")) {
      this.scalar("non-finite", "non-finite JSON number is forbidden: -Infinity");
    }
    if (c === 0x2d || isDigit(c)) return this.parseNumber();
    this.syntax("Expecting value");
  }

  private parseNumber(): JsonValue {
    const b = this.b;
    const num = this.num;
    const start = this.i;
    if (!num.scan(b, start)) {
      this.i = num.failAt;
      this.syntax(num.failure);
    }
    const end = num.end;
    this.i = end;
    if (num.isFloat) {
      const token = b.toString("latin1", start, end);
      const value = Number(token);
      if (!Number.isFinite(value)) {
        this.scalar("float-overflow", `JSON number overflows to a non-finite value: ${token}`);
      }
      return new JsonFloat(value, token);
    }
    const digits = num.intDigits;
    if (digits > 16) {
      this.scalar("integer-range", "JSON integer exceeds the I-JSON interoperable range");
    }
    if (digits === 16) {
      // Exact comparison (no lossy conversion) for the only digit count that can cross the limit.
      const token = b.toString("latin1", num.intStart, end);
      if (BigInt(token) > MAX_SAFE_BIG) {
        this.scalar("integer-range", "JSON integer exceeds the I-JSON interoperable range");
      }
    }
    // Up to 16 digits within the range: exact in a double, digit by digit.
    let n = 0;
    for (let k = num.intStart; k < end; k++) n = n * 10 + (b[k] - 0x30);
    return start === num.intStart || n === 0 ? n : -n; // integer -0 is the integer 0
  }

  /** Parses a string token starting at the opening quote. */
  private parseString(isKey: boolean): string {
    const b = this.b;
    let i = this.i + 1;
    let out = "";
    let sawEscapedSurrogate = false;
    for (;;) {
      const runEnd = stringRunEnd(b, i);
      if (runEnd > i) out += this.text(i, runEnd);
      i = runEnd;
      if (i >= b.length) {
        this.syntax("Unterminated string starting at");
      }
      const c = b[i];
      if (c === 0x22) break;
      if (c < 0x20) {
        this.i = i;
        this.syntax("Invalid control character at");
      }
      // A backslash.
      const e = b[i + 1];
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
          const unit = hex4(b, i + 2);
          if (unit < 0) {
            this.i = i;
            this.syntax("Invalid \\uXXXX escape");
          }
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
    }
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

/** The value of four hex digits at `at`, or -1 when they are not four hex digits. */
function hex4(b: Uint8Array, at: number): number {
  let v = 0;
  for (let k = at; k < at + 4; k++) {
    const c = b[k];
    let d: number;
    if (c >= 0x30 && c <= 0x39) d = c - 0x30;
    else if (c >= 0x61 && c <= 0x66) d = c - 0x57;
    else if (c >= 0x41 && c <= 0x46) d = c - 0x37;
    else return -1;
    v = v * 16 + d;
  }
  return v;
}

const MAX_SAFE_BIG = BigInt(MAX_SAFE);



