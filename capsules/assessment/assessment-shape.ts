/**
 * The one definition of `scamshield-provenance/v1` as emitted by the reference producer (assessment-v1 §2):
 * closed objects at every level, closed vocabularies, integer-only scores, the hardened field rules.
 * Written with the assessment dialect (`assessment-dialect.ts`); interpreted by `src/json/shape-check.ts` (fast path,
 * `parse-assessment.ts`) and compiled to zod by `schema.ts`.
 */
import {
  array,
  float,
  int,
  literal,
  literals,
  MAX_INT,
  nullable,
  object,
  oneOf,
  record,
  rule,
  sameShapeFor,
  str,
  type Rule,
} from "./assessment-dialect.js";
import {
  collectionIsCoherent,
  detectorTierMatchesScore,
  findingMatchesRule,
  hypothesesBindToMessage,
  hypothesisObservationsBelong,
  observationIocFields,
  signalFamiliesMatchNames,
  threatSummaryMatchesFindings,
} from "./assessment-rules.js";
import {
  AUTHORIZATIONS,
  DETECTOR_FAMILIES,
  DIMENSIONS,
  IOC_KINDS,
  MARKET_RATE_STATUSES,
  MATCH_TYPES,
  RELIABILITIES,
  SIGNAL_FAMILIES,
  SOURCE_KINDS,
  SPECIFICITIES,
  SUPPORT_LEVELS,
  SURFACES,
  THREAT_FAMILIES,
  TIERS,
  type Assessment,
  type Collection,
  type Detector,
  type ExternalObservation,
  type Hypothesis,
  type ThreatAssessment,
  type ThreatFinding,
} from "./types.js";
import { KNOWN_DETECTOR_SIGNALS } from "../../published/pack/vocabulary.js";
import {
  ABSTENTION_VALUES,
  ASSESSMENT_LIMITATIONS,
  ASSESSMENT_SCHEMA_VERSION,
  COLLECTION_SCHEMA_VERSION,
  FINDING_TIERS,
  MARKET_RATE_MAX,
  MARKET_RATE_MIN,
  PACK_REF_SCHEMA,
  SCOPE_NOTE,
  SCRIPT_HINT_ORDER,
  SUPPRESSOR_SIGNALS,
  THREAT_EVIDENCE_CLASSES,
  THREAT_LIMITATIONS,
  THREAT_RULES,
  THREAT_RULESET_VERSION,
  THREAT_SCHEMA_VERSION,
} from "./vocabulary.js";

// No type annotations on the shapes below: their types are what `Infer` reads the assessment's types from
// (`types.ts`). The cross-field rules are typed by those very types, so each rule list is a constant with a declared
// type: reading a shape's type then never goes through a rule's parameter type (which would be circular).

const identifier = str("identifier", 128);
const sortedIdentifiers = (max: number) => array(identifier, { max, order: "code-point" });

const signal = object({
  name: oneOf(KNOWN_DETECTOR_SIGNALS),
  family: oneOf(SIGNAL_FAMILIES),
  weight: int(-MAX_INT, MAX_INT),
});

/** IOC values: exact strings, unique, first-seen order, no control/format characters. */
const iocValues = array(str("text", 2048), { max: 256, unique: "value" });

const detectorRules: readonly Rule[] = [rule<Detector>(detectorTierMatchesScore), rule<Detector>(signalFamiliesMatchNames)];
const detector = object(
  {
    tier: oneOf(TIERS),
    score: int(),
    carrier_score: int(),
    families: array(oneOf(DETECTOR_FAMILIES), { max: DETECTOR_FAMILIES.length, order: "code-point" }),
    signals: array(signal, { max: KNOWN_DETECTOR_SIGNALS.length }),
    iocs: object(sameShapeFor(IOC_KINDS, iocValues), { allOrNone: true }),
  },
  { rules: detectorRules },
);

type TermClass = Exclude<(typeof THREAT_EVIDENCE_CLASSES)[number], "contact">;
const TERM_CLASSES = THREAT_EVIDENCE_CLASSES.filter((c): c is TermClass => c !== "contact");

const findingRules: readonly Rule[] = [rule<ThreatFinding>(findingMatchesRule)];
const finding = object(
  {
    rule_id: oneOf(Object.keys(THREAT_RULES)),
    family: oneOf(THREAT_FAMILIES),
    label: str("text", 256),
    tier: oneOf(FINDING_TIERS),
    score: int(15, 85),
    evidence_classes: array(oneOf(THREAT_EVIDENCE_CLASSES), { min: 1, max: THREAT_EVIDENCE_CLASSES.length, order: "code-point" }),
    matched_terms: record(TERM_CLASSES, array(str("raw", 160), { min: 1, max: 8 })),
    attribution_markers: array(oneOf(SUPPRESSOR_SIGNALS), { max: SUPPRESSOR_SIGNALS.length, order: "code-point" }),
    limitations: array(str("text", 1024), { min: 1, max: 1 }),
  },
  { rules: findingRules },
);

