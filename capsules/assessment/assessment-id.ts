/**
 * `assessment_id` recomputation (assessment-v1 §5.3, hardened): the first 24 hex characters of SHA-256 over the
 * Python-style canonical JSON of the assessment without `assessment_id` and `limitations`, floats written as
 * their original lexemes.
 */
import { sha256Hex } from "../../src/hash.js";
import type { JsonObject } from "../../src/json/value.js";
import { AssessmentError } from "./errors.js";
import { pythonJsonText } from "./json-text.js";

/** The id the producer would have computed for this (strictly parsed) assessment object. */
export function computeAssessmentId(value: JsonObject): string {
  const rest: JsonObject = new Map([...value].filter(([k]) => k !== "assessment_id" && k !== "limitations"));
  return sha256Hex(pythonJsonText(rest)).slice(0, 24);
}

/** Throws when `assessment_id` does not match the content (edited after hashing, or not produced by a producer). */
export function checkAssessmentId(value: JsonObject): void {
  if (value.get("assessment_id") !== computeAssessmentId(value)) {
    throw new AssessmentError(
      "assessment.assessment_id: does not match the id recomputed from the content (§5.3: SHA-256 of the canonical assessment without assessment_id and limitations); the assessment was edited after hashing",
      "assessment.assessment_id",
      "assessment-id",
    );
  }
}
