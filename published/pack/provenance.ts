/**
 * The provenance part of an assessment from a message (assessment-v1 §4): validate the signal set and the external
 * observations (§4.5, M1, M2), match (§4.2–§4.4), build and order hypotheses (§4.6–§4.8), render the answer and
 * abstentions (§4.9).
 */
import { buildHypotheses } from "./hypotheses.js";
import { evaluateMessage, signalSet, type TypologyEvaluation } from "./match.js";
import { checkObservations } from "./observations.js";
import { renderAbstentions, renderOriginAnswer } from "./templates.js";
import type { IntelligencePack, IocSet, ProvenanceResult } from "./types.js";

export interface ProvenanceInput {
  /** The raw message text `T`. Never logged or echoed. */
  text: string;
  /** Signal names `S` (detector signal names and threat rule ids). */
  signals: Iterable<string>;
  /** External observations `O` in input order (validated here). */
  observations?: readonly unknown[];
  /** The assessment's `detector.iocs`, for exact-IOC binding (M2). */
  iocs?: IocSet;
  /**
   * The §4.3–§4.4 evaluation ({@link evaluateMessage}) of exactly this text and signal set, when the caller already
   * has it (assess derives an assessment and self-checks it with the same text and signals: the match runs once).
   */
  evaluation?: readonly TypologyEvaluation[];
}

/** Runs §4.1–§4.9; throws {@link PackError} on an invalid signal name or observation. */
export function assessProvenance(pack: IntelligencePack, input: ProvenanceInput): ProvenanceResult {
  const signals = signalSet(input.signals);
  const observations = checkObservations(pack, input.observations ?? [], input.iocs ?? {}, (i) => `observations[${i}]`);
  const hypotheses = buildHypotheses(pack, input.evaluation ?? evaluateMessage(pack, input.text, signals), observations);
  return { hypotheses, origin_answer: renderOriginAnswer(hypotheses), abstentions: renderAbstentions(hypotheses) };
}
