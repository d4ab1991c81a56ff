/**
 * Consistency findings: what the index format implies but does not state, reported as warnings. They are checked
 * only on an index that conforms to the schema, one event at a time (bounded state: the ids seen and a few
 * counters). docs/regional-index.md lists each rule and the reasoning behind it.
 */
import { INDEX_ROOT } from "./constants.js";
import { finding, type RegionalFinding } from "./findings.js";
import { pathOf } from "../../src/json/value.js";
import { compareDateTimes } from "./rfc3339.js";
import { IdTable } from "./id-table.js";
import type { RegionalEvent, RegionalHeader } from "./index-shape.js";

export type { RegionalHeader };

type Translation = NonNullable<RegionalEvent["english_translation"]>;

/**
 * What the consistency checks read of a conforming event: a checked {@link RegionalEvent} has it all, and so has
 * what the byte lane returns (event-byte-lane.ts), which decodes only these strings.
 */
export type EventFacts = Pick<
  RegionalEvent,
  | "event_id"
  | "current_in_wire"
  | "event_page_available"
  | "version_count"
  | "version_ids"
  | "first_recorded_at"
  | "last_recorded_at"
  | "published_at"
  | "region_tags"
  | "source_ids"
  | "source_names"
> & {
  publisher_links: Pick<RegionalEvent["publisher_links"][number], "source_id">[];
  english_translation: Pick<Translation, "translation_id" | "public_url"> | null;
};

/** The earliest or latest date-time of a field so far (every date-time here is one the schema accepted). */
interface Extreme {
  text: string;
  event: number;
}

function p(...segs: (string | number)[]): string {
  return pathOf(INDEX_ROOT, segs);
}

export class ConsistencyCheck {
  private readonly sources = new Map<string, { index: number; name: string; listedBy: number }>();
  private readonly eventIds = new IdTable("event-");
  private readonly versionIds = new IdTable("eventv-");
  private events = 0;
  private current = 0;
  private pages = 0;
  private translated = 0;
  private versions = 0;
  private earliestPublished: Extreme | undefined;
  private latestPublished: Extreme | undefined;
  private earliestRecorded: Extreme | undefined;
  private latestRecorded: Extreme | undefined;

  constructor(
    private readonly header: RegionalHeader,
    private readonly out: (f: RegionalFinding) => void,
  ) {
    header.sources.forEach((s, i) => {
      const seen = this.sources.get(s.source_id);
      if (seen !== undefined) {
        out(finding(p("sources", i, "source_id"), "duplicate-source-id", `${JSON.stringify(s.source_id)} is already listed at sources[${seen.index}]`));
      } else this.sources.set(s.source_id, { index: i, name: s.source_name, listedBy: 0 });
    });
  }

  addEvent(i: number, ev: EventFacts): void {
    const at = (...segs: (string | number)[]) => pathOf(INDEX_ROOT, ["events", i, ...segs]);
    this.events++;
    if (ev.current_in_wire) this.current++;
    if (ev.event_page_available) this.pages++;
    if (ev.english_translation !== null) this.translated++;
    this.versions += ev.version_count;

    const firstSeen = this.eventIds.claim(ev.event_id, i);
    if (firstSeen >= 0) this.out(finding(at("event_id"), "duplicate-event-id", `${ev.event_id} is already listed at events[${firstSeen}]`));

    for (let k = 0; k < ev.version_ids.length; k++) {
      const v = ev.version_ids[k];
      const owner = this.versionIds.claim(v, i);
      if (owner >= 0) this.out(finding(at("version_ids", k), "duplicate-version-id", `${v} also belongs to events[${owner}]`));
    }
    if (ev.version_count !== ev.version_ids.length) {
      this.out(finding(at("version_count"), "version-count", `is ${ev.version_count} but version_ids lists ${ev.version_ids.length}`));
    }

    if (compareDateTimes(ev.first_recorded_at, ev.last_recorded_at) > 0) {
      this.out(finding(at("last_recorded_at"), "recorded-order", `${ev.last_recorded_at} is earlier than first_recorded_at ${ev.first_recorded_at}`));
    }
    this.earliestPublished = pick(this.earliestPublished, ev.published_at, i, -1);
    this.latestPublished = pick(this.latestPublished, ev.published_at, i, 1);
    this.earliestRecorded = pick(this.earliestRecorded, ev.first_recorded_at, i, -1);
    this.latestRecorded = pick(this.latestRecorded, ev.last_recorded_at, i, 1);

    if (!ev.region_tags.includes(this.header.region)) {
      this.out(finding(at("region_tags"), "region-membership", `does not include the index's region ${JSON.stringify(this.header.region)}`));
    }

    for (let k = 0; k < ev.source_ids.length; k++) {
      const id = ev.source_ids[k];
      const source = this.sources.get(id);
      if (source === undefined) {
        this.out(finding(at("source_ids", k), "source-listed", `${JSON.stringify(id)} is not listed in sources`));
        continue;
      }
      source.listedBy++;
      const name = ev.source_names[k];
      if (name !== undefined && name !== source.name) {
        this.out(finding(at("source_names", k), "source-names", `${JSON.stringify(name)} differs from the name sources gives ${JSON.stringify(id)} (${JSON.stringify(source.name)})`));
      }
    }
    if (ev.source_names.length !== ev.source_ids.length) {
      this.out(finding(at("source_names"), "source-names", `has ${ev.source_names.length} item(s) but source_ids has ${ev.source_ids.length}`));
    }
    ev.publisher_links.forEach((link, k) => {
      if (!ev.source_ids.includes(link.source_id)) {
        this.out(finding(at("publisher_links", k, "source_id"), "publisher-link-source", `${JSON.stringify(link.source_id)} is not one of the event's source_ids`));
      }
    });
    const tr = ev.english_translation;
    if (tr !== null && !tr.public_url.endsWith(`#translation-${tr.translation_id}`)) {
      this.out(finding(at("english_translation", "public_url"), "translation-url-id", `does not point at translation_id ${tr.translation_id}`));
    }
  }

