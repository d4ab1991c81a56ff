/**
 * Pipeline stage 2, build (docs/pipeline.md, assessment-v1 §6): an {@link Intake} → the one {@link BuiltCapsule}.
 * The adapter's content (assessment/adapter.ts) is built (capsule-v1 §11.1: the builder validates the content as
 * the verifier's schema stage does, computes `content_sha256` and checks that the envelope loads back within the
 * nesting limit), then the full verifier runs once on the envelope, artifact bytes and derivations included (C1).
 *
 * This is the only place a {@link BuiltCapsule} is made, so holding one is the proof that the self-verification
 * passed: the store seals it as it is and nothing parses or verifies its bytes again in the same process.
 */
import { canonicalText } from "../../src/json/canonical.js";
import { sha256Hex } from "../../src/hash.js";
import { assessmentContent, type Producer } from "../assessment/adapter.js";
import { AssessmentError } from "../assessment/errors.js";
import { buildCapsuleParts, CapsuleBuildError, type Capsule } from "../capsule/build.js";
import type { VerificationReport } from "../capsule/report.js";
import { verifyCapsule, type VerifyOptions } from "../capsule/verify.js";
import type { Assessment } from "../assessment/types.js";
import type { Intake } from "./intake.js";

/** Only this module holds it, so only {@link buildFromIntake} can make a {@link BuiltCapsule}. */
const MINT: unique symbol = Symbol("built-capsule");

/** A capsule built from an intake and self-verified. Immutable; made only by {@link buildFromIntake}. */
export class BuiltCapsule {
  /** The capsule file bytes: canonical JSON of the envelope + LF (§6.1; identical to the outbox file). */
  readonly bytes: Uint8Array;
  /** The envelope, members in file order. */
  readonly envelope: Capsule;
  /** The self-verification report (ok). */
  readonly report: VerificationReport;
  /** The intake the capsule was built from. */
  readonly intake: Intake;

  constructor(mint: typeof MINT, bytes: Uint8Array, envelope: Capsule, report: VerificationReport, intake: Intake) {
    if (mint !== MINT) throw new TypeError("a BuiltCapsule is made only by buildFromIntake");
    this.bytes = bytes;
    this.envelope = envelope;
    this.report = report;
    this.intake = intake;
    Object.freeze(this);
  }

  /** `content_sha256`, the capsule id. */
  get id(): string {
    return this.envelope.content_sha256;
  }
}

/** Builds and self-verifies the capsule of `intake` under `producer`: the one way to a {@link BuiltCapsule}. */
export function buildFromIntake(intake: Intake, producer: Producer): BuiltCapsule {
  // The verifier reads the inline assessment artifact as the intake's value: its bytes are the intake's bytes.
  const parsedDocuments = new Map([[sha256Hex(intake.bytes), intake.value]]);
  const { bytes, envelope, report } = assembleCapsule(intake.bytes, intake.assessment, producer, parsedDocuments);
  return new BuiltCapsule(MINT, bytes, envelope, report, intake);
}

/**
 * The build itself, for an assessment given as bytes and their parsed shape-checked value: content → builder →
 * self-verification → file bytes. Throws {@link AssessmentError} (rule `capsule`) on any failure. Its result is plain
 * data, not a {@link BuiltCapsule} (nothing proves the assessment passed intake): the product builds through
 * {@link buildFromIntake}; tests of the adapter over assessments that are not consistent with a pack call this.
 */
export function assembleCapsule(
  bytes: Uint8Array,
  assessment: Assessment,
  producer: Producer,
  parsedDocuments?: VerifyOptions["parsedDocuments"],
): { bytes: Uint8Array; envelope: Capsule; report: VerificationReport } {
  let capsule: Capsule;
  let contentBytes: Uint8Array;
  try {
    ({ capsule, contentBytes } = buildCapsuleParts(assessmentContent(bytes, assessment, producer)));
  } catch (e) {
    if (e instanceof CapsuleBuildError) throw new AssessmentError(`adapter produced an invalid capsule: ${e.message}`, undefined, "capsule");
    throw e;
  }
  const report = verifyCapsule(capsule, { parsedDocuments });
  if (!report.ok) throw new AssessmentError(`adapter produced an invalid capsule: ${report.errors.join("; ")}`, undefined, "capsule");
  return { bytes: capsuleFileBytes(capsule, contentBytes), envelope: capsule, report };
}

const utf8 = (text: string) => Buffer.from(text, "utf8");

/**
 * The capsule file (§6.1): the canonical JSON of the envelope + LF. Its members sort as attestations, content,
 * content_sha256, and the canonical form of an object nests the canonical form of each member, so the file is
 * assembled around the content bytes the builder already canonicalised and hashed (equal to canonicalising the whole
 * envelope, which the reference-capsule tests compare byte for byte).
 */
function capsuleFileBytes(capsule: Capsule, contentBytes: Uint8Array): Uint8Array {
  return Buffer.concat([
    utf8(`{"attestations":${canonicalText(capsule.attestations, "capsule.attestations")},"content":`),
    contentBytes,
    utf8(`,"content_sha256":${JSON.stringify(capsule.content_sha256)}}\n`),
  ]);
}
