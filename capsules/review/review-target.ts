/**
 * A stored capsule as the object of a review: its candidate in a given view, and (on demand) the outward guard
 * over the private values of its assessment. Notes and export lines are checked against it and against the guard
 * over the whole store (capsules/guard). Plaintext stays in memory.
 */
import type { IntelligencePack } from "../../published/pack/types.js";
import { AssessmentError } from "../assessment/errors.js";
import { parseAssessment } from "../assessment/parse-assessment.js";
import { readCapsuleAssessment } from "../candidates/capsule-source.js";
import { deriveCandidate } from "../candidates/derive.js";
import { OutwardGuard } from "../guard/outward-guard.js";
import { assessmentPrivateValues } from "../guard/private-values.js";
import type { DeriveResult } from "../candidates/types.js";
import type { CandidateView } from "../feed/stored-candidate.js";
import type { SealedStore } from "../store/store.js";
import type { JsonObject } from "../../src/json/value.js";

export interface ReviewTarget {
  capsule_sha256: string;
  result: DeriveResult;
  /** The guard over the assessment's private values, or undefined when the capsule holds no readable assessment. */
  secrets(): OutwardGuard | undefined;
}

/** Opens stored capsule `id` (a full id) and derives its candidate in `view`. Store failures throw. */
export function openReviewTarget(store: SealedStore, pack: IntelligencePack, id: string, view: CandidateView): ReviewTarget {
  const { envelope } = store.openCapsule(id);
  const result = deriveCandidate(envelope, pack, { ...view, recomputedContentSha256: id });
  let cached: OutwardGuard | undefined | null = null;
  return {
    capsule_sha256: id,
    result,
    secrets() {
      if (cached === null) cached = privateValuesOf(envelope, pack);
      return cached;
    },
  };
}

/** The private values of a capsule's assessment artifact (undefined when it has none that parses). */
export function privateValuesOf(envelope: JsonObject, pack: IntelligencePack): OutwardGuard | undefined {
  const source = readCapsuleAssessment(envelope);
  if (!source.ok) return undefined;
  try {
    return new OutwardGuard(assessmentPrivateValues(parseAssessment(source.assessmentBytes).assessment, pack));
  } catch (e) {
    if (e instanceof AssessmentError) return undefined;
    throw e;
  }
}

/**
 * The guard's verdict on an outward object (a note, an export line): undefined when clean, else the reason (kinds
 * and paths only). Checked against this capsule's values (with the pack: its literal terms are public) and, when
 * given, against the guard over every capsule of the store. Fails closed when the capsule's values cannot be read.
 */
export function guardOutward(target: ReviewTarget, value: unknown, what: string, store?: OutwardGuard): string | undefined {
  const secrets = target.secrets();
  if (secrets === undefined) return `leak guard: the capsule's assessment cannot be read, so ${what} cannot be checked`;
  for (const guard of store === undefined ? [secrets] : [secrets, store]) {
    const verdict = guard.check(value, what);
    if (!verdict.ok) return verdict.reason;
  }
  return undefined;
}
