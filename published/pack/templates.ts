/**
 * Fixed texts of a provenance assessment (assessment-v1 §2.9, §4.9): the four `origin_answer` templates, the
 * abstention sentences and the three top-level limitations. Rendering uses pack labels only.
 */
import type { Abstentions, Hypothesis } from "./types.js";
import { DIMENSIONS } from "./vocabulary.js";

export const NO_HYPOTHESIS_ANSWER =
  "No source attribution can be made from the available evidence. No qualifying provenance typology was supported.";

export function directLinkAnswer(labels: string): string {
  return `An exact IOC has an authoritative public-record link to: ${labels}. Human review of the cited record is still required.`;
}

export function corroboratedLeadAnswer(labels: string): string {
  return `Independent evidence supports a corroborated lead for: ${labels}. This is not yet a direct source-of-funds finding.`;
}

export function typologyMatchAnswer(labels: string): string {
  return `The message is consistent with these public typologies: ${labels}. Message patterns alone do not establish where these specific funds originated.`;
}

/** Sentence for a dimension without any hypothesis. */
export const ABSTAIN_NO_EVIDENCE = "no qualifying case-specific evidence";
/** Sentence for a dimension whose best support is a message-level typology match. */
export const ABSTAIN_TYPOLOGY_ONLY = "message-level typology match only; origin not established";

/** §2.9: the top-level `limitations`, exactly and in this order. */
export const ASSESSMENT_LIMITATIONS: readonly string[] = Object.freeze([
  "This is an analytical lead, not a finding of criminal origin or guilt.",
  "Typology sources describe known methods; they do not prove that this message or its IOCs participated in those cases.",
  "No numeric probability is shown because the current evidence set is not calibrated for source-of-funds probabilities.",
]);

type Shown = Pick<Hypothesis, "label" | "support_level" | "dimension">;

/** `L(list)`: labels of the first ≤ 2 items joined with ", ". */
function firstLabels(list: readonly Shown[]): string {
  return list
    .slice(0, 2)
    .map((h) => h.label)
    .join(", ");
}

/** §4.9 `origin_answer` over hypotheses already in §4.8 order. */
export function renderOriginAnswer(hypotheses: readonly Shown[]): string {
  if (hypotheses.length === 0) return NO_HYPOTHESIS_ANSWER;
  const direct = hypotheses.filter((h) => h.support_level === "DIRECT_LINK");
  if (direct.length > 0) return directLinkAnswer(firstLabels(direct));
  const corroborated = hypotheses.filter((h) => h.support_level === "CORROBORATED_LEAD");
  if (corroborated.length > 0) return corroboratedLeadAnswer(firstLabels(corroborated));
  return typologyMatchAnswer(firstLabels(hypotheses));
}

/** §4.9 `abstentions`, keys in dimension order. */
export function renderAbstentions(hypotheses: readonly Shown[]): Abstentions {
  const out: Abstentions = {};
  for (const dimension of DIMENSIONS) {
    const own = hypotheses.filter((h) => h.dimension === dimension);
    if (own.length === 0) out[dimension] = ABSTAIN_NO_EVIDENCE;
    else if (own.every((h) => h.support_level === "TYPOLOGY_MATCH")) out[dimension] = ABSTAIN_TYPOLOGY_ONLY;
  }
  return out;
}
