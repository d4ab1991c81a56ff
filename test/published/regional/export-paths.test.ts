/**
 * The two ways export reads events: an index that `validateLoadedIndex` found conforming gives CSV rows from
 * JSON.parse of each event's text; any other loaded index is parsed strictly and checked event by event. Both must
 * write the same bytes, and an event that does not conform must stop the export instead of producing a row.
 */
import { describe, expect, test } from "vitest";
import { exportLoadedIndex, RegionalExportError, type ExportOptions } from "../../../published/regional/export.js";
import { parseRfc3339 } from "../../../published/regional/rfc3339.js";
import { buildSyntheticIndex, withDigest } from "../../../published/regional/synthetic.js";
import { isValidatedConforming, loadRegionalInput, validateLoadedIndex } from "../../../published/regional/validate.js";
import { fixture, index } from "./helpers.js";

const encoder = new TextEncoder();

/** The export with and without validating first; both must be identical. */
function bothWays(input: Uint8Array, opts: ExportOptions): string {
  const strict = loadRegionalInput(input);
  const strictText = [...exportLoadedIndex(strict, opts)].join("");
  const validated = loadRegionalInput(input);
  expect(validateLoadedIndex(validated).conforms).toBe(true);
  expect(isValidatedConforming(validated)).toBe(true);
  expect(isValidatedConforming(strict)).toBe(false);
  const fastText = [...exportLoadedIndex(validated, opts)].join("");
  expect(fastText).toBe(strictText);
  return fastText;
}

describe("validated and unvalidated indexes export the same bytes", () => {
  test.each(["bri", "gwadar", "balochistan", "myanmar"])("%s, CSV and JSONL, with filters", (region) => {
    const bytes = fixture(`valid/${region}.json`);
    for (const opts of [
      { format: "csv", columns: "full" },
      { format: "csv" },
      { format: "jsonl" },
      { format: "csv", columns: "full", region: "bri" },
      { format: "csv", columns: "full", since: parseRfc3339("2026-08-22T02:00:00Z")! },
    ] as ExportOptions[]) {
      expect(bothWays(bytes, opts).length).toBeGreaterThan(100);
    }
  });

  test("escapes written in other ways than JSON.stringify writes them, formula payloads, non-BMP text", () => {
    const o = index("gwadar", 4);
    o.events[1].headline = "HEADLINE";
    o.events[2].dek = "DEK";
    o.events[3].source_names = ["NAME", ...o.events[3].source_names.slice(1)];
    const text = JSON.stringify(withDigest(o), null, 2)
      .replace('"HEADLINE"', '"=caf\\u00e9 \\/ \\"quoted\\" \\\\ tab\\there \\ud83d\\ude00 \\u2028"')
      .replace('"DEK"', '"+line\\r\\nbreak, comma"')
      .replace('"NAME"', '"@\\u0041\\u0042"');
    const csv = bothWays(encoder.encode(text), { format: "csv", columns: "full" });
    expect(csv).toContain("'=café / \"\"quoted\"\" \\ tab\there 😀 \u2028");
    expect(csv).toContain("\"'+line\r\nbreak, comma\"");
    expect(csv).toContain("'@AB");
  });

  test("a large index (more events than one output chunk holds)", () => {
    const bytes = encoder.encode(JSON.stringify(buildSyntheticIndex({ region: "bri", events: 600 })));
    const csv = bothWays(bytes, { format: "csv", columns: "full" });
    expect(csv.split("\r\n").length).toBe(602);
  });
});

describe("an event that does not conform stops the export", () => {
  const broken = fixture("broken/event-topics-duplicate.json");

  test("unvalidated: the event is checked and refused, naming it", () => {
    const loaded = loadRegionalInput(broken);
    const run = () => [...exportLoadedIndex(loaded, { format: "csv", columns: "full" })];
    expect(run).toThrow(RegionalExportError);
    expect(run).toThrow(/^index\.events\[1\]: does not conform/);
  });

  test("validated but not conforming: no fast path, the same refusal", () => {
    const loaded = loadRegionalInput(broken);
    expect(validateLoadedIndex(loaded).conforms).toBe(false);
    expect(isValidatedConforming(loaded)).toBe(false);
    expect(() => [...exportLoadedIndex(loaded, { format: "csv", columns: "full" })]).toThrow(/^index\.events\[1\]: does not conform/);
  });

  test("a plain object (no event text) takes the strict path after validation too", () => {
    const loaded = loadRegionalInput(index("myanmar", 3));
    expect(validateLoadedIndex(loaded).conforms).toBe(true);
    expect(loaded.kind === "object" && loaded.events?.text).toBeFalsy();
    const csv = [...exportLoadedIndex(loaded, { format: "csv", columns: "full" })].join("");
    expect(csv.split("\r\n").length).toBe(5);
  });
});
