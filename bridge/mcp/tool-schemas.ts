/**
 * Input and output schemas (zod v4) of the private MCP tools (product.md §6). Inputs are closed objects: an
 * unknown argument is an error, not silently ignored. Documents may be given as an object or as JSON text; an
 * object is read from the client's exact bytes (see wire-table.ts), so nothing is lost to JSON.parse.
 */
import { z } from "zod";
import { JUDGEMENT_FIELDS } from "../../capsules/assess/judgement.js";
import { JUDGEMENT_DIALECT, typeProblem } from "../../capsules/assessment/assessment-dialect.js";
import { IOC_KINDS } from "../../capsules/assessment/types.js";
import { KNOWN_DETECTOR_SIGNALS, THREAT_RULE_IDS } from "../../published/pack/vocabulary.js";
import { compileShape, plainKind } from "../../src/json/shape-zod.js";
import {
  approvalsSchema,
  candidateSchema,
  capsuleRowSchema,
  hex64,
  regionalReportSchema,
  REVIEW_STATES,
  typologyMatchSchema,
  verificationReportSchema,
} from "./format-zod.js";

const documentArg = (what: string) =>
  z.union([z.string(), z.record(z.string(), z.unknown())]).describe(`${what}, as a JSON object or as its JSON text`);

const limit = (max: number, dflt: number) => z.number().int().min(1).max(max).optional().describe(`page size, 1–${max} (default ${dflt})`);
const cursor = z.string().min(1).max(256).optional().describe("next_cursor from the previous page");
const reviewStatus = z.enum(REVIEW_STATES).optional().describe("only items in this review state");

/**
 * A closed argument object whose "unknown argument" error counts the unknown names and lists the allowed ones, never
 * quoting an unknown name: a key can carry a private value as well as a value can (the SDK sends the message back).
 */
function closedArgs<T extends z.ZodRawShape>(shape: T) {
  const allowed = Object.keys(shape).join(", ");
  return z.strictObject(shape, {
    error: (iss) => (iss.code === "unrecognized_keys" ? `${iss.keys.length} unknown argument(s), names not shown (the arguments are ${allowed})` : undefined),
  });
}

export const recordAssessmentInput = closedArgs({
  assessment: documentArg("one scamshield-provenance/v1 assessment (at most 1 MiB)"),
  message_text: z
    .string()
    .optional()
    .describe("the raw message: its SHA-256 must equal message_sha256; it is dropped after the check unless retain_message is true"),
  retain_message: z.boolean().optional().describe("seal message_text into the private store (default false)"),
});

export const verifyCapsuleInput = closedArgs({
  capsule: documentArg("an Evidence Capsule v1 file").optional(),
  capsule_sha256: hex64.optional().describe("verify the capsule stored under this id instead"),
}).refine((v) => (v.capsule === undefined) !== (v.capsule_sha256 === undefined), {
  message: "give exactly one of capsule or capsule_sha256",
});

export const listCapsulesInput = closedArgs({ limit: limit(500, 50), cursor, review_status: reviewStatus });

export const getCandidatesInput = closedArgs({
  include_typology_matches: z.boolean().optional().describe("also show message-level TYPOLOGY_MATCH hypotheses (default false)"),
  review_status: reviewStatus,
  limit: limit(200, 25),
  cursor,
});

/** The signal vocabulary of the typology matcher: the 45 detector signal names and the 10 threat rule ids. */
export const SIGNAL_VOCABULARY = [...KNOWN_DETECTOR_SIGNALS, ...THREAT_RULE_IDS] as [string, ...string[]];

export const matchTypologiesInput = closedArgs({
  text: z.string().describe("the message text (at most 1 MiB); it is not stored"),
  signals: z
    .array(z.enum(SIGNAL_VOCABULARY, { error: (iss) => `unknown signal name ${typeof iss.input === "string" && /^[a-z][a-z0-9_]{0,63}$/.test(iss.input) ? `'${iss.input}'` : "(not an identifier)"}: use one of the 45 detector signal names or the 10 threat rule ids listed in this schema` }))
    .max(256)
    .optional()
    .describe("detector signal names and threat rule ids that fired for this message (closed vocabulary: the enum)"),
});

/** A judgement member compiled from the one shape definition (capsules/assess/judgement.ts). */
const judgementField = (name: keyof typeof JUDGEMENT_FIELDS, description: string) => compileShape(JUDGEMENT_FIELDS[name], JUDGEMENT_DIALECT).describe(description);

