/**
 * The upstream allowlist (bridge/upstream/published-vocabulary.ts) against a scripted source, no network: what is
 * admitted and how it is rebuilt, what is refused and how the refusal reads, how each vocabulary is learned (and
 * learned again), that an unreachable server gives `unavailable` after the learning attempt alone, and the bounds.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import type { Discovery, ToolCallOutcome } from "../../../bridge/upstream/hosted-client.js";
import { PINNED_TOOLS, PUBLIC_TOOL_NAMES } from "../../../bridge/upstream/pinned-tools.js";
import {
  ARGUMENT_RULES,
  MAX_SERVERS,
  PublishedVocabulary,
  RELEARN_AFTER_MS,
  type VocabularySource,
} from "../../../bridge/upstream/published-vocabulary.js";
import type { PublishedOutcome } from "../../../bridge/upstream/published-files.js";
import { unavailableResult } from "../../../bridge/upstream/unavailable.js";
import { SYNTHETIC_DATA_ROOT } from "../../double/recorded.js";

const SIGNALS = ["ooni-gfw", "board-alarm", "newsroom"];

function discovery(version = "1.9.3"): Discovery {
  return {
    at: 0,
    protocolVersion: "2025-06-18",
    initializeResultText: "{}",
    initializeResult: { serverInfo: { name: "palimpsest", version } },
    upstreamTools: [],
    exposed: new Set(),
    ignored: [],
    drift: { drifted: false, tools: [] },
  };
}

/** A tools/call result carrying `payload`, and the outcome of a call answered with it. */
const answer = (payload: unknown) => ({ content: [{ type: "text", text: "" }], structuredContent: payload, isError: false });
const result = (payload: unknown): ToolCallOutcome => ({ kind: "result", result: answer(payload), value: null, attempts: 1 });

const down: ToolCallOutcome = { kind: "unavailable", reason: "the hosted server could not be reached (ECONNREFUSED)", retryable: true, attempts: 2, result: unavailableResult("x", true) };

/** A scripted upstream: answers per tool, every call and fetch recorded. */
class Script implements VocabularySource {
  discovery: Discovery | undefined = discovery();
  readonly calls: { name: string; args: unknown }[] = [];
  readonly fetches: string[] = [];
  answers: Partial<Record<string, (args: Record<string, unknown>) => ToolCallOutcome>> = {
    list_signals: () => result({ signals: SIGNALS.map((name) => ({ name, description: "d", url: "u" })) }),
  };
  files: Record<string, Buffer> | undefined;
  async discover() {
    return this.discovery ? { ok: true as const, discovery: this.discovery } : { ok: false as const, reason: "initialize: refused", retryable: true };
  }
  async callTool(name: string, args: unknown): Promise<ToolCallOutcome> {
    this.calls.push({ name, args });
    const a = this.answers[name];
    return a ? a(args as Record<string, unknown>) : down;
  }
  async fetchPublished(path: string): Promise<PublishedOutcome> {
    this.fetches.push(path);
    if (this.files === undefined) return { ok: false, url: undefined, reason: "no published-files base URL is configured", retryable: false };
    const bytes = this.files[path];
    if (bytes === undefined) return { ok: false, url: `http://127.0.0.1:1/${path}`, reason: "connect ECONNREFUSED", retryable: true };
    return { ok: true, url: `http://127.0.0.1:1/${path}`, fetchedAt: "", fromCache: false, contentType: undefined, bytes, generatedAt: undefined };
  }
}

const syntheticLedger = () => ({
  "readings/china-econ-observations-latest.json": readFileSync(join(SYNTHETIC_DATA_ROOT, "published/readings/china-econ-observations-latest.json")),
  "readings/china-econ-observations.jsonl": readFileSync(join(SYNTHETIC_DATA_ROOT, "published/readings/china-econ-observations.jsonl")),
});

describe("the argument table", () => {
  test("names every argument of every pinned schema, and nothing else", () => {
    for (const tool of PUBLIC_TOOL_NAMES) {
      expect(Object.keys(ARGUMENT_RULES[tool])).toEqual(Object.keys((PINNED_TOOLS[tool].inputSchema.properties ?? {}) as object));
    }
  });
});

