/**
 * zod schemas of the formats the bridge hands out that have no zod schema elsewhere: the outward candidate
 * (product.md §8), the capsule verification report (capsule-v1 §10), the minimized store row (product.md §6),
 * the typology-match result (assessment-v1 §4.6–§4.9) and the regional index validation report (product.md §10).
 *
 * They are the output schemas of the private MCP tools (the SDK validates every structured result against them)
 * and, through `z.toJSONSchema`, checked-in JSON Schemas under `schemas/`. Objects are closed: an unexpected
 * member fails validation rather than leaving unnoticed.
 */
import { z } from "zod";
import { AUTHORIZATIONS, DETECTOR_FAMILIES, SCRIPT_HINTS, SURFACES, THREAT_FAMILIES, TIERS } from "../../capsules/assessment/types.js";
import { PUBLIC_RECORD_SCHEMA, REVIEW_REQUIRED } from "../../capsules/candidates/types.js";
import { DIMENSIONS, IOC_KINDS, SPECIFICITIES, SUPPORT_LEVELS } from "../../published/pack/vocabulary.js";
import { SCHEMA_VERSIONS } from "../../published/regional/profiles.js";

/** Review states (product.md §8); the store's vocabulary (capsules/store/rows.ts), kept equal by a test. */
export const REVIEW_STATES = ["HUMAN_REVIEW_REQUIRED", "APPROVED_FOR_RELEASE", "REJECTED", "NEEDS_MORE_EVIDENCE"] as const;

export const hex64 = z.string().regex(/^[0-9a-f]{64}$/, "expected 64 lowercase hex characters");
const count = z.number().int().min(0);
const tier = z.enum(TIERS);

const iocCounts = z.strictObject(Object.fromEntries(IOC_KINDS.map((k) => [k, count.optional()])) as Record<(typeof IOC_KINDS)[number], z.ZodOptional<typeof count>>);

export const candidateSchema = z
  .strictObject({
    schema_version: z.literal(PUBLIC_RECORD_SCHEMA),
    capsule_sha256: hex64,
    assessment_id: z.string().regex(/^[0-9a-f]{24}$/),
    created_at: z.string().regex(/^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:00:00Z$/, "expected a UTC timestamp truncated to the hour"),
    review_status: z.literal(REVIEW_REQUIRED),
    detector: z.strictObject({ tier, score: z.number().int(), families: z.array(z.enum(DETECTOR_FAMILIES)) }),
    threat_assessment: z.strictObject({ tier, score: z.number().int(), families: z.array(z.enum(THREAT_FAMILIES)) }),
    collection: z.strictObject({
      surface: z.enum(SURFACES),
      authorization: z.enum(AUTHORIZATIONS),
      source_pseudonym: z.string().optional(),
      script_hints: z.array(z.enum(SCRIPT_HINTS)),
    }),
    ioc_counts: iocCounts,
    hypotheses: z.array(
      z.strictObject({
        typology_id: z.string(),
        dimension: z.enum(DIMENSIONS),
        label: z.string(),
        support_level: z.enum(SUPPORT_LEVELS),
        independent_backers: count,
      }),
    ),
    origin_answer: z.string(),
    limitations: z.array(z.string()),
    feed_policy: z.strictObject({ typology_match_visible: z.boolean(), automatic_publication: z.literal(false) }),
    hypotheses_withheld: z.string().optional(),
  })
  .describe("Outward candidate: palimpsest-scamshield-public-record/v1 plus feed_policy (evidence-bridge, product.md §8)");

const problems = z.array(z.string());
function section<S extends readonly [string, ...string[]]>(statuses: S, item: z.ZodType) {
  return z.strictObject({ status: z.enum([...statuses, "not_evaluated", "failed"]), items: z.array(item), meaning: z.string().optional() });
}

