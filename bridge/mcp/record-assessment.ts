/**
 * `record_assessment` (product.md §6): the intake pipeline of `capsule build` (validateAssessment →
 * buildAssessmentCapsule, with the message check and self-verification), sealed into the store, followed by the
 * verification summary and the minimized candidate preview (deriveCandidate, leak guard included).
 *
 * The raw message is used to check `message_sha256` and to re-run the typology match, then dropped unless
 * `retain_message` is true (then it is only ever sealed). The result holds no message text, IOC value or message
 * hash: it is checked against the assessment's private values once more before it leaves.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { buildAssessmentCapsule, projectProducer } from "../../capsules/assessment/adapter.js";
import { AssessmentError } from "../../capsules/assessment/errors.js";
import { validateAssessment } from "../../capsules/assessment/intake.js";
import { ASSESSMENT_MAX_BYTES } from "../../capsules/assessment/parse-assessment.js";
import { deriveCandidate } from "../../capsules/candidates/derive.js";
import { OutwardGuard } from "../../capsules/guard/outward-guard.js";
import { assessmentPrivateValues } from "../../capsules/guard/private-values.js";
import { loadCapsuleBytes } from "../../capsules/capsule/load.js";
import { verifyCapsule } from "../../capsules/capsule/verify.js";
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

  let built;
  let assessment;
  try {
    assessment = validateAssessment(bytes, pack, { messageText: args.message_text }).assessment;
    built = buildAssessmentCapsule(bytes, assessment, projectProducer(ctx.version));
  } catch (e) {
    if (e instanceof AssessmentError) return errorResult("rejected", e.message, { rule: e.rule, ...(e.path ? { path: e.path } : {}) });
    throw e;
  }
  const id = built.capsule.content_sha256;
  const capsuleBytes = new TextEncoder().encode(built.text);

  let stored: "new" | "existing";
  try {
    const store = await ctx.state.storeForWriting();
    stored = store.putCapsule(capsuleBytes, id).stored;
    if (retain) store.putMessage(args.message_text!, assessment.message_sha256);
  } catch (e) {
    return errorResult("store_error", `store: ${(e as Error).message}`);
  }
  const envelope = loadCapsuleBytes(capsuleBytes);
  ctx.egress.remember(id, envelope);

  const report = verifyCapsule(envelope);
  const derived = deriveCandidate(envelope, pack, { includeTypologyMatches: false, includeClean: false, recomputedContentSha256: id });
  const preview =
    derived.status === "emitted"
      ? { status: derived.status, digest: derived.digest, candidate: derived.candidate }
      : { status: derived.status, reason: derived.reason };

  const warnings: string[] = [];
  if (stored === "existing") warnings.push("the store already held this capsule (same bytes); nothing was changed");
  if (args.message_text !== undefined && !retain) warnings.push("message_text was used to check message_sha256 and the typology match, then discarded (retain_message is false)");
  if (derived.status === "excluded") warnings.push("no outward candidate: the overall tier is CLEAN");
  if (derived.status === "withheld") warnings.push("no outward candidate: it was withheld (see candidate_preview.reason)");

  const result = {
    capsule_id: id,
    stored: true,
    store_status: stored,
    message_retained: retain,
    verification: {
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
    },
    candidate_preview: preview,
    warnings,
  };
  // Belt and braces: nothing private may leave, whatever a future change adds to this result.
  const verdict = new OutwardGuard(assessmentPrivateValues(assessment, pack)).check(result, "result");
  if (!verdict.ok) return errorResult("withheld", `capsule ${id} was stored, but its summary was withheld: ${verdict.reason}`);
  return structuredResult(result);
}
