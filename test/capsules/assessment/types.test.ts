/**
 * The assessment's object types are `Infer` of its shapes (`capsules/assessment/types.ts`). This file holds them
 * against the hand-written types they replaced (`Before`, copied from types.ts as it was), so a change to a shape
 * that changes a field's type fails to compile (`npx tsc -p tsconfig.test.json`). Where the shape says more than the
 * hand-written type did (a closed vocabulary, a fixed sentence, a tuple), the field is listed with its new type and
 * must still extend the old one: a narrowing, never a different type.
 */
import { expectTypeOf, test } from "vitest";
import type { Infer } from "../../../src/json/shape.js";
import type { ASSESSMENT_SHAPE } from "../../../capsules/assessment/assessment-shape.js";
import type * as T from "../../../capsules/assessment/types.js";
import type * as P from "../../../published/pack/types.js";
import type {
  ABSTENTION_VALUES,
  PACK_REF_SCHEMA,
  SCOPE_NOTE,
  SUPPRESSOR_SIGNALS,
  THREAT_EVIDENCE_CLASSES,
  THREAT_LIMITATIONS,
  THREAT_RULESET_VERSION,
} from "../../../capsules/assessment/vocabulary.js";

/** The hand-written types of types.ts before they were read off the shapes (field for field). */
declare namespace Before {
  interface DetectorSignal {
    name: string;
    family: T.SignalFamily;
    weight: number;
  }
  type Iocs = Partial<Record<T.IocKind, string[]>>;
  interface Detector {
    tier: T.Tier;
    score: number;
    carrier_score: number;
    families: T.DetectorFamily[];
    signals: DetectorSignal[];
    iocs: Iocs;
  }
  interface ThreatFinding {
    rule_id: string;
    family: T.ThreatFamily;
    label: string;
    tier: Exclude<T.Tier, "CLEAN">;
    score: number;
    evidence_classes: string[];
    matched_terms: Record<string, string[]>;
    attribution_markers: string[];
    limitations: string[];
  }
  interface ThreatAssessment {
    schema_version: "scamshield-threat-assessment/v1";
    ruleset_version: string;
    tier: T.Tier;
    score: number;
    families: T.ThreatFamily[];
    findings: ThreatFinding[];
    limitations: string[];
  }
  interface Collection {
    schema_version: "scamshield-collection/v1";
    surface: T.Surface;
    authorization: T.Authorization;
    source_pseudonym: string;
    script_hints: T.ScriptHint[];
    observed_at: string;
    scope_note: string;
  }
  interface MarketRate {
    rate: number;
    status: T.MarketRateStatus;
    observed_at: string;
    sources: string[];
    source_urls: string[];
    spread_pct: number | null;
    warnings: string[];
  }
  interface IntelligencePackRef {
    schema: string;
    version: string;
    generated_at: string;
    publisher: string;
    sha256: string;
  }
  interface Assessment {
    schema_version: "scamshield-provenance/v1";
    assessment_id: string;
    created_at: string;
    message_sha256: string;
    detector: Detector;
    threat_assessment: ThreatAssessment;
    collection: Collection;
    market_rate: MarketRate;
    intelligence_pack: IntelligencePackRef;
    hypotheses: P.Hypothesis[];
    origin_answer: string;
    abstentions: P.Abstentions;
    limitations: string[];
  }
}

/** Compiles only when `A` is assignable to `B`. */
function extendsType<A extends B, B>(): void {}

/** `A` with the members of `B` in place of its own. */
type With<A, B extends Partial<Record<keyof A, unknown>>> = { [K in keyof A]: K extends keyof B ? B[K] : A[K] };

type EvidenceClass = (typeof THREAT_EVIDENCE_CLASSES)[number];

/** What the shapes say more precisely than `Before`, member by member. */
type Finding = With<
  Before.ThreatFinding,
  {
    evidence_classes: EvidenceClass[];
    matched_terms: { [C in Exclude<EvidenceClass, "contact">]?: string[] };
    attribution_markers: (typeof SUPPRESSOR_SIGNALS)[number][];
  }
