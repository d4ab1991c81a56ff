/**
 * The outward candidate (product.md §8): the reference public-record shape
 * (`palimpsest-scamshield-public-record/v1`, assessment-v1 §7.1) plus `feed_policy`, always
 * `HUMAN_REVIEW_REQUIRED`. Every string in it is a closed-vocabulary value, a digest, a pack label or a fixed
 * template sentence; nothing is copied from the assessment's free text.
 */
import type { Authorization, DetectorFamily, ScriptHint, Surface, ThreatFamily, Tier } from "../assessment/types.js";
import type { Dimension, IocKind, SupportLevel } from "../../published/pack/vocabulary.js";

export const PUBLIC_RECORD_SCHEMA = "palimpsest-scamshield-public-record/v1";
export const REVIEW_REQUIRED = "HUMAN_REVIEW_REQUIRED";

export interface CandidateHypothesis {
  typology_id: string;
  dimension: Dimension;
  /** The label of our loaded pack, looked up by `typology_id`. */
  label: string;
  /** The claimed level, lowered to the level recomputed from the observations when it claims more. */
  support_level: SupportLevel;
  /** Recomputed from the observations and the matched indicators. */
  independent_backers: number;
}

export interface Candidate {
  schema_version: typeof PUBLIC_RECORD_SCHEMA;
  capsule_sha256: string;
  assessment_id: string;
  /** Truncated to the hour, UTC: `YYYY-MM-DDTHH:00:00Z`. */
  created_at: string;
  review_status: typeof REVIEW_REQUIRED;
  detector: { tier: Tier; score: number; families: DetectorFamily[] };
  threat_assessment: { tier: Tier; score: number; families: ThreatFamily[] };
  /** `source_pseudonym` only for `public_channel` + `public`. */
  collection: { surface: Surface; authorization: Authorization; source_pseudonym?: string; script_hints: ScriptHint[] };
  /** All six kinds when the assessment carries IOCs, `{}` otherwise. */
  ioc_counts: Partial<Record<IocKind, number>>;
  hypotheses: CandidateHypothesis[];
  origin_answer: string;
  limitations: string[];
  feed_policy: { typology_match_visible: boolean; automatic_publication: false };
  /** Present only when hardening withheld every hypothesis (rule 2): the reason, naming paths, never values. */
  hypotheses_withheld?: string;
}

/** Which candidate a consumer sees of one derivation (capsules/pipeline/derive.ts `candidateView`). */
export interface CandidateView {
  /** Show `TYPOLOGY_MATCH` hypotheses (the analyst flag `--include-typology-matches`). */
  includeTypologyMatches: boolean;
  /** Emit candidates for assessments whose overall tier is `CLEAN` (`--include-clean`). */
  includeClean: boolean;
}

export type DeriveResult =
  | { status: "emitted"; candidate: Candidate; bytes: Uint8Array; digest: string }
  | { status: "excluded"; reason: string }
  | { status: "withheld"; reason: string };
