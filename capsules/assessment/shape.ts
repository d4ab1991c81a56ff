/**
 * A small declarative description of JSON shapes: the single definition of the assessment format, interpreted by
 * `shape-check.ts` (the fast validator over the strict value model) and compiled to zod by `schema.ts`.
 *
 * Leaf problems are computed here, once, so both interpreters report the same rule text.
 */
import { codePointLength } from "../../src/json/value.js";
import {
  firstControlOrFormat,
  HEX24,
  HEX64,
  IDENTIFIER_LOWER,
  isHttpsUrl,
  isPythonBlank,
  isUtcTimestamp,
} from "./text-rules.js";

export type Seg = string | number;

/** A rule violation relative to the value a rule was attached to. */
export interface Issue {
  path: readonly Seg[];
  message: string;
}

/** A cross-field rule over an already shape-checked (typed) value. */
export type Rule = (value: never) => Issue | undefined;

/**
 * String formats. `text`: non-blank (Python whitespace), no control/format/bidi characters. `pack-text`: a literal
 * copied from the intelligence pack (assessment-v1 §3.1 string rule: non-blank, no control characters other than
 * TAB, LF, CR; format characters such as ZWJ in Indic terms allowed); private, checked against the pack later.
 * `raw`: non-empty, any characters (private fragments and provider warnings that never leave the capsule).
 */
export type StringFormat =
  | "hex24"
  | "hex64"
  | "identifier"
  | "timestamp"
  | "https-url"
  | "artifact-uri"
  | "text"
  | "pack-text"
  | "raw";

export interface StringShape {
  kind: "string";
  format: StringFormat;
  /** Closed vocabulary (an enum, or a literal with one value). */
  oneOf?: readonly string[];
  maxChars: number;
  /** `""` is accepted as-is (producer default for optional strings). */
  emptyAllowed: boolean;
}

export interface IntShape {
  kind: "int";
  min: number;
  max: number;
  /** Whether a wrong value may be echoed (scores: yes; nothing private is an integer). */
  echo: boolean;
}

/** A float lexeme (J5/J10) in [min, max]; never echoed (monetary values are private). */
export interface FloatShape {
  kind: "float";
  min: number;
  max: number;
}

export interface NullableShape {
  kind: "nullable";
  inner: Shape;
}

export interface ArrayShape {
  kind: "array";
  item: Shape;
  min: number;
  max: number;
  /** `value`: items unique; `{ key }`: objects unique by that member. */
  unique?: "value" | { key: string };
  /** `code-point`: strictly increasing by code point; a list: strictly increasing by position in the list. */
  order?: "code-point" | readonly string[];
  rules?: readonly Rule[];
}

export interface TupleShape {
  kind: "tuple";
  items: readonly Shape[];
}

export interface ObjectShape {
  kind: "object";
  /** Closed set of members, in check order; all required unless `allOrNone`. */
  fields: Readonly<Record<string, Shape>>;
  /** Either no member at all (`{}`) or every member. */
  allOrNone?: boolean;
  rules?: readonly Rule[];
}

/** An object whose keys are a subset of a closed set, all with the same value shape. */
export interface RecordShape {
  kind: "record";
  keys: readonly string[];
  value: Shape;
  rules?: readonly Rule[];
}

export type Shape = StringShape | IntShape | FloatShape | NullableShape | ArrayShape | TupleShape | ObjectShape | RecordShape;

// ---------------------------------------------------------------------------------------------------------------
// Constructors

export const MAX_INT = 9_007_199_254_740_991;

export function str(format: StringFormat, maxChars = 16_384, emptyAllowed = false): StringShape {
  return { kind: "string", format, maxChars, emptyAllowed };
}

export function oneOf(values: readonly string[]): StringShape {
  return { kind: "string", format: "raw", oneOf: values, maxChars: 16_384, emptyAllowed: false };
}

export function literal(value: string): StringShape {
  return oneOf([value]);
}

export function int(min = 0, max = MAX_INT): IntShape {
  return { kind: "int", min, max, echo: true };
}

export function float(min: number, max: number): FloatShape {
  return { kind: "float", min, max };
}

export function nullable(inner: Shape): NullableShape {
  return { kind: "nullable", inner };
}

export function array(item: Shape, opts: Partial<Omit<ArrayShape, "kind" | "item">> = {}): ArrayShape {
  return { kind: "array", item, min: opts.min ?? 0, max: opts.max ?? 512, unique: opts.unique, order: opts.order, rules: opts.rules };
}

export function tuple(items: readonly Shape[]): TupleShape {
  return { kind: "tuple", items };
}

export function object(fields: Record<string, Shape>, opts: { allOrNone?: boolean; rules?: readonly Rule[] } = {}): ObjectShape {
  return { kind: "object", fields, allOrNone: opts.allOrNone, rules: opts.rules };
}

export function record(keys: readonly string[], value: Shape, rules?: readonly Rule[]): RecordShape {
  return { kind: "record", keys, value, rules };
}

