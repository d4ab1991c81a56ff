/**
 * Synthetic regional indexes that we write ourselves: deterministic, conforming, consistent (counts, coverage,
 * per-source counts) and carrying a correct `content_sha256`. Used for the committed fixtures, the tests, the
 * README examples and the benchmark. All names, hosts (`*.example`) and texts are invented.
 */
import { sha256Hex } from "../../src/hash.js";
import { canonicalDigestHex } from "./canonical-digest.js";
import {
  ARTICLE_BODY_FETCHING,
  BACKGROUND_STATUS,
  CSV_FORMULA_SENTENCE,
  PUBLICATION_MODE,
  SIDECAR_SCHEMA_VERSION,
  SOURCE_POLICY,
  TRANSLATION_STATUS,
  type Region,
} from "./constants.js";
import { NEUTRAL_PROFILE, type IndexProfile } from "./profiles.js";

export interface SyntheticOptions {
  region: Region;
  /** Number of events (default 6). */
  events?: number;
  /** Give every third event (the second, fifth, ...) an English translation and include the sidecar (default true). */
  translations?: boolean;
  /** The profile whose brand-bearing constants the file carries (default neutral, the specification's tokens). */
  profile?: IndexProfile;
}

type Plain = Record<string, unknown>;

const SOURCES = [
  { id: "harbour-wire", name: "Harbour Wire", role: "regional wire", group: "harbour-group" },
  { id: "coastal-daily", name: "Coastal Daily", role: "provincial daily", group: "coastal-press" },
  { id: "frontier-tribune", name: "Frontier Tribune", role: "national daily", group: "tribune-media" },
  { id: "delta-gazette", name: "Delta Gazette", role: "regional weekly", group: "delta-media" },
  { id: "eastern-mirror", name: "东方快讯", role: "Chinese-language wire", group: "mirror-wire" },
  { id: "valley-herald", name: "Valley Herald", role: "local outlet", group: "valley-independent" },
];

const LABELS: Record<Region, string> = {
  bri: "Belt and Road captured news (synthetic)",
  gwadar: "Gwadar captured news (synthetic)",
  balochistan: "Balochistan captured news (synthetic)",
  myanmar: "Myanmar captured news (synthetic)",
};

const PLACES: Record<Region, string> = { bri: "the corridor", gwadar: "Gwadar port", balochistan: "Quetta", myanmar: "Kyaukphyu" };

/** Extra region tags an event of each lane may carry (overlap is allowed). */
const OVERLAP: Record<Region, Region[]> = { bri: ["gwadar"], gwadar: ["bri", "balochistan"], balochistan: ["bri"], myanmar: ["bri"] };

const GENERATED_AT_MS = Date.UTC(2026, 7, 22, 6, 0, 0);

function iso(ms: number): string {
  return new Date(ms).toISOString().replace(".000Z", "Z");
}

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, "0");
}

function syntheticEvent(region: Region, i: number, translations: boolean, profile: IndexProfile): Plain {
  const id = `event-${hex(0x5e7000 + i, 12)}`;
  const published = GENERATED_AT_MS - 3_600_000 - i * 37 * 60_000;
  const first = published + 5 * 60_000;
  const versions = 1 + (i % 3);
  const last = first + (versions - 1) * 3_600_000;
  const a = SOURCES[i % SOURCES.length];
  const b = SOURCES[(i * 7 + 3) % SOURCES.length];
  const sources = (i % 2 === 0 || a.id === b.id ? [a] : [a, b]).sort((x, y) => (x.id < y.id ? -1 : 1));
  const current = i % 4 !== 0;
  const tags: Region[] = [region, ...(i % 3 === 1 ? OVERLAP[region] : [])];
  const ordered = (["bri", "gwadar", "balochistan", "myanmar"] as Region[]).filter((r) => tags.includes(r));
  const translated = translations && i % 3 === 1;
  const trId = `zhtr-${hex(0xa11ce + i, 24)}`;
  return {
    event_id: id,
    event_url: `https://index.example/news/wire/${id}/`,
    event_page_available: current || i % 2 === 0,
    headline: translated ? `${PLACES[region]}港口扩建第${i}期工程启动` : `Update ${i}: officials discuss ${PLACES[region]} works, costs and local hiring`,
    dek: i % 5 === 4 ? null : `Synthetic summary ${i} of a captured listing; metadata only, no article body.`,
    published_at: iso(published),
    first_recorded_at: iso(first),
    last_recorded_at: iso(last),
    source_ids: sources.map((s) => s.id),
    source_names: sources.map((s) => s.name),
    evidence_strength: ["single-source", "multi-source", "official-statement"][i % 3],
    version_count: versions,
    version_ids: Array.from({ length: versions }, (_, k) => `eventv-${hex(0xbe000 + i * 4 + k, 10)}`),
    current_in_wire: current,
    topics: current ? ["infrastructure", i % 2 ? "labour" : "finance"] : [],
    region_tags: ordered,
    publisher_links: current ? sources.map((s) => ({ source_id: s.id, title: `${s.name} listing ${i}`, url: `https://${s.id}.example/articles/${1000 + i}` })) : [],
    english_translation: translated
      ? {
          translation_id: trId,
          public_url: i % 2 ? `/news/china/english/page/${1 + (i % 4)}/#translation-${trId}` : `/news/china/english/#translation-${trId}`,
          title_en: `Phase ${i} of the ${PLACES[region]} harbour expansion starts`,
          context_en: "",
          translation_notes_en: i % 4 === 2 ? "Place name kept as published." : "",
          status: TRANSLATION_STATUS,
          background_en: "Machine-written context about the project's earlier phases.",
          background_basis: "headline and listing metadata only",
          background_status: BACKGROUND_STATUS,
          original_title_zh: `${PLACES[region]}港口扩建第${i}期工程启动`,
          original_context_zh: "",
          original_content_sha256: sha256Hex(`synthetic original ${region} ${i}`),
          provider: profile.providers[i % 2],
          model_id: profile.model_ids[i % 2],
          prompt_revision: profile.prompt_revision,
        }
      : null,
  };
}

