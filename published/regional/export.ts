/**
 * Export of a conforming regional index, one row per event: CSV (the formula rule on every text cell) or JSONL
 * (one canonical JSON object per event with the exact captured text). CSV comes in two column sets: by default
 * exactly the publisher's own CSV (its 19 columns, order, cell forms and LF line endings), and `full`, our wider
 * set (21 columns, CRLF). Works from the loaded index one
 * event at a time and yields output in chunks. Nothing is fetched: the index holds metadata and links only
 * (`article_body_fetching: prohibited`), and so does the export.
 */
import { indexPath, memberPath, type JsonValue } from "../../src/json/value.js";
import { canonicalJsonText } from "./canonical-digest.js";
import { INDEX_ROOT, REGIONAL_SCHEMA_VERSION, type Region } from "./constants.js";
import { csvField, csvLine, csvRecord, csvText } from "./csv.js";
import { checkShape, ShapeViolation } from "../../src/json/shape-check.js";
import { INDEX_DIALECT } from "./index-dialect.js";
import { shapesFor } from "./index-shape.js";
import type { LoadedIndex } from "./load.js";
import { compareInstants, parseRfc3339, type Instant } from "./rfc3339.js";
import type { RegionalEvent } from "./index-shape.js";
import { isValidatedConforming } from "./validate.js";

export type ExportFormat = "csv" | "jsonl";

/** CSV column sets: `publisher` (default) is the publisher's CSV byte for byte; `full` is our wider set. */
export type CsvColumns = "publisher" | "full";

export interface ExportOptions {
  format: ExportFormat;
  /** CSV only (default `publisher`). */
  columns?: CsvColumns;
  /** Keep only events whose region_tags include this region. */
  region?: Region;
  /** Keep only events published at or after this instant (compared as instants, any offset). */
  since?: Instant;
}

/**
 * The publisher's CSV columns, in its order (facts from its public builder code; docs/regional-index.md). Its
 * rows end with LF, booleans are `true`/`false`, lists are joined with `|`, and an event without a translation has
 * empty translation cells.
 */
export const PUBLISHER_CSV_COLUMNS = [
  "event_id",
  "event_url",
  "event_page_available",
  "headline",
  "published_at",
  "first_recorded_at",
  "last_recorded_at",
  "source_ids",
  "source_names",
  "evidence_strength",
  "version_count",
  "current_in_wire",
  "region_tags",
  "english_headline",
  "english_excerpt",
  "translation_id",
  "translation_status",
  "background_en",
  "translation_public_url",
] as const;

/** Our wider CSV columns (`--columns full`), in order (docs/regional-index.md describes each). */
export const CSV_COLUMNS = [
  "event_id",
  "event_url",
  "event_page_available",
  "published_at",
  "first_recorded_at",
  "last_recorded_at",
  "headline",
  "dek",
  "source_ids",
  "source_names",
  "region_tags",
  "topics",
  "evidence_strength",
  "version_count",
  "current_in_wire",
  "publisher_link_urls",
  "publisher_link_titles",
  "translation_status",
  "translation_id",
  "title_en",
  "translation_public_url",
] as const;

/** Separator inside multi-valued cells. A value that itself holds `|` stays as it is: JSONL is the exact form. */
export const LIST_SEPARATOR = "|";

const CHUNK_CHARS = 1 << 16;

export class RegionalExportError extends Error {
  override readonly name = "RegionalExportError";
}

function publisherRow(ev: RegionalEvent): string {
  const tr = ev.english_translation;
  return csvLine([
    csvText(ev.event_id),
    csvText(ev.event_url),
    String(ev.event_page_available),
    csvText(ev.headline),
    csvText(ev.published_at),
    csvText(ev.first_recorded_at),
    csvText(ev.last_recorded_at),
    csvText(ev.source_ids.join(LIST_SEPARATOR)),
    csvText(ev.source_names.join(LIST_SEPARATOR)),
    csvText(ev.evidence_strength),
    String(ev.version_count),
    String(ev.current_in_wire),
    csvText(ev.region_tags.join(LIST_SEPARATOR)),
    csvText(tr?.title_en ?? ""),
    csvText(tr?.context_en ?? ""),
    csvText(tr?.translation_id ?? ""),
    csvText(tr?.status ?? ""),
    csvText(tr?.background_en ?? ""),
    csvText(tr?.public_url ?? ""),
  ]);
}

