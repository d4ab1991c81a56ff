/**
 * Registration of the seven private tools (product.md §6): local only (`openWorldHint: false`), zod input and output
 * schemas, and handlers whose modules (and the private side behind them) load on the first call. There is
 * deliberately no tool that records a review decision or exports anything.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult, ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { CallInfo, PrivateContext } from "./private-context.js";
import * as S from "./tool-schemas.js";

export interface PrivateToolDef {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run: (args: never, call: CallInfo, ctx: PrivateContext) => Promise<CallToolResult>;
}

const local = (readOnly: boolean): ToolAnnotations => ({
  readOnlyHint: readOnly,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
});

export const PRIVATE_TOOLS: readonly PrivateToolDef[] = [
  {
    name: "record_assessment",
    title: "Record an assessment privately",
    description:
      "Takes a producer's scamshield-provenance/v1 assessment verbatim (the JSON a ScamShield producer emits, with message hash, pack digest and assessment id), validates it against the local intelligence pack, builds and verifies its Evidence Capsule, and seals it into the private store. To record a raw message you only have as text, use assess_message instead. Returns the capsule id, whether it was stored, a verification summary, the minimized outward candidate preview and warnings; never IOC values, message text or hashes. The same assessment_id recorded again returns the stored capsule with a warning. Nothing leaves this machine.",
    input: S.recordAssessmentInput,
    output: S.recordAssessmentOutput,
    annotations: { title: "Record an assessment privately", ...local(false) },
    run: async (args, call, ctx) => (await import("./record-assessment.js")).recordAssessment(args, call, ctx),
  },
  {
    name: "assess_message",
    title: "Assess and record a raw message privately",
    description:
      "Records a suspicious message from its raw text: you give the message and your judgement in closed vocabularies (detector signal names, threat findings with exact quotes, surface, authorization; optionally observed_at, source and IOCs you noticed). The bridge derives everything else deterministically (message hash, IOCs of six kinds, scores and tiers, typology hypotheses, assessment id), builds and verifies the Evidence Capsule and seals it into the private store. The text is dropped unless retain_message is true. A message already recorded returns its capsule id unless supersede is true. Returns the capsule id, tiers, IOC counts per kind, verification and the minimized outward candidate preview; never the text, IOC values or hashes. Nothing leaves this machine.",
    input: S.assessMessageInput,
    output: S.assessMessageOutput,
    // Not idempotent: with supersede: true the same message is recorded again as a new capsule.
    annotations: { title: "Assess and record a raw message privately", ...local(false), idempotentHint: false },
    run: async (args, call, ctx) => (await import("./assess-message.js")).assessMessage(args, call, ctx),
  },
  {
    name: "verify_capsule",
    title: "Verify an Evidence Capsule",
    description:
      "Verifies an Evidence Capsule v1 given inline (object or JSON text) or by the id of a stored capsule, and returns the full verification report. A capsule that does not verify is an error result carrying the report.",
    input: S.verifyCapsuleInput,
    output: S.verifyCapsuleOutput,
    annotations: { title: "Verify an Evidence Capsule", ...local(true) },
    run: async (args, call, ctx) => (await import("./capsule-tools.js")).verifyCapsuleTool(args, call, ctx),
  },
  {
    name: "list_capsules",
    title: "List stored capsules",
    description:
      "Lists the private store's capsules, newest first, as minimized rows: id, created_at, tiers, families, IOC counts per kind and review status with its approvals under the store's four-eyes policy (APPROVED_FOR_RELEASE with approvals.met false is short of its approvals, e.g. 1 of 2, and not released). No IOC values, hashes, pseudonyms or text.",
    input: S.listCapsulesInput,
    output: S.listCapsulesOutput,
    annotations: { title: "List stored capsules", ...local(true) },
    run: async (args, call, ctx) => (await import("./capsule-tools.js")).listCapsules(args, call, ctx),
  },
  {
    name: "get_candidates",
    title: "Outward candidates",
    description:
      "Returns the outward candidates of the stored capsules in feed order with their review status, approvals under the store's four-eyes policy (approvals.met false: not released) and digest, hardened and leak-guarded; withheld capsules are listed with the reason. Review decisions and exports are made by a human at the command line, never here.",
    input: S.getCandidatesInput,
    output: S.getCandidatesOutput,
    annotations: { title: "Outward candidates", ...local(true) },
    run: async (args, call, ctx) => (await import("./capsule-tools.js")).getCandidates(args, call, ctx),
  },
  {
    name: "match_typologies",
    title: "Match a message against the local pack",
    description:
      "Matches one message against the local intelligence pack and returns message-level typology hypotheses, the origin answer and abstentions. signals must come from the published vocabulary (the enum in the schema: 45 detector signal names and 10 threat rule ids); an unknown name is refused, naming it. The text is not stored.",
    input: S.matchTypologiesInput,
    output: S.matchTypologiesOutput,
    annotations: { title: "Match a message against the local pack", ...local(true) },
    run: async (args, call, ctx) => (await import("./analysis-tools.js")).matchTypologies(args, call, ctx),
  },
  {
    name: "check_regional_index",
    title: "Validate a regional captured-news index",
    description:
      "Validates a regional captured-news index (object or JSON text) against its format: schema errors with JSON paths, consistency warnings and the content_sha256 check.",
    input: S.checkRegionalIndexInput,
    output: S.checkRegionalIndexOutput,
    annotations: { title: "Validate a regional captured-news index", ...local(true) },
    run: async (args, call, ctx) => (await import("./analysis-tools.js")).checkRegionalIndex(args, call, ctx),
  },
];

export function registerPrivateTools(server: McpServer, ctx: PrivateContext): void {
  for (const t of PRIVATE_TOOLS) {
    server.registerTool(
      t.name,
      { title: t.title, description: t.description, inputSchema: t.input, outputSchema: t.output, annotations: t.annotations },
      ((args: unknown, extra: { requestId: string | number; signal: AbortSignal }) =>
        t.run(args as never, { requestId: extra.requestId, signal: extra.signal }, ctx)) as never,
    );
  }
}
