/**
 * A small declarative description of JSON document shapes, so a format is defined once and interpreted twice:
 * `shape-check.ts` validates directly over the strict value model (no zod: the one-shot CLI paths stay light) and
 * `shape-zod.ts` compiles the same definition to zod (for JSON Schema export and zod-based callers).
 *
 * What a string format means, how every violation is worded and in which order problems are found belong to the
 * format, not to the interpreters: each format supplies a {@link ShapeDialect}, used by both interpreters, so they
 * report the same rule text.
 */

export type Seg = string | number;

/** A rule violation relative to the value a rule was attached to. */
export interface Issue {
  path: readonly Seg[];
  message: string;
  /** Short rule name, when the format reports one. */
  rule?: string;
}

/** A cross-field rule over an already shape-checked (typed) value. */
export type Rule = (value: never) => Issue | undefined;

/** What is wrong at one place: a short rule name and the text that follows `<path>: `. */
export interface Problem {
  rule: string;
  message: string;
}

/**
 * A string. `format` is a tag the dialect interprets (`identifier`, `text`, ...); `oneOf` closes the vocabulary
 * (an enum, or a literal with one value).
 */
export interface StringShape<F extends string = string> {
  kind: "string";
  format: F;
  oneOf?: readonly string[];
  maxChars: number;
  /** `""` is accepted as-is (producer default for optional strings). */
  emptyAllowed: boolean;
}

/** An integer lexeme in [min, max]. */
export interface IntShape {
  kind: "int";
  min: number;
  max: number;
  /** Whether a wrong value may be echoed in a message (never for private numbers). */
  echo: boolean;
}

/** A float lexeme in [min, max]; never echoed. */
export interface FloatShape {
  kind: "float";
  min: number;
  max: number;
}

export interface NullableShape<F extends string = string> {
  kind: "nullable";
  inner: Shape<F>;
}

export interface ArrayShape<F extends string = string> {
  kind: "array";
  item: Shape<F>;
  min: number;
  max: number;
  /** `value`: items unique; `{ key }`: objects unique by that member. */
  unique?: "value" | { key: string };
  /** `code-point`: strictly increasing by code point; a list: strictly increasing by position in the list. */
  order?: "code-point" | readonly string[];
  rules?: readonly Rule[];
}

export interface TupleShape<F extends string = string> {
  kind: "tuple";
  items: readonly Shape<F>[];
}

export interface ObjectShape<F extends string = string> {
  kind: "object";
  /** Closed set of members, in check order; all required unless listed in `optional` or `allOrNone` is set. */
  fields: Readonly<Record<string, Shape<F>>>;
  /** Members that may be absent. */
  optional?: readonly string[];
  /** Either no member at all (`{}`) or every member. */
  allOrNone?: boolean;
  rules?: readonly Rule[];
}

/** An object whose keys are a subset of a closed set, all with the same value shape. */
export interface RecordShape<F extends string = string> {
  kind: "record";
  keys: readonly string[];
  value: Shape<F>;
  rules?: readonly Rule[];
}

export type Shape<F extends string = string> =
  | StringShape<F>
  | IntShape
  | FloatShape
  | NullableShape<F>
  | ArrayShape<F>
  | TupleShape<F>
  | ObjectShape<F>
  | RecordShape<F>;

/** A JSON kind name for messages (`missing`: the member is absent). */
export type KindName = "null" | "boolean" | "integer" | "float" | "string" | "array" | "object" | "missing";

/**
 * The format-specific half of checking a shape, shared by both interpreters.
 *
 * `order` fixes which problem is reported when there are several:
 * - `closed-first`: an object's unknown members, then its missing members, are reported before any member is
 *   checked; an array's item count before its items; unknown members are reported together at the object.
 * - `document`: members in shape order, a missing member at its own path, unknown members after every known one
 *   (the first in JS property order, at its own path); an array's items before its item count. This is the first
 *   issue zod reports for the compiled schema.
 */
