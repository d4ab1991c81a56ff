/**
 * The hosted double's synthetic data set (test/double/synthetic/data): the committed files are exactly what the
 * generator writes, the double started on them answers the computed exchanges with the stored bytes, it is the
 * default when ../shared is absent, and (when ../shared is present) no synthetic file copies a recorded one.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startHostedDouble, SYNTHETIC_DATA_ROOT, type HostedDouble } from "./hosted-server.js";
import { doubleDataRoot, RecordedData, withId } from "./recorded.js";
import { committedFiles, SYNTHETIC_SITE, syntheticDataFiles } from "./synthetic/generate.js";
import { describeShared, hasShared, sharedPath } from "../helpers/shared.js";

async function post(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, text: await res.text() };
}

describe("the synthetic data set of the hosted double", () => {
  test("the committed files are exactly what the generator writes, and nothing else is there", async () => {
    const files = await syntheticDataFiles();
    expect(committedFiles()).toEqual([...files.keys()]);
    for (const [rel, text] of files) expect(readFileSync(join(SYNTHETIC_DATA_ROOT, rel), "utf8"), rel).toBe(text);
  }, 60_000);

  test("is shaped like the recordings: the index names every body, and the site is the synthetic origin", () => {
    const data = new RecordedData(SYNTHETIC_DATA_ROOT);
    const bodies = readdirSync(join(SYNTHETIC_DATA_ROOT, "hosted-responses")).filter((f) => f.endsWith(".json"));
    expect(data.exchanges().map((e) => e.file).sort()).toEqual(bodies.sort());
    for (const ex of data.exchanges()) expect(data.body(ex.file).length, ex.file).toBe(ex.bodyBytes);
    expect(data.recordedOrigin()).toBe(SYNTHETIC_SITE);
  });

  test("is what the double uses when ../shared/data is absent", () => {
    expect(doubleDataRoot()).toBe(hasShared ? sharedPath("data") : SYNTHETIC_DATA_ROOT);
  });

  describe("the double on it", () => {
    let d: HostedDouble;
    beforeAll(async () => {
      d = await startHostedDouble({ dataRoot: SYNTHETIC_DATA_ROOT });
    });
    afterAll(() => d?.close());

    test.each([
      ["13-get_signal-eval-assurance.json", { name: "get_signal", arguments: { name: "eval-assurance" } }],
      ["32-whats_happening.json", { name: "whats_happening", arguments: {} }],
      ["34-query_econ-no-args.json", { name: "query_economic_observations", arguments: {} }],
    ])("recomputes %s byte for byte from the synthetic readings", async (file, params) => {
      const stored = readFileSync(join(SYNTHETIC_DATA_ROOT, "hosted-responses", file), "utf8");
      const r = await post(d.url, { jsonrpc: "2.0", id: 77, method: "tools/call", params });
      expect(r.status).toBe(200);
      expect(r.text).toBe(withId(stored, "77"));
    });

    test("the economic ledger verifies and keeps only the latest revision per vintage", async () => {
      const r = await post(d.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "query_economic_observations", arguments: { series_id: "synthetic.index.alpha" } } });
      const sc = JSON.parse(r.text).result.structuredContent;
      expect(sc.source.checksum_integrity).toBe("verified_against_fixed_manifest");
      expect(sc.selection.matched).toBe(2);
      expect(sc.observations.map((o: { value: number; revision: number }) => [o.value, o.revision])).toEqual([
        [102, 0],
        [101.75, 1],
      ]);
    });

    test("serves the synthetic readings on the site listener", async () => {
      const res = await fetch(`${d.baseUrl}/readings/board-alarm-latest.json`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { headline: string }).headline).toMatch(/^synthetic board/);
    });
  });
});

describeShared("the synthetic data set against the recordings", () => {
  test("copies no recorded file and names no recorded origin", () => {
    const recorded = new RecordedData(sharedPath("data"));
    const origin = recorded.recordedOrigin();
    const recordedTexts = new Set<string>();
    for (const dir of ["hosted-responses", "published/readings", "published/integrations/pack"]) {
      for (const f of readdirSync(sharedPath("data", dir))) recordedTexts.add(readFileSync(sharedPath("data", dir, f), "utf8"));
    }
    for (const rel of committedFiles()) {
      const text = readFileSync(join(SYNTHETIC_DATA_ROOT, rel), "utf8");
      expect(recordedTexts.has(text), rel).toBe(false);
      expect(text.includes(new URL(origin).host), rel).toBe(false);
    }
  });
});
