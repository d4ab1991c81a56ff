/**
 * Property tests over thousands of assessments generated from the shape definition (see arbitrary.ts):
 * every generated assessment passes the strict validator and the zod schema, and build → verify always succeeds
 * and is deterministic. These assessments do not satisfy the pack consistency check (random typologies and
 * templates), so this test builds directly from parsed assessments and bypasses `validateAssessment`'s pack step.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkAssessmentId } from "../../../capsules/assessment/assessment-id.js";
import { projectProducer } from "../../../capsules/assessment/adapter.js";
import { assembleCapsule } from "../../../capsules/pipeline/build.js";
import { AssessmentError } from "../../../capsules/assessment/errors.js";
import { parseAssessment } from "../../../capsules/assessment/parse-assessment.js";
import { validateWithZod } from "../../../capsules/assessment/schema.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { pythonJsonText } from "../../../capsules/assessment/json-text.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { assessmentBytes, assessmentValue } from "./arbitrary.js";

/** The build with its file text, as these tests compare texts. */
function built(...args: Parameters<typeof assembleCapsule>) {
  const r = assembleCapsule(...args);
  return { ...r, text: new TextDecoder().decode(r.bytes) };
}

const PRODUCER = projectProducer("0.0.0-test");

function objectsIn(v: JsonValue, out: JsonObject[] = []): JsonObject[] {
  if (v instanceof Map) {
    out.push(v);
    for (const x of v.values()) objectsIn(x, out);
  } else if (Array.isArray(v)) for (const x of v) objectsIn(x, out);
  return out;
}

describe("generated assessments", () => {
  it("pass the strict validator and the zod schema, and build → verify succeeds deterministically", () => {
    fc.assert(
      fc.property(assessmentBytes, (bytes) => {
        const { value, assessment } = parseAssessment(bytes);
        expect(() => checkAssessmentId(value)).not.toThrow();
        expect(validateWithZod(value)).toEqual({ ok: true, assessment });
        const first = built(bytes, assessment, PRODUCER);
        const second = built(bytes, parseAssessment(bytes).assessment, PRODUCER);
        expect(second.text).toBe(first.text);
        const report = verifyCapsule(parseStrictJson(first.text));
        expect(report.errors).toEqual([]);
        expect(report.ok).toBe(true);
      }),
      { numRuns: 2000 },
    );
  }, 300_000);

  it("reject an unknown member added to any object, at any depth", () => {
    fc.assert(
      fc.property(assessmentValue, fc.nat(), (value, pick) => {
        const objects = objectsIn(value);
        const target = objects[pick % objects.length];
        target.set("zz_unknown", 1);
        const bytes = new TextEncoder().encode(pythonJsonText(value));
        expect(() => parseAssessment(bytes)).toThrow(AssessmentError);
        expect(() => parseAssessment(bytes)).toThrow(/unknown (field|key)\(s\): zz_unknown/);
        expect(validateWithZod(parseStrictJson(bytes)).ok).toBe(false);
      }),
      { numRuns: 500 },
    );
  });
});
