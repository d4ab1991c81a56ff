/**
 * The feed policy (assessment-v1 §7.2) with product.md §8 rule 5 and §7.4 O2.
 *
 * Default mode shows only `CORROBORATED_LEAD` and `DIRECT_LINK` hypotheses; the analyst mode
 * (`includeTypologyMatches`) shows all. `origin_answer` is always the §4.9 template rendered over the hypotheses
 * actually shown; the withheld sentence replaces it only when the assessment had hypotheses but none is shown
 * (the reference also used it next to a shown `DIRECT_LINK`, W9).
 */
import { renderOriginAnswer } from "../../published/pack/templates.js";
import type { CandidateHypothesis } from "./types.js";

/** The reference feed's sentence for a default record whose hypotheses were all withheld. */
export const WITHHELD_ANSWER = "Message-only source attribution withheld pending independent corroboration.";

export interface FeedPolicyInput {
  /** The assessment carried at least one hypothesis (before any hardening withheld them). */
  hadHypotheses: boolean;
  includeTypologyMatches: boolean;
}

export interface FeedPolicyOutcome {
  shown: CandidateHypothesis[];
  originAnswer: string;
}

/** Chooses the shown hypotheses (already hardened, §4.8 order) and renders the answer over them. */
export function applyFeedPolicy(all: readonly CandidateHypothesis[], input: FeedPolicyInput): FeedPolicyOutcome {
  const shown = input.includeTypologyMatches ? [...all] : all.filter((h) => h.support_level !== "TYPOLOGY_MATCH");
  const originAnswer = input.hadHypotheses && shown.length === 0 ? WITHHELD_ANSWER : renderOriginAnswer(shown);
  return { shown, originAnswer };
}
