/**
 * TypeScript shapes of a `scamshield-provenance/v1` assessment (assessment-v1 §2), as plain JS values
 * (the strict value model converted with `toPlain`: objects are plain records, floats are numbers).
 *
 * These are types only: validation lives in `schema.ts` (shapes) and `consistency.ts` (pack recomputation).
 */

// The provenance vocabulary and hypothesis shapes are defined once, next to the matcher, and re-exported here.
export {
  DIMENSIONS,
  IOC_KINDS,
  MATCH_TYPES,
  RELIABILITIES,
  SOURCE_KINDS,
  SPECIFICITIES,
  SUPPORT_LEVELS,
} from "../../published/pack/vocabulary.js";
export type {
  Dimension,
  IocKind,
  MatchType,
  Reliability,
  SourceKind,
  Specificity,
  SupportLevel,
} from "../../published/pack/vocabulary.js";
export type {
  Abstentions,
  ExternalObservation,
  Hypothesis,
  MatchedIndicator,
  TypologySource,
} from "../../published/pack/types.js";
import type { Abstentions, Hypothesis } from "../../published/pack/types.js";
import type { IocKind } from "../../published/pack/vocabulary.js";

export const TIERS = ["CLEAN", "WATCH", "LIKELY_SCAM", "CONFIRMED_PATTERN"] as const;
export type Tier = (typeof TIERS)[number];

export const DETECTOR_FAMILIES = ["ACCOUNT", "COUNTERFEIT", "GAMBLING", "MECHANIC", "RATE"] as const;
export type DetectorFamily = (typeof DETECTOR_FAMILIES)[number];

export const SIGNAL_FAMILIES = ["WEAK", "RATE", "ACCOUNT", "MECHANIC", "COUNTERFEIT", "GAMBLING", "SUPPRESS", "VETO"] as const;
export type SignalFamily = (typeof SIGNAL_FAMILIES)[number];

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
