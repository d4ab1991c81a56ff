/**
 * The zod schema (compiled from the same shape as the fast validator) agrees with `parseAssessment`: it accepts
 * every valid example and rejects every mutation with the same message, except where only the lexical value model
 * can see the difference (`60.0` vs `60`), and where zod names the first missing member instead of the object.
 */
import { expect, it } from "vitest";
import { AssessmentError } from "../../../capsules/assessment/errors.js";
import { parseAssessment } from "../../../capsules/assessment/parse-assessment.js";
import { assessmentJsonSchema, assessmentSchema, validateWithZod } from "../../../capsules/assessment/schema.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { toPlain } from "../../../src/json/plain.js";
import { describeShared } from "../../helpers/shared.js";
import { mutate, validBytes, validNames } from "./helpers.js";
import { cases } from "./mutation-cases.js";

/** Mutations that only differ lexically (an integer written as a float or vice versa): zod sees plain numbers. */
const LEXICAL = new Set(["float signal weight", "float backers", "market rate as integer lexeme"]);

function fastError(bytes: Uint8Array): string {
  try {
    parseAssessment(bytes);
    return "accepted";
  } catch (e) {
    if (e instanceof AssessmentError) return e.message;
    throw e;
  }
}

describeShared("assessmentSchema (zod)", () => {
  it.each(validNames())("accepts valid/%s with the same output as parseAssessment", (name) => {
    const bytes = validBytes(name);
    const result = validateWithZod(parseStrictJson(bytes));
    expect(result.ok).toBe(true);
    if (result.ok) expect(result.assessment).toEqual(parseAssessment(bytes).assessment);
  });

  it.each(cases.filter(([name]) => !LEXICAL.has(name)))("rejects like parseAssessment: %s", (_name, example, edit) => {
    const bytes = mutate(validBytes(example), edit);
    const fast = fastError(bytes);
    const zod = validateWithZod(parseStrictJson(bytes));
    expect(zod.ok).toBe(false);
    if (zod.ok) return;
    const missing = /^(assessment[^:]*): missing field\(s\): ([a-z_]+)/.exec(fast);
    if (missing) expect(zod.error.startsWith(`${missing[1]}.${missing[2]}: missing (expected `)).toBe(true);
    else expect(zod.error).toBe(fast);
  });

  it.each(cases.filter(([name]) => LEXICAL.has(name)))("cannot see lexical kinds, parseAssessment can: %s", (_name, example, edit) => {
    const bytes = mutate(validBytes(example), edit);
    expect(validateWithZod(parseStrictJson(bytes)).ok).toBe(true);
    expect(fastError(bytes)).not.toBe("accepted");
  });

  it("is strict at every level and exports a JSON Schema with closed enums", () => {
    const schema = assessmentJsonSchema() as {
      additionalProperties: boolean;
      required: string[];
      properties: Record<string, { additionalProperties?: boolean; properties: Record<string, { enum?: string[]; type?: string }> }>;
    };
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toHaveLength(13);
    expect(schema.properties.detector.additionalProperties).toBe(false);
    expect(schema.properties.detector.properties.tier.enum).toEqual(["CLEAN", "WATCH", "LIKELY_SCAM", "CONFIRMED_PATTERN"]);
    expect(schema.properties.detector.properties.score.type).toBe("integer");
    expect(schema.properties.collection.properties.surface.enum).toContain("public_channel");
  });

  it("rejects a plain object with a prototype-looking key", () => {
    const plain = toPlain(parseStrictJson(validBytes("22-clean-mandi-prices"))) as Record<string, unknown>;
    Object.defineProperty(plain, "__proto__", { value: {}, enumerable: true });
    expect(assessmentSchema.safeParse(plain).success).toBe(false);
  });
});