export interface ShapeDialect<F extends string = string> {
  readonly order: "closed-first" | "document";
  /** The value has the wrong kind, or is missing. */
  kind(shape: Shape<F>, got: KindName): Problem;
  /** A string value against a string shape. */
  string(shape: StringShape<F>, s: string): Problem | undefined;
  /** An integer value outside the range. */
  int(shape: IntShape, n: number): Problem | undefined;
  /** A float value outside the range. */
  float(shape: FloatShape, x: number): Problem | undefined;
  /** A wrong number of items (arrays: outside [min, max]; tuples: not exactly the item count). */
  count(shape: ArrayShape<F> | TupleShape<F>, n: number): Problem | undefined;
  /** Item `index` repeats item `first` (by value, or by the member `key`). */
  duplicate(shape: ArrayShape<F>, index: number, first: number, key: string | undefined): Problem;
  /** Item `index` breaks the array's order. */
  unordered(shape: ArrayShape<F>, index: number): Problem;
  /** Unknown members or keys (in JS property order; `document` order reports the first at its own path). */
  unknown(shape: ObjectShape<F> | RecordShape<F>, keys: readonly string[]): Problem;
  /** Missing members, reported at the object (`closed-first` order, and `allOrNone` objects). */
  missing(shape: ObjectShape<F>, names: readonly string[]): Problem;
  /** What a string format stands for, for JSON Schema descriptions. */
  describe(shape: StringShape<F>): string | undefined;
  /** A problem as the message of a zod issue. */
  text(problem: Problem): string;
}

// ---------------------------------------------------------------------------------------------------------------
// Constructors

export const MAX_INT = 9_007_199_254_740_991;

export function str<F extends string>(format: F, maxChars: number, emptyAllowed = false): StringShape<F> {
  return { kind: "string", format, maxChars, emptyAllowed };
}

/** A closed vocabulary; `format` is the dialect's tag for it. */
export function oneOf<F extends string>(format: F, values: readonly string[]): StringShape<F> {
  return { kind: "string", format, oneOf: values, maxChars: 16_384, emptyAllowed: false };
}

export function int(min = 0, max = MAX_INT): IntShape {
  return { kind: "int", min, max, echo: true };
}

export function float(min: number, max: number): FloatShape {
  return { kind: "float", min, max };
}

export function nullable<F extends string>(inner: Shape<F>): NullableShape<F> {
  return { kind: "nullable", inner };
}

export function array<F extends string>(
  item: Shape<F>,
  opts: { max: number } & Partial<Omit<ArrayShape<F>, "kind" | "item" | "max">>,
): ArrayShape<F> {
  return { kind: "array", item, min: opts.min ?? 0, max: opts.max, unique: opts.unique, order: opts.order, rules: opts.rules };
}

export function tuple<F extends string>(items: readonly Shape<F>[]): TupleShape<F> {
  return { kind: "tuple", items };
}

export function object<F extends string>(
  fields: Record<string, Shape<F>>,
  opts: { optional?: readonly string[]; allOrNone?: boolean; rules?: readonly Rule[] } = {},
): ObjectShape<F> {
  for (const name of opts.optional ?? []) {
    if (!Object.hasOwn(fields, name)) throw new Error(`shape: optional member ${name} is not a member`);
  }
  return { kind: "object", fields, optional: opts.optional, allOrNone: opts.allOrNone, rules: opts.rules };
}

export function record<F extends string>(keys: readonly string[], value: Shape<F>, rules?: readonly Rule[]): RecordShape<F> {
  return { kind: "record", keys, value, rules };
}

/** Declares a typed rule. */
export function rule<T>(fn: (value: T) => Issue | undefined): Rule {
  return fn as Rule;
}

/** Whether an object member may be absent. */
export function isOptional(shape: ObjectShape<string>, name: string): boolean {
  return shape.allOrNone === true || (shape.optional?.includes(name) ?? false);
}

/**
 * Keys in the order JS enumerates an object's own properties: canonical array indexes ascending first, then the
 * other keys in insertion order (the order zod sees, and so the order `document` dialects report).
 */
export function jsPropertyOrder(keys: readonly string[]): string[] {
  const isIndex = (k: string) => /^(0|[1-9][0-9]*)$/.test(k) && Number(k) < 4_294_967_295;
  const indexes = keys.filter(isIndex).sort((a, b) => Number(a) - Number(b));
  return indexes.length === 0 ? [...keys] : [...indexes, ...keys.filter((k) => !isIndex(k))];
}
