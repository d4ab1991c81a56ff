/**
 * A candidate read back from its canonical bytes (the sealed derivation cache) has its members in sorted order;
 * {@link inFieldOrder} restores the order derivation builds them in (derive.ts, render.ts), so everything that shows
 * a candidate object (`review show`, `get_candidates`, the review page) shows it the same whether it was derived now
 * or read from the cache. The canonical bytes and the digest do not depend on member order.
 */
import { IOC_KINDS } from "../../published/pack/vocabulary.js";
import type { Candidate, CandidateHypothesis } from "./types.js";

function hypothesis(h: CandidateHypothesis): CandidateHypothesis {
  return { typology_id: h.typology_id, dimension: h.dimension, label: h.label, support_level: h.support_level, independent_backers: h.independent_backers };
}

export function inFieldOrder(c: Candidate): Candidate {
  const collection: Candidate["collection"] = { surface: c.collection.surface, authorization: c.collection.authorization, script_hints: c.collection.script_hints };
  if (c.collection.source_pseudonym !== undefined) collection.source_pseudonym = c.collection.source_pseudonym;
  const ioc_counts: Candidate["ioc_counts"] = {};
  for (const kind of IOC_KINDS) if (c.ioc_counts[kind] !== undefined) ioc_counts[kind] = c.ioc_counts[kind];
  const out: Candidate = {
    schema_version: c.schema_version,
    capsule_sha256: c.capsule_sha256,
    assessment_id: c.assessment_id,
    created_at: c.created_at,
    review_status: c.review_status,
    detector: { tier: c.detector.tier, score: c.detector.score, families: c.detector.families },
    threat_assessment: { tier: c.threat_assessment.tier, score: c.threat_assessment.score, families: c.threat_assessment.families },
    collection,
    ioc_counts,
    hypotheses: c.hypotheses.map(hypothesis),
    origin_answer: c.origin_answer,
    limitations: c.limitations,
    feed_policy: { typology_match_visible: c.feed_policy.typology_match_visible, automatic_publication: c.feed_policy.automatic_publication },
  };
  if (c.hypotheses_withheld !== undefined) out.hypotheses_withheld = c.hypotheses_withheld;
  return out;
}
