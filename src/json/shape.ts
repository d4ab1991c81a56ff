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

/** `true` or `false`; with `value`, only that one (a constant). */
export interface BoolShape {
  kind: "bool";
  value?: boolean;
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

export interface NullableShape<F extends string = string, I extends Shape<F> = Shape<F>> {
  kind: "nullable";
  inner: I;
}

export interface ArrayShape<F extends string = string, I extends Shape<F> = Shape<F>> {
  kind: "array";
  item: I;
  min: number;
  max: number;
  /** `value`: items unique; `{ key }`: objects unique by that member. */
  unique?: "value" | { key: string };
  /** `code-point`: strictly increasing by code point; a list: strictly increasing by position in the list. */
  order?: "code-point" | readonly string[];
  rules?: readonly Rule[];
}

export interface TupleShape<F extends string = string, T extends readonly Shape<F>[] = readonly Shape<F>[]> {
  kind: "tuple";
  items: T;
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
  | BoolShape
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
  /** The value has the wrong kind, or is missing (`value`: the value found, when there is one). */
  kind(shape: Shape<F>, got: KindName, value?: unknown): Problem;
  /** A boolean other than the constant of a boolean shape. */
  bool?(shape: BoolShape, b: boolean): Problem;
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
  /**
   * The part of a string format JSON Schema can state (`pattern`, `minLength`), so the compiled schema carries it;
   * the dialect's `string` check stays the rule.
   */
  facets?(shape: StringShape<F>): { pattern?: RegExp; minLength?: number } | undefined;
  /** A problem as the message of a zod issue. */
  text(problem: Problem): string;
}

// ---------------------------------------------------------------------------------------------------------------
// Constructors. Each returns its shape with the literal parts it was given (vocabularies, members, items), so
// {@link Infer} can read the value type off a definition.

export const MAX_INT = 9_007_199_254_740_991;

export function str<F extends string>(format: F, maxChars: number, emptyAllowed = false): StringShape<F> {
  return { kind: "string", format, maxChars, emptyAllowed };
}

/** A closed vocabulary; `format` is the dialect's tag for it. */
export function oneOf<F extends string, const V extends readonly string[]>(format: F, values: V): StringShape<F> & { oneOf: V } {
  return { kind: "string", format, oneOf: values, maxChars: 16_384, emptyAllowed: false };
}

export function bool(): BoolShape;
export function bool<const V extends boolean>(value: V): BoolShape & { value: V };
export function bool(value?: boolean): BoolShape {
  return value === undefined ? { kind: "bool" } : { kind: "bool", value };
}

export function int(min = 0, max = MAX_INT): IntShape {
  return { kind: "int", min, max, echo: true };
}

export function float(min: number, max: number): FloatShape {
  return { kind: "float", min, max };
}

export function nullable<F extends string, const S extends Shape<F> = Shape<F>>(inner: S): NullableShape<F, S> {
  return { kind: "nullable", inner };
}

export function array<F extends string, const S extends Shape<F> = Shape<F>>(
  item: S,
  opts: { max: number } & Partial<Omit<ArrayShape<F>, "kind" | "item" | "max">>,
): ArrayShape<F, S> {
  return { kind: "array", item, min: opts.min ?? 0, max: opts.max, unique: opts.unique, order: opts.order, rules: opts.rules };
}

export function tuple<F extends string, const T extends readonly Shape<F>[] = readonly Shape<F>[]>(items: T): TupleShape<F, T> {
  return { kind: "tuple", items };
}

/** Type-only marks of an object shape: which members may be absent, and whether it is all-or-none. */
declare const OPTIONAL: unique symbol;
declare const ALL_OR_NONE: unique symbol;

/** An object shape that keeps its members' shapes (`T`), which may be absent (`O`) and whether all-or-none (`A`). */
export type ObjectOf<T, O extends string = never, A extends boolean = false> = Omit<ObjectShape<never>, "fields"> & {
  kind: "object";
  fields: T;
  readonly [OPTIONAL]?: O;
  readonly [ALL_OR_NONE]?: A;
};

/**
 * A closed object. Called without type arguments, the result keeps its members' shapes (for {@link Infer}); with
 * an explicit format argument (`object<F>(...)`), it is a plain {@link ObjectShape}.
 */
export function object<
  F extends string,
  const T extends Record<string, Shape<F>>,
  const O extends keyof T & string = never,
  const A extends boolean = false,
>(fields: T, opts?: { optional?: readonly O[]; allOrNone?: A; rules?: readonly Rule[] }): ObjectOf<T, O, A>;
export function object<F extends string>(
  fields: Record<string, Shape<F>>,
  opts?: { optional?: readonly string[]; allOrNone?: boolean; rules?: readonly Rule[] },
): ObjectShape<F>;
export function object<F extends string>(
  fields: Record<string, Shape<F>>,
  opts: { optional?: readonly string[]; allOrNone?: boolean; rules?: readonly Rule[] } = {},
): ObjectShape<F> {
  for (const name of opts.optional ?? []) {
    if (!Object.hasOwn(fields, name)) throw new Error(`shape: optional member ${name} is not a member`);
  }
  return { kind: "object", fields, optional: opts.optional, allOrNone: opts.allOrNone, rules: opts.rules };
}

export function record<F extends string, const K extends readonly string[] = readonly string[], const V extends Shape<F> = Shape<F>>(
  keys: K,
  value: V,
  rules?: readonly Rule[],
): RecordShape<F> & { keys: K; value: V } {
  return { kind: "record", keys, value, rules };
}

// ---------------------------------------------------------------------------------------------------------------
// The value type of a shape: what the interpreters return for a value that passes it (plain JS; floats and
// integers are numbers; an absent optional member is absent).

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type MembersOf<T, O extends PropertyKey> = Simplify<
  { -readonly [K in Exclude<keyof T, O>]: Infer<T[K]> } & { -readonly [K in Extract<keyof T, O>]?: Infer<T[K]> }
>;

/** The value type of a shape; `unknown` for a shape typed only as {@link Shape} (nothing precise to read). */
export type Infer<S> = Shape<never> extends S ? unknown : InferKnown<S>;

type InferKnown<S> = S extends { kind: "string"; oneOf: readonly (infer V)[] }
  ? V
  : S extends { kind: "string" }
    ? string
    : S extends { kind: "bool"; value: infer V }
      ? V
      : S extends { kind: "bool" }
        ? boolean
        : S extends { kind: "int" } | { kind: "float" }
          ? number
          : S extends { kind: "nullable"; inner: infer I }
            ? Infer<I> | null
            : S extends { kind: "array"; item: infer I }
              ? Infer<I>[]
              : S extends { kind: "tuple"; items: infer T extends readonly unknown[] }
                ? { -readonly [K in keyof T]: Infer<T[K]> }
                : S extends ObjectOf<infer T, infer O, infer A>
                  ? string extends keyof T
                    ? unknown
                    : MembersOf<T, A extends true ? keyof T : O>
                  : S extends { kind: "record"; keys: readonly (infer K extends string)[]; value: infer V }
                    ? { [P in K]?: Infer<V> }
                    : unknown;

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
