/**
 * `record_assessment` (product.md §6): the pipeline of `capsule build` (capsules/pipeline: intake with the message
 * check, then build with its one self-verification), sealed into the store, followed by the verification summary
 * (the build's own report) and the minimized candidate preview (deriveCandidate, leak guard included).
 *
 * The raw message is used to check `message_sha256` and to re-run the typology match, then dropped unless
 * `retain_message` is true (then it is only ever sealed). The result holds no message text, IOC value or message
 * hash: it is checked against the assessment's private values once more before it leaves. The same assessment_id
 * recorded before (other bytes) returns the stored capsule with a warning instead of a second capsule.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { projectProducer } from "../../capsules/assessment/adapter.js";
import { AssessmentError } from "../../capsules/assessment/errors.js";
import { ASSESSMENT_MAX_BYTES } from "../../capsules/assessment/parse-assessment.js";
import { candidateView, type Derivation } from "../../capsules/pipeline/derive.js";
import { cacheDerivationsOnPut, deriveStorable } from "../../capsules/pipeline/stored.js";
import { OutwardGuard } from "../../capsules/guard/outward-guard.js";
import type { PrivateValue } from "../../capsules/guard/private-values.js";
import { verifyCapsule } from "../../capsules/capsule/verify.js";
import type { Assessment } from "../../capsules/assessment/types.js";
import { buildFromIntake, BuiltCapsule } from "../../capsules/pipeline/build.js";
import { intakeAssessment } from "../../capsules/pipeline/intake.js";
import type { LoadedCapsule } from "../../capsules/pipeline/open.js";
import { findRecorded, noteRecorded } from "../../capsules/store/recorded.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import { packOrUnavailable, type CallInfo, type PrivateContext } from "./private-context.js";
import { DocumentError, documentBytes, errorResult, structuredResult } from "./tool-results.js";

export interface RecordArgs {
  assessment: string | Record<string, unknown>;
  message_text?: string;
  retain_message?: boolean;
}

export async function recordAssessment(args: RecordArgs, call: CallInfo, ctx: PrivateContext): Promise<CallToolResult> {
  const retain = args.retain_message === true;
  // The raw text is private for the life of this process, whatever happens next: no later call may send it.
  if (args.message_text !== undefined) ctx.egress.rememberText(args.message_text);
  if (retain && args.message_text === undefined) return errorResult("rejected", "retain_message: true needs message_text (the only text that could be retained)");
  let bytes: Uint8Array;
  try {
    bytes = documentBytes("assessment", args.assessment, ctx.wire.rawArgument(call.requestId, "assessment"));
  } catch (e) {
    if (e instanceof DocumentError) return errorResult("rejected", e.message, { rule: "utf-8" });
    throw e;
  }
  if (bytes.length > ASSESSMENT_MAX_BYTES) {
    return errorResult("rejected", `assessment: ${bytes.length} bytes exceed the ${ASSESSMENT_MAX_BYTES}-byte (1 MiB) limit`, { rule: "size" });
  }
  const loaded = await packOrUnavailable(ctx);
  if ("error" in loaded) return loaded.error;
  const { pack } = loaded;

  let built: BuiltCapsule;
  try {
    built = buildFromIntake(intakeAssessment(bytes, pack, { messageText: args.message_text }), projectProducer(ctx.version));
  } catch (e) {
    if (e instanceof AssessmentError) return errorResult("rejected", e.message, { rule: e.rule, ...(e.path ? { path: e.path } : {}) });
    throw e;
  }
  const { assessment } = built.intake;
  let id = built.id;
  let capsule: BuiltCapsule | LoadedCapsule = built;

  const warnings: string[] = [];
  let stored: "new" | "existing";
  let made: Map<string, Derivation>;
  try {
    const store = await ctx.state.storeForWriting();
    ctx.egress.writeFingerprints(store);
    made = cacheDerivationsOnPut(store, pack);
    // Idempotence by assessment_id: the same assessment re-serialised is not a second capsule (no second queue row).
    const same = findRecorded(store, { assessmentId: assessment.assessment_id }).filter((x) => x !== id);
    if (same.length > 0) {
      id = same[0];
      capsule = store.openCapsule(id);
      stored = "existing";
      warnings.push(`assessment ${assessment.assessment_id} was already recorded as capsule ${id} (other bytes: re-serialised or another producer block); the stored capsule is kept and nothing new was queued`);
    } else {
      stored = store.putCapsule(built).stored;
      noteRecorded(store, id, { messageSha256: assessment.message_sha256, assessmentId: assessment.assessment_id, createdAt: assessment.created_at });
      if (stored === "existing") warnings.push("the store already held this capsule (same bytes); nothing was changed");
    }
    if (retain) store.putMessage(args.message_text!, assessment.message_sha256);
  } catch (e) {
    return errorResult("store_error", `store: ${(e as Error).message}`);
  }
  const summary = await outwardSummary(capsule, assessment, pack, ctx, made.get(id), stored !== "new");
  if (args.message_text !== undefined && !retain) warnings.push("message_text was used to check message_sha256 and the typology match, then discarded (retain_message is false)");
  warnings.push(...summary.warnings);

  const result = {
    capsule_id: id,
    stored: true,
    store_status: stored,
    message_retained: retain,
    verification: summary.verification,
    candidate_preview: summary.candidate_preview,
    warnings,
  };
  return guardedResult(result, built.intake.privateValues(), id, `Capsule ${id} ${stored === "new" ? "recorded" : "was already recorded"}; ${summary.text}`);
}

/**
 * The verification summary and the minimized candidate preview of a stored capsule (shared with assess_message): a
 * capsule built in this call carries its self-verification report and private values; one opened from the store (an
 * earlier recording) is verified here, once.
 */
