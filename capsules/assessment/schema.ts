/**
 * The assessment format (assessment-v1 §2) as a zod v4 schema, compiled from the one shape definition in
 * `assessment-shape.ts`: strict objects at every level, closed enums, integer scores, the same leaf rules and the
 * same cross-field rules (with the same messages) as the fast validator.
 *
 * Use it where a zod schema is wanted (MCP tool input, JSON Schema export). It sees plain JSON, so it cannot tell
 * `60` from `60.0`: the intake path is {@link parseAssessment}, which works on the strict value model, enforces
 * integer lexemes (J11) and does not load zod.
 */
import { z } from "zod";
import { toPlain } from "../../src/json/plain.js";
import type { JsonValue } from "../../src/json/value.js";
import { ASSESSMENT_SHAPE } from "./assessment-shape.js";
import {
  echoKeys,
  floatProblem,
  formatRule,
  intProblem,
  stringProblem,
  typeProblem,
  type KindName,
  type Rule,
  type Shape,
} from "./shape.js";
import { arrayProblem } from "./shape-check.js";
import type { Assessment } from "./types.js";

export { AssessmentError } from "./errors.js";
export { parseAssessment, ASSESSMENT_MAX_BYTES, type ParsedAssessment } from "./parse-assessment.js";

type Ctx = z.RefinementCtx;

/** Kind of a plain JSON value as seen by zod (every number counts as an integer when integral). */
function kindName(v: unknown): KindName {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "float";
  if (typeof v === "boolean" || typeof v === "string") return typeof v as KindName;
  return "object";
}

function runRules(rules: readonly Rule[] | undefined, value: unknown, ctx: Ctx): void {
  for (const r of rules ?? []) {
    const issue = (r as (v: unknown) => { path: readonly (string | number)[]; message: string } | undefined)(value);
    if (issue) {
      ctx.addIssue({ code: "custom", message: issue.message, path: [...issue.path] });
      return;
    }
  }
}

function compile(shape: Shape): z.ZodType {
  switch (shape.kind) {
    case "string": {
      const typeError = (iss: { input?: unknown }) =>
        typeof iss.input === "string" ? (stringProblem(shape, iss.input) ?? "invalid string") : typeProblem("string", kindName(iss.input));
      if (shape.oneOf) return z.enum(shape.oneOf as unknown as [string, ...string[]], { error: typeError });
      const s = z.string({ error: typeError }).superRefine((v, ctx) => {
        const problem = stringProblem(shape, v);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      });
      const rule = formatRule(shape.format);
      return rule ? s.describe(rule) : s;
    }
    case "int": {
      const error = (iss: { input?: unknown }) =>
        intProblem(shape, kindName(iss.input), typeof iss.input === "number" ? iss.input : undefined) ?? "invalid integer";
      return z.int({ error }).min(shape.min, { error }).max(shape.max, { error });
    }
    case "float": {
      const error = (iss: { input?: unknown }) =>
        typeof iss.input === "number"
          ? (floatProblem(shape, "float", iss.input) ?? "invalid float")
          : typeProblem(`float in [${shape.min}, ${shape.max}]`, kindName(iss.input));
      return z.number({ error }).min(shape.min, { error }).max(shape.max, { error });
    }
    case "nullable":
      return compile(shape.inner).nullable();
    case "tuple": {
      const error = (iss: { input?: unknown }) =>
        Array.isArray(iss.input)
          ? `expected exactly ${shape.items.length} items (got ${iss.input.length})`
          : typeProblem(`array of ${shape.items.length} items`, kindName(iss.input));
      return z.tuple(shape.items.map(compile) as unknown as [z.ZodType, ...z.ZodType[]], { error });
    }
    case "array": {
      const error = (iss: { input?: unknown }) =>
        !Array.isArray(iss.input)
          ? typeProblem("array", kindName(iss.input))
          : iss.input.length > shape.max
            ? `expected at most ${shape.max} items (got ${iss.input.length})`
            : `expected at least ${shape.min} item${shape.min === 1 ? "" : "s"} (got ${iss.input.length})`;
      return z
        .array(compile(shape.item), { error })
        .min(shape.min, { error })
        .max(shape.max, { error })
        .superRefine((items, ctx) => {
          const problem = arrayProblem(shape, items);
          if (problem) ctx.addIssue({ code: "custom", message: problem.message, path: [...problem.path] });
          else runRules(shape.rules, items, ctx);
        });
    }
    case "object": {
      const names = Object.keys(shape.fields);
      const fields = Object.fromEntries(
        names.map((n) => [n, shape.allOrNone ? compile(shape.fields[n]).optional() : compile(shape.fields[n])]),
      );
      const error = (iss: { code?: string; keys?: string[]; input?: unknown }) =>
        iss.code === "unrecognized_keys"
          ? `unknown field(s): ${echoKeys([...(iss.keys ?? [])].sort())} (closed object; allowed: ${names.join(", ")})`
          : typeProblem("object", kindName(iss.input));
      return z.strictObject(fields, { error }).superRefine((v, ctx) => {
        if (shape.allOrNone) {
          const missing = names.filter((n) => (v as Record<string, unknown>)[n] === undefined);
          if (missing.length > 0 && missing.length < names.length) {
            ctx.addIssue({ code: "custom", message: `expected {} or all of ${names.join(", ")} (missing: ${missing.join(", ")})` });
            return;
          }
        }
        runRules(shape.rules, v, ctx);
      });
    }
    case "record": {
      // A record over a closed key set is a strict object whose members are all optional.
      const value = compile(shape.value);
      const error = (iss: { code?: string; keys?: string[]; input?: unknown }) =>
        iss.code === "unrecognized_keys"
          ? `unknown key(s): ${echoKeys([...(iss.keys ?? [])].sort())} (allowed: ${shape.keys.join(", ")})`
          : typeProblem("object", kindName(iss.input));
      return z
        .strictObject(Object.fromEntries(shape.keys.map((k) => [k, value.optional()])), { error })
        .superRefine((v, ctx) => runRules(shape.rules, v, ctx));
    }
  }
}

/** `scamshield-provenance/v1` as a zod schema over plain JSON values. */
export const assessmentSchema = compile(ASSESSMENT_SHAPE) as unknown as z.ZodType<Assessment>;

/** Formats a zod issue path the way the fast validator does (`assessment.hypotheses[0].label`). */
export function issuePath(path: readonly PropertyKey[]): string {
  let p = "assessment";
  for (const seg of path) p += typeof seg === "number" ? `[${seg}]` : `.${String(seg)}`;
  return p;
}

/**
 * Validates a strictly parsed value with the zod schema; the first issue becomes `<path>: <rule>`. Lexical
 * int/float differences are invisible here (see the module comment).
 */
export function validateWithZod(value: JsonValue): { ok: true; assessment: Assessment } | { ok: false; error: string } {
  const result = assessmentSchema.safeParse(toPlain(value));
  if (result.success) return { ok: true, assessment: result.data };
  const issue = result.error.issues[0];
  return { ok: false, error: `${issuePath(issue.path)}: ${issue.message}` };
}

/** JSON Schema (2020-12) of the assessment format, for the MCP resources and documentation. */
export function assessmentJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(assessmentSchema, { unrepresentable: "any" }) as Record<string, unknown>;
}
