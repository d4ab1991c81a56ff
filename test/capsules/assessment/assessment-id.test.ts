/** `assessment_id` recomputation (assessment-v1 §5.3): Python float reprs kept from the input lexemes. */
import { expect, it } from "vitest";
import { checkAssessmentId, computeAssessmentId } from "../../../capsules/assessment/assessment-id.js";
import { AssessmentError } from "../../../capsules/assessment/errors.js";
import { pythonJsonText } from "../../../capsules/assessment/json-text.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { JsonFloat, type JsonObject } from "../../../src/json/value.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleFile, validBytes, validNames } from "./helpers.js";

describeShared("assessment_id", () => {
  it.each(validNames())("recomputes the id of valid/%s", (name) => {
    const value = parseStrictJson(validBytes(name)) as JsonObject;
    expect(computeAssessmentId(value)).toBe(value.get("assessment_id"));
    expect(() => checkAssessmentId(value)).not.toThrow();
  });

  it("re-serialises the producer's canonical bytes exactly (floats as their lexemes)", () => {
    for (const name of validNames()) {
      expect(pythonJsonText(parseStrictJson(validBytes(name)))).toBe(validBytes(name).toString("utf8"));
    }
  });

  it.each(["02-origin-answer-carries-ioc.json", "05-unsupported-direct-link.json"])("rejects lenient/%s (edited after hashing)", (file) => {
    const value = parseStrictJson(exampleFile("lenient", file)) as JsonObject;
    expect(() => checkAssessmentId(value)).toThrow(AssessmentError);
    expect(() => checkAssessmentId(value)).toThrow(/^assessment\.assessment_id: does not match the id recomputed from the content/);
  });

  it("ignores limitations but not other members", () => {
    const value = parseStrictJson(validBytes("22-clean-mandi-prices")) as JsonObject;
    const id = computeAssessmentId(value);
    value.set("limitations", ["changed"]);
    expect(computeAssessmentId(value)).toBe(id);
    value.set("created_at", "2026-08-20T11:34:25Z");
    expect(computeAssessmentId(value)).not.toBe(id);
  });

  it("writes a float lexeme as given, so a re-formatted float no longer verifies", () => {
    const value = parseStrictJson(validBytes("22-clean-mandi-prices")) as JsonObject;
    const market = value.get("market_rate") as JsonObject;
    market.set("rate", new JsonFloat(91.97, "91.970"));
    expect(() => checkAssessmentId(value)).toThrow(/assessment_id/);
    market.set("rate", new JsonFloat(91.97));
    expect(() => checkAssessmentId(value)).not.toThrow();
    expect(pythonJsonText(new JsonFloat(5e-5))).toBe("5e-05");
    expect(pythonJsonText(new JsonFloat(90))).toBe("90.0");
  });
});