const threatAssessmentRules: readonly Rule[] = [rule<ThreatAssessment>(threatSummaryMatchesFindings)];
const threatAssessment = object(
  {
    schema_version: literal(THREAT_SCHEMA_VERSION),
    ruleset_version: literal(THREAT_RULESET_VERSION),
    tier: oneOf(TIERS),
    score: int(),
    families: array(oneOf(THREAT_FAMILIES), { max: THREAT_FAMILIES.length, unique: "value" }),
    findings: array(finding, { max: Object.keys(THREAT_RULES).length }),
    limitations: literals(THREAT_LIMITATIONS),
  },
  { rules: threatAssessmentRules },
);

const collectionRules: readonly Rule[] = [rule<Collection>(collectionIsCoherent)];
const collection = object(
  {
    schema_version: literal(COLLECTION_SCHEMA_VERSION),
    surface: oneOf(SURFACES),
    authorization: oneOf(AUTHORIZATIONS),
    source_pseudonym: str("hex24", 24, true),
    script_hints: array(oneOf([...SCRIPT_HINT_ORDER, "undetermined"]), {
      min: 1,
      max: SCRIPT_HINT_ORDER.length,
      order: [...SCRIPT_HINT_ORDER, "undetermined"],
    }),
    observed_at: str("timestamp", 64),
    scope_note: literal(SCOPE_NOTE),
  },
  { rules: collectionRules },
);

const marketRate = object({
  rate: float(MARKET_RATE_MIN, MARKET_RATE_MAX),
  status: oneOf(MARKET_RATE_STATUSES),
  observed_at: str("timestamp", 64, true),
  sources: array(identifier, { max: 16, unique: "value" }),
  source_urls: array(str("https-url", 2048), { max: 16, unique: "value" }),
  spread_pct: nullable(float(0, Number.MAX_VALUE)),
  warnings: array(str("raw", 4096), { max: 32 }),
});

const intelligencePack = object({
  schema: literal(PACK_REF_SCHEMA),
  version: str("text", 64),
  generated_at: str("text", 64),
  publisher: str("text", 128),
  sha256: str("hex64", 64),
});

const matchedIndicator = object({
  id: identifier,
  label: str("text", 512),
  evidence_class: identifier,
  specificity: oneOf(SPECIFICITIES),
  term_hits: array(str("pack-text", 512), { max: 256, unique: "value" }),
  signal_hits: array(identifier, { max: 256, unique: "value" }),
});

const observationRules: readonly Rule[] = [rule<ExternalObservation>(observationIocFields)];
const observation = object(
  {
    typology_id: identifier,
    evidence_class: identifier,
    source_id: identifier,
    source_group: identifier,
    source_kind: oneOf(SOURCE_KINDS),
    match_type: oneOf(MATCH_TYPES),
    summary: str("text", 1024),
    reliability: oneOf(RELIABILITIES),
    artifact_uri: str("artifact-uri", 2048, true),
    observed_at: str("timestamp", 64, true),
    matched_ioc_kind: oneOf(["", ...IOC_KINDS]),
    matched_ioc_value: str("text", 2048, true),
  },
  { rules: observationRules },
);

const typologySource = object({
  id: identifier,
  publisher: str("text", 256),
  title: str("text", 4096),
  published_at: str("text", 64),
  url: str("https-url", 1024),
});

const hypothesisRules: readonly Rule[] = [rule<Hypothesis>(hypothesisObservationsBelong)];
const hypothesis = object(
  {
    typology_id: identifier,
    dimension: oneOf(DIMENSIONS),
    label: str("text", 1024),
    support_level: oneOf(SUPPORT_LEVELS),
    matched_indicators: array(matchedIndicator, { max: 64, unique: { key: "id" } }),
    external_observations: array(observation, { max: 256 }),
    independent_backers: int(1),
    evidence_classes: sortedIdentifiers(128),
    typology_sources: array(typologySource, { min: 1, max: 32, unique: { key: "id" } }),
    limitations: array(str("text", 512), { min: 1, max: 16, unique: "value" }),
  },
  { rules: hypothesisRules },
);

const assessmentRules: readonly Rule[] = [rule<Assessment>(hypothesesBindToMessage)];
/** The assessment root: exactly 13 members, checked in the reference's order (§2.10). */
export const ASSESSMENT_SHAPE = object(
  {
    schema_version: literal(ASSESSMENT_SCHEMA_VERSION),
    assessment_id: str("hex24", 24),
    message_sha256: str("hex64", 64),
    created_at: str("timestamp", 64),
    origin_answer: str("text", 16_384),
    detector,
    threat_assessment: threatAssessment,
    collection,
    market_rate: marketRate,
    intelligence_pack: intelligencePack,
    hypotheses: array(hypothesis, { max: 32 }),
    limitations: literals(ASSESSMENT_LIMITATIONS),
    abstentions: record(DIMENSIONS, oneOf(ABSTENTION_VALUES)),
  },
  { rules: assessmentRules },
);