describe("admission", () => {
  test("a published signal name is sent rebuilt in the pinned order; the client's spelling is not", async () => {
    const src = new Script();
    const v = new PublishedVocabulary(src);
    const a = await v.admit("get_signal", { max_rows: 7, name: "ooni-gfw" }, { argumentsText: '{ "max_rows" : 7 , "name" : "ooni\\u002dgfw" }' });
    expect(a).toEqual({ kind: "admitted", args: { name: "ooni-gfw", max_rows: 7 }, argumentsText: '{"name":"ooni-gfw","max_rows":7}', meta: undefined });
    expect(src.calls.map((c) => c.name)).toEqual(["list_signals"]);
  });

  test("an unpublished value is -32602 naming the tool, the argument and list_signals, never the value", async () => {
    const v = new PublishedVocabulary(new Script());
    for (const name of ["OONI-GFW", " ooni-gfw", "zq-secret-desk", "ooni-gfw-x"]) {
      const a = await v.admit("get_signal", { name });
      expect(a).toEqual({
        kind: "invalid",
        error: { code: -32602, message: "Invalid params for get_signal: name: not a signal name the hosted server publishes; list_signals names them (exactly as listed)" },
      });
    }
  });

  test("integers are plain digits within the pinned bounds; a repeated argument or one outside the schema is refused", async () => {
    const v = new PublishedVocabulary(new Script());
    const cases: [string, string][] = [
      ['{"limit":5.0}', "limit: an integer must be written as plain digits (no fraction or exponent)"],
      ['{"limit":5e0}', "limit: an integer must be written as plain digits (no fraction or exponent)"],
      ['{"limit":500}', "limit: outside the pinned bounds 1..100"],
      ['{"limit":"5"}', "limit: expected an integer"],
      ['{"limit":5,"limit":6}', "arguments: an argument is given twice"],
      ['{"url":"x"}', "arguments: an argument outside the pinned schema"],
      ['{"revision_view":"ALL"}', "revision_view: not one of the pinned values"],
    ];
    for (const [text, message] of cases) {
      const a = await v.admit("query_economic_observations", JSON.parse(text), { argumentsText: text });
      expect(a).toEqual({ kind: "invalid", error: { code: -32602, message: `Invalid params for query_economic_observations: ${message}` } });
    }
    expect(await v.admit("query_economic_observations", { limit: 5, revision_view: "all" }, { argumentsText: '{"revision_view":"all","limit":5}' })).toMatchObject({
      kind: "admitted",
      argumentsText: '{"revision_view":"all","limit":5}',
    });
  });

  test("the client's _meta is never sent: a progress token becomes the bridge's own", async () => {
    const v = new PublishedVocabulary(new Script());
    const a = await v.admit("list_signals", {}, { clientMeta: { progressToken: "zq-secret", note: "zq-secret" } });
    expect(a).toMatchObject({ kind: "admitted", argumentsText: "{}", meta: { progressToken: expect.stringMatching(/^evidence-bridge-[0-9]+$/) } });
    expect(JSON.stringify(a)).not.toContain("zq-secret");
    expect(await v.admit("list_signals", {}, { clientMeta: { note: "zq-secret" } })).toMatchObject({ meta: undefined });
  });
});

