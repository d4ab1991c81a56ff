/**
 * The assessment format (assessment-v1 §2) as a zod v4 schema, compiled (`src/json/shape-zod.ts`) from the one
 * shape definition in `assessment-shape.ts` with the assessment dialect: strict objects at every level, closed
 * enums, integer scores, the same leaf rules and the same cross-field rules (with the same messages) as the fast
 * validator.
 *
 * Use it where a zod schema is wanted (MCP tool input, JSON Schema export). It sees plain JSON, so it cannot tell
 * `60` from `60.0`: the intake path is {@link parseAssessment}, which works on the strict value model, enforces
 * integer lexemes (J11) and does not load zod.
 */
import { z } from "zod";
import { toPlain } from "../../src/json/plain.js";
import { compileShape, firstIssue } from "../../src/json/shape-zod.js";
import type { JsonValue } from "../../src/json/value.js";
import { ASSESSMENT_DIALECT, assessmentPath } from "./assessment-dialect.js";
import { ASSESSMENT_SHAPE } from "./assessment-shape.js";
import type { Assessment } from "./types.js";

export { AssessmentError } from "./errors.js";
export { parseAssessment, ASSESSMENT_MAX_BYTES, type ParsedAssessment } from "./parse-assessment.js";

/** `scamshield-provenance/v1` as a zod schema over plain JSON values. */
export const assessmentSchema = compileShape(ASSESSMENT_SHAPE, ASSESSMENT_DIALECT) as unknown as z.ZodType<Assessment>;

/** Formats a zod issue path the way the fast validator does (`assessment.hypotheses[0].label`). */
export function issuePath(path: readonly PropertyKey[]): string {
  return assessmentPath(path.map((seg) => (typeof seg === "number" ? seg : String(seg))));
}

/**
 * Validates a strictly parsed value with the zod schema; the first issue becomes `<path>: <rule>`. Lexical
 * int/float differences are invisible here (see the module comment).
 */
export function validateWithZod(value: JsonValue): { ok: true; assessment: Assessment } | { ok: false; error: string } {
  const result = assessmentSchema.safeParse(toPlain(value));
  if (result.success) return { ok: true, assessment: result.data };
  const issue = firstIssue(result.error, ASSESSMENT_DIALECT);
  return { ok: false, error: `${assessmentPath(issue.path)}: ${issue.message}` };
}

/** JSON Schema (2020-12) of the assessment format, for the MCP resources and documentation. */
export function assessmentJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(assessmentSchema, { unrepresentable: "any" }) as Record<string, unknown>;
}
