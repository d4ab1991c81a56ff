/**
 * The fast path for one event: decides over the strict value model whether an event satisfies `eventSchema`
 * (schema.ts, which stays the readable statement of the format and the source of every error message) and, when
 * it does, returns it as a typed plain object. Per event this replaces zod and the conversion to plain objects,
 * which together cost most of the validation time of a large index.
 *
 * Contract (tested against zod on every fixture and thousands of random mutations, test/src/regional):
 * `checkEvent(v)` returns an object exactly when `eventSchema.safeParse(toPlain(v))` succeeds and `v` holds no
 * float. When it returns undefined, the caller runs zod for the findings, so reports do not depend on this file.
 *
 * The returned objects (the event, its publisher links and its translation) are created with their members in
 * code-point order and hold only strings, booleans, integers, null and arrays of strings, so `JSON.stringify` of
 * the result is the event's capsule-v1 canonical text (canonical-digest.ts relies on this; tested).
 */
import type { JsonObject, JsonValue } from "../../src/json/value.js";
import {
  BACKGROUND_STATUS,
  EVENT_ID_PATTERN,
  PUBLIC_URL_PATTERN,
  REGIONS,
  SHA256_PATTERN,
  TRANSLATION_ID_PATTERN,
  TRANSLATION_STATUS,
  VERSION_ID_PATTERN,
} from "./constants.js";
import { NEUTRAL_PROFILE, type IndexProfile } from "./profiles.js";
import { isRfc3339DateTime } from "./rfc3339.js";
import type { RegionalEvent } from "./schema.js";
import { isIri, isUri } from "./uri.js";

type Translation = NonNullable<RegionalEvent["english_translation"]>;
type PublisherLink = RegionalEvent["publisher_links"][number];

/** Members of each object the schema defines; a conforming object has all of them and no other. */
const EVENT_MEMBERS = 18;
const TRANSLATION_MEMBERS = 15;
const LINK_MEMBERS = 3;

const REGION_SET: ReadonlySet<unknown> = new Set(REGIONS);

function isText(v: JsonValue | undefined): v is string {
  return typeof v === "string" && v.length > 0;
}

function isDateTime(v: JsonValue | undefined): v is string {
  return typeof v === "string" && isRfc3339DateTime(v);
}

function matches(v: JsonValue | undefined, pattern: RegExp): v is string {
  return typeof v === "string" && pattern.test(v);
}

/** No item equals an earlier one (JSON Schema `uniqueItems` over strings). */
function unique(items: readonly string[]): boolean {
  const n = items.length;
  if (n <= 8) {
    for (let i = 1; i < n; i++) for (let j = 0; j < i; j++) if (items[i] === items[j]) return false;
    return true;
  }
  return new Set(items).size === n;
}

/** The array when every item passes `item` and it has at least `min` items, else undefined. */
function stringArray(v: JsonValue | undefined, min: number, item: (x: JsonValue) => boolean): string[] | undefined {
  if (!Array.isArray(v) || v.length < min) return undefined;
  for (let i = 0; i < v.length; i++) if (!item(v[i])) return undefined;
  return v as string[];
}

const textItem = (x: JsonValue) => isText(x);
const versionItem = (x: JsonValue) => matches(x, VERSION_ID_PATTERN);
const regionItem = (x: JsonValue) => REGION_SET.has(x);

function checkLink(v: JsonValue): PublisherLink | undefined {
  if (!(v instanceof Map) || v.size !== LINK_MEMBERS) return undefined;
  const source_id = v.get("source_id");
  const title = v.get("title");
  const url = v.get("url");
  if (!isText(source_id) || !isText(title) || typeof url !== "string" || !isIri(url)) return undefined;
  return { source_id, title, url };
}

function checkLinks(v: JsonValue | undefined): PublisherLink[] | undefined {
  if (!Array.isArray(v)) return undefined;
  const out: PublisherLink[] = new Array(v.length);
  for (let i = 0; i < v.length; i++) {
    const link = checkLink(v[i]);
    if (link === undefined) return undefined;
    out[i] = link;
  }
  return out;
}