/** A conforming, consistent synthetic index (plain object, spec member order) with its `content_sha256`. */
export function buildSyntheticIndex(opts: SyntheticOptions): Plain {
  const n = opts.events ?? 6;
  const translations = opts.translations ?? true;
  const profile = opts.profile ?? NEUTRAL_PROFILE;
  const events = Array.from({ length: n }, (_, i) => syntheticEvent(opts.region, i, translations, profile));
  const listed = new Map<string, number>();
  for (const ev of events) for (const id of ev.source_ids as string[]) listed.set(id, (listed.get(id) ?? 0) + 1);
  const sources = SOURCES.filter((s) => listed.has(s.id))
    .sort((x, y) => (x.id < y.id ? -1 : 1))
    .map((s) => ({
      source_id: s.id,
      source_name: s.name,
      feed_url: `https://${s.id}.example/feed.xml`,
      role: s.role,
      independence_group: s.group,
      rights_policy: PUBLICATION_MODE,
      captured_event_count: listed.get(s.id)!,
    }));
  const count = (f: (e: Plain) => boolean) => events.filter(f).length;
  const current = count((e) => e.current_in_wire === true);
  const translated = count((e) => e.english_translation !== null);
  const versions = events.reduce((s, e) => s + (e.version_count as number), 0);
  const times = (field: string) => events.map((e) => e[field] as string).sort();
  const versionsSha = sha256Hex(`synthetic event-version ledger ${opts.region}`);
  const generatedAt = iso(GENERATED_AT_MS);
  const index: Plain = {
    schema_version: profile.schema_version,
    region: opts.region,
    label: LABELS[opts.region],
    generated_at: generatedAt,
    scope: "Synthetic example: every captured event of this lane in an invented capture ledger.",
    classification: {
      overlap_allowed: true,
      method: "dedicated source ids plus bounded metadata terms (synthetic)",
      article_body_fetching: ARTICLE_BODY_FETCHING,
      bri_lane: "combined index of the regional lanes plus explicit corridor terms",
      csv_formula_neutralization: CSV_FORMULA_SENTENCE,
    },
    rights: {
      publication_mode: PUBLICATION_MODE,
      article_bodies_included: false,
      publisher_copyright_retained: true,
      source_policy: SOURCE_POLICY,
    },
    inputs: {
      newswire_generated_at: generatedAt,
      newswire_window: { from: iso(GENERATED_AT_MS - 48 * 3_600_000), hours: 48, to: generatedAt },
      newswire_versions_sha256: versionsSha,
      source_registry_sha256: sha256Hex("synthetic source registry"),
      chinese_translation_sidecar: translations
        ? {
            schema_version: SIDECAR_SCHEMA_VERSION,
            generated_at: generatedAt,
            newswire_sha256: sha256Hex("synthetic newswire"),
            newswire_ledger_sha256: versionsSha,
            newswire_ledger_rows: versions + 40,
            translated_records: translated + 12,
            missing_records: 0,
          }
        : null,
    },
    capture_universe: { event_versions: versions + 50, unique_events: n + 25, current_wire_events: current + 9 },
    counts: {
      event_versions: versions,
      unique_events: n,
      current_events: current,
      historical_events: n - current,
      event_pages_available: count((e) => e.event_page_available === true),
      sources: sources.length,
      events_with_english_translation: translated,
    },
    coverage: {
      earliest_published_at: n ? times("published_at")[0] : null,
      latest_published_at: n ? times("published_at")[n - 1] : null,
      earliest_recorded_at: n ? times("first_recorded_at")[0] : null,
      latest_recorded_at: n ? times("last_recorded_at")[n - 1] : null,
    },
    sources,
    events,
    limitations: [
      "Synthetic example written for tests and documentation; no real publisher, event or translation.",
      "A listing is attribution, not endorsement or adjudication.",
    ],
  };
  return withDigest(index);
}

/** Returns `index` with `content_sha256` (re)computed under our reading (the last member). */
export function withDigest(index: Plain): Plain {
  const { content_sha256: _old, ...rest } = index;
  return { ...rest, content_sha256: canonicalDigestHex(rest) };
}
