/**
 * Hardened consistency of a `scamshield-provenance/v1` assessment with the loaded intelligence pack
 * (assessment-v1 §4.10 R1–R10, §2.7 A2, §4.5 M1/M2). The assessment is a plain parsed object (normally already
 * shape-checked by `schema.ts`); everything recomputable from the pack, the assessment's signal set, its IOCs and
 * its own external observations must equal what the assessment claims. With the message text, the whole match is
 * re-run (§4.10 last sentence). The first difference is reported with its JSON path and rule; no private value
 * (IOC, term hit, message text or hash) appears in the error.
 */
import { PackError } from "../../published/pack/errors.js";
import { describeDifference, firstDifference } from "../../published/pack/first-difference.js";
import type { TypologyEvaluation } from "../../published/pack/match.js";
import { recomputeHypotheses } from "../../published/pack/recompute.js";
import { ASSESSMENT_LIMITATIONS, renderAbstentions, renderOriginAnswer } from "../../published/pack/templates.js";
import type { ExternalObservation, IntelligencePack, IocSet } from "../../published/pack/types.js";
import { checkMessageAgreement } from "./consistency-message.js";
import { checkPackReference } from "./consistency-pack.js";
import type { Assessment } from "./types.js";
import { isRecord } from "../../src/json/value.js";

export type ConsistencyResult = { ok: true } | { ok: false; error: string; path: string; rule: string };

export interface ConsistencyOptions {
  /** The raw message; when given it must hash to `message_sha256` and reproduce the match. Never stored or echoed. */
  messageText?: string;
  /**
   * The caller's §4.3–§4.4 evaluation of `messageText` with the signal set it used (assess, which has just derived
   * the assessment from the same text): reused only when that set equals the assessment's own signal set, so the
   * hypotheses, answer and abstentions are still rebuilt from it and compared; only the term search is not repeated.
   */
  messageEvaluation?: { signals: ReadonlySet<string>; evaluation: readonly TypologyEvaluation[] };
}

function sameSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

const ROOT = "assessment";

/** `S` of §4: detector signal names ∪ threat finding rule ids. */
export function assessmentSignals(assessment: Assessment): Set<string> {
  const out = new Set<string>();
  for (const s of Array.isArray(assessment.detector?.signals) ? assessment.detector.signals : []) {
    if (isRecord(s) && typeof s.name === "string") out.add(s.name);
  }
  const findings = assessment.threat_assessment?.findings;
  for (const f of Array.isArray(findings) ? findings : []) {
    if (isRecord(f) && typeof f.rule_id === "string") out.add(f.rule_id);
  }
  return out;
}

function requireEqual(actual: unknown, expected: unknown, path: string, rule: string, what: string): void {
  const d = firstDifference(actual, expected, path);
  if (d) throw new PackError(d.path, rule, `${describeDifference(d.kind)}: ${what}`);
}

function check(assessment: Assessment, pack: IntelligencePack, opts: ConsistencyOptions): void {
  if (!isRecord(assessment)) throw new PackError(ROOT, "type", "expected an object");
  checkPackReference(assessment.intelligence_pack, pack, `${ROOT}.intelligence_pack`);

  const detector: unknown = assessment.detector;
  const iocs: IocSet = isRecord(detector) && isRecord(detector.iocs) ? (detector.iocs as IocSet) : {};
  const signals = assessmentSignals(assessment);
  const hypotheses = recomputeHypotheses(pack, assessment.hypotheses, signals, iocs, `${ROOT}.hypotheses`);

  requireEqual(assessment.origin_answer, renderOriginAnswer(hypotheses), `${ROOT}.origin_answer`, "R9", "must be the §4.9 template rendered from the hypotheses");
  requireEqual(assessment.abstentions, renderAbstentions(hypotheses), `${ROOT}.abstentions`, "R9", "must be the §4.9 abstentions rendered from the hypotheses");
  requireEqual(assessment.limitations, [...ASSESSMENT_LIMITATIONS], `${ROOT}.limitations`, "R10", "must be exactly the three fixed limitations of §2.9");

  if (opts.messageText !== undefined) {
    const observations: ExternalObservation[] = hypotheses.flatMap((h) => h.external_observations);
    const reuse = opts.messageEvaluation !== undefined && sameSet(opts.messageEvaluation.signals, signals) ? opts.messageEvaluation.evaluation : undefined;
    checkMessageAgreement(assessment, pack, opts.messageText, signals, observations, iocs, ROOT, reuse);
  }
}

/** Checks an assessment against the loaded pack; the first violation is returned with its path and rule. */
export function checkAssessmentConsistency(
  assessment: Assessment,
  pack: IntelligencePack,
  opts: ConsistencyOptions = {},
): ConsistencyResult {
  try {
    check(assessment, pack, opts);
    return { ok: true };
  } catch (e) {
    if (e instanceof PackError) return { ok: false, error: e.message, path: e.path, rule: e.rule };
    throw e;
  }
}
