/**
 * zod v4 schema of `service.regional-captured-index.v1`, exactly as the interface specification states it: every
 * object strict, every constant, enum, pattern, minimum and min length, RFC 3339 date-times, URI and IRI fields,
 * unique items, the nullable fields, and the sidecar rule `missing_records` = 0. The brand-bearing constants come
 * from the profile the file's `schema_version` selects (profiles.ts); {@link schemasFor} gives a file's schemas.
 *
 * Custom checks carry `params.rule` (`date-time`, `uri`, `iri`, `unique-items`) so reports can name the rule.
 * Integers are zod `int()`; the value model keeps `1.0` a float, which the validator rejects separately
 * (validate.ts), because a plain-object schema cannot see the difference.
 */
import { z } from "zod";
import {
  ARTICLE_BODY_FETCHING,
  BACKGROUND_STATUS,
  CSV_FORMULA_SENTENCE,
  EVENT_ID_PATTERN,
  PUBLIC_URL_PATTERN,
  PUBLICATION_MODE,
  REGIONS,
  SHA256_PATTERN,
  SIDECAR_SCHEMA_VERSION,
  SOURCE_ID_PATTERN,
  SOURCE_POLICY,
  TRANSLATION_ID_PATTERN,
  TRANSLATION_STATUS,
  VERSION_ID_PATTERN,
} from "./constants.js";
import { NEUTRAL_PROFILE, profileFor, SCHEMA_VERSIONS, type IndexProfile } from "./profiles.js";
import { isRfc3339DateTime } from "./rfc3339.js";
import { isIri, isUri } from "./uri.js";

const text = () => z.string().min(1);
const sha256 = () => z.string().regex(SHA256_PATTERN);
const count = () => z.int().min(0);
const dateTime = () =>
  z.string().refine(isRfc3339DateTime, { message: "expected an RFC 3339 date-time", params: { rule: "date-time" } });
const uri = () => z.string().refine(isUri, { message: "expected an absolute URI (RFC 3986)", params: { rule: "uri" } });
const iri = () => z.string().refine(isIri, { message: "expected an absolute IRI (RFC 3987)", params: { rule: "iri" } });

/** JSON Schema `uniqueItems` for arrays of strings: each repeat is reported at its own index. */
function uniqueStrings<T extends z.ZodType<string>>(item: T) {
  return z.array(item).superRefine((items, ctx) => {
    const first = new Map<string, number>();
    items.forEach((v, i) => {
      const seen = first.get(v);
      if (seen === undefined) first.set(v, i);
      else ctx.addIssue({ code: "custom", path: [i], message: `duplicates item ${seen}`, params: { rule: "unique-items" } });
    });
  });
}

export const regionSchema = z.enum(REGIONS);

export const classificationSchema = z.strictObject({
  overlap_allowed: z.literal(true),
  method: text(),
  article_body_fetching: z.literal(ARTICLE_BODY_FETCHING),
  bri_lane: text(),
  csv_formula_neutralization: z.literal(CSV_FORMULA_SENTENCE),
});

export const rightsSchema = z.strictObject({
  publication_mode: z.literal(PUBLICATION_MODE),
  article_bodies_included: z.literal(false),
  publisher_copyright_retained: z.literal(true),
  source_policy: z.literal(SOURCE_POLICY),
});

export const translationSidecarSchema = z.strictObject({
  schema_version: z.literal(SIDECAR_SCHEMA_VERSION),
  generated_at: dateTime(),
  newswire_sha256: sha256(),
  newswire_ledger_sha256: sha256(),
  newswire_ledger_rows: z.int().min(1),
  translated_records: z.int().min(1),
  missing_records: z.literal(0),
});

export const inputsSchema = z.strictObject({
  newswire_generated_at: dateTime(),
  newswire_window: z.strictObject({ from: dateTime(), hours: z.int().min(1), to: dateTime() }),
  newswire_versions_sha256: sha256(),
  source_registry_sha256: sha256(),
  chinese_translation_sidecar: translationSidecarSchema.nullable(),
});

export const captureUniverseSchema = z.strictObject({
  event_versions: count(),
  unique_events: count(),
  current_wire_events: count(),
});

export const countsSchema = z.strictObject({
  event_versions: count(),
  unique_events: count(),
  current_events: count(),
  historical_events: count(),
  event_pages_available: count(),
  sources: count(),
  events_with_english_translation: count(),
});

export const coverageSchema = z.strictObject({
  earliest_published_at: dateTime().nullable(),
  latest_published_at: dateTime().nullable(),
  earliest_recorded_at: dateTime().nullable(),
  latest_recorded_at: dateTime().nullable(),
});

