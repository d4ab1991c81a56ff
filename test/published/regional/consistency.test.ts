/**
 * Consistency findings (warnings): what the format implies but does not state. Each test breaks one implied
 * rule on a conforming, consistent index and expects exactly that warning; the index still conforms.
 */
import { describe, expect, test } from "vitest";
import { validateRegionalIndex } from "../../../published/regional/validate.js";
import { changed, type Obj } from "./helpers.js";

function warnings(change: (o: Obj) => void, region: "gwadar" | "myanmar" | "bri" = "gwadar") {
  const report = validateRegionalIndex(changed(change, region));
  expect(report.errors).toEqual([]);
  expect(report.conforms).toBe(true);
  expect(report.consistency).toBe("checked");
  return report.warnings.map((w) => [w.path, w.rule]);
}

describe("counts versus the arrays", () => {
  test.each([
    ["unique_events", "index.counts.unique_events"],
    ["current_events", "index.counts.current_events"],
    ["historical_events", "index.counts.historical_events"],
    ["event_pages_available", "index.counts.event_pages_available"],
    ["sources", "index.counts.sources"],
    ["events_with_english_translation", "index.counts.events_with_english_translation"],
    ["event_versions", "index.counts.event_versions"],
  ])("counts.%s off by one", (field, path) => {
    expect(warnings((o) => (o.counts[field] += 1))).toEqual([[path, "counts"]]);
  });

  test("the message states both numbers", () => {
    const report = validateRegionalIndex(changed((o) => (o.counts.unique_events = 9)));
    expect(report.warnings[0].message).toBe("index.counts.unique_events: is 9 but events has 6");
  });

  test("capture_universe cannot hold fewer events than the region", () => {
    expect(warnings((o) => (o.capture_universe.unique_events = 2))).toEqual([["index.capture_universe.unique_events", "capture-universe"]]);
    expect(warnings((o) => (o.capture_universe.current_wire_events = 1))).toEqual([["index.capture_universe.current_wire_events", "capture-universe"]]);
  });
});

describe("sources", () => {
  test("captured_event_count versus the events that list the source", () => {
    expect(warnings((o) => (o.sources[0].captured_event_count += 1))).toEqual([["index.sources[0].captured_event_count", "captured-event-count"]]);
  });

  test("an event's source_ids must be listed in sources", () => {
    expect(
      warnings((o) => {
        o.events[0].source_ids = ["unlisted-wire"];
        o.events[0].source_names = ["Unlisted Wire"];
        const harbour = o.sources.find((s: Obj) => s.source_id === "harbour-wire");
        harbour.captured_event_count -= 1;
      }),
    ).toEqual([["index.events[0].source_ids[0]", "source-listed"]]);
  });

  test("a source listed twice", () => {
    expect(
      warnings((o) => {
        o.sources.push({ ...o.sources[0] });
        o.counts.sources += 1;
      }),
    ).toEqual([["index.sources[6].source_id", "duplicate-source-id"]]);
  });

  test("source_names follow source_ids", () => {
    expect(warnings((o) => (o.events[0].source_names = ["Someone Else"]))).toEqual([["index.events[0].source_names[0]", "source-names"]]);
    expect(warnings((o) => o.events[0].source_names.push("Extra Name"))).toEqual([["index.events[0].source_names", "source-names"]]);
  });

  test("a publisher link from a source the event does not credit", () => {
    expect(warnings((o) => (o.events[1].publisher_links[0].source_id = "valley-herald"))).toEqual([["index.events[1].publisher_links[0].source_id", "publisher-link-source"]]);
  });
});

