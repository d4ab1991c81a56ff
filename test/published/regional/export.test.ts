/**
 * CSV (RFC 4180 with the formula rule) and JSONL export, one row per event; filters by region and time.
 */
import { describe, expect, test } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import { csvField, csvText, isFormulaLike, neutralizeFormula } from "../../../published/regional/csv.js";
import { CSV_COLUMNS, exportLoadedIndex, type ExportOptions } from "../../../published/regional/export.js";
import { parseRfc3339 } from "../../../published/regional/rfc3339.js";
import { withDigest } from "../../../published/regional/synthetic.js";
import { loadRegionalInput, validateRegionalIndex } from "../../../published/regional/validate.js";
import { fixture, index, type Obj } from "./helpers.js";

function exported(input: Uint8Array | Obj, opts: ExportOptions): string {
  return [...exportLoadedIndex(loadRegionalInput(input instanceof Uint8Array ? input : JSON.stringify(input)), opts)].join("");
}

/** A small RFC 4180 reader for the tests: records of fields, CRLF-terminated. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') {
          field += '"';
          i += 2;
        } else if (text[i] === '"') {
          i++;
          break;
        } else field += text[i++];
      }
    } else if (text[i] === ",") {
      record.push(field);
      field = "";
      i++;
    } else if (text[i] === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i += 2;
    } else field += text[i++];
  }
  expect(field).toBe("");
  expect(record).toEqual([]);
  return records;
}

describe("the formula rule", () => {
  test.each(["=1+1", "+1", "-1", "@SUM(A1)", " =1", "  \t=1", "\t=1", "\r=1", "\n+1", "\r\n-1", "\u00a0=1", "\u3000=1", "\ufeff=1", "\u200b=1", "\u2060@x", "\u202e=1", "\u0000=1"])(
    "%j gets a leading apostrophe",
    (cell) => {
      expect(isFormulaLike(cell)).toBe(true);
      expect(neutralizeFormula(cell)).toBe(`'${cell}`);
    },
  );

  test.each(["＝1+1", "＋1", "－1", "＠x", "﹦1", "﹢1", "﹣1", "﹫x", "⁺1", "₌1", "\u22121", " ＝1"])("full-width and other look-alikes: %j", (cell) => {
    expect(neutralizeFormula(cell)).toBe(`'${cell}`);
  });

  test.each(["", "plain", "a=1", "1-2", "\tplain", "\rplain", "   ", "'=already", "—dash", "–dash", "#hash", "%pct", "|pipe"])("left alone: %j", (cell) => {
    expect(isFormulaLike(cell)).toBe(false);
    expect(neutralizeFormula(cell)).toBe(cell);
  });

  test("RFC 4180 quoting after the rule", () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\nlines")).toBe('"two\nlines"');
    expect(csvField("cr\ronly")).toBe('"cr\ronly"');
    expect(csvField("\tplain")).toBe("\tplain");
    expect(csvText('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvText("\r=1")).toBe("\"'\r=1\"");
  });
});

describe("CSV export", () => {
  test("a header and one CRLF record per event, in the documented columns", () => {
    const text = exported(fixture("valid/gwadar.json"), { format: "csv", columns: "full" });
    expect(text.endsWith("\r\n")).toBe(true);
    const rows = readCsv(text);
    expect(rows[0]).toEqual([...CSV_COLUMNS]);
    expect(rows.length).toBe(7);
    const o = JSON.parse(fixture("valid/gwadar.json").toString("utf8"));
    const row = Object.fromEntries(CSV_COLUMNS.map((c, k) => [c, rows[2][k]]));
    const ev = o.events[1];
    expect(row).toEqual({
      event_id: ev.event_id,
      event_url: ev.event_url,
      event_page_available: String(ev.event_page_available),
      published_at: ev.published_at,
      first_recorded_at: ev.first_recorded_at,
      last_recorded_at: ev.last_recorded_at,
      headline: ev.headline,
      dek: ev.dek,
      source_ids: ev.source_ids.join("|"),
      source_names: ev.source_names.join("|"),
      region_tags: ev.region_tags.join("|"),
      topics: ev.topics.join("|"),
      evidence_strength: ev.evidence_strength,
      version_count: String(ev.version_count),
      current_in_wire: "true",
      publisher_link_urls: ev.publisher_links.map((l: Obj) => l.url).join("|"),
      publisher_link_titles: ev.publisher_links.map((l: Obj) => l.title).join("|"),
      translation_status: "machine-draft-not-human-certified",
      translation_id: ev.english_translation.translation_id,
      title_en: ev.english_translation.title_en,
      translation_public_url: ev.english_translation.public_url,
    });
    expect(Object.fromEntries(CSV_COLUMNS.map((c, k) => [c, rows[1][k]]))).toMatchObject({ translation_status: "none", translation_id: "", publisher_link_urls: "" });
  });

  test("a formula payload in every text field is neutralized in every cell it reaches; JSONL keeps it exact", () => {
    const payloads = ["=cmd|' /C calc'!A0", "+1+1", "-2+3", "@SUM(1,1)", " \t=1", "\r\n=1", "＝1", "\u200b@x"];
    const o = index("gwadar", 2);
    const ev = o.events[1];
    let n = 0;
    const p = () => payloads[n++ % payloads.length];
    ev.headline = p();
    ev.dek = p();
    ev.source_names = ev.source_names.map(p);
    for (const s of o.sources) s.source_name = ev.source_names[ev.source_ids.indexOf(s.source_id)] ?? s.source_name;
    ev.topics = [p(), "ports"];
    ev.evidence_strength = p();
    ev.publisher_links = ev.publisher_links.map((l: Obj) => ({ ...l, title: p() }));
    ev.english_translation.title_en = p();
    const idx = withDigest(o);
    const report = validateRegionalIndex(JSON.stringify(idx));
    expect(report.conforms).toBe(true);
    expect(report.warnings).toEqual([]);

    const rows = readCsv(exported(idx, { format: "csv", columns: "full" }));
    const cell = (c: string) => rows[2][CSV_COLUMNS.indexOf(c as (typeof CSV_COLUMNS)[number])];
    for (const c of ["headline", "dek", "source_names", "topics", "evidence_strength", "publisher_link_titles", "title_en"]) {
      expect(cell(c).startsWith("'"), `${c}: ${JSON.stringify(cell(c))}`).toBe(true);
    }
    expect(cell("headline")).toBe(`'${ev.headline}`);
    expect(cell("dek")).toBe(`'${ev.dek}`);
    expect(cell("title_en")).toBe(`'${ev.english_translation.title_en}`);
    // No cell of any row starts a formula once the apostrophe is in place.
    for (const row of rows) for (const value of row) expect(isFormulaLike(value), JSON.stringify(value)).toBe(false);

    const lines = exported(idx, { format: "jsonl" }).trimEnd().split("\n").map((l) => JSON.parse(l));
    expect(lines[1].headline).toBe(ev.headline);
    expect(lines[1].dek).toBe(ev.dek);
    expect(lines[1].english_translation.title_en).toBe(ev.english_translation.title_en);
  });
});

describe("JSONL export", () => {
  test("one canonical object per event with schema_version and region, exact text", () => {
    const text = exported(fixture("valid/bri.json"), { format: "jsonl" });
    const lines = text.split("\n");
    expect(lines.pop()).toBe("");
    expect(lines.length).toBe(6);
    const o = JSON.parse(fixture("valid/bri.json").toString("utf8"));
    lines.forEach((line, i) => {
      expect(JSON.parse(line)).toEqual({ schema_version: o.schema_version, region: "bri", ...o.events[i] });
      const keys = Object.keys(JSON.parse(line));
      expect(keys).toEqual([...keys].sort());
      parseStrictJson(line);
    });
    expect(text).toContain("港口扩建");
  });
});

describe("filters", () => {
  test("--region keeps events tagged with it", () => {
    const rows = (region: "bri" | "balochistan") => exported(fixture("valid/gwadar.json"), { format: "jsonl", region }).trimEnd().split("\n").filter(Boolean).map((l) => JSON.parse(l));
    const all = JSON.parse(fixture("valid/gwadar.json").toString("utf8")).events;
    expect(rows("balochistan").map((e) => e.event_id)).toEqual(all.filter((e: Obj) => e.region_tags.includes("balochistan")).map((e: Obj) => e.event_id));
    expect(rows("balochistan").length).toBeGreaterThan(0);
    expect(rows("balochistan").length).toBeLessThan(all.length);
  });

  test("--since compares instants, whatever the offset", () => {
    const all = JSON.parse(fixture("valid/gwadar.json").toString("utf8")).events;
    const cutoff = all[2].published_at as string;
    const shifted = cutoff.replace(/T(\d\d)/, (_: string, h: string) => `T${String(Number(h) + 2).padStart(2, "0")}`).replace("Z", "+02:00");
    for (const since of [cutoff, shifted]) {
      const rows = readCsv(exported(fixture("valid/gwadar.json"), { format: "csv", columns: "full", since: parseRfc3339(since)! }));
      expect(rows.slice(1).map((r) => r[0])).toEqual(all.slice(0, 3).map((e: Obj) => e.event_id));
    }
  });
});