>;
type Threat = With<
  Before.ThreatAssessment,
  {
    ruleset_version: typeof THREAT_RULESET_VERSION;
    findings: Finding[];
    limitations: [(typeof THREAT_LIMITATIONS)[0], (typeof THREAT_LIMITATIONS)[1], (typeof THREAT_LIMITATIONS)[2]];
  }
>;
type CollectionNow = With<Before.Collection, { scope_note: typeof SCOPE_NOTE }>;
type PackRefNow = With<Before.IntelligencePackRef, { schema: typeof PACK_REF_SCHEMA }>;
type AbstentionsNow = { [D in T.Dimension]?: (typeof ABSTENTION_VALUES)[number] };
type AssessmentNow = With<
  Before.Assessment,
  { threat_assessment: Threat; collection: CollectionNow; intelligence_pack: PackRefNow; abstentions: AbstentionsNow }
>;

test("types.ts is Infer of ASSESSMENT_SHAPE", () => {
  expectTypeOf<T.Assessment>().toEqualTypeOf<Infer<typeof ASSESSMENT_SHAPE>>();
});

test("unchanged: the inferred types equal the hand-written ones", () => {
  expectTypeOf<T.DetectorSignal>().toEqualTypeOf<Before.DetectorSignal>();
  expectTypeOf<T.Iocs>().toEqualTypeOf<Before.Iocs>();
  expectTypeOf<T.Detector>().toEqualTypeOf<Before.Detector>();
  expectTypeOf<T.MarketRate>().toEqualTypeOf<Before.MarketRate>();
  // The hypothesis types stay with the matcher (published/ cannot import capsules/); the shape agrees with them.
  expectTypeOf<T.Assessment["hypotheses"][number]>().toEqualTypeOf<P.Hypothesis>();
  expectTypeOf<T.Assessment["hypotheses"][number]["matched_indicators"][number]>().toEqualTypeOf<P.MatchedIndicator>();
  expectTypeOf<T.Assessment["hypotheses"][number]["external_observations"][number]>().toEqualTypeOf<P.ExternalObservation>();
  expectTypeOf<T.Assessment["hypotheses"][number]["typology_sources"][number]>().toEqualTypeOf<P.TypologySource>();
});

test("narrowed: every other member equals the hand-written one, the listed ones are narrower", () => {
  expectTypeOf<T.ThreatFinding>().toEqualTypeOf<Finding>();
  expectTypeOf<T.ThreatAssessment>().toEqualTypeOf<Threat>();
  expectTypeOf<T.Collection>().toEqualTypeOf<CollectionNow>();
  expectTypeOf<T.IntelligencePackRef>().toEqualTypeOf<PackRefNow>();
  expectTypeOf<T.Assessment["abstentions"]>().toEqualTypeOf<AbstentionsNow>();
  expectTypeOf<T.Assessment>().toEqualTypeOf<AssessmentNow>();
  // A narrowing, not a different type: every inferred value is a value of the hand-written type ...
  extendsType<Omit<T.ThreatFinding, "matched_terms">, Omit<Before.ThreatFinding, "matched_terms">>();
  extendsType<Omit<T.ThreatAssessment, "findings">, Omit<Before.ThreatAssessment, "findings">>();
  extendsType<T.Collection, Before.Collection>();
  extendsType<T.IntelligencePackRef, Before.IntelligencePackRef>();
  extendsType<T.Assessment["abstentions"], P.Abstentions>();
  extendsType<Omit<T.Assessment, "threat_assessment">, Omit<Before.Assessment, "threat_assessment">>();
  // ... except `matched_terms`: a record over the closed set of term classes, so a class with no terms reads as
  // `undefined` where the hand-written `Record<string, string[]>` claimed an array for any key.
  extendsType<T.ThreatFinding["matched_terms"], Partial<Record<string, string[]>>>();
});
