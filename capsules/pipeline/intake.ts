/**
 * Pipeline stage 1, intake (docs/pipeline.md): assessment bytes → one verified {@link Intake} value. The bytes are
 * parsed once (strict JSON, J1–J10), shape-checked once (§2), checked against the message when one is given (§5.1),
 * run once through hardened consistency with the loaded pack (§4.10, §2.7) and their `assessment_id` recomputed
 * once (§5.3). The first failure is thrown as an {@link AssessmentError} naming the path and rule; nothing private
 * is echoed.
 *
 * An {@link Intake} can only be made here, so holding one is the proof that all of that ran: later stages (build,
 * derive, the store) take it and never parse or check the assessment again.
 */
import { messageSha256 } from "../../src/message-hash.js";
import type { JsonObject } from "../../src/json/value.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import { checkAssessmentId } from "../assessment/assessment-id.js";
import { checkAssessmentConsistency, type ConsistencyOptions } from "../assessment/consistency.js";
import { AssessmentError } from "../assessment/errors.js";
import { parseAssessment } from "../assessment/parse-assessment.js";
import type { Assessment } from "../assessment/types.js";
import { assessmentPrivateValues, type PrivateValue } from "../guard/private-values.js";

export interface IntakeOptions {
  /** The raw message the assessment describes: it must hash to `message_sha256`. Never stored or echoed here. */
  messageText?: string;
  /** See {@link ConsistencyOptions.messageEvaluation} (only with `messageText`). */
  messageEvaluation?: ConsistencyOptions["messageEvaluation"];
}

/** Only this module holds it, so only {@link intakeAssessment} can make an {@link Intake}. */
const MINT: unique symbol = Symbol("intake");

/** One assessment that passed the whole intake against `pack`. Immutable; made only by {@link intakeAssessment}. */
export class Intake {
  /** The exact input bytes (what the capsule's inline artifact carries). */
  readonly bytes: Uint8Array;
  /** The strictly parsed document (floats keep their lexemes). */
  readonly value: JsonObject;
  /** The shape-checked assessment as plain JS. */
  readonly assessment: Assessment;
  /** The pack the assessment was checked against. */
  readonly pack: IntelligencePack;
  #privateValues: readonly PrivateValue[] | undefined;

  constructor(mint: typeof MINT, bytes: Uint8Array, value: JsonObject, assessment: Assessment, pack: IntelligencePack) {
    if (mint !== MINT) throw new TypeError("an Intake is made only by intakeAssessment");
    this.bytes = bytes;
    this.value = value;
    this.assessment = assessment;
    this.pack = pack;
    Object.freeze(this);
  }

  /** The recomputed and checked `assessment_id` (§5.3). */
  get assessmentId(): string {
    return this.assessment.assessment_id;
  }

  get messageSha256(): string {
    return this.assessment.message_sha256;
  }

  /** The assessment's private values (guard/private-values.ts), computed on first use and kept. */
  privateValues(): readonly PrivateValue[] {
    return (this.#privateValues ??= assessmentPrivateValues(this.assessment, this.pack));
  }
}

/** Runs the whole intake of one assessment; throws {@link AssessmentError} with the first failure. */
export function intakeAssessment(bytes: Uint8Array, pack: IntelligencePack, opts: IntakeOptions = {}): Intake {
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
  return new Intake(MINT, bytes, parsed.value, parsed.assessment, pack);
}
