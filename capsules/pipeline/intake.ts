/**
 * The full intake check of one assessment before a capsule is built: strict shape (§2), the message file when
 * given (§5.1), hardened consistency with the loaded pack (§4.10, §2.7), and the recomputed `assessment_id` (§5.3).
 * The first failure is thrown as an {@link AssessmentError} naming the path and rule; nothing private is echoed.
 */
import { messageSha256 } from "../../src/message-hash.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import type { ConsistencyOptions } from "./consistency.js";
import { checkAssessmentId } from "./assessment-id.js";
import { checkAssessmentConsistency } from "./consistency.js";
import { AssessmentError } from "./errors.js";
import { parseAssessment, type ParsedAssessment } from "./parse-assessment.js";

export interface IntakeOptions {
  /** The raw message the assessment describes: it must hash to `message_sha256`. Never stored or echoed here. */
  messageText?: string;
  /** See {@link ConsistencyOptions.messageEvaluation} (only with `messageText`). */
  messageEvaluation?: ConsistencyOptions["messageEvaluation"];
}

export function validateAssessment(bytes: Uint8Array, pack: IntelligencePack, opts: IntakeOptions = {}): ParsedAssessment {
  const parsed = parseAssessment(bytes);
  if (opts.messageText !== undefined && messageSha256(opts.messageText) !== parsed.assessment.message_sha256) {
    throw new AssessmentError(
      "assessment.message_sha256: the SHA-256 of the given message does not equal message_sha256 (§5.1: hash of the exact bytes, no normalisation)",
      "assessment.message_sha256",
      "message-hash",
    );
  }
  const consistency = checkAssessmentConsistency(parsed.assessment, pack, { messageText: opts.messageText, messageEvaluation: opts.messageEvaluation });
  if (!consistency.ok) throw new AssessmentError(consistency.error, consistency.path, "consistency");
  checkAssessmentId(parsed.value);
  return parsed;
}
