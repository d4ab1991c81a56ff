/**
 * How regional index shapes read (the {@link ShapeDialect} of `service.regional-captured-index.v1`): what each
 * string format means, the rule name and text of every violation (`<path>: expected ..., got <echo>`, the JSON
 * Schema keyword as the rule), and document order (members in table order, unknown members after them, each at
 * its own path). `index-shape.ts` is written with it.
 */
import type { BoolShape, IntShape, KindName, Problem, Shape, ShapeDialect, StringShape } from "../../src/json/shape.js";
import { echo } from "../../src/json/echo.js";
import { kindOf, type JsonValue } from "../../src/json/value.js";
import {
  EVENT_ID_PATTERN,
  PUBLIC_URL_PATTERN,
  SHA256_PATTERN,
  SOURCE_ID_PATTERN,
  TRANSLATION_ID_PATTERN,
  VERSION_ID_PATTERN,
} from "./constants.js";
import { shortEcho } from "./findings.js";
import { isRfc3339DateTime } from "./rfc3339.js";
import { isIri, isUri } from "./uri.js";

/**
 * String formats: `text` is non-empty; `any` is any string; `vocabulary` is a closed set (`oneOf`); the pattern
 * formats match the specification's patterns; `date-time`, `uri` and `iri` are RFC 3339, 3986 and 3987.
 */
export type IndexFormat =
  | "text"
  | "any"
  | "vocabulary"
  | "sha256"
  | "source-id"
  | "event-id"
  | "version-id"
  | "translation-id"
  | "public-url"
  | "date-time"
  | "uri"
  | "iri";

const PATTERNS: Partial<Record<IndexFormat, RegExp>> = {
  sha256: SHA256_PATTERN,
  "source-id": SOURCE_ID_PATTERN,
  "event-id": EVENT_ID_PATTERN,
  "version-id": VERSION_ID_PATTERN,
  "translation-id": TRANSLATION_ID_PATTERN,
  "public-url": PUBLIC_URL_PATTERN,
};

/** Formats checked by a function; the rule is the format's name. */
const CHECKS: Partial<Record<IndexFormat, readonly [(s: string) => boolean, string]>> = {
  "date-time": [isRfc3339DateTime, "expected an RFC 3339 date-time"],
  uri: [isUri, "expected an absolute URI (RFC 3986)"],
  iri: [isIri, "expected an absolute IRI (RFC 3987)"],
};

/** What was found, in messages: `string 'x'`, `integer 5`, `boolean True`, `an array`, `nothing`. */
export function gotText(v: unknown): string {
  if (v === undefined) return "nothing";
  const kind = kindOf(v as JsonValue);
  return kind === "array" || kind === "object" ? `an ${kind}` : `${kind} ${shortEcho(v as JsonValue)}`;
}

function constText(v: string | number | boolean): string {
  return typeof v === "string" ? echo(v) : String(v);
}

const problem = (rule: string, message: string): Problem => ({ rule, message });

function vocabularyProblem(values: readonly string[], got: unknown): Problem {
  return values.length === 1
    ? problem("const", `expected the constant ${constText(values[0])}, got ${gotText(got)}`)
    : problem("enum", `expected one of ${values.map(constText).join(", ")}, got ${gotText(got)}`);
}

const constProblem = (value: number | boolean, got: unknown) => problem("const", `expected the constant ${constText(value)}, got ${gotText(got)}`);

/** An integer shape with min = max is a constant (`missing_records`: 0). */
const isConstInt = (shape: IntShape) => shape.min === shape.max;

const KIND_NAMES: Readonly<Record<Shape["kind"], string>> = {
  string: "string",
  bool: "boolean",
  int: "integer",
  float: "number",
  nullable: "",
  array: "array",
  tuple: "array",
  object: "object",
  record: "object",
};

function kindProblem(shape: Shape<IndexFormat>, got: KindName, value: unknown): Problem {
  if (got === "missing") return problem("required", "missing required member");
  switch (shape.kind) {
    case "nullable":
      return kindProblem(shape.inner, got, value);
    case "string":
      if (shape.oneOf) return vocabularyProblem(shape.oneOf, value);
      break;
    case "bool":
      if (shape.value !== undefined) return constProblem(shape.value, value);
      break;
    case "int":
      if (got === "float") return problem("integer", `expected integer, got ${gotText(value)}`);
      if (isConstInt(shape)) return constProblem(shape.min, value);
      break;
  }
  return problem("type", `expected ${KIND_NAMES[shape.kind]}, got ${gotText(value)}`);
}

function stringProblem(shape: StringShape<IndexFormat>, s: string): Problem | undefined {
  if (shape.oneOf) return shape.oneOf.includes(s) ? undefined : vocabularyProblem(shape.oneOf, s);
  switch (shape.format) {
    case "any":
    case "vocabulary":
      return undefined;
    case "text":
      return s.length > 0 ? undefined : problem("min-length", `expected at least 1 character(s), got ${gotText(s)}`);
    case "date-time":
    case "uri":
    case "iri": {
      const [holds, rule] = CHECKS[shape.format]!;
      return holds(s) ? undefined : problem(shape.format, `${rule}, got ${gotText(s)}`);
    }
    default: {
      const pattern = PATTERNS[shape.format]!;
      return pattern.test(s) ? undefined : problem("pattern", `does not match ${String(pattern)}: got ${gotText(s)}`);
    }
  }
}

export const INDEX_DIALECT: ShapeDialect<IndexFormat> = {
  order: "document",
  kind: kindProblem,
  bool: (shape: BoolShape, b: boolean) => constProblem(shape.value ?? !b, b),
  string: stringProblem,
  int: (shape, n) => {
    if (isConstInt(shape)) return n === shape.min ? undefined : constProblem(shape.min, n);
    return n >= shape.min && n <= shape.max ? undefined : problem("minimum", `expected an integer >= ${shape.min}, got ${gotText(n)}`);
  },
  float: () => undefined,
  count: (shape, n) =>
    shape.kind === "array" && n < shape.min ? problem("min-items", `expected at least ${shape.min} item(s), got ${n}`) : undefined,
  duplicate: (_shape, _index, first) => problem("unique-items", `duplicates item ${first} (items must be unique)`),
  unordered: (_shape, index) => problem("order", `item ${index} is out of order`),
  unknown: () => problem("additional-property", "member is not allowed here (no extra properties)"),
  missing: (_shape, names) => problem("required", `missing required member(s): ${names.join(", ")}`),
  describe: (shape) => CHECKS[shape.format]?.[1].replace(/^expected an? /, ""),
  facets: (shape) => {
    if (shape.format === "text") return { minLength: 1 };
    const pattern = PATTERNS[shape.format];
    return pattern === undefined ? undefined : { pattern };
  },
  text: (p) => p.message,
};
