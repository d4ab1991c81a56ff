/**
 * How intelligence-pack shapes read (the {@link ShapeDialect} of `intelligence-pack-v1.json`, assessment-v1 §3.1):
 * the pack's string formats and the `PackError` rule name and text of every violation. Problems are found in
 * document order (members in shape order, a missing member at its own path, unknown members last, an array's items
 * before its item count), which is the order the loader has always reported.
 */
import { codePointLength } from "../../src/json/value.js";
import type { KindName, Problem, Shape, ShapeDialect, StringShape } from "../../src/json/shape.js";
import { hasForbiddenControl, isBlank } from "./text-rules.js";
import { IDENTIFIER_LOWER, PACK_SCHEMA } from "./vocabulary.js";

/**
 * `text`: non-blank (Python `str.strip()`), no control characters other than TAB, LF, CR, at most `maxChars` code
 * points. `identifier`: "Identifier (lower)". `https-url`: a `text` that is an https URL with a host.
 * `pack-schema`: exactly {@link PACK_SCHEMA}. `enum`: one of the shape's `oneOf` values.
 */
export type PackFormat = "text" | "identifier" | "https-url" | "pack-schema" | "enum";

const problem = (rule: string, message: string): Problem => ({ rule, message });

function textProblem(s: string, max: number): Problem | undefined {
  if (isBlank(s)) return problem("blank", "must not be empty or blank");
  if (hasForbiddenControl(s)) return problem("control-character", "must not contain control characters other than TAB, LF, CR");
  if (codePointLength(s) > max) return problem("max-length", `must be at most ${max} characters`);
  return undefined;
}

function isHttpsUrl(s: string): boolean {
  if (!s.startsWith("https://")) return false;
  try {
    const u = new URL(s);
    return u.protocol === "https:" && u.hostname !== "" && !/\s/.test(s);
  } catch {
    return false;
  }
}

function enumProblem(shape: StringShape<PackFormat>): Problem {
  return problem("enum", `must be one of ${(shape.oneOf ?? []).join(", ")}`);
}

/** The article and name of what a value must be (`expected a string, got integer`). */
function expected(shape: Shape<PackFormat>): string {
  switch (shape.kind) {
    case "string":
      return "a string";
    case "bool":
      return "a boolean";
    case "int":
    case "float":
      return "a number";
    case "array":
    case "tuple":
      return "a array";
    case "object":
    case "record":
      return "an object";
    case "nullable":
      return expected(shape.inner);
  }
}

/** Kind names in messages: a non-integral number is a `number`. */
function kindName(got: KindName): string {
  return got === "float" ? "number" : got;
}

export const PACK_DIALECT: ShapeDialect<PackFormat> = {
  order: "document",
  kind: (shape, got) => {
    if (shape.kind === "string" && shape.oneOf) return enumProblem(shape);
    if (shape.kind === "nullable") return PACK_DIALECT.kind(shape.inner, got);
    if (got === "missing") return problem("missing-field", "required field is missing");
    return problem("type", `expected ${expected(shape)}, got ${kindName(got)}`);
  },
  string: (shape, s) => {
    if (shape.oneOf) return shape.oneOf.includes(s) ? undefined : enumProblem(shape);
    switch (shape.format) {
      case "enum":
        return enumProblem(shape);
      case "text":
        return textProblem(s, shape.maxChars);
      case "identifier":
        return IDENTIFIER_LOWER.test(s) ? undefined : problem("identifier", "must match ^[a-z][a-z0-9._-]{0,127}$");
      case "https-url":
        return textProblem(s, shape.maxChars) ?? (isHttpsUrl(s) ? undefined : problem("https-url", 'must be an https URL (starting "https://")'));
      case "pack-schema":
        return s === PACK_SCHEMA ? undefined : problem("schema", `must be "${PACK_SCHEMA}"`);
    }
  },
  int: (shape, n) => {
    if (n < shape.min) return problem("range", `must be at least ${shape.min}`);
    if (n > shape.max) return problem("range", `must be at most ${shape.max}`);
    return undefined;
  },
  float: (shape, x) => (x >= shape.min && x <= shape.max ? undefined : problem("range", `must be in [${shape.min}, ${shape.max}]`)),
  count: (shape, n) => {
    const min = shape.kind === "tuple" ? shape.items.length : shape.min;
    const max = shape.kind === "tuple" ? shape.items.length : shape.max;
    if (n < min) return problem("min-items", `must have at least ${min} item${min === 1 ? "" : "s"}`);
    if (n > max) return problem("max-items", `must have at most ${max} items`);
    return undefined;
  },
  duplicate: () => problem("unique", "duplicate entry"),
  unordered: () => problem("order", "entries are out of order"),
  unknown: () => problem("unknown-field", "unknown field"),
  missing: () => problem("missing-field", "required field is missing"),
  describe: () => undefined,
  text: (p) => `${p.message} (${p.rule})`,
};