export const assessMessageInput = closedArgs({
  // The judgement fields' wording for a missing or mistyped member (`missing (expected string)`), not zod's default.
  message_text: z
    .string({ error: (iss) => typeProblem("string", plainKind(iss.input)) })
    .describe("the raw message exactly as received (at most 1 MiB); hashed and used, then dropped unless retain_message is true"),
  signals: judgementField("signals", `detector signal names you judge present in the message (closed vocabulary of assessment-v1 §2.3): ${KNOWN_DETECTOR_SIGNALS.join(", ")}`),
  findings: judgementField(
    "findings",
    "threat findings, one per rule: rule_id (one of the 10 threat rules), tier (WATCH, LIKELY_SCAM, CONFIRMED_PATTERN; wildlife_trade_offer and forced_labour_recruitment_risk at most LIKELY_SCAM), evidence_classes (closed list), fragments: evidence class → 1 to 8 exact quotes from the message, each at most 160 characters with at least 3 letters or digits, or 2 Han, Hiragana/Katakana or Hangul characters (never contact); every quote becomes a private value, so quote a distinctive passage, not a single common word",
  ),
  surface: judgementField("surface", "where the message was collected"),
  authorization: judgementField("authorization", "why it may be processed (public_channel needs public, private_submission needs user_submitted)"),
  observed_at: judgementField("observed_at", "when the message was seen, UTC YYYY-MM-DDTHH:MM:SS[.ffffff]Z (default: the assessment's created_at, i.e. now)").optional(),
  source: judgementField("source", "where it was seen (chat or channel id); stored only as a keyed pseudonym; required for public_channel").optional(),
  iocs: judgementField("iocs", `IOCs you noticed, by kind (${IOC_KINDS.join(", ")}); each must occur in the message (after Unicode normalisation) and have its kind's shape: handles @name, phones digits with spaces, dashes and + ( ) . / (tel: and extensions accepted), channels a link with / or @name, wallets one run of letters, digits, - and _ (a scheme, chain and query accepted), e-mails one token with @ or written out with [at] and a dot, URLs without spaces with :// or a dot (defanged [.] accepted). The bridge extracts IOCs itself as well`).optional(),
  region: judgementField(
    "region",
    "optional: the region (ISO 3166-1 alpha-2, e.g. IN, RU, ID) phone numbers written without a country code are read in; without it the bridge infers regions from the countries the message names and its scripts, then IN",
  ).optional(),
  retain_message: z.boolean().optional().describe("seal message_text into the private store (default false)"),
  supersede: z.boolean().optional().describe("record a message that was already recorded again; the new capsule supersedes the old (default false)"),
});

export const assessMessageOutput = z.strictObject({
  status: z.enum(["new", "already_recorded"]),
  capsule_id: hex64,
  supersedes: z.array(hex64).describe("earlier capsules of the same message this one supersedes"),
  message_retained: z.boolean(),
  detector: z.strictObject({ tier: z.string(), score: z.number().int() }),
  threat_assessment: z.strictObject({ tier: z.string(), score: z.number().int() }),
  ioc_counts: z.record(z.string(), z.number().int().min(0)).describe("IOCs recorded per kind (values stay in the private store)"),
  wallet_checksums: z
    .strictObject({ verified: z.number().int(), failed: z.number().int(), none: z.number().int() })
    .optional()
    .describe("wallet addresses whose checksum verified, failed, or that carry none"),
  hypotheses: z.array(z.strictObject({ typology_id: z.string(), support_level: z.string() })),
  verification: z.record(z.string(), z.unknown()),
  candidate_preview: z.record(z.string(), z.unknown()),
  warnings: z.array(z.string()),
});

export const checkRegionalIndexInput = closedArgs({ index: documentArg("a regional captured-news index") });

const verificationSummary = z.strictObject({
  ok: z.boolean(),
  ok_scope: z.string(),
  schema: z.string(),
  integrity: z.string(),
  artifacts: z.string(),
  ledger: z.string(),
  anchor: z.string(),
  recomputability: z.string(),
  claims: z.string(),
  attestations: z.string(),
  errors: z.array(z.string()),
});

export const candidatePreviewSchema = z.strictObject({
  status: z.enum(["emitted", "excluded", "withheld"]),
  digest: hex64.optional().describe("SHA-256 of the candidate's canonical bytes (what a reviewer approves)"),
  candidate: candidateSchema.optional(),
  reason: z.string().optional(),
});

export const recordAssessmentOutput = z.strictObject({
  capsule_id: hex64,
  stored: z.boolean(),
  store_status: z.enum(["new", "existing"]),
  message_retained: z.boolean(),
  verification: verificationSummary,
  candidate_preview: candidatePreviewSchema,
  warnings: z.array(z.string()),
});

export const verifyCapsuleOutput = verificationReportSchema;

export const listCapsulesOutput = z.strictObject({
  rows: z.array(capsuleRowSchema),
  total: z.number().int().min(0).describe("rows matching the filter"),
  next_cursor: z.string().nullable(),
});

export const getCandidatesOutput = z.strictObject({
  candidates: z.array(z.strictObject({ capsule_id: hex64, digest: hex64, review_status: z.enum(REVIEW_STATES), approvals: approvalsSchema, candidate: candidateSchema })),
  withheld: z.array(z.strictObject({ capsule_id: hex64, reason: z.string() })),
  excluded: z.number().int().min(0).describe("capsules without a candidate by policy on this page (CLEAN tier)"),
  next_cursor: z.string().nullable(),
});

export const matchTypologiesOutput = typologyMatchSchema;
export const checkRegionalIndexOutput = regionalReportSchema;
