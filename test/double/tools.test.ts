/**
 * The double's tool behaviour beyond the recorded samples (hosted-tool-server.md §2.3, §3, §4, §6.2, §8.1):
 * coercion, neutralization and caps, the economic pipeline's validation, cursors and typed errors, the cache,
 * origin faults and the 1.9.3 tool set.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { describeShared } from "../helpers/shared.js";
import { type HostedDouble, startHostedDouble } from "./hosted-server.js";
import { capRows, neutralize, stripInvisible } from "./neutralize.js";
import { post } from "./probe.js";
import { PyNum, pyDumps, pyParse, type PyObject } from "./py-json.js";
import { RecordedData } from "./recorded.js";
import { coerceInt } from "./signal-tools.js";

let nextId = 100;
async function call(d: HostedDouble, name: string, args: unknown): Promise<{ raw: string; json: any }> {
  const res = await post(d.url, JSON.stringify({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params: { name, arguments: args } }));
  const raw = res.body.toString("utf8");
  return { raw, json: JSON.parse(raw) };
}

describe("neutralization and caps (§3.3, §3.4)", () => {
  test("the strip removes invisible and bidi characters and keeps ZWNJ, ZWJ, tab, newline and visible signs", () => {
    const input = "a\u200Bb\u202Ec\uFEFFd\u00ADe\u{E0041}f\uFE0Fg\r\u0007h\u200C\u200Di\t\nj\u0600k\u{110BD}l";
    expect(stripInvisible(input)).toBe("abcdefgh\u200C\u200Di\t\nj\u0600k\u{110BD}l");
  });
  test("only untrusted keys are stripped; the status carries into arrays but not into objects", () => {
    const v = pyParse('{"title": ["x\\u200by", ["z\\u200b"]], "note": "n\\u200b", "summary": {"inner": "i\\u200b", "text": "t\\u200b"}}');
    const { value, gap } = neutralize(v);
    expect(pyDumps(value)).toBe('{"title": ["xy", ["z"]], "note": "n\\u200b", "summary": {"inner": "i\\u200b", "text": "t"}}');
    expect(gap).toBe(0);
  });
  test("values at depth 9 or more are left as published and counted once each, whatever their type", () => {
    // depth: root 0, a 1, ... the innermost object holds members at depth 9.
    const deep = '{"a": {"b": {"c": {"d": {"e": {"f": {"g": {"h": {"i": 1, "text": "t\\u200b", "j": {"text": "u\\u200b"}}}}}}}}}}';
    const { value, gap } = neutralize(pyParse(deep));
    expect(gap).toBe(2); // "i" and "j" (the object is not entered); "text" under an untrusted key is stripped
    expect(pyDumps(value)).toContain('"text": "t", "j": {"text": "u\\u200b"}');
  });
  test("caps report sibling totals, `arrays` only when several were cut, and paths with []", () => {
    const v = pyParse('{"ranked": [{"samples": [1,2,3,4]}, {"samples": [1]}, {"samples": [1,2,3,4,5]}, {"samples": [9]}], "rows": [1,2]}');
    const t = capRows(v, 3);
    // The walk continues only inside kept elements: the fourth sample array is never seen.
    expect(pyDumps(t)).toBe('{"ranked": {"returned": 3, "total": 4}, "ranked[].samples": {"returned": 7, "total": 10, "arrays": 2}}');
    expect(pyDumps(v)).toBe('{"ranked": [{"samples": [1, 2, 3]}, {"samples": [1]}, {"samples": [1, 2, 3]}], "rows": [1, 2]}');
  });
  test("get_signal max_rows coercion follows Python int() with fallback 25 and clamp 1..500", () => {
    const n = (v: unknown) => coerceInt(v === undefined ? undefined : (pyParse(JSON.stringify(v)) as PyNum), 25, 1, 500);
    expect(n("abc")).toBe(25);
    expect(n("7")).toBe(7);
    expect(n(" 7 ")).toBe(7);
    expect(n(7.9)).toBe(7);
    expect(n(0)).toBe(1);
    expect(n(true)).toBe(1);
    expect(n(100000)).toBe(500);
    expect(n(null)).toBe(25);
    expect(n(undefined)).toBe(25);
    expect(() => coerceInt(PyNum.float(Infinity), 25, 1, 500)).toThrow("cannot convert float infinity to integer");
  });
});

describeShared("hosted double: tools", () => {
  let d: HostedDouble;
  let data: RecordedData;
  beforeAll(async () => {
    data = new RecordedData();
    d = await startHostedDouble();
  });
  afterAll(async () => {
    await d.close();
  });
  afterEach(async () => {
    await d.setFault("none");
  });

  test("get_signal reports the coerced cap in truncated and how_to_see_everything", async () => {
    const { json } = await call(d, "get_signal", { name: " GFI-Transcripts ", max_rows: "7" });
    const sc = json.result.structuredContent;
    expect(sc.signal).toBe("gfi-transcripts");
    expect(sc.truncated["responses.*"]).toEqual({ returned: 7, total: 132, objects: 3 });
    expect(sc.how_to_see_everything).toContain("max_rows=7;");
    expect(Object.keys(sc)).toEqual(["signal", "source_url", "data", "untrusted_fields", "truncated", "how_to_see_everything", "untrusted_note"]);
  });

  test("unknown signals and views are -32602 with the reference wording", async () => {
    expect((await call(d, "get_signal", {})).raw).toContain('"message": "unknown signal \'\' \\u2014 list_signals names them"');
    expect((await call(d, "get_newsroom", { view: " WIRE2 " })).json.error.message).toBe(
      "unknown newsroom view 'wire2' \u2014 choose newsroom, wire, economy, machine-analysis, investigations, editorial-readiness, interconnection",
    );
  });

  test("a board-alarm outage makes whats_happening answer `board unavailable` with null numbers", async () => {
    await d.setFault({ mode: "file-missing", file: "readings/board-alarm-latest.json" });
    const sc = (await call(d, "whats_happening", {})).json.result.structuredContent;
    expect(sc.answer).toBe("board unavailable");
    expect(sc.board_e_value).toBeNull();
    expect(sc.signals_surviving_multiplicity).toBeNull();
    expect(sc.full["board-alarm"]).toEqual({ unavailable: "HTTP Error 404: File not found" });
  });

  test("whats_happening computed from the published board matches the recorded board part", async () => {
    // coverage-guard is not published: made absent, the board half is still computed from the local file.
    await d.setFault({ mode: "file-missing", file: "readings/coverage-guard-latest.json" });
    const sc = (await call(d, "whats_happening", {})).json.result.structuredContent;
    const recorded = JSON.parse(data.body("32-whats_happening.json").toString()).result.structuredContent;
    expect(sc.answer).toBe(recorded.answer);
    expect(sc.full["board-alarm"]).toEqual(recorded.full["board-alarm"]);
    expect(sc.board_e_value).toBe(recorded.board_e_value);
  });

  test("the unavailable reason text is configurable", async () => {
    await d.setFault({ mode: "origin-down", downReason: "HTTP Error 503: Service Unavailable" });
    const sc = (await call(d, "get_signal", { name: "eval-journal" })).json.result.structuredContent;
    expect(sc).toEqual({ signal: "eval-journal", unavailable: "HTTP Error 503: Service Unavailable", note: "fail-loud: fetch failure is explicit; no replacement is invented" });
  });

  describe("query_economic_observations", () => {
    test("argument errors come before any fetch, first failure wins, in the reference order", async () => {
      const before = d.originFetches();
      const msg = async (args: unknown) => (await call(d, "query_economic_observations", args)).json.error?.message;
      expect(await msg({ zeta: 1, alpha: 2, limit: 0 })).toBe("unknown argument(s): alpha, zeta");
      expect(await msg({ sector: " ", revision_view: "x" })).toBe("sector must be a non-empty string of at most 256 characters");
      expect(await msg({ series_id: "x".repeat(257) })).toBe("series_id must be a non-empty string of at most 256 characters");
      expect(await msg({ revision_view: "x", as_of: "bad" })).toBe("revision_view must be 'all' or 'latest-as-of'");
      expect(await msg({ as_of: "2026-08-10", period_start: "x" })).toBe("as_of must be a timezone-aware ISO-8601 timestamp");
      expect(await msg({ period_start: "2026-02-30" })).toBe("period_start must be an ISO-8601 date");
      expect(await msg({ period_end: "20260701" })).toBe("period_end must use YYYY-MM-DD form");
      expect(await msg({ period_start: "2026-07-02", period_end: "2026-07-01" })).toBe("period_end cannot precede period_start");
      expect(await msg({ released_from: "2026-07-02T00:00:00Z", released_to: "2026-07-02T07:59:59+08:00" })).toBe(
        "released_to cannot precede released_from",
      );
      expect(await msg({ limit: true })).toBe("limit must be an integer");
      expect(await msg({ limit: 101 })).toBe("limit must lie between 1 and 100");
      expect(d.originFetches()).toBe(before);
    });

    test("`5.0` is not an integer: the exact request text matters", async () => {
      const res = await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"query_economic_observations","arguments":{"limit":5.0}}}');
      expect(JSON.parse(res.body.toString()).error.message).toBe("limit must be an integer");
    });

    test("revision_view all keeps every visible vintage; latest-as-of one per vintage key", async () => {
      const all = (await call(d, "query_economic_observations", { revision_view: "all", limit: 1 })).json.result.structuredContent;
      const latest = (await call(d, "query_economic_observations", { limit: 1 })).json.result.structuredContent;
      expect(all.selection.matched).toBe(1958);
      expect(latest.selection.matched).toBe(510);
    });

    test("cursors chain pages; limit may change between pages; the last page has a null cursor", async () => {
      const args = { series_id: "cn.cfets.shibor_on", as_of: "2026-08-10T08:00:00+08:00", period_start: "2026-07-01", revision_view: "all" };
      const p1 = (await call(d, "query_economic_observations", { ...args, limit: 20 })).json.result.structuredContent;
      // +08:00 normalizes to the same instant as the recorded Z query, so the cursor is the recorded one's family.
      expect(p1.filters.as_of).toBe("2026-08-10T00:00:00Z");
      expect(p1.selection.matched).toBe(24);
      const p2 = (await call(d, "query_economic_observations", { ...args, limit: 10, cursor: p1.next_cursor })).json.result.structuredContent;
      expect(p2.selection).toMatchObject({ returned: 4, offset: 20, limit: 10, next_cursor: null });
      expect(p2.next_cursor).toBeNull();
    });

    test("cursor errors are checked after the fetch, in order", async () => {
      const recorded36 = JSON.parse(data.exchanges().find((e) => e.file.startsWith("36-"))!.requestBody!).params.arguments;
      const msg = async (args: unknown) => (await call(d, "query_economic_observations", args)).json.error?.message;
      expect(await msg({ cursor: "" })).toBe("cursor must be a non-empty opaque cursor");
      expect(await msg({ cursor: "!!" })).toBe("cursor is invalid");
      expect(await msg({ cursor: Buffer.from('{"o":1,"q":"a","s":"b","v":2}').toString("base64url") })).toBe("cursor is invalid");
      expect(await msg({ ...recorded36, revision_view: "latest-as-of" })).toBe("cursor does not match these filters or revision_view");
      const c = JSON.parse(Buffer.from(recorded36.cursor, "base64url").toString());
      const changed = Buffer.from(JSON.stringify({ ...c, s: "0".repeat(64) })).toString("base64url");
      expect(await msg({ ...recorded36, cursor: changed })).toBe("published ledger changed; restart pagination without a cursor");
      const past = Buffer.from(JSON.stringify({ ...c, o: 25 })).toString("base64url");
      expect(await msg({ ...recorded36, cursor: past })).toBe("cursor is past the end of this result set");
      const end = Buffer.from(JSON.stringify({ ...c, o: 24 })).toString("base64url");
      const last = (await call(d, "query_economic_observations", { ...recorded36, cursor: end })).json.result.structuredContent;
      expect(last.observations).toEqual([]);
      await d.setFault("origin-down");
      const down = (await call(d, "query_economic_observations", { cursor: "!!" })).json.result;
      expect(down.structuredContent.error.type).toBe("economic_source_unavailable");
    });

    test("a tampered ledger fails closed with an integrity error and no rows", async () => {
      await d.setFault("ledger-tampered");
      const r = (await call(d, "query_economic_observations", {})).json.result;
      expect(r.isError).toBe(true);
      expect(r.structuredContent.error).toEqual({
        type: "economic_checksum_integrity_failed",
        stage: "integrity",
        message: "observation ledger SHA-256 does not match the fixed manifest",
        retryable: false,
      });
      expect(r.structuredContent.checksum_integrity).toBe("failed");
      expect(r.content[0].text.startsWith('{"error":{"type":"economic_checksum_integrity_failed"')).toBe(true);
    });

    test("manifest rules fail closed: record count, field set", async () => {
      // A scratch data root: the recorded data linked in place, with an edited manifest (nothing enters the repo).
      const root = mkdtempSync(join(tmpdir(), "hosted-double-"));
      try {
        symlinkSync(data.responsesDir, join(root, "hosted-responses"));
        mkdirSync(join(root, "published", "readings"), { recursive: true });
        symlinkSync(join(data.publishedDir, "integrations"), join(root, "published", "integrations"));
        for (const f of readdirSync(join(data.publishedDir, "readings"))) {
          symlinkSync(join(data.publishedDir, "readings", f), join(root, "published", "readings", f));
        }
        const manifestPath = join(root, "published", "readings", "china-econ-observations-latest.json");
        const manifest = JSON.parse(data.published("readings/china-econ-observations-latest.json")!.toString());
        const run = async (m: unknown) => {
          rmSync(manifestPath);
          writeFileSync(manifestPath, JSON.stringify(m));
          const scratch = await startHostedDouble({ dataRoot: root });
          try {
            return (await call(scratch, "query_economic_observations", {})).json.result.structuredContent.error;
          } finally {
            await scratch.close();
          }
        };
        const fewer = { ...manifest, n_observations: 1957, artifact: { ...manifest.artifact, records: 1957 } };
        expect((await run(fewer)).message).toBe("observation ledger record count does not match the fixed manifest");
        const extra = { ...manifest, extra: 1 };
        delete extra.method;
        expect((await run(extra)).message).toBe("observation manifest fields do not match the v1 contract: missing method; unknown extra");
        const open = { ...manifest, integrity: { ...manifest.integrity, status: "pending" } };
        expect(await run(open)).toMatchObject({ type: "economic_checksum_integrity_failed", retryable: false });
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    });

    test("a missing ledger is a retryable source error", async () => {
      await d.setFault({ mode: "file-missing", file: "readings/china-econ-observations.jsonl" });
      const sc = (await call(d, "query_economic_observations", {})).json.result.structuredContent;
      expect(sc.error).toMatchObject({ type: "economic_source_unavailable", message: "the fixed published observation ledger could not be fetched", retryable: true });
    });
  });

  describe("prompts (§2.3)", () => {
    const get = async (params: unknown) => JSON.parse((await post(d.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "prompts/get", params }))).body.toString());
    test("a falsy required argument counts as missing", async () => {
      for (const v of ["", 0, false, null, [], {}]) {
        expect((await get({ name: "signal_deep_dive", arguments: { signal: v } })).error.message, JSON.stringify(v)).toBe(
          "missing required argument(s): signal",
        );
      }
    });
    test("the argument is embedded Python-style; unknown or missing names print as given or None", async () => {
      expect((await get({ name: "signal_deep_dive", arguments: { signal: 7 } })).result.messages[0].content.text).toMatch(/^Deep-dive the 7 signal:/);
      expect((await get({ name: "signal_deep_dive", arguments: { signal: "it's" } })).result.messages[0].content.text).toMatch(/^Deep-dive the "it's" signal:/);
      expect((await get({})).error.message).toBe("unknown prompt: None");
      expect((await get({ name: "nope" })).error.message).toBe("unknown prompt: nope");
    });
  });

  describe("cache (§6.2)", () => {
    test("with a TTL a reading is fetched once; failures are not cached; TTL 0 fetches every time", async () => {
      const cached = await startHostedDouble({ cacheTtlMs: 60_000 });
      try {
        await call(cached, "get_signal", { name: "board-alarm" });
        await call(cached, "whats_happening", {}); // shares the board-alarm entry; coverage-guard is replayed
        await call(cached, "get_signal", { name: "board-alarm", max_rows: 3 });
        expect(cached.originFetches()).toBe(1);
        // anchors is neither published nor recorded: each call tries the origin and fails (404), uncached.
        await call(cached, "get_signal", { name: "anchors" });
        await call(cached, "get_signal", { name: "anchors" });
        expect(cached.originFetches()).toBe(3);
      } finally {
        await cached.close();
      }
      const before = d.originFetches();
      await call(d, "get_signal", { name: "board-alarm" });
      await call(d, "get_signal", { name: "board-alarm" });
      expect(d.originFetches()).toBe(before + 2);
    });
  });

  describe("tool sets", () => {
    test("the 1.9.0 set has six tools and no research_catalog", async () => {
      const tools = JSON.parse((await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).body.toString()).result.tools;
      expect(tools.map((t: { name: string }) => t.name)).toEqual(["list_signals", "get_signal", "get_newsroom", "query_economic_observations", "whats_happening", "gfw_reading"]);
      expect((await call(d, "research_catalog", { offset: 0 })).json.error.message).toBe("unknown tool: research_catalog");
    });
    test("the 1.9.3 set adds a read-only research_catalog whose payload comes from a fixture", async () => {
      const cur = await startHostedDouble({
        toolset: "current",
        researchCatalogPayload: (offset, limit) =>
          new Map([
            ["offset", PyNum.int(offset)],
            ["limit", PyNum.int(limit)],
            ["value", PyNum.float(1)],
          ]) as PyObject,
      });
      try {
        const tools = JSON.parse((await post(cur.url, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).body.toString()).result.tools;
        expect(tools).toHaveLength(7);
        expect(tools[0].annotations.readOnlyHint).toBe(true);
        const { raw } = await call(cur, "research_catalog", { offset: 2000, limit: "3" });
        expect(raw).toContain('"structuredContent": {"offset": 1000, "limit": 3, "value": 1.0}');
      } finally {
        await cur.close();
      }
    });
  });

  test("Python-style number rendering survives a parse and dump of every recorded body", () => {
    for (const ex of data.exchanges()) {
      const body = data.body(ex.file).toString("utf8");
      if (body === "") continue;
      expect(pyDumps(pyParse(body)), ex.file).toBe(body);
    }
  });
});
