/**
 * How assessment shapes read (the {@link ShapeDialect} of `scamshield-provenance/v1`): the string formats of the
 * format, the text of every violation (`expected ... (got ...)`), closed-first check order, and the constructors
 * `assessment-shape.ts` is written with. Values that could be private are never echoed: only vocabulary-looking
 * strings, snake_case keys and integers marked `echo`.
 */
import { compareCodePoints, codePointLength, pathOf } from "../../src/json/value.js";
import * as G from "../../src/json/shape.js";
import type { FloatShape, IntShape, KindName, Problem, Seg, ShapeDialect } from "../../src/json/shape.js";
import {
  firstControlOrFormat,
  HEX24,
  HEX64,
  IDENTIFIER_LOWER,
  isHttpsUrl,
  isPythonBlank,
  isUtcTimestamp,
} from "./text-rules.js";

export { float, int, MAX_INT, rule } from "../../src/json/shape.js";
export type { Issue, KindName, Rule, Seg } from "../../src/json/shape.js";

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

export type StringShape = G.StringShape<StringFormat>;
export type Shape = G.Shape<StringFormat>;
export type ArrayShape = G.ArrayShape<StringFormat>;
export type ObjectShape = G.ObjectShape<StringFormat>;
export type { FloatShape, IntShape };

// ---------------------------------------------------------------------------------------------------------------
// Constructors with the assessment's defaults

// Each keeps the literal parts it is given (vocabularies, members, items) in its return type, as the generic
// constructors of `src/json/shape.ts` do, so `Infer` reads the assessment's value types off `assessment-shape.ts`.

export function str(format: StringFormat, maxChars = 16_384, emptyAllowed = false): StringShape {
  return G.str(format, maxChars, emptyAllowed);
}

export function oneOf<const V extends readonly string[]>(values: V): StringShape & { oneOf: V } {
  return G.oneOf("raw", values);
}

export function literal<const V extends string>(value: V): StringShape & { oneOf: readonly [V] } {
  return oneOf([value] as const);
}

/** A tuple of fixed strings, in order (`values` of a `const` tuple type give a tuple of literals). */
export function literals<const V extends readonly string[]>(
  values: V,
): G.TupleShape<StringFormat, { readonly [K in keyof V]: StringShape & { oneOf: readonly [V[K]] } }> {
  return G.tuple<StringFormat, { readonly [K in keyof V]: StringShape & { oneOf: readonly [V[K]] } }>(
    values.map((v) => literal(v)) as { readonly [K in keyof V]: StringShape & { oneOf: readonly [V[K]] } },
  );
}

/** The members `keys`, every one with the same shape (a closed object's fields). */
export function sameShapeFor<const K extends readonly string[], S extends Shape>(keys: K, shape: S): { readonly [P in K[number]]: S } {
  return Object.fromEntries(keys.map((k) => [k, shape])) as { readonly [P in K[number]]: S };
}

export function nullable<const S extends Shape>(inner: S): G.NullableShape<StringFormat, S> {
  return G.nullable<StringFormat, S>(inner);
}

export function array<const S extends Shape>(item: S, opts: Parameters<typeof G.array<StringFormat>>[1]): G.ArrayShape<StringFormat, S> {
  return G.array<StringFormat, S>(item, opts);
}

export function tuple<const T extends readonly Shape[]>(items: T): G.TupleShape<StringFormat, T> {
  return G.tuple<StringFormat, T>(items);
}

export function object<const T extends Record<string, Shape>, const O extends keyof T & string = never, const A extends boolean = false>(
  fields: T,
  opts?: { optional?: readonly O[]; allOrNone?: A; rules?: readonly G.Rule[] },
): G.ObjectOf<T, O, A> {
  return G.object<StringFormat, T, O, A>(fields, opts);
}

export function record<const K extends readonly string[], const V extends Shape>(
  keys: K,
  value: V,
  rules?: readonly G.Rule[],
): G.RecordShape<StringFormat> & { keys: K; value: V } {
  return G.record<StringFormat, K, V>(keys, value, rules);
}

// ---------------------------------------------------------------------------------------------------------------
// Leaf problems (message text after `<path>: `)

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

/**
 * Problem of a string value against a string shape, or undefined. `echo`: a value outside a closed vocabulary is
 * quoted when it looks like a vocabulary word (assessments, as the reference validator does); never for judgements.
 */
