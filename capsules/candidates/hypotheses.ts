/**
 * Hardening of a candidate's hypotheses (product.md §8 rules 2 and 3), from the assessment and OUR loaded pack:
 *
 * - rule 2: the assessment's pack digest must equal ours, and every `typology_id` must exist in our pack with the
 *   same `dimension`; otherwise every hypothesis is withheld and the reason names the path (never a value);
 * - rule 3: the support level and `independent_backers` are recomputed with the pack rules (published/pack/support.ts)
 *   from the hypothesis' own external observations that are valid and, for `exact_ioc`, bind an IOC of this
 *   assessment (published/pack/observations.ts, M2). A claimed level above the recomputed one is lowered; backers are
 *   always the recomputed number. A hypothesis with neither a message match nor a bound observation has no support
 *   at all: every hypothesis is withheld.
 *
 * Labels come from our pack; nothing of the assessment's text is kept. The result is in §4.8 order.
 */
import { compareHypotheses } from "../../published/pack/hypotheses.js";
import { meetsThreshold, signalClausesHold } from "../../published/pack/match.js";
import { checkObservationBinding, validateObservation } from "../../published/pack/observations.js";
import { independentBackers, supportLevel } from "../../published/pack/support.js";
import type { ExternalObservation, IntelligencePack, PackTypology } from "../../published/pack/types.js";
import { SUPPORT_RANK, type Specificity, type SupportLevel } from "../../published/pack/vocabulary.js";
import { assessmentSignals } from "../assessment/consistency.js";
import type { Assessment, Hypothesis } from "../assessment/types.js";
import type { CandidateHypothesis } from "./types.js";

export type HardenedHypotheses =
  | { ok: true; hypotheses: CandidateHypothesis[]; lowered: number }
  | { ok: false; reason: string };

/** The observations that count: valid (§4.5), filed under this typology, and bound when `exact_ioc` (M2). */
function countedObservations(a: Assessment, h: Hypothesis, typology: PackTypology): ExternalObservation[] {
  return h.external_observations.filter((o) => {
    try {
      validateObservation(o, "observation");
      checkObservationBinding(o, a.detector.iocs, "observation");
    } catch {
      return false;
    }
    return o.typology_id === typology.id;
  });
}

/**
 * §4.4 message match recomputed from the claimed matched indicators: each must be a distinct indicator of the
 * typology whose signal clauses hold over the assessment's signals `S`; the pack's specificities then decide.
 * (Term clauses cannot be re-checked without the message.)
 */
function messageMatched(h: Hypothesis, typology: PackTypology, signals: ReadonlySet<string>): boolean {
  const seen = new Set<string>();
  const specificities: Specificity[] = [];
  for (const m of h.matched_indicators) {
    const ind = typology.indicators.find((i) => i.id === m.id);
    if (ind === undefined || seen.has(ind.id) || !signalClausesHold(ind, signals)) continue;
    seen.add(ind.id);
    specificities.push(ind.specificity);
  }
  return meetsThreshold(typology, specificities);
}

function lower(claimed: SupportLevel, recomputed: SupportLevel): SupportLevel {
  return SUPPORT_RANK[claimed] > SUPPORT_RANK[recomputed] ? recomputed : claimed;
}

/** Rules 2 and 3 over every hypothesis of the assessment. */
export function hardenHypotheses(a: Assessment, pack: IntelligencePack): HardenedHypotheses {
  if (a.hypotheses.length === 0) return { ok: true, hypotheses: [], lowered: 0 };
  if (a.intelligence_pack.sha256 !== pack.sha256) {
    return { ok: false, reason: "assessment.intelligence_pack.sha256 differs from the digest of the loaded pack" };
  }
  const signals = assessmentSignals(a);
  const out: CandidateHypothesis[] = [];
  const seen = new Set<string>();
  let lowered = 0;
  for (let i = 0; i < a.hypotheses.length; i++) {
    const h = a.hypotheses[i];
    const path = `assessment.hypotheses[${i}]`;
    const typology = pack.typologyById.get(h.typology_id);
    if (typology === undefined) return { ok: false, reason: `${path}.typology_id is not a typology of the loaded pack` };
    if (h.dimension !== typology.dimension) {
      return { ok: false, reason: `${path}.dimension differs from the loaded pack's dimension of that typology` };
    }
    if (seen.has(typology.id)) return { ok: false, reason: `${path}.typology_id repeats an earlier hypothesis` };
    seen.add(typology.id);
    const observations = countedObservations(a, h, typology);
    const matched = messageMatched(h, typology, signals);
    if (!matched && observations.length === 0) {
      return { ok: false, reason: `${path} has neither a message match nor a bound external observation` };
    }
    const level = lower(h.support_level, supportLevel(observations));
    if (level !== h.support_level) lowered++;
    out.push({
      typology_id: typology.id,
      dimension: typology.dimension,
      label: typology.label,
      support_level: level,
      independent_backers: independentBackers(observations, matched),
    });
  }
  return { ok: true, hypotheses: out.sort(compareHypotheses), lowered };
}