/** Declares a typed rule. */
export function rule<T>(fn: (value: T) => Issue | undefined): Rule {
  return fn as Rule;
}

// ---------------------------------------------------------------------------------------------------------------
// Leaf problems (message text after `<path>: `), shared by both interpreters.

/** A JSON kind name for messages (`integer`, `float`, `string`, ...). */
export type KindName = "null" | "boolean" | "integer" | "float" | "string" | "array" | "object" | "missing";

/** A string value is echoed only when it has the look of a vocabulary word: never an IOC, hash or free text. */
function echoString(s: string): string {
  if (/^[A-Z][A-Z0-9_]{0,39}$/.test(s) || /^[a-z][a-z0-9_]{0,39}$/.test(s) || /^[a-z][a-z-]{0,39}\/v[0-9]{1,3}$/.test(s)) {
    return `'${s}'`;
  }
  return `a string of ${codePointLength(s)} characters`;
}

const FORMAT_RULE: Readonly<Record<StringFormat, string>> = {
  hex24: "expected 24 lowercase hex characters",
  hex64: "expected 64 lowercase hex characters",
  identifier: "expected an identifier matching ^[a-z][a-z0-9._-]{0,127}$",
  timestamp: "expected a UTC timestamp YYYY-MM-DDTHH:MM:SS[.ffffff]Z with a real date and time",
  "https-url": "expected an https:// URL without whitespace or control characters",
  "artifact-uri": "expected \"\", an https:// URL or a urn: without whitespace or control characters",
  text: "",
  "pack-text": "",
  raw: "",
};

/** The rule a string format stands for (for docs and JSON Schema descriptions). */
export function formatRule(format: StringFormat): string {
  return FORMAT_RULE[format];
}

function formatHolds(format: StringFormat, s: string): boolean {
  switch (format) {
    case "hex24":
      return HEX24.test(s);
    case "hex64":
      return HEX64.test(s);
    case "identifier":
      return IDENTIFIER_LOWER.test(s);
    case "timestamp":
      return isUtcTimestamp(s);
    case "https-url":
      return isHttpsUrl(s);
    case "artifact-uri":
      return isHttpsUrl(s) || (/^urn:[a-z0-9][a-z0-9-]{0,31}:\S+$/i.test(s) && firstControlOrFormat(s) === undefined);
    case "text":
    case "pack-text":
    case "raw":
      return true;
  }
}

export function typeProblem(expected: string, got: KindName): string {
  return got === "missing" ? `missing (expected ${expected})` : `expected ${expected} (got ${got})`;
}

/** Problem of a string value against a string shape, or undefined. */
export function stringProblem(shape: StringShape, s: string): string | undefined {
  if (shape.oneOf) {
    if (shape.oneOf.includes(s)) return undefined;
    const expected =
      shape.oneOf.length === 1 ? `'${shape.oneOf[0]}'` : `one of ${shape.oneOf.join(", ")}`;
    return `expected ${expected} (got ${echoString(s)})`;
  }
  if (s === "" && shape.emptyAllowed) return undefined;
  const n = s.length > shape.maxChars ? codePointLength(s) : s.length;
  if (n > shape.maxChars) return `expected at most ${shape.maxChars} characters (got ${n})`;
  if (shape.format === "raw") return s.length === 0 ? "expected a non-empty string" : undefined;
  if ((shape.format === "text" || shape.format === "pack-text") && isPythonBlank(s)) return "expected a non-blank string";
  if (shape.format === "pack-text") {
    const control = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/.exec(s);
    return control ? `control character U+${control[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")} is forbidden` : undefined;
  }
  const bad = firstControlOrFormat(s);
  if (bad !== undefined) return `control, format or bidi character ${bad} is forbidden`;
  if (!formatHolds(shape.format, s)) return FORMAT_RULE[shape.format];
  return undefined;
}

export function intProblem(shape: IntShape, got: KindName, n?: number): string | undefined {
  const expected = `integer in [${shape.min}, ${shape.max}]`;
  if (got !== "integer" || n === undefined) return typeProblem(expected, got);
  if (n < shape.min || n > shape.max) return `expected ${expected} (got ${shape.echo ? String(n) : "a value outside"})`;
  return undefined;
}

export function floatProblem(shape: FloatShape, got: KindName, x?: number): string | undefined {
  const expected = `float in [${shape.min}, ${shape.max}]`;
  if (got !== "float" || x === undefined) return typeProblem(expected, got);
  if (!(x >= shape.min && x <= shape.max)) return `expected ${expected} (got a value outside the range)`;
  return undefined;
}

/** Key names are echoed only when they look like snake_case field names (never a mixed-case token or a number). */
export const SAFE_KEY = /^[a-z_][a-z0-9_]{0,63}$/;

export function echoKeys(keys: readonly string[]): string {
  return keys.map((k) => (SAFE_KEY.test(k) ? k : `<key of ${codePointLength(k)} characters>`)).join(", ");
}
