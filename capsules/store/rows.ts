/**
 * Minimized list rows (product.md §6 `list_capsules`, issue 4): id, created_at, tiers, families, IOC counts
 * per kind and review status. Everything in a row comes from a closed vocabulary or is a count, so a row can be
 * shown anywhere the owner looks: values outside the vocabularies are dropped, never copied. Rows never hold
 * IOC values, message hashes, pseudonyms, identifiers from the assessment or any free text.
 *
 * For assessment capsules (assessment-v1 §6) the facts are read from the inline `assessment` artifact; any
 * other capsule yields a row of kind `other` with only its id and created_at.
 */
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { DETECTOR_FAMILIES, THREAT_FAMILIES, TIERS, type Tier } from "../assessment/types.js";
import { TIER_RANK } from "../assessment/vocabulary.js";
import { decodeBase64Strict } from "../capsule/base64.js";
import { isRfc3339 } from "../capsule/fields.js";
import { HEX24, HEX64 } from "../assessment/text-rules.js";
import { ownString } from "../../src/json/own-string.js";

export const REVIEW_STATUSES = ["HUMAN_REVIEW_REQUIRED", "APPROVED_FOR_RELEASE", "REJECTED", "NEEDS_MORE_EVIDENCE"] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];
export const DEFAULT_REVIEW_STATUS: ReviewStatus = "HUMAN_REVIEW_REQUIRED";

const ASSESSMENT_ARTIFACT_ID = "assessment";
const ASSESSMENT_MEDIA_TYPE = "application/vnd.scamshield.provenance+json";
const ASSESSMENT_SCHEMA = "scamshield-provenance/v1";

export interface RowTiers {
  detector: Tier | null;
  threat: Tier | null;
  /** The higher of the two (product.md §8.7), null when neither is known. */
  overall: Tier | null;
}

/** What a row says about the capsule's content (cached in the sealed index). */
export interface RowFacts {
  id: string;
  created_at: string | null;
  kind: "assessment" | "other";
  tiers: RowTiers;
  /** Detector and threat families, sorted, each from its closed vocabulary. */
  families: string[];
  /** Number of distinct IOC values per kind, or null for a capsule that is not an assessment. */
  ioc_counts: Record<IocKind, number> | null;
}

/**
 * An assessment capsule's `message_sha256` (hex64) and `assessment_id` (hex24, assessment-v1 §5.3), else null, kept
 * only in the sealed row index for idempotent recording (recorded.ts). Never part of a row: rows are shown anywhere.
 * A value of another shape is kept as null: lookups only ever ask for values our intake accepted.
 */
export interface RecordedKeys {
  messageSha256: string | null;
  assessmentId: string | null;
}

/** The shape each recorded key must have (else it is null). */
export const RECORDED_KEY_SHAPE = { messageSha256: HEX64, assessmentId: HEX24 } as const;

export interface CapsuleRow extends RowFacts {
  review_status: ReviewStatus;
}

const FAMILY_SET: ReadonlySet<string> = new Set<string>([...DETECTOR_FAMILIES, ...THREAT_FAMILIES]);
const TIER_SET: ReadonlySet<string> = new Set<string>(TIERS);

function member(o: JsonValue | undefined, key: string): JsonValue | undefined {
  return isJsonObject(o) ? o.get(key) : undefined;
}

// Rows outlive the parsed capsule: every string kept in one is the vocabulary's own or a copy (src/json/own-string.ts).
function tierOf(v: JsonValue | undefined): Tier | null {
  return typeof v === "string" && TIER_SET.has(v) ? (TIERS.find((t) => t === v) ?? null) : null;
}

function familiesOf(v: JsonValue | undefined): string[] {
  return Array.isArray(v) ? v.filter((f): f is string => typeof f === "string" && FAMILY_SET.has(f)).map(ownString) : [];
}

