/**
 * The one definition of `service.regional-captured-index.v1`, exactly as the interface specification states it:
 * every object closed, every constant, enum, pattern, minimum and min length, RFC 3339 date-times, URI and IRI
 * fields, unique items, the nullable fields, and the sidecar rule `missing_records` = 0. Written with the index
 * dialect (`index-dialect.ts`); validation interprets it with `src/json/shape-check.ts` and `schema.ts` compiles
 * it to zod for the JSON Schema. The types of a checked index come from it ({@link Infer}).
 *
 * The brand-bearing constants come from the profile the file's `schema_version` selects (profiles.ts);
 * {@link shapesFor} gives a file's shapes.
 */
import { array, bool, int, MAX_INT, nullable, object, oneOf, str, type Infer } from "../../src/json/shape.js";
import {
  ARTICLE_BODY_FETCHING,
  BACKGROUND_STATUS,
  CSV_FORMULA_SENTENCE,
  PUBLICATION_MODE,
  REGIONS,
  SIDECAR_SCHEMA_VERSION,
  SOURCE_POLICY,
  TRANSLATION_STATUS,
} from "./constants.js";
import type { IndexFormat } from "./index-dialect.js";
import { NEUTRAL_PROFILE, profileFor, SCHEMA_VERSIONS, type IndexProfile } from "./profiles.js";

const s = <F extends IndexFormat>(format: F) => str(format, MAX_INT);
const text = s("text");
const any = s("any");
const sha256 = s("sha256");
const dateTime = s("date-time");
const constant = <const V extends string>(value: V) => oneOf("vocabulary", [value] as const);
const count = int(0);
const positive = int(1);
const unique = <I extends ReturnType<typeof s> | typeof region>(item: I, min = 0) => array(item, { min, max: MAX_INT, unique: "value" });
const list = <I extends ReturnType<typeof s>>(item: I, min = 0) => array(item, { min, max: MAX_INT });

export const region = oneOf("vocabulary", REGIONS);

const classification = object({
  overlap_allowed: bool(true),
  method: text,
  article_body_fetching: constant(ARTICLE_BODY_FETCHING),
  bri_lane: text,
  csv_formula_neutralization: constant(CSV_FORMULA_SENTENCE),
});

const rights = object({
  publication_mode: constant(PUBLICATION_MODE),
  article_bodies_included: bool(false),
  publisher_copyright_retained: bool(true),
  source_policy: constant(SOURCE_POLICY),
});

const translationSidecar = object({
  schema_version: constant(SIDECAR_SCHEMA_VERSION),
  generated_at: dateTime,
  newswire_sha256: sha256,
  newswire_ledger_sha256: sha256,
  newswire_ledger_rows: positive,
  translated_records: positive,
  missing_records: int(0, 0),
});

const inputs = object({
  newswire_generated_at: dateTime,
  newswire_window: object({ from: dateTime, hours: positive, to: dateTime }),
  newswire_versions_sha256: sha256,
  source_registry_sha256: sha256,
  chinese_translation_sidecar: nullable(translationSidecar),
});

const captureUniverse = object({ event_versions: count, unique_events: count, current_wire_events: count });

const counts = object({
  event_versions: count,
  unique_events: count,
  current_events: count,
  historical_events: count,
  event_pages_available: count,
  sources: count,
  events_with_english_translation: count,
});

const coverage = object({
  earliest_published_at: nullable(dateTime),
  latest_published_at: nullable(dateTime),
  earliest_recorded_at: nullable(dateTime),
  latest_recorded_at: nullable(dateTime),
});

const source = object({
  source_id: s("source-id"),
  source_name: text,
  feed_url: s("iri"),
  role: text,
  independence_group: text,
  rights_policy: constant(PUBLICATION_MODE),
  captured_event_count: positive,
});

const publisherLink = object({ source_id: text, title: text, url: s("iri") });

function englishTranslation(profile: IndexProfile) {
  return object({
    translation_id: s("translation-id"),
    public_url: s("public-url"),
    title_en: text,
    context_en: any,
    translation_notes_en: any,
    status: constant(TRANSLATION_STATUS),
    background_en: text,
    background_basis: text,
    background_status: constant(BACKGROUND_STATUS),
    original_title_zh: text,
    original_context_zh: any,
    original_content_sha256: sha256,
    provider: oneOf("vocabulary", profile.providers),
    model_id: oneOf("vocabulary", profile.model_ids),
    prompt_revision: oneOf("vocabulary", [profile.prompt_revision]),
  });
}

function event(profile: IndexProfile) {
  return object({
    event_id: s("event-id"),
    event_url: s("uri"),
    event_page_available: bool(),
    headline: text,
    dek: nullable(any),
    published_at: dateTime,
    first_recorded_at: dateTime,
    last_recorded_at: dateTime,
    source_ids: unique(text, 1),
    source_names: list(text, 1),
    evidence_strength: text,
    version_count: positive,
    version_ids: unique(s("version-id"), 1),
    current_in_wire: bool(),
    topics: unique(text),
    region_tags: unique(region, 1),
    publisher_links: array(publisherLink, { max: MAX_INT }),
    english_translation: nullable(englishTranslation(profile)),
  });
}

/** `schemaVersion`: the constant of a known profile, or every accepted value (a file of no known profile). */
function index(profile: IndexProfile, schemaVersions: readonly string[]) {
  return object({
    schema_version: oneOf("vocabulary", schemaVersions),
    region,
    label: text,
    generated_at: dateTime,
    scope: text,
    classification,
    rights,
    inputs,
    capture_universe: captureUniverse,
    counts,
    coverage,
    sources: array(source, { max: MAX_INT }),
    events: array(event(profile), { max: MAX_INT }),
    limitations: list(text, 1),
    content_sha256: sha256,
  });
}

export type IndexShape = ReturnType<typeof index>;
export type EventShape = ReturnType<typeof event>;

export type RegionalIndex = Infer<IndexShape>;
export type RegionalEvent = Infer<EventShape>;
export type RegionalSource = Infer<typeof source>;
/** The top level of a checked index without its events (they are checked one at a time). */
export type RegionalHeader = Omit<RegionalIndex, "events">;

export interface ProfileShapes {
  /** The profile the shapes check; for a `schema_version` of no known profile, the neutral one. */
  profile: IndexProfile;
  /** False when the file's `schema_version` selects no profile. */
  known: boolean;
  event: EventShape;
  index: IndexShape;
}

function shapes(profile: IndexProfile, known: boolean): ProfileShapes {
  const idx = index(profile, known ? [profile.schema_version] : SCHEMA_VERSIONS);
  return { profile, known, event: idx.fields.events.item, index: idx };
}

const BY_VERSION = new Map<string, ProfileShapes>();
let UNKNOWN: ProfileShapes | undefined;

/**
 * The shapes for a file whose `schema_version` is `schemaVersion`: those of the profile it selects, or, for any
 * other value, the neutral profile with `schema_version` checked against every accepted value.
 */
export function shapesFor(schemaVersion: unknown): ProfileShapes {
  const profile = profileFor(schemaVersion);
  if (profile === undefined) return (UNKNOWN ??= shapes(NEUTRAL_PROFILE, false));
  let found = BY_VERSION.get(profile.schema_version);
  if (found === undefined) BY_VERSION.set(profile.schema_version, (found = shapes(profile, true)));
  return found;
}

/** The neutral profile's index shape: the format exactly as the interface specification writes it. */
export const NEUTRAL_INDEX_SHAPE = shapesFor(NEUTRAL_PROFILE.schema_version).index;