export const sourceSchema = z.strictObject({
  source_id: z.string().regex(SOURCE_ID_PATTERN),
  source_name: text(),
  feed_url: iri(),
  role: text(),
  independence_group: text(),
  rights_policy: z.literal(PUBLICATION_MODE),
  captured_event_count: z.int().min(1),
});

export const publisherLinkSchema = z.strictObject({
  source_id: text(),
  title: text(),
  url: iri(),
});

function englishTranslationFor(profile: IndexProfile) {
  return z.strictObject({
  translation_id: z.string().regex(TRANSLATION_ID_PATTERN),
  public_url: z.string().regex(PUBLIC_URL_PATTERN),
  title_en: text(),
  context_en: z.string(),
  translation_notes_en: z.string(),
  status: z.literal(TRANSLATION_STATUS),
  background_en: text(),
  background_basis: text(),
  background_status: z.literal(BACKGROUND_STATUS),
  original_title_zh: text(),
  original_context_zh: z.string(),
  original_content_sha256: sha256(),
  provider: z.enum(profile.providers),
  model_id: z.enum(profile.model_ids),
  prompt_revision: z.literal(profile.prompt_revision),
  });
}

function eventFor(profile: IndexProfile) {
  return z.strictObject({
  event_id: z.string().regex(EVENT_ID_PATTERN),
  event_url: uri(),
  event_page_available: z.boolean(),
  headline: text(),
  dek: z.string().nullable(),
  published_at: dateTime(),
  first_recorded_at: dateTime(),
  last_recorded_at: dateTime(),
  source_ids: uniqueStrings(text()).min(1),
  source_names: z.array(text()).min(1),
  evidence_strength: text(),
  version_count: z.int().min(1),
  version_ids: uniqueStrings(z.string().regex(VERSION_ID_PATTERN)).min(1),
  current_in_wire: z.boolean(),
  topics: uniqueStrings(text()),
  region_tags: uniqueStrings(regionSchema).min(1),
  publisher_links: z.array(publisherLinkSchema),
  english_translation: englishTranslationFor(profile).nullable(),
  });
}

/** `schemaVersion`: the literal of a known profile, or the enum of every accepted value (file of no known profile). */
function indexFor(profile: IndexProfile, schemaVersion: z.ZodType<string>) {
  return z.strictObject({
  schema_version: schemaVersion,
  region: regionSchema,
  label: text(),
  generated_at: dateTime(),
  scope: text(),
  classification: classificationSchema,
  rights: rightsSchema,
  inputs: inputsSchema,
  capture_universe: captureUniverseSchema,
  counts: countsSchema,
  coverage: coverageSchema,
  sources: z.array(sourceSchema),
  events: z.array(eventFor(profile)),
  limitations: z.array(text()).min(1),
  content_sha256: sha256(),
  });
}

export interface ProfileSchemas {
  /** The profile the schemas check; for a `schema_version` of no known profile, the neutral one. */
  profile: IndexProfile;
  /** False when the file's `schema_version` selects no profile. */
  known: boolean;
  englishTranslation: ReturnType<typeof englishTranslationFor>;
  event: ReturnType<typeof eventFor>;
  index: ReturnType<typeof indexFor>;
}

function schemas(profile: IndexProfile, known: boolean): ProfileSchemas {
  const version = known ? z.literal(profile.schema_version) : z.enum(SCHEMA_VERSIONS);
  return { profile, known, englishTranslation: englishTranslationFor(profile), event: eventFor(profile), index: indexFor(profile, version) };
}

const BY_VERSION = new Map<string, ProfileSchemas>();
let UNKNOWN: ProfileSchemas | undefined;

/**
 * The schemas for a file whose `schema_version` is `schemaVersion`: those of the profile it selects, or, for any
 * other value, the neutral profile with `schema_version` reported against every accepted value.
 */
export function schemasFor(schemaVersion: unknown): ProfileSchemas {
  const profile = profileFor(schemaVersion);
  if (profile === undefined) return (UNKNOWN ??= schemas(NEUTRAL_PROFILE, false));
  let s = BY_VERSION.get(profile.schema_version);
  if (s === undefined) BY_VERSION.set(profile.schema_version, (s = schemas(profile, true)));
  return s;
}

/** The neutral profile's schemas: the format exactly as the interface specification writes it. */
export const englishTranslationSchema = schemasFor(NEUTRAL_PROFILE.schema_version).englishTranslation;
export const eventSchema = schemasFor(NEUTRAL_PROFILE.schema_version).event;
export const regionalIndexSchema = schemasFor(NEUTRAL_PROFILE.schema_version).index;


export type RegionalIndex = z.infer<typeof regionalIndexSchema>;
export type RegionalEvent = z.infer<typeof eventSchema>;
export type RegionalSource = z.infer<typeof sourceSchema>;