describe("learning", () => {
  test("an unreachable server: the call is `unavailable` and nothing but the learning call was attempted", async () => {
    const src = new Script();
    src.answers = {};
    const v = new PublishedVocabulary(src);
    const a = await v.admit("get_signal", { name: "ooni-gfw" });
    expect(a.kind).toBe("unavailable");
    if (a.kind !== "unavailable") return;
    expect(a.result.structuredContent).toEqual({ status: "unavailable", reason: expect.stringMatching(/^the published signal names \(list_signals\) could not be learned/), retryable: true });
    expect(src.calls).toEqual([{ name: "list_signals", args: {} }]);
    // Failures are not kept: the next call learns again.
    src.answers.list_signals = new Script().answers.list_signals;
    expect((await v.admit("get_signal", { name: "ooni-gfw" })).kind).toBe("admitted");
  });

  test("without a discovery the server is discovered first; a failed discovery is `unavailable`", async () => {
    const src = new Script();
    src.discovery = undefined;
    const a = await new PublishedVocabulary(src).admit("get_signal", { name: "ooni-gfw" });
    expect(a).toMatchObject({ kind: "unavailable", result: { structuredContent: { reason: "tool discovery failed (initialize: refused)" } } });
    expect(src.calls).toEqual([]);
  });

  test("an unknown value learns again once the vocabulary is older than the relearn interval, not before; concurrent calls share one run", async () => {
    const src = new Script();
    let now = 1_000_000;
    const v = new PublishedVocabulary(src, { now: () => now });
    await Promise.all([v.admit("get_signal", { name: "ooni-gfw" }), v.admit("get_signal", { name: "board-alarm" })]);
    expect(src.calls.length).toBe(1);
    expect((await v.admit("get_signal", { name: "fresh-signal" })).kind).toBe("invalid");
    expect(src.calls.length).toBe(1);
    now += RELEARN_AFTER_MS;
    src.answers.list_signals = () => result({ signals: [{ name: "fresh-signal" }] });
    expect((await v.admit("get_signal", { name: "fresh-signal" })).kind).toBe("admitted");
    expect(src.calls.length).toBe(2);
  });

  test("a learning run cancelled by the caller that started it is run again for a caller that did not cancel", async () => {
    const src = new Script();
    const normal = src.answers.list_signals!;
    let first = true;
    src.answers.list_signals = (a) => {
      if (!first) return normal(a);
      first = false;
      return { kind: "cancelled", attempts: 1 };
    };
    const v = new PublishedVocabulary(src);
    const gone = new AbortController();
    gone.abort();
    const [a, b] = await Promise.all([v.admit("get_signal", { name: "ooni-gfw" }, { signal: gone.signal }), v.admit("get_signal", { name: "ooni-gfw" })]);
    expect(a.kind).toBe("cancelled");
    expect(b.kind).toBe("admitted");
    expect(src.calls.length).toBe(2);
  });

  test("vocabularies are kept per server identity, for at most MAX_SERVERS servers", async () => {
    const src = new Script();
    const v = new PublishedVocabulary(src);
    for (let k = 0; k <= MAX_SERVERS; k++) {
      src.discovery = discovery(`1.9.${k}`);
      await v.admit("get_signal", { name: "ooni-gfw" });
    }
    expect(src.calls.length).toBe(MAX_SERVERS + 1);
    src.discovery = discovery(`1.9.${MAX_SERVERS}`);
    await v.admit("get_signal", { name: "ooni-gfw" });
    expect(src.calls.length).toBe(MAX_SERVERS + 1);
    src.discovery = discovery("1.9.0");
    await v.admit("get_signal", { name: "ooni-gfw" });
    expect(src.calls.length).toBe(MAX_SERVERS + 2);
  });

  test("newsroom statuses and priorities: from get_newsroom, then the view's signal when the answer did not show every item", async () => {
    const src = new Script();
    src.answers.get_newsroom = () =>
      result({ view: "newsroom", signal: "newsroom", data: { stories: [{ status: "live", priority: "lead" }] }, selection: { collection: "stories", returned: 1, total: 2 } });
    src.answers.get_signal = () => result({ signal: "newsroom", data: { stories: [{ status: "live", priority: "lead" }, { status: "stale", priority: null }] } });
    const v = new PublishedVocabulary(src);
    const a = await v.admit("get_newsroom", { status: "stale", priority: "lead" });
    expect(a).toMatchObject({ kind: "admitted", argumentsText: '{"status":"stale","priority":"lead"}' });
    expect(src.calls).toEqual([
      { name: "get_newsroom", args: { view: "newsroom", limit: 50 } },
      { name: "get_signal", args: { name: "newsroom", max_rows: 500 } },
    ]);
    const bad = await v.admit("get_newsroom", { view: "newsroom", status: "none" });
    expect(bad).toMatchObject({ kind: "invalid", error: { message: expect.stringMatching(/^Invalid params for get_newsroom: status: .*call get_newsroom without it.*list_signals/) } });
  });

  test("a view whose reading the server reports unavailable both ways cannot be learned: `unavailable`", async () => {
    const src = new Script();
    src.answers.get_newsroom = () => result({ view: "wire", signal: "evidence-wire", unavailable: "HTTP Error 404", note: "n" });
    src.answers.get_signal = () => result({ signal: "evidence-wire", unavailable: "HTTP Error 404", note: "n" });
    const a = await new PublishedVocabulary(src).admit("get_newsroom", { view: "wire", status: "live" });
    expect(a).toMatchObject({ kind: "unavailable", result: { structuredContent: { retryable: true } } });
  });

  test("economic values from the published ledger, verified against its manifest; dates within a year of its years", async () => {
    const src = new Script();
    src.files = syntheticLedger();
    const v = new PublishedVocabulary(src);
    const ok = await v.admit("query_economic_observations", {
      series_id: "synthetic.index.alpha",
      geography: "ZZ",
      period_start: "2024-01-01",
      as_of: "2026-12-31T00:00:00Z",
      released_to: "2025-12-03T09:00:00+00:00",
    });
    expect(ok.kind).toBe("admitted");
    expect(src.fetches).toEqual(["readings/china-econ-observations-latest.json", "readings/china-econ-observations.jsonl"]);
    for (const [arg, value] of [
      ["series_id", "synthetic.index.gamma"],
      ["period_start", "2023-12-31"],
      ["period_end", "2025-02-30"],
      ["period_end", "20250201"],
      ["as_of", "2025-06-01T12:00:00Z"],
      ["released_from", "2025-06-01T00:00:00+00:00"],
    ]) {
      const a = await v.admit("query_economic_observations", { [arg]: value });
      expect(a, `${arg} ${value}`).toMatchObject({ kind: "invalid", error: { message: expect.stringMatching(new RegExp(`^Invalid params for query_economic_observations: ${arg}: not `)) } });
      expect(JSON.stringify(a)).not.toContain(value);
    }
    expect(src.fetches.length).toBe(2);
  });

  test("a ledger that does not verify teaches nothing; the site down is `unavailable`; no site: values come from answers", async () => {
    const tampered = new Script();
    const files = syntheticLedger();
    files["readings/china-econ-observations.jsonl"] = Buffer.concat([files["readings/china-econ-observations.jsonl"], Buffer.from("\n")]);
    tampered.files = files;
    expect((await new PublishedVocabulary(tampered).admit("query_economic_observations", { series_id: "synthetic.index.alpha" })).kind).toBe("invalid");

    const siteDown = new Script();
    siteDown.files = {};
    const a = await new PublishedVocabulary(siteDown).admit("query_economic_observations", { series_id: "synthetic.index.alpha" });
    expect(a).toMatchObject({ kind: "unavailable", result: { structuredContent: { reason: expect.stringMatching(/published economic ledger could not be read/) } } });

    const noSite = new Script();
    const v = new PublishedVocabulary(noSite);
    expect((await v.admit("query_economic_observations", { series_id: "synthetic.index.alpha" })).kind).toBe("invalid");
    v.observe("query_economic_observations", {}, answer({ observations: [{ series_id: "synthetic.index.alpha", released_at: "2025-01-02T00:00:00Z" }], next_cursor: "c1" }));
    expect((await v.admit("query_economic_observations", { series_id: "synthetic.index.alpha", cursor: "c1" })).kind).toBe("admitted");
  });

  test("a cursor only once the server returned it; an offset only as far as its answers reached", async () => {
    const v = new PublishedVocabulary(new Script());
    expect(await v.admit("query_economic_observations", { cursor: "eyJvIjoyfQ" })).toMatchObject({
      kind: "invalid",
      error: { message: expect.stringContaining("cursor: not a next_cursor the hosted server returned in this process") },
    });
    v.observe("query_economic_observations", { limit: 2 }, answer({ observations: [], next_cursor: "eyJvIjoyfQ" }));
    expect((await v.admit("query_economic_observations", { cursor: "eyJvIjoyfQ" })).kind).toBe("admitted");

    expect((await v.admit("research_catalog", { offset: 0, limit: 10 })).kind).toBe("admitted");
    expect(await v.admit("research_catalog", { offset: 10 })).toMatchObject({
      kind: "invalid",
      error: { message: "Invalid params for research_catalog: offset: beyond what the hosted server's answers have reached (0..0); page on from offset 0" },
    });
    v.observe("research_catalog", { offset: 0, limit: 10 }, answer({ datasets: Array.from({ length: 10 }, (_, k) => ({ id: k })) }));
    expect((await v.admit("research_catalog", { offset: 10 })).kind).toBe("admitted");
    expect((await v.admit("research_catalog", { offset: 11 })).kind).toBe("invalid");
  });
});