  finish(): void {
    const { counts, coverage, capture_universe: universe, inputs } = this.header;
    const countRule = (field: keyof typeof counts, actual: number, what: string) => {
      if (counts[field] !== actual) this.out(finding(p("counts", field), "counts", `is ${counts[field]} but ${what} ${actual}`));
    };
    countRule("unique_events", this.events, "events has");
    countRule("current_events", this.current, "the events with current_in_wire true number");
    countRule("historical_events", this.events - this.current, "the events with current_in_wire false number");
    countRule("event_pages_available", this.pages, "the events with event_page_available true number");
    countRule("sources", this.header.sources.length, "sources has");
    countRule("events_with_english_translation", this.translated, "the events with an english_translation number");
    countRule("event_versions", this.versions, "the events' version_count values sum to");

    this.header.sources.forEach((s, i) => {
      const entry = this.sources.get(s.source_id);
      if (entry === undefined || entry.index !== i) return;
      if (s.captured_event_count !== entry.listedBy) {
        this.out(finding(p("sources", i, "captured_event_count"), "captured-event-count", `is ${s.captured_event_count} but ${entry.listedBy} event(s) list ${JSON.stringify(s.source_id)}`));
      }
    });

    if (this.events > 0 && universe.unique_events < this.events) {
      this.out(finding(p("capture_universe", "unique_events"), "capture-universe", `is ${universe.unique_events}, fewer than the ${this.events} events of this region`));
    }
    if (universe.current_wire_events < this.current) {
      this.out(finding(p("capture_universe", "current_wire_events"), "capture-universe", `is ${universe.current_wire_events}, fewer than the ${this.current} current events of this region`));
    }

    this.coverageBound("earliest_published_at", coverage.earliest_published_at, this.earliestPublished, -1, "published_at");
    this.coverageBound("latest_published_at", coverage.latest_published_at, this.latestPublished, 1, "published_at");
    this.coverageBound("earliest_recorded_at", coverage.earliest_recorded_at, this.earliestRecorded, -1, "first_recorded_at");
    this.coverageBound("latest_recorded_at", coverage.latest_recorded_at, this.latestRecorded, 1, "last_recorded_at");
    if (this.latestRecorded !== undefined && compareDateTimes(this.latestRecorded.text, this.header.generated_at) > 0) {
      this.out(finding(p("generated_at"), "generated-after-recorded", `${this.header.generated_at} is earlier than events[${this.latestRecorded.event}].last_recorded_at ${this.latestRecorded.text}`));
    }

    const sidecar = inputs.chinese_translation_sidecar;
    if (sidecar === null && this.translated > 0) {
      this.out(finding(p("inputs", "chinese_translation_sidecar"), "translation-sidecar", `is null but ${this.translated} event(s) carry an english_translation`));
    }
    if (sidecar !== null) {
      if (sidecar.translated_records < this.translated) {
        this.out(finding(p("inputs", "chinese_translation_sidecar", "translated_records"), "translation-sidecar", `is ${sidecar.translated_records}, fewer than the ${this.translated} translated events of this index`));
      }
      if (sidecar.newswire_ledger_sha256 !== inputs.newswire_versions_sha256) {
        this.out(finding(p("inputs", "chinese_translation_sidecar", "newswire_ledger_sha256"), "translation-sidecar", "differs from inputs.newswire_versions_sha256: the sidecar was made from another event-version ledger"));
      }
    }
  }

  private coverageBound(field: keyof RegionalHeader["coverage"], stated: string | null, actual: Extreme | undefined, direction: -1 | 1, eventField: string): void {
    const path = p("coverage", field);
    if (actual === undefined) {
      if (stated !== null) this.out(finding(path, "coverage-bounds", `is ${stated} but the index has no events (expected null)`));
      return;
    }
    if (stated === null) {
      this.out(finding(path, "coverage-bounds", `is null but the index has ${this.events} event(s)`));
      return;
    }
    // Positive: the extreme event lies outside the stated bound; negative: no event reaches the bound.
    const outside = compareDateTimes(actual.text, stated) * direction;
    if (outside > 0) {
      this.out(finding(p("events", actual.event, eventField), "coverage-bounds", `${actual.text} lies outside coverage.${field} ${stated}`));
    } else if (outside < 0) {
      this.out(finding(path, "coverage-bounds", `is ${stated} but the ${direction < 0 ? "earliest" : "latest"} ${eventField} of any event is ${actual.text} (events[${actual.event}])`));
    }
  }
}

function pick(current: Extreme | undefined, text: string, event: number, direction: -1 | 1): Extreme {
  if (current === undefined || compareDateTimes(text, current.text) * direction > 0) return { text, event };
  return current;
}
