/**
 * From a message and the client's judgement to a `scamshield-provenance/v1` assessment (docs/assess.md
 * "Derivation"). Deterministic for the same message, judgement, pack, pseudonym key and clock: `message_sha256`,
 * the IOCs, the detector block (weights.ts), the threat block (§2.4 formula), the collection (script hints,
 * pseudonym), a fixed `FALLBACK` market rate, the pack match (§4 over the message and the signal set), the fixed
 * limitations, `created_at` and `assessment_id` (§5.3). The result is checked by our own intake, every
 * consistency rule included (the match is re-run on the message), before anyone sees it.
 *
 * The message text is used here and dropped: it is never part of a result or an error.
 */
import { createHash } from "node:crypto";
import { JsonFloat, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { pseudonym } from "../../src/message-hash.js";
import { fromJs } from "../capsule/js-input.js";
import { evaluateMessage, signalSet } from "../../published/pack/match.js";
import { assessProvenance } from "../../published/pack/provenance.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import { IOC_KINDS } from "../../published/pack/vocabulary.js";
import { computeAssessmentId } from "../assessment/assessment-id.js";
import { AssessmentError } from "../assessment/errors.js";
import { pythonJsonText } from "../assessment/json-text.js";
import { FALLBACK_RATE, type Assessment, type Iocs, type Tier } from "../assessment/types.js";
import {
  ASSESSMENT_LIMITATIONS,
  ASSESSMENT_SCHEMA_VERSION,
  COLLECTION_SCHEMA_VERSION,
  FINDING_SCORE_CAP,
  FINDING_SCORE_FLOOR,
  SCOPE_NOTE,
  SUPPRESSOR_SIGNALS,
  THREAT_LIMITATIONS,
  THREAT_RULES,
  THREAT_RULESET_VERSION,
  THREAT_SCHEMA_VERSION,
  TIER_RANK,
} from "../assessment/vocabulary.js";
import { intakeAssessment, type Intake } from "../pipeline/intake.js";
import { extractWithClientIocs, type Extraction } from "./iocs.js";
import { JudgementError, type Judgement, type JudgementFinding } from "./judgement.js";
import { RULE_LIMITATIONS } from "./rule-limitations.js";
import { scriptHints } from "./script-hints.js";
import { scoreSignals } from "./weights.js";

export interface DeriveInput {
  message: string;
  judgement: Judgement;
  pack: IntelligencePack;
  /** Key of the source pseudonyms (from the store; never leaves it). */
  pseudonymKey: string;
  /** The clock (tests fix it). */
  now?: Date;
  /** The result of {@link checkAgainstMessage} for this message and judgement, when the caller already has it. */
  checked?: Extraction;
}

export interface DerivedAssessment {
  /** The assessment as it passed our own intake (capsules/pipeline/intake.ts): what the build stage takes. */
  intake: Intake;
  /** The assessment bytes (canonical JSON, as a producer sends them): `intake.bytes`. */
  bytes: Uint8Array;
  /** `intake.assessment`. */
  assessment: Assessment;
  /** Counts only: how many wallet checksums verified. */
  wallet_checksums: Extraction["wallet_checksums"];
}

/** `created_at` form of the producer: UTC, microseconds unless they are zero. */
export function producerTimestamp(d: Date): string {
  const iso = d.toISOString(); // YYYY-MM-DDTHH:MM:SS.mmmZ
  const ms = iso.slice(20, 23);
  return ms === "000" ? `${iso.slice(0, 19)}Z` : `${iso.slice(0, 19)}.${ms}000Z`;
}

function findingScore(f: JudgementFinding): number {
  return Math.min(FINDING_SCORE_CAP, FINDING_SCORE_FLOOR[f.tier] + 5 * Math.max(0, new Set(f.evidence_classes).size - 2));
}

function checkFragments(message: string, findings: readonly JudgementFinding[]): void {
  findings.forEach((f, i) => {
    for (const [cls, fragments] of Object.entries(f.fragments ?? {})) {
      fragments.forEach((fragment, k) => {
        if (!message.includes(fragment)) {
          const path = `judgement.findings[${i}].fragments.${cls}[${k}]`;
          throw new JudgementError(`${path}: not an exact substring of the message (fragments are quoted, not paraphrased)`, path, "fragment");
        }
      });
    }
  });
}

function threatBlock(judgement: Judgement, signals: ReadonlySet<string>) {
  const markers = SUPPRESSOR_SIGNALS.filter((s) => signals.has(s));
  const findings = judgement.findings.map((f) => {
    const rule = THREAT_RULES[f.rule_id];
    const classes = [...new Set(f.evidence_classes)].sort();
    const matched_terms: Record<string, string[]> = {};
    for (const cls of classes) if (f.fragments?.[cls]) matched_terms[cls] = [...f.fragments[cls]];
    return {
      rule_id: f.rule_id,
      family: rule.family,
      label: rule.label,
      tier: f.tier,
      score: findingScore(f),
      evidence_classes: classes,
      matched_terms,
      attribution_markers: [...markers],
      limitations: [RULE_LIMITATIONS[f.rule_id]],
    };
  });
  findings.sort(
    (a, b) => TIER_RANK[b.tier] - TIER_RANK[a.tier] || b.score - a.score || (a.rule_id < b.rule_id ? -1 : a.rule_id > b.rule_id ? 1 : 0),
  );
  const first = findings[0];
  return {
    schema_version: THREAT_SCHEMA_VERSION,
    ruleset_version: THREAT_RULESET_VERSION,
    tier: (first ? first.tier : "CLEAN") as Tier,
    score: first ? first.score : 0,
    families: [...new Set(findings.map((f) => f.family))],
    findings,
    limitations: [...THREAT_LIMITATIONS],
  };
}

/**
 * The judgement's claims about the message hold: fragments are exact substrings, client IOCs occur (after
 * normalisation). Returns the IOC extraction. Throws {@link JudgementError} naming the path, never the value.
 */
export function checkAgainstMessage(message: string, judgement: Judgement): Extraction {
  checkFragments(message, judgement.findings);
  const extraction = extractWithClientIocs(message, judgement.iocs ?? {}, judgement.region);
  if (extraction.missing !== undefined) {
    const { kind, index } = extraction.missing;
    const path = `judgement.iocs.${kind}[${index}]`;
    throw new JudgementError(`${path}: this ${kind.replace(/s$/, "")} does not occur in the message (after Unicode normalisation)`, path, "ioc-not-in-message");
  }
  return extraction;
}

/** Derives, serialises and checks the assessment. Throws {@link JudgementError} or {@link AssessmentError}. */
export function deriveAssessment(input: DeriveInput): DerivedAssessment {
  const { message, judgement, pack } = input;
  const extraction = input.checked ?? checkAgainstMessage(message, judgement);

  const signalNames = new Set([...judgement.signals, ...judgement.findings.map((f) => f.rule_id)]);
  const detectorScore = scoreSignals(judgement.signals);
  const threat = threatBlock(judgement, new Set(judgement.signals));
  const overall = TIER_RANK[detectorScore.tier] >= TIER_RANK[threat.tier] ? detectorScore.tier : threat.tier;
  // §2.3: the producer records no IOCs for a message with a low detector score and a CLEAN overall tier.
  const iocs: Iocs = detectorScore.score < 15 && overall === "CLEAN" ? {} : extraction.iocs;

  const createdAt = producerTimestamp(input.now ?? new Date());
  // The match runs once: the self-check below rebuilds hypotheses, answer and abstentions from this evaluation.
  const signals = signalSet(signalNames);
  const evaluation = evaluateMessage(pack, message, signals);
  const provenance = assessProvenance(pack, { text: message, signals, observations: [], iocs, evaluation });

  const doc = {
    schema_version: ASSESSMENT_SCHEMA_VERSION,
    assessment_id: "",
    created_at: createdAt,
    message_sha256: createHash("sha256").update(message, "utf8").digest("hex"),
    detector: {
      tier: detectorScore.tier,
      score: detectorScore.score,
      carrier_score: detectorScore.score,
      families: detectorScore.families,
      signals: detectorScore.signals,
      iocs: Object.keys(iocs).length === 0 ? {} : Object.fromEntries(IOC_KINDS.map((k) => [k, iocs[k]])),
    },
    threat_assessment: threat,
    collection: {
      schema_version: COLLECTION_SCHEMA_VERSION,
      surface: judgement.surface,
      authorization: judgement.authorization,
      source_pseudonym: judgement.source === undefined ? "" : pseudonym(input.pseudonymKey, judgement.source),
      script_hints: scriptHints(message),
      observed_at: judgement.observed_at ?? createdAt,
      scope_note: SCOPE_NOTE,
    },
    market_rate: {
      rate: new JsonFloat(Number(FALLBACK_RATE), FALLBACK_RATE),
      status: "FALLBACK",
      observed_at: "",
      sources: ["static-detector-fallback"],
      source_urls: [],
      spread_pct: null,
      warnings: [],
    },
    intelligence_pack: {
      schema: pack.schema,
      version: pack.version,
      generated_at: pack.generated_at,
      publisher: pack.publisher.name,
      sha256: pack.sha256,
    },
    hypotheses: provenance.hypotheses,
    origin_answer: provenance.origin_answer,
    abstentions: provenance.abstentions,
    limitations: [...ASSESSMENT_LIMITATIONS],
  };
  const value = fromJs(doc) as JsonObject;
  value.set("assessment_id", computeAssessmentId(value));
  const bytes = new TextEncoder().encode(pythonJsonText(value as JsonValue));
  let intake: Intake;
  try {
    intake = intakeAssessment(bytes, pack, { messageText: message, messageEvaluation: { signals, evaluation } });
  } catch (e) {
    if (e instanceof AssessmentError) throw new AssessmentError(`assess produced an assessment our intake rejects: ${e.message}`, e.path, "self-check");
    throw e;
  }
  return { intake, bytes, assessment: intake.assessment, wallet_checksums: extraction.wallet_checksums };
}
