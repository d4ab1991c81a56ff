/**
 * Compiles a {@link Shape} to a zod v4 schema: strict objects at every level, closed enums, integer bounds, and the
 * dialect's leaf rules, uniqueness, order and cross-field rules with the dialect's messages, so zod reports what
 * the fast interpreter (`shape-check.ts`) reports. Only modules that need a zod schema (JSON Schema export, MCP)
 * import this; the validation paths use `shape-check.ts`.
 *
 * zod sees plain JSON (`toPlain`), so it cannot tell `60` from `60.0`; lexical kinds are the fast path's job.
 */
import { z } from "zod";
import { arrayProblem } from "./shape-check.js";
import { isOptional, type Issue, type KindName, type Rule, type Seg, type Shape, type ShapeDialect } from "./shape.js";

type Ctx = z.RefinementCtx;

/** Kind of a plain JSON value as zod sees it (every integral number counts as an integer). */
export function plainKind(v: unknown): KindName {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "float";
  if (typeof v === "boolean" || typeof v === "string") return typeof v as KindName;
  return "object";
}

function runRules(rules: readonly Rule[] | undefined, value: unknown, ctx: Ctx, text: (i: Issue) => string): void {
  for (const r of rules ?? []) {
    const issue = (r as (v: unknown) => Issue | undefined)(value);
    if (issue) {
      ctx.addIssue({ code: "custom", message: text(issue), path: [...issue.path] });
      return;
    }
  }
}

/** The zod schema of `shape`, with the dialect's messages. */
export function compileShape<F extends string>(shape: Shape<F>, d: ShapeDialect<F>): z.ZodType {
  const text = (i: Issue) => d.text({ rule: i.rule ?? "rule", message: i.message });
  const compile = (shape: Shape<F>): z.ZodType => {
    const kindError = (iss: { input?: unknown }) => d.text(d.kind(shape, plainKind(iss.input), iss.input));
    switch (shape.kind) {
      case "string": {
        const error = (iss: { input?: unknown }) =>
          typeof iss.input === "string" ? d.text(d.string(shape, iss.input) ?? { rule: "string", message: "invalid string" }) : kindError(iss);
        if (shape.oneOf) return z.enum(shape.oneOf as unknown as [string, ...string[]], { error });
        // What JSON Schema can state goes in as zod checks (it reaches the JSON Schema); `abort` keeps it one issue.
        const facets = d.facets?.(shape);
        let base = z.string({ error });
        if (facets?.minLength !== undefined) base = base.min(facets.minLength, { error, abort: true });
        if (facets?.pattern !== undefined) base = base.regex(facets.pattern, { error, abort: true });
        const s = base.superRefine((v, ctx) => {
          const problem = d.string(shape, v);
          if (problem) ctx.addIssue({ code: "custom", message: d.text(problem) });
        });
        const description = d.describe(shape);
        return description ? s.describe(description) : s;
      }
      case "bool": {
        const error = (iss: { input?: unknown }) =>
          typeof iss.input === "boolean" && d.bool ? d.text(d.bool(shape, iss.input)) : kindError(iss);
        return shape.value === undefined ? z.boolean({ error }) : z.literal(shape.value, { error });
      }
      case "int": {
        const error = (iss: { input?: unknown }) =>
          plainKind(iss.input) === "integer"
            ? d.text(d.int(shape, iss.input as number) ?? { rule: "int", message: "invalid integer" })
            : kindError(iss);
        return z.int({ error }).min(shape.min, { error }).max(shape.max, { error });
      }
      case "float": {
        const error = (iss: { input?: unknown }) =>
          typeof iss.input === "number" ? d.text(d.float(shape, iss.input) ?? { rule: "float", message: "invalid float" }) : kindError(iss);
        return z.number({ error }).min(shape.min, { error }).max(shape.max, { error });
      }
      case "nullable":
        return compile(shape.inner).nullable();
      case "tuple": {
        const error = (iss: { input?: unknown }) =>
          Array.isArray(iss.input) ? d.text(d.count(shape, iss.input.length) ?? { rule: "count", message: "invalid tuple" }) : kindError(iss);
        return z.tuple(shape.items.map(compile) as unknown as [z.ZodType, ...z.ZodType[]], { error });
      }
      case "array": {
        const error = (iss: { input?: unknown }) =>
          Array.isArray(iss.input) ? d.text(d.count(shape, iss.input.length) ?? { rule: "count", message: "invalid array" }) : kindError(iss);
        return z
          .array(compile(shape.item), { error })
          .min(shape.min, { error })
          .max(shape.max, { error })
          .superRefine((items, ctx) => {
            const problem = arrayProblem(shape, items, d);
            if (problem) ctx.addIssue({ code: "custom", message: text(problem), path: [...problem.path] });
            else runRules(shape.rules, items, ctx, text);
          });
      }
      case "object": {
        const names = Object.keys(shape.fields);
        const fields = Object.fromEntries(
          names.map((n) => [n, isOptional(shape, n) ? compile(shape.fields[n]).optional() : compile(shape.fields[n])]),
        );
        const error = (iss: { code?: string; keys?: string[]; input?: unknown }) =>
          iss.code === "unrecognized_keys" ? d.text(d.unknown(shape, iss.keys ?? [])) : kindError(iss);
        return z.strictObject(fields, { error }).superRefine((v, ctx) => {
          if (shape.allOrNone) {
            const missing = names.filter((n) => (v as Record<string, unknown>)[n] === undefined);
            if (missing.length > 0 && missing.length < names.length) {
              ctx.addIssue({ code: "custom", message: d.text(d.missing(shape, missing)) });
              return;
            }
          }
          runRules(shape.rules, v, ctx, text);
        });
      }
      case "record": {
        // A record over a closed key set is a strict object whose members are all optional.
        const value = compile(shape.value);
        const error = (iss: { code?: string; keys?: string[]; input?: unknown }) =>
          iss.code === "unrecognized_keys" ? d.text(d.unknown(shape, iss.keys ?? [])) : kindError(iss);
        return z
          .strictObject(Object.fromEntries(shape.keys.map((k) => [k, value.optional()])), { error })
          .superRefine((v, ctx) => runRules(shape.rules, v, ctx, text));
      }
    }
  };
  return compile(shape);
}

/**
 * The first issue of a zod result, located the way the fast interpreter locates it: in `document` order an
 * unknown member is reported at its own path (zod reports it at the object).
 */
export function firstIssue<F extends string>(
  error: z.ZodError,
  d: ShapeDialect<F>,
): { path: Seg[]; message: string } {
  const issue = error.issues[0];
  const path = issue.path.map((s) => (typeof s === "number" ? s : String(s)));
  if (issue.code === "unrecognized_keys" && d.order === "document") path.push(issue.keys[0]);
  return { path, message: issue.message };
}
