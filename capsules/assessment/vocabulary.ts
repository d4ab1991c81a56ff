/**
 * Fixed values of a `scamshield-provenance/v1` assessment (assessment-v1 §2.2–§2.9): schema versions, fixed
 * sentences, the threat-rule table and the detector signal families. The provenance vocabulary (dimensions,
 * support levels, IOC kinds, ...) lives in `published/pack/vocabulary.ts` and is re-exported by `types.ts`.
 */
import { PACK_SCHEMA } from "../../published/pack/vocabulary.js";
import { ABSTAIN_NO_EVIDENCE, ABSTAIN_TYPOLOGY_ONLY } from "../../published/pack/templates.js";
import type { ThreatFamily, Tier } from "./types.js";

/** §2.9 top-level `limitations`, exactly and in order (the matcher's templates define them). */
export { ASSESSMENT_LIMITATIONS } from "../../published/pack/templates.js";

export const ASSESSMENT_SCHEMA_VERSION = "scamshield-provenance/v1";
export const THREAT_SCHEMA_VERSION = "scamshield-threat-assessment/v1";
export const THREAT_RULESET_VERSION = "2026-08-08.1";
export const COLLECTION_SCHEMA_VERSION = "scamshield-collection/v1";
/** `intelligence_pack.schema`: the pack's own schema name. */
export const PACK_REF_SCHEMA = PACK_SCHEMA;

/** §2.5 `collection.scope_note`. */
export const SCOPE_NOTE =
  "ScamShield observes only submitted, public, or explicitly authorized Telegram surfaces; this record does not imply Telegram-wide visibility.";

/** §2.4 `threat_assessment.limitations`, exactly and in order. */
export const THREAT_LIMITATIONS = [
  "Findings describe message patterns, not guilt or verified illegality.",
  "A human reviewer must inspect context before moderation, reporting, or publication.",
  "A message classifier cannot establish the source of specific funds.",
] as const;

/** §4.9 the two values an `abstentions` entry can take (the matcher's templates define them). */
export const ABSTENTION_VALUES = [ABSTAIN_NO_EVIDENCE, ABSTAIN_TYPOLOGY_ONLY] as const;

/** Order `CLEAN` < `WATCH` < `LIKELY_SCAM` < `CONFIRMED_PATTERN`. */
export const TIER_RANK: Readonly<Record<Tier, number>> = Object.freeze({
  CLEAN: 0,
  WATCH: 1,
  LIKELY_SCAM: 2,
  CONFIRMED_PATTERN: 3,
});

/** §2.3 lowest detector score a tier can carry (gates only demote, so a tier may sit below its score). */
export const DETECTOR_TIER_MIN_SCORE: Readonly<Record<Tier, number>> = Object.freeze({
  CLEAN: 0,
  WATCH: 15,
  LIKELY_SCAM: 35,
  CONFIRMED_PATTERN: 60,
});

/** §2.4 finding score floor by tier. */
export const FINDING_SCORE_FLOOR: Readonly<Record<Exclude<Tier, "CLEAN">, number>> = Object.freeze({
  WATCH: 15,
  LIKELY_SCAM: 35,
  CONFIRMED_PATTERN: 60,
});
export const FINDING_SCORE_CAP = 85;

export const FINDING_TIERS = ["WATCH", "LIKELY_SCAM", "CONFIRMED_PATTERN"] as const;

/** §2.4 finding evidence classes. `contact` never carries matched terms. */
export const THREAT_EVIDENCE_CLASSES = [
  "subject",
  "contact",
  "offer",
  "payment",
  "fulfilment",
  "concealment",
  "illegality",
  "coercion",
  "upfront_payment",
  "return_promise",
  "credential_action",
  "link_action",
] as const;

export interface ThreatRule {
  family: ThreatFamily;
  label: string;
  /** † in §2.4: the tier never exceeds `LIKELY_SCAM`. */
  cappedAtLikelyScam: boolean;
}

/** §2.4 rule table: `rule_id` → family, fixed label, tier cap. */
export const THREAT_RULES: Readonly<Record<string, ThreatRule>> = Object.freeze({
  narcotics_trade_offer: { family: "NARCOTICS", label: "Possible narcotics-market solicitation", cappedAtLikelyScam: false },
  wildlife_trade_offer: { family: "WILDLIFE", label: "Possible illegal-wildlife-market solicitation", cappedAtLikelyScam: true },
  weapons_trade_offer: { family: "WEAPONS", label: "Possible illicit-weapons-market solicitation", cappedAtLikelyScam: false },
  forged_document_offer: { family: "FORGERY", label: "Possible forged-document service", cappedAtLikelyScam: false },
  stolen_data_offer: { family: "CYBERCRIME", label: "Possible stolen-data or access-market solicitation", cappedAtLikelyScam: false },
  task_scam_pattern: { family: "FRAUD", label: "Task/review scam pattern", cappedAtLikelyScam: false },
  investment_scam_pattern: { family: "FRAUD", label: "Guaranteed-return investment scam pattern", cappedAtLikelyScam: false },
  impersonation_phishing_pattern: { family: "FRAUD", label: "Authority/courier impersonation phishing pattern", cappedAtLikelyScam: false },
  advance_fee_scam_pattern: { family: "FRAUD", label: "Advance-fee or recovery scam pattern", cappedAtLikelyScam: false },
  forced_labour_recruitment_risk: {
    family: "EXPLOITATION",
    label: "Possible scam-compound forced-labour recruitment risk",
    cappedAtLikelyScam: true,
  },
});

/** §2.3 suppressor signals (family `SUPPRESS`); also the vocabulary of `attribution_markers`, sorted. */
export const SUPPRESSOR_SIGNALS = [
  "civic_reporting_reference",
  "interrogative_victim_query",
  "quoted_ad_span",
  "research_journalism_frame",
  "victim_warning_frame",
] as const;

/** §2.3 veto signals (family `VETO`), sorted. */
export const VETO_SIGNALS = ["housing_rental_context", "payment_ops_and_compliance_context", "rate_fx_veto"] as const;

/** §2.5 script hints in canonical order (`undetermined` stands alone). */
export const SCRIPT_HINT_ORDER = ["latin", "devanagari", "han", "arabic", "cyrillic"] as const;

/** §2.6 hardened band for `market_rate.rate`. */
export const MARKET_RATE_MIN = 40;
export const MARKET_RATE_MAX = 250;