export const verificationReportSchema = z
  .strictObject({
    ok: z.boolean(),
    ok_scope: z.string(),
    schema: z.strictObject({ status: z.enum(["verified", "failed"]) }),
    integrity: z.strictObject({ status: z.enum(["verified", "failed", "unsupported"]), expected: z.string(), actual: z.string().nullable() }),
    artifacts: section(
      ["verified"],
      z.strictObject({ id: z.string(), status: z.enum(["verified", "failed"]), problems, actual_sha256: z.string().optional() }),
    ),
    ledger: section(
      ["entry_membership_verified", "not_present"],
      z.strictObject({
        id: z.string(),
        index: z.number().int(),
        status: z.enum(["entry_membership_verified", "failed"]),
        problems,
        entry_integrity: z.enum(["verified", "failed"]),
        membership: z.enum(["verified", "failed"]),
        chain_integrity: z.literal("not_verifiable_from_capsule"),
        seq: z.number().int().optional(),
        root: z.string().optional(),
      }),
    ),
    anchor: section(
      ["envelope_bound", "not_present"],
      z.strictObject({
        id: z.string(),
        index: z.number().int(),
        status: z.enum(["envelope_bound", "failed"]),
        problems,
        cryptographic_timestamp: z.literal("not_verified"),
        structure: z.strictObject({ nodes: count, attestations: count }).optional(),
        prefix_entries: count.optional(),
        root: z.string().optional(),
      }),
    ),
    recomputability: section(
      ["verified", "partial", "not_recomputable", "not_applicable"],
      z.strictObject({ id: z.string(), status: z.enum(["verified", "not_recomputable", "failed"]), problems, reason: z.string().optional() }),
    ),
    claims: section(
      ["references_verified", "references_partially_recomputable"],
      z.strictObject({
        id: z.string(),
        status: z.enum(["references_verified", "references_partially_recomputable", "failed"]),
        artifact_refs: z.array(z.string()),
        derivation_refs: z.array(z.string()),
        binding_refs: z.array(z.string()),
        natural_language_truth: z.literal("not_evaluated"),
        problems,
      }),
    ),
    attestations: z.strictObject({ status: z.enum(["not_present", "bound_not_authenticated", "failed"]), count, meaning: z.string() }),
    errors: z.array(z.string()),
  })
  .describe("Evidence Capsule v1 verification report (capsule-v1 §10)");

/** The approvals of the decided bytes under the store's four-eyes policy (capsules/review/status.ts). */
export const approvalsSchema = z
  .strictObject({
    counted: count.describe("distinct registered reviewer keys that approved these bytes"),
    required: z.number().int().min(1).describe("approvals the store's review policy requires"),
    met: z.boolean().describe("true only when review export would release these bytes (enough approvals, no rejection)"),
  })
  .describe("approvals under the store's review policy: APPROVED_FOR_RELEASE with met false is short of its approvals (\"1 of 2 approvals\") and not released");

export const capsuleRowSchema = z
  .strictObject({
    id: hex64,
    created_at: z.string().nullable(),
    kind: z.enum(["assessment", "other"]),
    tiers: z.strictObject({ detector: tier.nullable(), threat: tier.nullable(), overall: tier.nullable() }),
    families: z.array(z.string()),
    ioc_counts: z.strictObject(Object.fromEntries(IOC_KINDS.map((k) => [k, count])) as Record<(typeof IOC_KINDS)[number], typeof count>).nullable(),
    review_status: z.enum(REVIEW_STATES),
    approvals: approvalsSchema,
  })
  .describe("Minimized row of a stored capsule: no IOC values, hashes, pseudonyms or text (product.md §6)");

const typologySource = z.strictObject({ id: z.string(), publisher: z.string(), title: z.string(), published_at: z.string(), url: z.string() });

export const hypothesisSchema = z.strictObject({
  typology_id: z.string(),
  dimension: z.enum(DIMENSIONS),
  label: z.string(),
  support_level: z.enum(SUPPORT_LEVELS),
  matched_indicators: z.array(
    z.strictObject({
      id: z.string(),
      label: z.string(),
      evidence_class: z.string(),
      specificity: z.enum(SPECIFICITIES),
      term_hits: z.array(z.string()),
      signal_hits: z.array(z.string()),
    }),
  ),
  external_observations: z.array(z.record(z.string(), z.string())),
  independent_backers: count,
  evidence_classes: z.array(z.string()),
  typology_sources: z.array(typologySource),
  limitations: z.array(z.string()),
});

export const typologyMatchSchema = z
  .strictObject({
    pack_sha256: hex64,
    hypotheses: z.array(hypothesisSchema),
    origin_answer: z.string(),
    abstentions: z.partialRecord(z.enum(DIMENSIONS), z.string()),
  })
  .describe("Message-level typology hypotheses from the local intelligence pack (assessment-v1 §4.6–§4.9)");

const finding = z.strictObject({ path: z.string(), rule: z.string(), message: z.string() });

export const regionalReportSchema = z
  .strictObject({
    format: z.enum(SCHEMA_VERSIONS),
    profile: z.enum(["neutral", "publisher"]).nullable(),
    conforms: z.boolean(),
    region: z.string().nullable(),
    event_count: count.nullable(),
    errors: z.array(finding),
    error_count: count,
    warnings: z.array(finding),
    warning_count: count,
    consistency: z.enum(["checked", "not_checked"]),
    content_sha256: z.strictObject({
      status: z.enum(["verified", "mismatch", "not_checked"]),
      declared: z.string().nullable(),
      computed: z.string().nullable(),
      reason: z.string().nullable(),
      rule: z.string(),
    }),
  })
  .describe("Regional captured-news index validation report (product.md §10)");
