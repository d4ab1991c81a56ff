/**
 * `index export --format csv` writes by default exactly the publisher's CSV. The reference here is a
 * reimplementation written in this test from the publisher's documented rules (its builder's public code):
 *
 * - 19 columns in its order; lists joined with `|`; booleans `true` / `false`; `version_count` as an integer;
 *   an event without a translation gets empty translation cells;
 * - every string cell goes through its formula rule: strip leading space, tab, CR and LF; if what is left starts
 *   with `=`, `+`, `-` or `@`, prefix the original cell with an apostrophe;
 * - Python's csv writer, excel dialect, minimal quoting, `lineterminator="\n"`: a field holding `,`, `"`, CR or LF
 *   is quoted with `"` doubled (CR as Python 3.13 quotes it; docs/regional-index.md).
 *
 * Where our wider formula rule neutralises a cell the publisher's leaves alone, the bytes differ in exactly that
 * cell, by exactly the apostrophe (the documented list is checked below).
 */
import { describe, expect, test } from "vitest";
import { REGIONS } from "../../../published/regional/constants.js";
import { exportLoadedIndex, PUBLISHER_CSV_COLUMNS } from "../../../published/regional/export.js";
import { withDigest } from "../../../published/regional/synthetic.js";
import { loadRegionalInput, validateRegionalIndex } from "../../../published/regional/validate.js";
import { fixture, index, type Obj } from "./helpers.js";

// ---- the reimplementation of the publisher's CSV ------------------------------------------------------------

function publisherSafe(value: unknown): string {
  if (typeof value !== "string") return String(value);
  const significant = value.replace(/^[ \t\r\n]+/, "");
  return /^[=+\-@]/.test(significant) ? `'${value}` : value;
}

function pythonCsvField(s: string): string {
  return /[,"\r\n]/.test(s) ? `"${s.split('"').join('""')}"` : s;
}

function publisherCsv(idx: Obj): string {
  const rows: unknown[][] = [[
    "event_id", "event_url", "event_page_available", "headline", "published_at", "first_recorded_at", "last_recorded_at",
    "source_ids", "source_names", "evidence_strength", "version_count", "current_in_wire", "region_tags", "english_headline",
    "english_excerpt", "translation_id", "translation_status", "background_en", "translation_public_url",
  ]];
  for (const ev of idx.events as Obj[]) {
    const tr = (ev.english_translation ?? {}) as Obj;
    rows.push([
      ev.event_id, ev.event_url, String(ev.event_page_available).toLowerCase(), ev.headline, ev.published_at, ev.first_recorded_at,
      ev.last_recorded_at, (ev.source_ids as string[]).join("|"), (ev.source_names as string[]).join("|"), ev.evidence_strength,
      ev.version_count, String(ev.current_in_wire).toLowerCase(), (ev.region_tags as string[]).join("|"), tr.title_en ?? "",
      tr.context_en ?? "", tr.translation_id ?? "", tr.status ?? "", tr.background_en ?? "", tr.public_url ?? "",
    ].map(publisherSafe));
  }
  return rows.map((r) => `${r.map((c) => pythonCsvField(c as string)).join(",")}\n`).join("");
}

// ---- helpers ----------------------------------------------------------------------------------------------------

function ours(text: string): string {
  return [...exportLoadedIndex(loadRegionalInput(text), { format: "csv" })].join("");
}

/** An index whose text fields carry the given cells (each conforming), digest recomputed. */
function withCells(cells: string[]): Obj {
  const o = index("gwadar", 6);
  let n = 0;
  const next = () => cells[n++ % cells.length];
  for (const ev of o.events as Obj[]) {
    ev.headline = next();
    ev.evidence_strength = next();
    const tr = ev.english_translation as Obj | null;
    if (tr) {
      tr.title_en = next();
      tr.context_en = next();
      tr.background_en = next();
    }
  }
  return withDigest(o);
}

describe("the default CSV is the publisher's, byte for byte", () => {
  test.each([...REGIONS.map((r) => `valid/${r}.json`), ...REGIONS.map((r) => `valid-publisher/${r}.json`)])("%s", (file) => {
    const text = fixture(file).toString("utf8");
    const expected = publisherCsv(JSON.parse(text));
    expect(ours(text)).toBe(expected);
    expect(expected.split("\n")[0].split(",")).toEqual([...PUBLISHER_CSV_COLUMNS]);
  });

  test("quoting, doubled quotes, embedded CR/LF, commas, pipes, non-BMP text and every formula the publisher's rule catches", () => {
    const cells = [
      "=1+1", "+1", "-1", "@SUM(A1)", " =1", "\t+1", "\r\n-1", "  \n@x", "a, b", 'say "hi"', "line\nbreak", "cr\ronly",
      "trailing space ", "pipe|inside", "😀 emoji", "中文标题", "plain", "'already quoted", "a=b", "x-1",
    ];
    const idx = withCells(cells);
    const text = JSON.stringify(idx);
    const report = validateRegionalIndex(text);
    expect(report.errors).toEqual([]);
    const expected = publisherCsv(idx);
    expect(ours(text)).toBe(expected);
    for (const c of ["'=1+1", "'+1", "\"'\r\n-1\"", "\"'  \n@x\"", '"a, b"', '"say ""hi"""', '"cr\ronly"']) expect(expected).toContain(c);
  });

  test("an untranslated event has empty translation cells (not `none`) and integers and booleans are bare", () => {
    const text = fixture("valid/myanmar.json").toString("utf8");
    const first = ours(text).split("\n")[1];
    const ev = JSON.parse(text).events[0];
    expect(ev.english_translation).toBeNull();
    expect(first.endsWith(`,${ev.version_count},${ev.current_in_wire},${ev.region_tags.join("|")},,,,,,`)).toBe(true);
    expect(first.startsWith(`${ev.event_id},${ev.event_url},${ev.event_page_available},`)).toBe(true);
  });
});

describe("where our formula rule neutralises more than the publisher's (docs/regional-index.md)", () => {
  // Each is a first character (or prefix) the publisher's rule does not see past or does not treat as a formula.
  const wider = [
    "\u00a0=1", "\u3000=1", "\ufeff=1", "\u200b@x", "\u2060-1", "\u202e=1", "\u000b=1", "\f+1", "\u0000=1",
    "＝1", "＋1", "－1", "＠x", "﹦1", "﹢1", "﹣1", "﹫x", "⁺1", "₊1", "⁼1", "₌1", "\u22121", " ＝1",
  ];
  test.each(wider)("%j: our cell is the publisher's with one leading apostrophe", (cell) => {
    const idx = withCells([cell]);
    const text = JSON.stringify(idx);
    expect(validateRegionalIndex(text).errors).toEqual([]);
    const theirs = publisherCsv(idx).split("\n")[1].split(",");
    const mine = ours(text).split("\n")[1].split(",");
    const at = PUBLISHER_CSV_COLUMNS.indexOf("headline");
    expect(theirs[at]).toBe(cell);
    expect(mine[at]).toBe(`'${cell}`);
    // Every other cell of the row is identical.
    expect(mine.filter((_, k) => k !== at && PUBLISHER_CSV_COLUMNS[k] !== "evidence_strength")).toEqual(
      theirs.filter((_, k) => k !== at && PUBLISHER_CSV_COLUMNS[k] !== "evidence_strength"),
    );
  });
});
