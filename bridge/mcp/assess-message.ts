/**
 * `assess_message` (product.md §6, docs/assess.md): a raw message and the client's judgement in closed
 * vocabularies → the bridge derives the whole assessment, builds, verifies and seals the capsule (the core of
 * `capsule assess`), and answers with the capsule id, tiers, IOC counts, the verification summary and the
 * minimized candidate preview. The message text is hashed, used and dropped unless `retain_message`; it never
 * appears in a result or an error, and neither do IOC values or the message hash.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { assessAndSeal, CLEAN_DROPS_IOCS } from "../../capsules/assess/assess.js";
import { checkJudgement, JudgementError } from "../../capsules/assess/judgement.js";
import { checkMessageText } from "../../capsules/assess/message-text.js";
import { AssessmentError } from "../../capsules/assessment/errors.js";
import { parseAssessment } from "../../capsules/assessment/parse-assessment.js";
import { BuiltCapsule } from "../../capsules/pipeline/build.js";
import { assessmentPrivateValues } from "../../capsules/guard/private-values.js";
import type { Assessment } from "../../capsules/assessment/types.js";
import { readCapsuleSource } from "../../capsules/pipeline/capsule-source.js";
import { cacheDerivationsOnPut } from "../../capsules/pipeline/stored.js";
import type { LoadedCapsule } from "../../capsules/pipeline/open.js";
import { fromJs } from "../../capsules/capsule/js-input.js";
import { IOC_KINDS } from "../../published/pack/vocabulary.js";
import type { JsonValue } from "../../src/json/value.js";
import { MATCH_TEXT_MAX_BYTES } from "./analysis-tools.js";
import { packOrUnavailable, type CallInfo, type PrivateContext } from "./private-context.js";
import { guardedResult, outwardSummary } from "./record-assessment.js";
import { errorResult } from "./tool-results.js";

export interface AssessArgs {
  message_text: string;
  signals: string[];
  findings: unknown[];
  surface: string;
  authorization: string;
  observed_at?: string;
  source?: string;
  iocs?: Record<string, string[]>;
  region?: string;
  retain_message?: boolean;
  supersede?: boolean;
}

/** The assessment inside a capsule opened from the store (an earlier recording of the same message). */
function storedAssessment(capsule: LoadedCapsule): Assessment {
  const source = readCapsuleSource(capsule);
  if (!source.ok) throw new AssessmentError(`stored capsule: ${source.reason}`, undefined, "capsule");
  return parseAssessment(source.assessmentBytes).assessment;
}

export async function assessMessage(args: AssessArgs, _call: CallInfo, ctx: PrivateContext): Promise<CallToolResult> {
  const size = Buffer.byteLength(args.message_text, "utf8");
  if (size > MATCH_TEXT_MAX_BYTES) return errorResult("rejected", `message_text: ${size} bytes exceed the ${MATCH_TEXT_MAX_BYTES}-byte (1 MiB) limit`, { rule: "size" });
  const { message_text: message, retain_message, supersede, ...rest } = args;
  let judgement;
  let checkedMessage;
  try {
    checkedMessage = checkMessageText(message, "message_text");
    judgement = checkJudgement(fromJs(rest) as JsonValue);
  } catch (e) {
    if (e instanceof JudgementError) return errorResult("rejected", e.message, { rule: e.rule, path: e.path });
    throw e;
  }
  const loaded = await packOrUnavailable(ctx);
  if ("error" in loaded) return loaded.error;
  const { pack } = loaded;

  let outcome;
  let made;
  try {
    const store = await ctx.state.storeForWriting();
    made = cacheDerivationsOnPut(store, pack);
    outcome = assessAndSeal(store, pack, { message: checkedMessage, judgement, retainMessage: retain_message === true, supersede: supersede === true });
  } catch (e) {
    if (e instanceof JudgementError) return errorResult("rejected", e.message, { rule: e.rule, path: e.path });
    if (e instanceof AssessmentError) return errorResult("rejected", e.message, { rule: e.rule, ...(e.path ? { path: e.path } : {}) });
    return errorResult("store_error", `store: ${(e as Error).message}`);
  }
  const assessment = outcome.capsule instanceof BuiltCapsule ? outcome.capsule.intake.assessment : storedAssessment(outcome.capsule);
  const summary = await outwardSummary(outcome.capsule, assessment, pack, ctx, made.get(outcome.capsule.id), outcome.status === "already_recorded");
  const warnings: string[] = [];
  if (outcome.status === "already_recorded") {
    warnings.push(`this message was already recorded as capsule ${outcome.capsuleId}; nothing new was built (pass supersede: true to record it again)`);
  }
  if (outcome.supersedes.length > 0) warnings.push(`capsule ${outcome.capsuleId} supersedes ${outcome.supersedes.join(", ")}`);
  if (!outcome.messageHeld) warnings.push("message_text was hashed and used, then discarded (retain_message is false)");
  else if (!outcome.messageRetained) warnings.push("message_text was hashed and used; the store already holds it sealed from an earlier call");
  if (outcome.clientIocsDropped === true) warnings.push(CLEAN_DROPS_IOCS);
  warnings.push(...summary.warnings);
  const iocs = assessment.detector.iocs;
  const result: Record<string, unknown> = {
    status: outcome.status,
    capsule_id: outcome.capsuleId,
    supersedes: outcome.supersedes,
    message_retained: outcome.messageRetained,
    detector: { tier: assessment.detector.tier, score: assessment.detector.score },
    threat_assessment: { tier: assessment.threat_assessment.tier, score: assessment.threat_assessment.score },
    ioc_counts: Object.fromEntries(IOC_KINDS.map((k) => [k, iocs[k]?.length ?? 0])),
    hypotheses: assessment.hypotheses.map((h) => ({ typology_id: h.typology_id, support_level: h.support_level })),
    verification: summary.verification,
    candidate_preview: summary.candidate_preview,
    warnings,
  };
  if (outcome.walletChecksums) result.wallet_checksums = outcome.walletChecksums;
  const head = outcome.status === "new" ? `Recorded capsule ${outcome.capsuleId}` : `Already recorded as capsule ${outcome.capsuleId}`;
  const privateValues = outcome.capsule instanceof BuiltCapsule ? outcome.capsule.intake.privateValues() : assessmentPrivateValues(assessment, pack);
  return guardedResult(result, privateValues, outcome.capsuleId, `${head}; ${summary.text}`);
}
