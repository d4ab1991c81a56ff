/**
 * TypeScript shapes of a `scamshield-provenance/v1` assessment (assessment-v1 §2), as plain JS values
 * (the strict value model converted with `toPlain`: objects are plain records, floats are numbers).
 *
 * These are types only: validation lives in `schema.ts` (shapes) and `consistency.ts` (pack recomputation).
 */

export const TIERS = ["CLEAN", "WATCH", "LIKELY_SCAM", "CONFIRMED_PATTERN"] as const;
export type Tier = (typeof TIERS)[number];

export const DETECTOR_FAMILIES = ["ACCOUNT", "COUNTERFEIT", "GAMBLING", "MECHANIC", "RATE"] as const;
export type DetectorFamily = (typeof DETECTOR_FAMILIES)[number];

export const SIGNAL_FAMILIES = ["WEAK", "RATE", "ACCOUNT", "MECHANIC", "COUNTERFEIT", "GAMBLING", "SUPPRESS", "VETO"] as const;
export type SignalFamily = (typeof SIGNAL_FAMILIES)[number];

export const IOC_KINDS = ["handles", "phones", "channels", "wallets", "emails", "urls"] as const;
export type IocKind = (typeof IOC_KINDS)[number];

export const DIMENSIONS = ["laundering_mechanism", "operating_ecosystem", "predicate_offence"] as const;
export type Dimension = (typeof DIMENSIONS)[number];

export const SUPPORT_LEVELS = ["TYPOLOGY_MATCH", "CORROBORATED_LEAD", "DIRECT_LINK"] as const;
export type SupportLevel = (typeof SUPPORT_LEVELS)[number];

export const SPECIFICITIES = ["low", "medium", "high"] as const;
export type Specificity = (typeof SPECIFICITIES)[number];

export const SOURCE_KINDS = [
  "authoritative",
  "blockchain_analytics",
  "financial_institution",
  "public_osint",
  "local_history",
  "user_supplied",
] as const;
export type SourceKind = (typeof SOURCE_KINDS)[number];

export const MATCH_TYPES = ["context", "behavior", "entity", "exact_ioc"] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

export const RELIABILITIES = ["reported", "derived", "direct"] as const;
export type Reliability = (typeof RELIABILITIES)[number];

export const SURFACES = [
  "private_submission",
  "guardian_group",
  "public_channel",
  "authorized_private_channel",
  "offline_import",
] as const;
export type Surface = (typeof SURFACES)[number];

export const AUTHORIZATIONS = ["user_submitted", "public", "administrator_authorized", "operator_authorized"] as const;
export type Authorization = (typeof AUTHORIZATIONS)[number];

export const SCRIPT_HINTS = ["latin", "devanagari", "han", "arabic", "cyrillic", "undetermined"] as const;
export type ScriptHint = (typeof SCRIPT_HINTS)[number];

export const MARKET_RATE_STATUSES = ["CORROBORATED", "SINGLE_SOURCE", "DIVERGENT", "STALE", "FALLBACK"] as const;
export type MarketRateStatus = (typeof MARKET_RATE_STATUSES)[number];

export const THREAT_FAMILIES = ["NARCOTICS", "WILDLIFE", "WEAPONS", "FORGERY", "CYBERCRIME", "FRAUD", "EXPLOITATION"] as const;
export type ThreatFamily = (typeof THREAT_FAMILIES)[number];

/** §2.3 `detector.signals[]`. */
export interface DetectorSignal {
  name: string;
  family: SignalFamily;
  weight: number;
}

/** §2.3 `detector.iocs`: `{}` or all six kinds. */
export type Iocs = Partial<Record<IocKind, string[]>>;

/** §2.3 `detector`. */
export interface Detector {
  tier: Tier;
  score: number;
  carrier_score: number;
  families: DetectorFamily[];
  signals: DetectorSignal[];
  iocs: Iocs;
}

/** §2.4 `threat_assessment.findings[]`. */
export interface ThreatFinding {
  rule_id: string;
  family: ThreatFamily;
  label: string;
  tier: Exclude<Tier, "CLEAN">;
  score: number;
  evidence_classes: string[];
  /** Evidence class (other than `contact`) → raw message fragments. Private. */
  matched_terms: Record<string, string[]>;
  attribution_markers: string[];
  limitations: string[];
}

/** §2.4 `threat_assessment`. */
export interface ThreatAssessment {
  schema_version: "scamshield-threat-assessment/v1";
  ruleset_version: string;
  tier: Tier;
  score: number;
  families: ThreatFamily[];
  findings: ThreatFinding[];
  limitations: string[];
}

/** §2.5 `collection`. */
export interface Collection {
  schema_version: "scamshield-collection/v1";
  surface: Surface;
  authorization: Authorization;
  source_pseudonym: string;
  script_hints: ScriptHint[];
  observed_at: string;
  scope_note: string;
}

/** §2.6 `market_rate`. */
export interface MarketRate {
  rate: number;
  status: MarketRateStatus;
  observed_at: string;
  sources: string[];
  source_urls: string[];
  spread_pct: number | null;
  warnings: string[];
}

/** §2.7 `intelligence_pack`. */
export interface IntelligencePackRef {
  schema: string;
  version: string;
  generated_at: string;
  /** The publisher's name. */
  publisher: string;
  sha256: string;
}

/** §2.8 / §4.3 one matched indicator. */
export interface MatchedIndicator {
  id: string;
  label: string;
  evidence_class: string;
  specificity: Specificity;
  term_hits: string[];
  signal_hits: string[];
}

/** §2.8 / §4.5 one external observation (all strings, `""` defaults). */
export interface ExternalObservation {
  typology_id: string;
  evidence_class: string;
  source_id: string;
  source_group: string;
  source_kind: SourceKind;
  match_type: MatchType;
  summary: string;
  reliability: Reliability;
  artifact_uri: string;
  observed_at: string;
  /** An IOC kind for `exact_ioc`, else `""`. */
  matched_ioc_kind: IocKind | "";
  matched_ioc_value: string;
}

/** §2.8 one typology source as copied from the pack. */
export interface TypologySource {
  id: string;
  publisher: string;
  title: string;
  published_at: string;
  url: string;
}

/** §2.8 `hypotheses[]`. */
export interface Hypothesis {
  typology_id: string;
  dimension: Dimension;
  label: string;
  support_level: SupportLevel;
  matched_indicators: MatchedIndicator[];
  external_observations: ExternalObservation[];
  independent_backers: number;
  evidence_classes: string[];
  typology_sources: TypologySource[];
  limitations: string[];
}

/** §4.9 `abstentions`: a subset of the three dimensions. */
export type Abstentions = Partial<Record<Dimension, string>>;

/** The whole assessment (§2.2, exactly 13 keys). */
export interface Assessment {
  schema_version: "scamshield-provenance/v1";
  assessment_id: string;
  created_at: string;
  message_sha256: string;
  detector: Detector;
  threat_assessment: ThreatAssessment;
  collection: Collection;
  market_rate: MarketRate;
  intelligence_pack: IntelligencePackRef;
  hypotheses: Hypothesis[];
  origin_answer: string;
  abstentions: Abstentions;
  limitations: string[];
}
