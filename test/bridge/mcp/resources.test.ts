/**
 * Resources (product.md §6): the five readings fetched from the double's site on read (exact text, source URL,
 * fetch time and generated_at under `_meta`, a short cache, failures that say a missing measurement is not calm),
 * the verified intelligence pack, and the JSON Schemas of our formats.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { FORMATS, formatJsonSchema, schemaFileText } from "../../../bridge/mcp/format-schemas.js";
import { PACK_URI, READINGS, readingUri, schemaUri } from "../../../bridge/mcp/resources.js";
import { CALM_SENTENCE } from "../../../bridge/upstream/unavailable.js";
import { sha256Hex } from "../../../src/hash.js";
import { startHostedDouble, type HostedDouble } from "../../double/hosted-server.js";
import { describeShared, readShared } from "../../helpers/shared.js";
import { configFor, PACK_PATH, removeTempHomes, Session, startSession } from "./session.js";

afterAll(removeTempHomes);

describeShared("resources", () => {
  let d: HostedDouble;
  let s: Session;
  beforeAll(async () => {
    d = await startHostedDouble();
    s = await startSession(configFor({ baseUrl: d.baseUrl }));
  });
  afterAll(async () => {
    await s.end();
    await d.close();
  });

  test("resources/list names the readings, the pack and every format schema", async () => {
    const list = (await s.request("resources/list")).msg.result.resources as { uri: string; mimeType: string }[];
    expect(list.map((r) => r.uri)).toEqual([...READINGS.map(readingUri), PACK_URI, ...FORMATS.map((f) => schemaUri(f.file))]);
  });

  test("each reading is the published file's exact text with source URL, fetch time and generated_at", async () => {
    for (const file of READINGS) {
      const before = Date.now();
      const r = await s.request("resources/read", { uri: readingUri(file) });
      const [c] = r.msg.result.contents;
      const published = readShared("data/published/readings", file).toString("utf8");
      expect(c.text, file).toBe(published);
      expect(c.mimeType).toBe("application/json");
      const meta = c._meta["evidence-bridge/reading"];
      expect(meta.source_url).toBe(`${d.baseUrl}/readings/${file}`);
      expect(Date.parse(meta.fetched_at)).toBeGreaterThanOrEqual(before - 1000);
      const generated = JSON.parse(published).generated_at;
      expect(meta.generated_at).toBe(typeof generated === "string" ? generated : null);
      expect(meta.from_cache).toBe(false);
      expect(meta.bytes).toBe(Buffer.byteLength(published));
    }
  });

  test("a second read within the TTL comes from the cache, keeping the original fetch time", async () => {
    const file = READINGS[0];
    const first = (await s.request("resources/read", { uri: readingUri(file) })).msg.result.contents[0]._meta["evidence-bridge/reading"];
    const fetches = d.requests.filter((q) => q.server === "site").length;
    const again = (await s.request("resources/read", { uri: readingUri(file) })).msg.result.contents[0]._meta["evidence-bridge/reading"];
    expect(again.from_cache).toBe(true);
    expect(again.fetched_at).toBe(first.fetched_at);
    expect(d.requests.filter((q) => q.server === "site").length).toBe(fetches);
  });

  test("a missing reading is an error that says a missing measurement is not evidence of calm", async () => {
    const fresh = await startSession(configFor({ baseUrl: d.baseUrl }));
    await d.setFault({ mode: "file-missing", file: "readings/eval-journal-latest.json" });
    const r = await fresh.request("resources/read", { uri: readingUri("eval-journal-latest.json") });
    await d.setFault("none");
    expect(r.msg.error.message).toMatch(/eval-journal-latest\.json is unavailable: the published file answered HTTP 404/);
    expect(r.msg.error.message).toContain(CALM_SENTENCE);
    expect((await fresh.call("list_capsules", {})).msg.result.structuredContent.total).toBe(0);
    await fresh.end();
  });

  test("the pack resource is the verified pack file with its digest", async () => {
    const r = await s.request("resources/read", { uri: PACK_URI });
    const [c] = r.msg.result.contents;
    const bytes = readFileSync(PACK_PATH);
    expect(c.text).toBe(bytes.toString("utf8"));
    expect(c._meta["evidence-bridge/pack"]).toMatchObject({ sha256: sha256Hex(bytes), verified: true });
  });

  test("every schema resource is the generated JSON Schema", async () => {
    for (const f of FORMATS) {
      const r = await s.request("resources/read", { uri: schemaUri(f.file) });
      expect(r.msg.result.contents[0].text).toBe(schemaFileText(await formatJsonSchema(f.file)));
      expect(r.msg.result.contents[0].mimeType).toBe("application/schema+json");
    }
  });

  test("an unknown resource URI is an error", async () => {
    const r = await s.request("resources/read", { uri: "evidence-bridge://readings/../../etc/passwd" });
    expect(r.msg.error).toBeDefined();
  });
});

describe("resources offline", () => {
  test("readings say the bridge is offline; the pack refusal names the one command that installs it", async () => {
    const s = await startSession(configFor({ pack: null, offline: true }));
    const reading = await s.request("resources/read", { uri: readingUri(READINGS[1]) });
    expect(reading.msg.error.message).toMatch(/unavailable: offline \(EVIDENCE_BRIDGE_OFFLINE/);
    expect(reading.msg.error.message).toContain(CALM_SENTENCE);
    const pack = await s.request("resources/read", { uri: PACK_URI });
    expect(pack.msg.error.message).toMatch(/no intelligence pack in the data directory .*the bridge is offline.*run 'evidence-bridge pack fetch'/);
    await s.end();
  });
});