function iocCounts(iocs: JsonValue | undefined): Record<IocKind, number> {
  const counts = {} as Record<IocKind, number>;
  for (const kind of IOC_KINDS) {
    const values = member(iocs, kind);
    counts[kind] = Array.isArray(values) ? new Set(values.filter((x) => typeof x === "string")).size : 0;
  }
  return counts;
}

/** The decoded assessment of an assessment capsule, or undefined for any other capsule. */
function assessmentOf(content: JsonObject): JsonObject | undefined {
  const artifacts = content.get("artifacts");
  if (!Array.isArray(artifacts)) return undefined;
  const matches = artifacts.filter((a) => member(a, "id") === ASSESSMENT_ARTIFACT_ID);
  if (matches.length !== 1) return undefined;
  const artifact = matches[0];
  if (member(artifact, "media_type") !== ASSESSMENT_MEDIA_TYPE) return undefined;
  const location = member(artifact, "location");
  if (member(location, "type") !== "inline" || member(location, "encoding") !== "base64") return undefined;
  const data = member(location, "data");
  if (typeof data !== "string") return undefined;
  try {
    const doc = parseStrictJson(decodeBase64Strict(data));
    return isJsonObject(doc) && doc.get("schema_version") === ASSESSMENT_SCHEMA ? doc : undefined;
  } catch {
    return undefined;
  }
}

function keyOf(v: JsonValue | undefined, shape: RegExp): string | null {
  return typeof v === "string" && shape.test(v) ? ownString(v) : null;
}

/** Row facts of the capsule stored under `id` (its envelope already checked against the id). */
export function rowFacts(id: string, envelope: JsonObject): RowFacts {
  return indexFacts(id, envelope).facts;
}

/** What the sealed row index keeps for one capsule: its row facts and its recorded keys, from one parse. */
export function indexFacts(id: string, envelope: JsonObject): { facts: RowFacts; recorded: RecordedKeys } {
  const content = envelope.get("content");
  const created = member(content, "created_at");
  const base: RowFacts = {
    id,
    created_at: typeof created === "string" && isRfc3339(created) ? ownString(created) : null,
    kind: "other",
    tiers: { detector: null, threat: null, overall: null },
    families: [],
    ioc_counts: null,
  };
  const assessment = isJsonObject(content) ? assessmentOf(content) : undefined;
  if (assessment === undefined) return { facts: base, recorded: { messageSha256: null, assessmentId: null } };
  const detector = assessment.get("detector");
  const threat = assessment.get("threat_assessment");
  const detectorTier = tierOf(member(detector, "tier"));
  const threatTier = tierOf(member(threat, "tier"));
  const known = [detectorTier, threatTier].filter((t): t is Tier => t !== null);
  const overall = known.length === 0 ? null : known.reduce((a, b) => (TIER_RANK[b] > TIER_RANK[a] ? b : a));
  const families = [...new Set([...familiesOf(member(detector, "families")), ...familiesOf(member(threat, "families"))])].sort();
  const facts: RowFacts = {
    ...base,
    kind: "assessment",
    tiers: { detector: detectorTier, threat: threatTier, overall },
    families,
    ioc_counts: iocCounts(member(detector, "iocs")),
  };
  const recorded: RecordedKeys = {
    messageSha256: keyOf(assessment.get("message_sha256"), RECORDED_KEY_SHAPE.messageSha256),
    assessmentId: keyOf(assessment.get("assessment_id"), RECORDED_KEY_SHAPE.assessmentId),
  };
  return { facts, recorded };
}

/** Newest first by created_at (rows without one last), then by id: a stable order. */
export function sortRows<T extends RowFacts>(rows: T[]): T[] {
  const keyed = rows.map((r) => ({ r, t: r.created_at === null ? Number.NEGATIVE_INFINITY : Date.parse(r.created_at) }));
  keyed.sort((a, b) => (a.t !== b.t ? (b.t > a.t ? 1 : -1) : a.r.id < b.r.id ? -1 : a.r.id > b.r.id ? 1 : 0));
  return keyed.map((k) => k.r);
}
