/**
 * A stored capsule as the object of a review: its candidate in a given view, and (on demand) the private values
 * of its assessment, against which notes and export lines are leak-guarded. Plaintext stays in memory.
 */
import type { IntelligencePack } from "../../published/pack/types.js";
import { AssessmentError } from "../assessment/errors.js";
import { parseAssessment } from "../assessment/parse-assessment.js";
import { readCapsuleAssessment } from "../candidates/capsule-source.js";
import { deriveCandidate } from "../candidates/derive.js";
import { collectPrivateValues, guardCandidate, type PrivateValues } from "../candidates/leak-guard.js";
import type { DeriveResult } from "../candidates/types.js";
import type { CandidateView } from "../feed/stored-candidate.js";
import type { SealedStore } from "../store/store.js";
import type { JsonObject } from "../../src/json/value.js";

export interface ReviewTarget {
  capsule_sha256: string;
  result: DeriveResult;
  /** The assessment's private values, or undefined when the capsule holds no readable assessment. */
  secrets(): PrivateValues | undefined;
}

/** Opens stored capsule `id` (a full id) and derives its candidate in `view`. Store failures throw. */
export function openReviewTarget(store: SealedStore, pack: IntelligencePack, id: string, view: CandidateView): ReviewTarget {
  const { envelope } = store.openCapsule(id);
  const result = deriveCandidate(envelope, pack, { ...view, recomputedContentSha256: id });
  let cached: PrivateValues | undefined | null = null;
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
export function privateValuesOf(envelope: JsonObject, pack: IntelligencePack): PrivateValues | undefined {
  const source = readCapsuleAssessment(envelope);
  if (!source.ok) return undefined;
  try {
    return collectPrivateValues(parseAssessment(source.assessmentBytes).assessment, pack);
  } catch (e) {
    if (e instanceof AssessmentError) return undefined;
    throw e;
  }
}

/**
 * The leak-guard verdict on an outward object (a note, an export line) for this target: undefined when clean, else
 * the reason (kinds and paths only). Fails closed when the private values cannot be read.
 */
export function guardOutward(target: ReviewTarget, value: unknown, what: string): string | undefined {
  const secrets = target.secrets();
  if (secrets === undefined) return `leak guard: the capsule's assessment cannot be read, so ${what} cannot be checked`;
  const verdict = guardCandidate(value, secrets);
  // The guard names paths from the root `candidate`; name the root after what was checked instead.
  return verdict.ok ? undefined : verdict.reason.replace(/(in |of )candidate(?=[.[;]|$)/g, `$1${what}`);
}