/** `null` stays null; a conforming translation object becomes a plain one; anything else is undefined. */
function checkTranslation(v: JsonValue | undefined, profile: IndexProfile): Translation | null | undefined {
  if (v === null) return null;
  if (!(v instanceof Map) || v.size !== TRANSLATION_MEMBERS) return undefined;
  const m = v as JsonObject;
  const background_basis = m.get("background_basis");
  const background_en = m.get("background_en");
  const background_status = m.get("background_status");
  const context_en = m.get("context_en");
  const model_id = m.get("model_id");
  const original_content_sha256 = m.get("original_content_sha256");
  const original_context_zh = m.get("original_context_zh");
  const original_title_zh = m.get("original_title_zh");
  const prompt_revision = m.get("prompt_revision");
  const provider = m.get("provider");
  const public_url = m.get("public_url");
  const status = m.get("status");
  const title_en = m.get("title_en");
  const translation_id = m.get("translation_id");
  const translation_notes_en = m.get("translation_notes_en");
  if (
    !isText(background_basis) ||
    !isText(background_en) ||
    background_status !== BACKGROUND_STATUS ||
    typeof context_en !== "string" ||
    !(profile.model_ids as readonly unknown[]).includes(model_id) ||
    !matches(original_content_sha256, SHA256_PATTERN) ||
    typeof original_context_zh !== "string" ||
    !isText(original_title_zh) ||
    prompt_revision !== profile.prompt_revision ||
    !(profile.providers as readonly unknown[]).includes(provider) ||
    !matches(public_url, PUBLIC_URL_PATTERN) ||
    status !== TRANSLATION_STATUS ||
    !isText(title_en) ||
    !matches(translation_id, TRANSLATION_ID_PATTERN) ||
    typeof translation_notes_en !== "string"
  ) {
    return undefined;
  }
  // Members in code-point order (see the header comment).
  return {
    background_basis,
    background_en,
    background_status,
    context_en,
    model_id: model_id as Translation["model_id"],
    original_content_sha256,
    original_context_zh,
    original_title_zh,
    prompt_revision,
    provider: provider as Translation["provider"],
    public_url,
    status,
    title_en,
    translation_id,
    translation_notes_en,
  };
}

/**
 * The event as a typed plain object with members in code-point order when it satisfies the schema and holds no
 * float; otherwise undefined (run zod for the findings). Arrays of strings are shared with `v`, not copied.
 * `profile` supplies the brand-bearing constants (the one the file's `schema_version` selects; neutral by default).
 */
export function checkEvent(v: JsonValue, profile: IndexProfile = NEUTRAL_PROFILE): RegionalEvent | undefined {
  if (!(v instanceof Map) || v.size !== EVENT_MEMBERS) return undefined;
  const m = v as JsonObject;
  const current_in_wire = m.get("current_in_wire");
  const dek = m.get("dek");
  const event_id = m.get("event_id");
  const event_page_available = m.get("event_page_available");
  const event_url = m.get("event_url");
  const evidence_strength = m.get("evidence_strength");
  const first_recorded_at = m.get("first_recorded_at");
  const headline = m.get("headline");
  const last_recorded_at = m.get("last_recorded_at");
  const published_at = m.get("published_at");
  const region_tags = stringArray(m.get("region_tags"), 1, regionItem);
  const source_ids = stringArray(m.get("source_ids"), 1, textItem);
  const source_names = stringArray(m.get("source_names"), 1, textItem);
  const topics = stringArray(m.get("topics"), 0, textItem);
  const version_count = m.get("version_count");
  const version_ids = stringArray(m.get("version_ids"), 1, versionItem);
  if (
    typeof current_in_wire !== "boolean" ||
    (dek !== null && typeof dek !== "string") ||
    !matches(event_id, EVENT_ID_PATTERN) ||
    typeof event_page_available !== "boolean" ||
    typeof event_url !== "string" ||
    !isUri(event_url) ||
    !isText(evidence_strength) ||
    !isDateTime(first_recorded_at) ||
    !isText(headline) ||
    !isDateTime(last_recorded_at) ||
    !isDateTime(published_at) ||
    region_tags === undefined ||
    !unique(region_tags) ||
    source_ids === undefined ||
    !unique(source_ids) ||
    source_names === undefined ||
    topics === undefined ||
    !unique(topics) ||
    typeof version_count !== "number" ||
    !Number.isSafeInteger(version_count) ||
    version_count < 1 ||
    version_ids === undefined ||
    !unique(version_ids)
  ) {
    return undefined;
  }
  const publisher_links = checkLinks(m.get("publisher_links"));
  if (publisher_links === undefined) return undefined;
  const english_translation = checkTranslation(m.get("english_translation"), profile);
  if (english_translation === undefined) return undefined;
  // Members in code-point order (see the header comment).
  return {
    current_in_wire,
    dek,
    english_translation,
    event_id,
    event_page_available,
    event_url,
    evidence_strength,
    first_recorded_at,
    headline,
    last_recorded_at,
    published_at,
    publisher_links,
    region_tags: region_tags as RegionalEvent["region_tags"],
    source_ids,
    source_names,
    topics,
    version_count,
    version_ids,
  };
}