export function stringProblem(shape: StringShape, s: string, echo = true): string | undefined {
  if (shape.oneOf) {
    if (shape.oneOf.includes(s)) return undefined;
    const expected =
      shape.oneOf.length === 1 ? `'${shape.oneOf[0]}'` : `one of ${shape.oneOf.join(", ")}`;
    return `expected ${expected} (got ${echo ? echoString(s) : `a string of ${codePointLength(s)} characters`})`;
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

/** What a value of `shape` must be, in `expected ...` messages. */
function expectedKind(shape: Shape): string {
  switch (shape.kind) {
    case "string":
      return "string";
    case "bool":
      return "boolean";
    case "int":
      return `integer in [${shape.min}, ${shape.max}]`;
    case "float":
      return `float in [${shape.min}, ${shape.max}]`;
    case "nullable":
      return expectedKind(shape.inner);
    case "tuple":
      return `array of ${shape.items.length} items`;
    case "array":
      return "array";
    case "object":
    case "record":
      return "object";
  }
}

/** Every assessment problem has the rule `schema`; the text says which. */
const schema = (message: string): Problem => ({ rule: "schema", message });
const maybe = (message: string | undefined): Problem | undefined => (message === undefined ? undefined : schema(message));

export const ASSESSMENT_DIALECT: ShapeDialect<StringFormat> = {
  order: "closed-first",
  kind: (shape, got) => schema(typeProblem(expectedKind(shape), got)),
  string: (shape, s) => maybe(stringProblem(shape, s)),
  int: (shape, n) => maybe(intProblem(shape, "integer", n)),
  float: (shape, x) => maybe(floatProblem(shape, "float", x)),
  count: (shape, n) => {
    if (shape.kind === "tuple") {
      return n === shape.items.length ? undefined : schema(`expected exactly ${shape.items.length} items (got ${n})`);
    }
    if (n > shape.max) return schema(`expected at most ${shape.max} items (got ${n})`);
    if (n < shape.min) return schema(`expected at least ${shape.min} item${shape.min === 1 ? "" : "s"} (got ${n})`);
    return undefined;
  },
  duplicate: (_shape, _index, first, key) => schema(`duplicate ${key ?? "item"} (same as item ${first})`),
  unordered: (shape) =>
    schema(
      shape.order === "code-point"
        ? "items must be sorted by code point without duplicates"
        : `items must be unique and in the order ${(shape.order ?? []).join(", ")}`,
    ),
  unknown: (shape, keys) => {
    const sorted = echoKeys([...keys].sort(compareCodePoints));
    return shape.kind === "record"
      ? schema(`unknown key(s): ${sorted} (allowed: ${shape.keys.join(", ")})`)
      : schema(`unknown field(s): ${sorted} (closed object; allowed: ${Object.keys(shape.fields).join(", ")})`);
  },
  missing: (shape, names) =>
    schema(
      shape.allOrNone
        ? `expected {} or all of ${Object.keys(shape.fields).join(", ")} (missing: ${names.join(", ")})`
        : `missing field(s): ${names.join(", ")}`,
    ),
  describe: (shape) => formatRule(shape.format) || undefined,
  text: (problem) => problem.message,
};

/**
 * A lone (unpaired) UTF-16 surrogate: with the `u` flag a pair is one code point, so only unpaired halves match.
 * UTF-8 encoding replaces one with U+FFFD, so two different strings would hash (or key) alike: the judgement's
 * strings and the message text (capsules/assess/message-text.ts) refuse it with {@link NOT_WELL_FORMED}.
 */
export const LONE_SURROGATE = /\p{Cs}/u;
export const NOT_WELL_FORMED = "not well-formed Unicode (a lone surrogate; UTF-16 halves must come in pairs)";

/**
 * The dialect of a client's judgement (capsules/assess/judgement.ts): the assessment rules, but no string value and
 * no unknown key of the client is ever quoted. A judgement sits beside a private message, and a value put in the
 * wrong field (a handle as a signal name, a phone number as a key) would otherwise come back in an error.
 */
export const JUDGEMENT_DIALECT: ShapeDialect<StringFormat> = {
  ...ASSESSMENT_DIALECT,
  // A judgement's strings are hashed or keyed as UTF-8 (a source becomes a keyed pseudonym): lone surrogates are
  // refused first, as in the message text.
  string: (shape, s) => maybe(LONE_SURROGATE.test(s) ? NOT_WELL_FORMED : stringProblem(shape, s, false)),
  unknown: (shape, keys) => {
    const allowed = shape.kind === "record" ? shape.keys : Object.keys(shape.fields);
    return schema(`${keys.length} unknown ${shape.kind === "record" ? "key(s)" : "field(s)"} (names not shown; allowed: ${allowed.join(", ")})`);
  },
};

/** A path below the assessment root as text (`assessment.hypotheses[0].label`). */
export function assessmentPath(segs: readonly Seg[]): string {
  return pathOf("assessment", segs);
}