function fullRow(ev: RegionalEvent): string {
  const list = (items: readonly string[]) => csvText(items.join(LIST_SEPARATOR));
  const tr = ev.english_translation;
  return csvRecord([
    csvText(ev.event_id),
    csvText(ev.event_url),
    String(ev.event_page_available),
    csvText(ev.published_at),
    csvText(ev.first_recorded_at),
    csvText(ev.last_recorded_at),
    csvText(ev.headline),
    csvText(ev.dek ?? ""),
    list(ev.source_ids),
    list(ev.source_names),
    list(ev.region_tags),
    list(ev.topics),
    csvText(ev.evidence_strength),
    String(ev.version_count),
    String(ev.current_in_wire),
    list(ev.publisher_links.map((l) => l.url)),
    list(ev.publisher_links.map((l) => l.title)),
    csvText(tr === null ? "none" : tr.status),
    csvText(tr?.translation_id ?? ""),
    csvText(tr?.title_en ?? ""),
    csvText(tr?.public_url ?? ""),
  ]);
}

/**
 * Yields the export of `loaded`, which must be an index that conforms: validate it first with
 * `validateLoadedIndex`, which also lets CSV take the fast path below; an event that does not conform throws
 * {@link RegionalExportError}. Output is UTF-8 text in chunks of about 64 KiB.
 */
export function* exportLoadedIndex(loaded: LoadedIndex, opts: ExportOptions): Generator<string> {
  if (loaded.kind !== "object" || loaded.events === undefined) throw new RegionalExportError(`${INDEX_ROOT}: not an index with an events array`);
  const { events } = loaded;
  const region = loaded.header.get("region");
  let parts: string[] = [];
  let size = 0;
  const push = (s: string) => {
    parts.push(s);
    size += s.length;
  };
  const full = opts.columns === "full";
  if (opts.format === "csv") push(full ? csvRecord(CSV_COLUMNS.map(csvField)) : csvLine(PUBLISHER_CSV_COLUMNS.map(csvField)));
  // JSONL lines carry the file's own schema_version (the profile it uses), as the publisher's JSONL does.
  const schemaVersion = loaded.header.get("schema_version") ?? REGIONAL_SCHEMA_VERSION;
  const eventShape = shapesFor(schemaVersion).event;
  // An index validated as conforming has had every event accepted by the strict loader and the schema, so CSV rows
  // come from JSON.parse of the same text (the same values: no floats, duplicate keys or lone surrogates are left,
  // and integers are safe), several times faster than a second strict parse. Anything else is parsed strictly and
  // checked, event by event, and a non-conforming event stops the export.
  const text = opts.format === "csv" && isValidatedConforming(loaded) ? events.text : undefined;
  for (let i = 0; i < events.count; i++) {
    let value: JsonValue | undefined;
    let ev: RegionalEvent | undefined;
    if (text !== undefined) ev = JSON.parse(text(i)) as RegionalEvent;
    else {
      value = events.get(i);
      try {
        ev = checkShape(eventShape, value, INDEX_DIALECT);
      } catch (e) {
        if (!(e instanceof ShapeViolation)) throw e;
        throw new RegionalExportError(`${indexPath(memberPath(INDEX_ROOT, "events"), i)}: does not conform (validate the index before exporting it)`);
      }
    }
    if (opts.region !== undefined && !ev.region_tags.includes(opts.region)) continue;
    if (opts.since !== undefined && compareInstants(parseRfc3339(ev.published_at)!, opts.since) < 0) continue;
    if (opts.format === "csv") push(full ? fullRow(ev) : publisherRow(ev));
    else {
      const line = new Map([["schema_version", schemaVersion], ["region", region ?? null], ...(value as Map<string, JsonValue>)]);
      push(`${canonicalJsonText(line)}\n`);
    }
    if (size >= CHUNK_CHARS) {
      yield parts.join("");
      parts = [];
      size = 0;
    }
  }
  if (size > 0) yield parts.join("");
}