describe("events", () => {
  test("version_count versus version_ids", () => {
    expect(
      warnings((o) => {
        o.events[1].version_count += 1;
        o.counts.event_versions += 1;
      }),
    ).toEqual([["index.events[1].version_count", "version-count"]]);
  });

  test("first_recorded_at after last_recorded_at", () => {
    expect(
      warnings((o) => {
        const e = o.events[4];
        [e.first_recorded_at, e.last_recorded_at] = [e.last_recorded_at, e.first_recorded_at];
      }),
    ).toEqual([["index.events[4].last_recorded_at", "recorded-order"]]);
  });

  test("the same instant in another offset is not a finding", () => {
    expect(warnings((o) => (o.events[2].first_recorded_at = o.events[2].first_recorded_at.replace(/T(\d\d)/, (_: string, h: string) => `T${String(Number(h) + 1).padStart(2, "0")}`).replace("Z", "+01:00")))).toEqual([]);
  });

  test("every event carries the file's region", () => {
    expect(warnings((o) => (o.events[0].region_tags = ["bri"]))).toEqual([["index.events[0].region_tags", "region-membership"]]);
  });

  test("duplicate event ids and shared version ids", () => {
    expect(warnings((o) => (o.events[3].event_id = o.events[0].event_id))).toEqual([["index.events[3].event_id", "duplicate-event-id"]]);
    expect(warnings((o) => (o.events[3].version_ids = [o.events[0].version_ids[0]]))).toEqual([["index.events[3].version_ids[0]", "duplicate-version-id"]]);
  });

  test("a translation whose public_url points at another translation", () => {
    expect(warnings((o) => (o.events[1].english_translation.public_url = "/news/china/english/#translation-zhtr-000000000000000000000000"))).toEqual([
      ["index.events[1].english_translation.public_url", "translation-url-id"],
    ]);
  });
});

describe("coverage versus event times", () => {
  test("an event outside a stated bound", () => {
    expect(warnings((o) => (o.coverage.latest_published_at = o.events[1].published_at))).toEqual([["index.events[0].published_at", "coverage-bounds"]]);
    expect(warnings((o) => (o.coverage.earliest_recorded_at = "2026-08-22T05:00:00Z"))).toEqual([["index.events[5].first_recorded_at", "coverage-bounds"]]);
  });

  test("a bound that no event reaches", () => {
    expect(warnings((o) => (o.coverage.earliest_published_at = "2020-01-01T00:00:00Z"))).toEqual([["index.coverage.earliest_published_at", "coverage-bounds"]]);
    expect(warnings((o) => (o.coverage.latest_recorded_at = "2026-08-22T05:59:59Z"))).toEqual([["index.coverage.latest_recorded_at", "coverage-bounds"]]);
  });

  test("null bounds with events, and bounds without events", () => {
    expect(warnings((o) => (o.coverage.latest_published_at = null))).toEqual([["index.coverage.latest_published_at", "coverage-bounds"]]);
    const empty = (o: Obj) => {
      o.events = [];
      o.sources = [];
      Object.assign(o.counts, { event_versions: 0, unique_events: 0, current_events: 0, historical_events: 0, event_pages_available: 0, sources: 0, events_with_english_translation: 0 });
    };
    expect(warnings(empty)).toEqual([
      ["index.coverage.earliest_published_at", "coverage-bounds"],
      ["index.coverage.latest_published_at", "coverage-bounds"],
      ["index.coverage.earliest_recorded_at", "coverage-bounds"],
      ["index.coverage.latest_recorded_at", "coverage-bounds"],
    ]);
    expect(
      warnings((o) => {
        empty(o);
        for (const k of Object.keys(o.coverage)) o.coverage[k] = null;
      }),
    ).toEqual([]);
  });

  test("an event recorded after the index was generated", () => {
    expect(warnings((o) => (o.generated_at = "2026-08-22T03:00:00Z"))).toEqual([["index.generated_at", "generated-after-recorded"]]);
  });
});

describe("translation sidecar", () => {
  test("translations without a sidecar", () => {
    expect(warnings((o) => (o.inputs.chinese_translation_sidecar = null))).toEqual([["index.inputs.chinese_translation_sidecar", "translation-sidecar"]]);
  });

  test("fewer translated records than translated events", () => {
    expect(warnings((o) => (o.inputs.chinese_translation_sidecar.translated_records = 1))).toEqual([
      ["index.inputs.chinese_translation_sidecar.translated_records", "translation-sidecar"],
    ]);
  });

  test("a sidecar made from another event-version ledger", () => {
    expect(warnings((o) => (o.inputs.chinese_translation_sidecar.newswire_ledger_sha256 = "0".repeat(64)))).toEqual([
      ["index.inputs.chinese_translation_sidecar.newswire_ledger_sha256", "translation-sidecar"],
    ]);
  });
});

test("warnings are not reported on an index that does not conform", () => {
  const report = validateRegionalIndex(
    changed((o) => {
      o.counts.unique_events = 99;
      o.label = "";
    }),
  );
  expect(report.conforms).toBe(false);
  expect(report.warnings).toEqual([]);
  expect(report.consistency).toBe("not_checked");
});