export async function outwardSummary(
  capsule: BuiltCapsule | LoadedCapsule,
  assessment: Assessment,
  pack: IntelligencePack,
  ctx: PrivateContext,
  derivation?: Derivation,
  /** The capsule was recorded by an earlier call: its candidate may have been reviewed since, so none is "awaiting". */
  recordedEarlier = false,
) {
  const { id } = capsule;
  // The derivation the store's put just wrote to the cache, or one made here (an earlier recording, opened).
  const d = derivation ?? deriveStorable(capsule, pack);
  // The values the store-wide guard holds for this capsule, as the derivation read them from its inline documents.
  ctx.egress.rememberValues(id, d.storeValues);
  const report = capsule instanceof BuiltCapsule ? capsule.report : (capsule.report ?? verifyCapsule(capsule.envelope));
  const derived = candidateView(d, { includeTypologyMatches: false, includeClean: false });
  const candidate_preview =
    derived.status === "emitted"
      ? { status: derived.status, digest: derived.digest, candidate: derived.candidate }
      : { status: derived.status, reason: derived.reason };
  const warnings: string[] = [];
  if (derived.status === "excluded") warnings.push("no outward candidate: the overall tier is CLEAN");
  if (derived.status === "withheld") warnings.push("no outward candidate: it was withheld (see candidate_preview.reason)");
  const verification = {
    ok: report.ok,
    ok_scope: report.ok_scope,
    schema: report.schema.status,
    integrity: report.integrity.status,
    artifacts: report.artifacts.status,
    ledger: report.ledger.status,
    anchor: report.anchor.status,
    recomputability: report.recomputability.status,
    claims: report.claims.status,
    attestations: report.attestations.status,
    errors: report.errors,
  };
  const text =
    `verification ${report.ok ? "ok" : "FAILED"}; detector ${assessment.detector.tier} ${assessment.detector.score}, threat ${assessment.threat_assessment.tier} ${assessment.threat_assessment.score}, ` +
    `${assessment.hypotheses.length} typology hypothesis(es); outward candidate ${derived.status}${derived.status !== "emitted" ? "" : recordedEarlier ? " when it was first recorded (get_candidates shows its review status)" : " (awaiting human review)"}.`;
  return { verification, candidate_preview, warnings, text };
}

/**
 * A structured result checked once more against the assessment's private values (`Intake.privateValues()`, or
 * `assessmentPrivateValues(assessment, pack)`) before it leaves.
 */
export function guardedResult(result: Record<string, unknown>, privateValues: readonly PrivateValue[], id: string, text: string): CallToolResult {
  // Belt and braces: nothing private may leave, whatever a future change adds to this result.
  const verdict = new OutwardGuard([...privateValues]).check({ ...result, summary: text }, "result");
  if (!verdict.ok) return errorResult("withheld", `capsule ${id} was stored, but its summary was withheld: ${verdict.reason}`);
  return structuredResult(result, false, text);
}
