/**
 * Consistency with the message itself (assessment-v1 §5.1, §4.10 last sentence): the text must hash to
 * `message_sha256`, and re-running §4.1–§4.9 on it with the assessment's signals and observations must reproduce
 * the hypotheses, `origin_answer` and `abstentions` exactly. Errors name paths only: the text, its hash and matched
 * terms are never echoed.
 */
import { messageSha256 } from "../../src/message-hash.js";
import { PackError } from "../../published/pack/errors.js";
import { describeDifference, firstDifference } from "../../published/pack/first-difference.js";
import type { TypologyEvaluation } from "../../published/pack/match.js";
import { assessProvenance } from "../../published/pack/provenance.js";
import type { ExternalObservation, IntelligencePack, IocSet } from "../../published/pack/types.js";
import type { Assessment } from "./types.js";

export function checkMessageAgreement(
  assessment: Assessment,
  pack: IntelligencePack,
  messageText: string,
  signals: ReadonlySet<string>,
  observations: readonly ExternalObservation[],
  iocs: IocSet,
  root: string,
  evaluation?: readonly TypologyEvaluation[],
): void {
  if (messageSha256(messageText) !== assessment.message_sha256) {
    throw new PackError(`${root}.message_sha256`, "message-hash", "the supplied message text does not hash to message_sha256 (§5.1)");
  }
  const recomputed = assessProvenance(pack, { text: messageText, signals, observations, iocs, evaluation });
  for (const key of ["hypotheses", "origin_answer", "abstentions"] as const) {
    const d = firstDifference(assessment[key], recomputed[key], `${root}.${key}`);
    if (d) {
      throw new PackError(d.path, "message-match", `${describeDifference(d.kind)} from the match recomputed from the message text (§4.10)`);
    }
  }
}
