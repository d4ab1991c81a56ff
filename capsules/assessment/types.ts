/**
 * TypeScript shapes of a `scamshield-provenance/v1` assessment (assessment-v1 §2), as plain JS values
 * (the strict value model converted with `toPlain`: objects are plain records, floats are numbers).
 *
 * These are types only: validation lives in `schema.ts` (shapes) and `consistency.ts` (pack recomputation). The
 * object types are `Infer` of the shapes in `assessment-shape.ts`, so the fields are written once.
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
import type { Infer } from "../../src/json/shape.js";
import type { ASSESSMENT_SHAPE } from "./assessment-shape.js";

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
/** §2.6: the producer's rate when it has no live quote (status FALLBACK), as the bytes write it. */
export const FALLBACK_RATE = "90.0";
export type MarketRateStatus = (typeof MARKET_RATE_STATUSES)[number];

export const THREAT_FAMILIES = ["NARCOTICS", "WILDLIFE", "WEAPONS", "FORGERY", "CYBERCRIME", "FRAUD", "EXPLOITATION"] as const;
export type ThreatFamily = (typeof THREAT_FAMILIES)[number];

// The assessment's object types, read off its one definition (`assessment-shape.ts`): what `checkShape` returns
// for an assessment that passed ASSESSMENT_SHAPE. The hypothesis types above stay with the matcher that produces
// them (`published/` cannot import `capsules/`); test/capsules/assessment/types.test.ts holds them equal. Where a
// shape says more than the former hand-written interfaces (closed vocabularies, fixed sentences, the threat
// limitations tuple) these types do too; no hand-written type was narrower than its shape, so none is kept.
type Checked = Infer<typeof ASSESSMENT_SHAPE>;

/** §2.3 `detector.signals[]`. */
export type DetectorSignal = Detector["signals"][number];

/** §2.3 `detector.iocs`: `{}` or all six kinds. */
export type Iocs = Detector["iocs"];

/** §2.3 `detector`. */
export type Detector = Checked["detector"];

/** §2.4 `threat_assessment.findings[]` (`matched_terms`: evidence class other than `contact` → raw message fragments; private). */
export type ThreatFinding = ThreatAssessment["findings"][number];

/** §2.4 `threat_assessment`. */
export type ThreatAssessment = Checked["threat_assessment"];

/** §2.5 `collection`. */
export type Collection = Checked["collection"];

/** §2.6 `market_rate`. */
export type MarketRate = Checked["market_rate"];

/** §2.7 `intelligence_pack` (`publisher`: the publisher's name). */
export type IntelligencePackRef = Checked["intelligence_pack"];

/** The whole assessment (§2.2, exactly 13 keys). */
export type Assessment = Checked;
