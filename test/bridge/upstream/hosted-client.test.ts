/**
 * The upstream client against the hosted double: transport headers, discovery, allow-list and read-only rule,
 * byte-faithful pass-through, the error split, and the documented result for every fault mode (requests counted
 * at the double).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { HostedClient, type HostedClientOptions, type ToolCallOutcome } from "../../../bridge/upstream/hosted-client.js";
import { CALM_SENTENCE } from "../../../bridge/upstream/unavailable.js";
import { upstreamText } from "../../../bridge/upstream/upstream-json.js";
import { OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import { type HostedDouble, startHostedDouble } from "../../double/hosted-server.js";
import { RecordedData } from "../../double/recorded.js";
import { describeShared } from "../../helpers/shared.js";

function expectUnavailable(o: ToolCallOutcome, retryable: boolean): Extract<ToolCallOutcome, { kind: "unavailable" }> {
  expect(o.kind).toBe("unavailable");
  const u = o as Extract<ToolCallOutcome, { kind: "unavailable" }>;
  expect(u.retryable).toBe(retryable);
  expect(u.result.isError).toBe(true);
  expect(u.result.structuredContent).toEqual({ status: "unavailable", reason: u.reason, retryable });
  expect(u.result.content[0].text).toContain(CALM_SENTENCE);
  return u;
}

/** The exact text of `result` in a recorded body (everything between `"result": ` and the final `}`). */
function recordedResultText(data: RecordedData, file: string): string {
  const body = data.body(file).toString("utf8");
  return body.slice(body.indexOf('"result": ') + '"result": '.length, -1);
}

describeShared("hosted client against the double", () => {
  let d: HostedDouble;
  let data: RecordedData;
  let diagnostics: string[];
  let clients: HostedClient[];
  let stdoutWrites: unknown[][];
  const realWrite = process.stdout.write;

  const client = (extra: Partial<HostedClientOptions> = {}) => {
    const c = new HostedClient({
      mcpUrl: d.url,
      baseUrl: d.baseUrl,
      timeoutMs: 20_000,
      retryDelayMs: 10,
      diagnostics: (l) => diagnostics.push(l),
      ...extra,
    });
    clients.push(c);
    return c;
  };
  const toolCalls = () => d.mcpPosts().filter((r) => r.body.includes('"method":"tools/call"'));

  beforeAll(async () => {
    data = new RecordedData();
    d = await startHostedDouble();
  });
  afterAll(async () => {
    await d.close();
  });
  beforeEach(() => {
    diagnostics = [];
    clients = [];
    d.requests.length = 0;
    stdoutWrites = [];
    // stdout belongs to JSON-RPC: the client must never write there.
    process.stdout.write = ((...args: unknown[]) => {
      stdoutWrites.push(args);
      return true;
    }) as typeof process.stdout.write;
  });
  afterEach(async () => {
    for (const c of clients) c.close();
    process.stdout.write = realWrite;
    await d.setFault("none");
    expect(stdoutWrites).toEqual([]);
  });

  describe("transport", () => {
    test("POSTs JSON with Content-Length, both Accept types, no Origin and no session; never GET or DELETE", async () => {
      const c = client();
      expect((await c.discover()).ok).toBe(true);
      await c.callTool("list_signals", {});
      // initialize, notifications/initialized, tools/list, tools/call
      expect(d.requests.map((r) => JSON.parse(r.body).method)).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/call"]);
      for (const r of d.requests) {
        expect(r.server).toBe("mcp");
        expect(r.method).toBe("POST");
        expect(r.headers.origin).toBeUndefined();
        expect(r.headers["mcp-session-id"]).toBeUndefined();
        expect(r.headers["transfer-encoding"]).toBeUndefined();
        expect(r.headers["content-length"]).toBe(String(Buffer.byteLength(r.body)));
        expect(r.headers["content-type"]).toBe("application/json");
        expect(r.headers.accept).toBe("application/json, text/event-stream");
        expect(() => JSON.parse(r.body)).not.toThrow();
        expect(Array.isArray(JSON.parse(r.body))).toBe(false);
      }
    });
    test("initialize goes without MCP-Protocol-Version; later requests carry the negotiated version", async () => {
      const c = client();
      const out = await c.discover();
      expect(out.ok && out.discovery.protocolVersion).toBe("2025-06-18");
      await c.callTool("list_signals", {});
      const [init, initialized, list, call] = d.requests;
      expect(initialized.body).toBe('{"jsonrpc":"2.0","method":"notifications/initialized"}');
      expect(initialized.headers["mcp-protocol-version"]).toBe("2025-06-18");
      expect(JSON.parse(init.body).method).toBe("initialize");
      expect(init.headers["mcp-protocol-version"]).toBeUndefined();
      expect(JSON.parse(init.body).params.protocolVersion).toBe("2025-06-18");
      expect(list.headers["mcp-protocol-version"]).toBe("2025-06-18");
      expect(call.headers["mcp-protocol-version"]).toBe("2025-06-18");
    });
    test("the initialize result, written again from its parsed value, is the reference's text exactly", async () => {
      const out = await client().discover();
      expect(out.ok).toBe(true);
      if (out.ok) expect(out.discovery.initializeResultText).toBe(recordedResultText(data, "00-initialize.json"));
    });
  });

  describe("streamed answers and sessions (a streamable-HTTP server unlike the reference)", () => {
    afterEach(() => {
      d.setTransport({ framing: "json", sessions: false });
    });

    test("SSE framing: discovery works and every result is the same bytes as the JSON answer", async () => {
      const json = await client().callTool("get_signal", { name: "board-alarm" });
      d.setTransport({ framing: "sse" });
      const c = client();
      expect((await c.discover()).ok).toBe(true);
      const sse = await c.callTool("get_signal", { name: "board-alarm" });
      expect(sse.kind).toBe("result");
      expect(json.kind === "result" && sse.kind === "result" && upstreamText(sse.value) === upstreamText(json.value)).toBe(true);
      if (sse.kind === "result") expect(upstreamText(sse.value)).toBe(recordedResultText(data, "14-get_signal-board-alarm.json"));
      // JSON-RPC errors arrive streamed too and stay errors.
      const err = await c.callTool("get_signal", { name: "no-such-signal" });
      expect(err.kind).toBe("rpc-error");
    });

    test("notifications/tools/list_changed: the next call re-discovers, so a tool no longer read-only is not called", async () => {
      d.setTransport({ framing: "sse" });
      const c = client();
      expect((await c.callTool("get_signal", { name: "board-alarm" })).kind).toBe("result");
      await d.setFault("read-only-removed");
      // Without a notice the discovery (under 60 s old, no fault since) still holds and the call goes out.
      expect((await c.callTool("get_signal", { name: "board-alarm" })).kind).toBe("result");
      d.announceToolListChanged();
      expect((await c.callTool("list_signals", {})).kind).toBe("result");
      d.requests.length = 0;
      const o = await c.callTool("get_signal", { name: "board-alarm" });
      expect(o.kind).toBe("refused");
      if (o.kind === "refused") expect(o.reason).toBe("refused: the hosted server does not mark get_signal read-only, so the bridge does not call it");
      expect(d.mcpPosts().map((r) => JSON.parse(r.body).method)).toEqual(["initialize", "notifications/initialized", "tools/list"]);
      expect(c.listTools().map((t) => t.name)).not.toContain("get_signal");
    });

    test("the answer is picked among other events, split data lines are joined, and the open stream is not awaited", async () => {
      const c = client({ timeoutMs: 5_000 });
      await c.discover();
      await d.setFault({ mode: "sse-several", methods: ["tools/call"] });
      const started = Date.now();
      const out = await c.callTool("list_signals", {});
      expect(Date.now() - started).toBeLessThan(4_000);
      expect(out.kind === "result" && upstreamText(out.value)).toBe(recordedResultText(data, "11-list_signals.json"));
    });

    test("size cap, deadline, cancellation and the retry apply to streams", async () => {
      const c = client({ timeoutMs: 400 });
      await c.discover();
      await d.setFault({ mode: "sse-endless", methods: ["tools/call"] });
      expect(expectUnavailable(await c.callTool("list_signals", {}), true).reason).toMatch(/did not answer in time/);
      const ac = new AbortController();
      const pending = client({ timeoutMs: 60_000 }).callTool("list_signals", {}, { signal: ac.signal });
      setTimeout(() => ac.abort(), 150);
      expect((await pending).kind).toBe("cancelled");
      await d.setFault({ mode: "sse-9mib", methods: ["tools/call"] });
      const big = expectUnavailable(await client().callTool("list_signals", {}), false);
      expect(big.reason).toMatch(/event stream exceeds the 8388608-byte cap/);
      await d.setFault({ mode: "sse-no-response", methods: ["tools/call"] });
      const before = toolCalls().length;
      expect(expectUnavailable(await client().callTool("list_signals", {}), true).reason).toMatch(/ended without the response.*after 2 attempts/);
      expect(toolCalls().length - before).toBe(2);
    });

    test("sessions: the id from initialize is sent on every later POST, after notifications/initialized", async () => {
      d.setTransport({ sessions: true });
      const c = client();
      expect((await c.discover()).ok).toBe(true);
      expect((await c.callTool("list_signals", {})).kind).toBe("result");
      const [sid] = d.issuedSessions.slice(-1);
      const [init, ...rest] = d.requests;
      expect(init.headers["mcp-session-id"]).toBeUndefined();
      expect(rest.map((r) => [JSON.parse(r.body).method, r.headers["mcp-session-id"]])).toEqual([
        ["notifications/initialized", sid],
        ["tools/list", sid],
        ["tools/call", sid],
      ]);
      expect(d.requests.every((r) => r.method === "POST")).toBe(true);
    });

    test("a 404 for the session re-initialises once, shared by concurrent calls, then each call is resent", async () => {
      d.setTransport({ sessions: true });
      const c = client();
      await c.discover();
      const first = d.issuedSessions.length;
      d.expireSessions();
      const outs = await Promise.all([c.callTool("list_signals", {}), c.callTool("get_signal", { name: "board-alarm" })]);
      expect(outs.map((o) => o.kind)).toEqual(["result", "result"]);
      expect(d.issuedSessions.length).toBe(first + 1);
      // Once only: a second 404 in the new session is not retried again.
      await d.setFault({ mode: "session-expired", methods: ["tools/call"], times: 2 });
      const again = expectUnavailable(await c.callTool("list_signals", {}), false);
      expect(again.httpStatus).toBe(404);
      expect(again.reason).toMatch(/HTTP 404, content type application\/json, \d+ bytes/);
      expect(again.reason).not.toContain("Session not found");
    });

    test("a server that refuses notifications/initialized fails discovery clearly", async () => {
      d.setTransport({ sessions: true });
      await d.setFault({ mode: "http-500", methods: ["notifications/initialized"] });
      const out = await client().discover();
      expect(out.ok).toBe(false);
      if (!out.ok) expect(out.reason).toMatch(/^notifications\/initialized: the hosted server did not accept it \(HTTP 500\)/);
    });
  });

  describe("discovery and exposure", () => {
    test("before discovery the seven pinned tools are listed (upstream unknown or unreachable)", () => {
      const tools = client().listTools();
      expect(tools.map((t) => t.name)).toEqual([
        "research_catalog",
        "list_signals",
        "get_signal",
        "get_newsroom",
        "query_economic_observations",
        "whats_happening",
        "gfw_reading",
      ]);
      expect(tools.every((t) => !t.discovered)).toBe(true);
    });
    test("against the 1.9.3 tool set all seven are discovered read-only; live titles are used", async () => {
      const cur = await startHostedDouble({ toolset: "current" });
      try {
        const c = client({ mcpUrl: cur.url });
        const out = await c.discover();
        expect(out.ok).toBe(true);
        if (!out.ok) return;
        expect([...out.discovery.exposed].sort()).toHaveLength(7);
        expect(out.discovery.drift.drifted).toBe(false);
        expect(c.listTools().every((t) => t.discovered)).toBe(true);
        const rc = await c.callTool("research_catalog", { offset: 0 });
        expect(rc.kind).toBe("result");
      } finally {
        await cur.close();
      }
    });
    test("against 1.9.0, research_catalog is listed from its pin, reported missing, and not called", async () => {
      const c = client();
      await c.discover();
      expect(diagnostics).toEqual(["schema drift: research_catalog: not offered by the hosted server"]);
      const rc = c.listTools().find((t) => t.name === "research_catalog")!;
      expect(rc.discovered).toBe(false);
      const before = d.requests.length;
      for (let k = 0; k < 3; k++) {
        const out = await c.callTool("research_catalog", { offset: 0 });
        expect(out.kind).toBe("not-offered");
        if (out.kind !== "not-offered") continue;
        expect(out.result.structuredContent).toEqual({ status: "not-offered", tool: "research_catalog", server: { name: "palimpsest", version: "1.9.0" } });
        expect(out.result.content[0].text).toMatch(/^research_catalog is not offered by this hosted tool server \(palimpsest, 1\.9\.0\)/);
        expect(out.result.content[0].text).not.toContain(CALM_SENTENCE);
      }
      expect(d.requests.length).toBe(before);
      // The drift is reported once (by discovery), not at every call.
      expect(diagnostics).toEqual(["schema drift: research_catalog: not offered by the hosted server"]);
    });
    test("an extra write tool is never exposed or called", async () => {
      await d.setFault("extra-write-tool");
      const c = client();
      const out = await c.discover();
      expect(out.ok && out.discovery.ignored).toEqual([{ name: "publish_note", reason: "not on the allow-list" }]);
      expect(c.listTools().map((t) => t.name)).not.toContain("publish_note");
      const o = await c.callTool("publish_note", { text: "x" });
      expect(o.kind).toBe("refused");
      expect(toolCalls()).toHaveLength(0);
    });
    test("an allow-listed tool without readOnlyHint: true is not exposed and not called", async () => {
      await d.setFault("read-only-removed");
      const c = client();
      await c.discover();
      expect(c.listTools().map((t) => t.name)).not.toContain("get_signal");
      expect(diagnostics).toContain("schema drift: get_signal: offered without annotations.readOnlyHint true; not exposed");
      const o = await c.callTool("get_signal", { name: "board-alarm" });
      expect(o.kind).toBe("refused");
      expect(toolCalls()).toHaveLength(0);
    });
    test("a changed input schema is reported as drift and the pinned schema stays exposed", async () => {
      await d.setFault("schema-changed");
      const c = client();
      const out = await c.discover();
      expect(out.ok && out.discovery.drift.drifted).toBe(true);
      expect(diagnostics).toContain("schema drift: get_signal.inputSchema.properties.max_rows.maximum: pinned 500, upstream 5000");
      expect(diagnostics).toContain('schema drift: get_signal.inputSchema.properties.raw: pinned absent, upstream {"type":"boolean"}');
      const exposed = c.listTools().find((t) => t.name === "get_signal")!;
      expect((exposed.inputSchema.properties as Record<string, { maximum?: number }>).max_rows.maximum).toBe(500);
      expect((exposed.inputSchema.properties as Record<string, unknown>).raw).toBeUndefined();
      await c.discover();
      expect(diagnostics.filter((l) => l.includes("max_rows.maximum"))).toHaveLength(1); // reported once per change
    });
    test("a call before discovery discovers on demand; a failed discovery makes the call unavailable", async () => {
      const c = client();
      expect((await c.callTool("list_signals", {})).kind).toBe("result");
      expect(d.requests.map((r) => JSON.parse(r.body).method)).toEqual(["initialize", "notifications/initialized", "tools/list", "tools/call"]);
      const c2 = client();
      await d.setFault("refuse");
      const u = expectUnavailable(await c2.callTool("list_signals", {}), true);
      expect(u.reason).toContain("tool discovery failed");
    });
    test("names outside the allow-list are refused locally", async () => {
      const o = await client().callTool("no_such_tool", {});
      expect(o.kind).toBe("refused");
      expect(d.requests).toHaveLength(0);
    });
  });

  describe("pass-through", () => {
    test("tools/call results written again from the parsed value are the reference's bytes (integral floats, key order, escapes)", async () => {
      const c = client();
      const o = await c.callTool("get_signal", { name: "board-alarm" });
      expect(o.kind).toBe("result");
      if (o.kind !== "result") return;
      const expected = recordedResultText(data, "14-get_signal-board-alarm.json");
      expect(upstreamText(o.value)).toBe(expected);
      expect(upstreamText(o.value)).toMatch(/: 1\.0[,}\]]/);
      expect((o.result as { isError: boolean }).isError).toBe(false);
    });
    test("the caller's argument text is forwarded verbatim (5.0 stays 5.0) and JSON-RPC errors stay errors", async () => {
      const c = client();
      const o = await c.callTool("query_economic_observations", { limit: 5 }, { argumentsText: '{"limit":5.0}' });
      expect(o).toMatchObject({ kind: "rpc-error", error: { code: -32602, message: "limit must be an integer" } });
      expect(toolCalls()[0].body).toContain('"arguments":{"limit":5.0}');
      expect(toolCalls()).toHaveLength(1);
    });
    test("an isError result and an `unavailable` payload are results, passed through and never retried", async () => {
      const c = client();
      await c.discover();
      await d.setFault("origin-down");
      const econ = await c.callTool("query_economic_observations", {});
      expect(econ.kind).toBe("result");
      if (econ.kind === "result") expect(upstreamText(econ.value)).toBe(recordedResultText(data, "x8-origin-down-query_econ.json"));
      const sig = await c.callTool("get_signal", { name: "eval-assurance" });
      if (sig.kind === "result") expect(upstreamText(sig.value)).toBe(recordedResultText(data, "x4-origin-down-get_signal.json"));
      expect(toolCalls()).toHaveLength(2);
    });
    test("_meta is passed through unchanged", async () => {
      const c = client();
      await c.callTool("list_signals", {}, { meta: { progressToken: "p-7" } });
      expect(JSON.parse(toolCalls()[0].body).params._meta).toEqual({ progressToken: "p-7" });
    });
    test("a 4 MiB body passes", async () => {
      const c = client();
      await c.discover();
      await d.setFault("body-4mib");
      const o = await c.callTool("list_signals", {});
      expect(o.kind).toBe("result");
      if (o.kind === "result") expect(upstreamText(o.value).length).toBeGreaterThan(4_000_000);
    });
    test("a slow trickle within the timeout succeeds with the exact bytes", async () => {
      const c = client();
      await c.discover();
      await d.setFault({ mode: "trickle", trickleBytes: 512, trickleIntervalMs: 5 });
      const o = await c.callTool("list_signals", {});
      expect(o.kind).toBe("result");
      if (o.kind === "result") expect(upstreamText(o.value)).toBe(recordedResultText(data, "11-list_signals.json"));
    });
  });

  describe("fault modes", () => {
    const discovered = async (extra: Partial<HostedClientOptions> = {}) => {
      const c = client(extra);
      expect((await c.discover()).ok).toBe(true);
      d.requests.length = 0;
      return c;
    };

    test("500: exactly one retry, then unavailable and retryable", async () => {
      const c = await discovered();
      await d.setFault("http-500");
      const u = expectUnavailable(await c.callTool("list_signals", {}), true);
      expect(u.httpStatus).toBe(500);
      expect(u.attempts).toBe(2);
      expect(toolCalls()).toHaveLength(2);
    });
    test("500 once: the retry succeeds", async () => {
      const c = await discovered();
      await d.setFault({ mode: "http-500", times: 1 });
      expect((await c.callTool("list_signals", {})).kind).toBe("result");
      expect(toolCalls()).toHaveLength(2);
    });
    test("502 HTML from a proxy: one retry, unavailable, retryable", async () => {
      const c = await discovered();
      await d.setFault("http-502");
      expectUnavailable(await c.callTool("list_signals", {}), true);
      expect(toolCalls()).toHaveLength(2);
    });
    test("connection refused: one retry, unavailable, retryable", async () => {
      const c = await discovered();
      await d.setFault("refuse");
      const u = expectUnavailable(await c.callTool("list_signals", {}), true);
      expect(u.attempts).toBe(2);
      expect(u.reason).toContain("connection refused");
    });
    test("connection closed without a response: exactly one retry (counted at the double)", async () => {
      const c = await discovered();
      await d.setFault("drop");
      expectUnavailable(await c.callTool("list_signals", {}), true);
      expect(toolCalls()).toHaveLength(2);
      await d.setFault({ mode: "drop", times: 1 });
      d.requests.length = 0;
      expect((await c.callTool("list_signals", {})).kind).toBe("result");
      // After an upstream fault the next call re-discovers first (issue 11 item 5): the dropped request is that
      // discovery's initialize, retried exactly once; the call itself then goes through once.
      expect(d.mcpPosts().filter((r) => r.body.includes('"method":"initialize"'))).toHaveLength(2);
      expect(toolCalls()).toHaveLength(1);
    });
    test("403: no retry, unavailable, not retryable, the body reported by its facts, never its words", async () => {
      const c = await discovered();
      await d.setFault("http-403");
      const u = expectUnavailable(await c.callTool("list_signals", {}), false);
      expect(u.reason).toMatch(/^the hosted server rejected the request \(HTTP 403, content type application\/json, \d+ bytes, sha256 [0-9a-f]{64}\)$/);
      expect(u.reason).not.toContain("origin not allowed");
      expect(toolCalls()).toHaveLength(1);
    });
    test("413: no retry, unavailable, not retryable", async () => {
      const c = await discovered();
      await d.setFault("http-413");
      const u = expectUnavailable(await c.callTool("list_signals", {}), false);
      expect(u.httpStatus).toBe(413);
      expect(toolCalls()).toHaveLength(1);
    });
    test("malformed JSON body: no retry, unavailable, retryable", async () => {
      const c = await discovered();
      await d.setFault("malformed-json");
      const u = expectUnavailable(await c.callTool("list_signals", {}), true);
      expect(u.reason).toContain("malformed");
      expect(toolCalls()).toHaveLength(1);
    });
    test("9 MiB with Content-Length fails closed without a retry", async () => {
      const c = await discovered();
      await d.setFault("body-9mib");
      const u = expectUnavailable(await c.callTool("list_signals", {}), false);
      expect(u.reason).toContain("8388608");
      expect(toolCalls()).toHaveLength(1);
    });
    test("9 MiB chunked (size known only by counting) fails closed too", async () => {
      const c = await discovered();
      await d.setFault("body-9mib-chunked");
      const u = expectUnavailable(await c.callTool("list_signals", {}), false);
      expect(u.reason).toContain("exceeds the 8388608-byte cap");
    });
    test("hang: the per-call timeout answers unavailable and retryable, without a retry", async () => {
      const c = await discovered({ timeoutMs: 1000 });
      await d.setFault("hang");
      const u = expectUnavailable(await c.callTool("list_signals", {}), true);
      expect(u.reason).toContain("did not answer in time");
      expect(toolCalls()).toHaveLength(1);
    });
    test("a per-call timeout overrides the client's", async () => {
      const c = await discovered();
      await d.setFault("hang");
      expectUnavailable(await c.callTool("list_signals", {}, { timeoutMs: 300 }), true);
    });
    test("a trickle slower than the timeout times out", async () => {
      const c = await discovered();
      await d.setFault({ mode: "trickle", trickleBytes: 64, trickleIntervalMs: 50 });
      expectUnavailable(await c.callTool("list_signals", {}, { timeoutMs: 500 }), true);
    });
    test("abort: the in-flight request is destroyed and the outcome says cancelled", async () => {
      const c = await discovered();
      await d.setFault("hang");
      const ac = new AbortController();
      const pending = c.callTool("list_signals", {}, { signal: ac.signal });
      await vi.waitFor(() => expect(toolCalls()).toHaveLength(1));
      ac.abort();
      expect(await pending).toEqual({ kind: "cancelled", attempts: 1 });
      expect(toolCalls()).toHaveLength(1);
    });
    test("an already-aborted signal sends nothing", async () => {
      const c = await discovered();
      const ac = new AbortController();
      ac.abort();
      expect((await c.callTool("list_signals", {}, { signal: ac.signal })).kind).toBe("cancelled");
      expect(toolCalls()).toHaveLength(0);
    });
    test("the client keeps working after faults clear", async () => {
      const c = await discovered();
      await d.setFault("refuse");
      expectUnavailable(await c.callTool("list_signals", {}), true);
      await d.setFault("none");
      expect((await c.callTool("list_signals", {})).kind).toBe("result");
    });
  });

  describe("limits, concurrency, rediscovery", () => {
    test("a request above the 262,144-byte upstream limit is refused locally", async () => {
      const c = client();
      await c.discover();
      d.requests.length = 0;
      const o = await c.callTool("get_signal", { name: "x".repeat(262_144) });
      expect(o.kind).toBe("refused");
      expect(d.requests).toHaveLength(0);
    });
    test("parallel calls each get their own answer", async () => {
      const c = client();
      const names = ["board-alarm", "eval-assurance", "eval-journal", "eval-findings", "gfi-transcripts", "china-situation"];
      const outs = await Promise.all(Array.from({ length: 24 }, (_, k) => c.callTool("get_signal", { name: names[k % names.length], max_rows: 2 })));
      outs.forEach((o, k) => {
        expect(o.kind).toBe("result");
        if (o.kind === "result") expect((o.result as any).structuredContent.signal).toBe(names[k % names.length]);
      });
      expect(d.requests.filter((r) => JSON.parse(r.body).method === "initialize")).toHaveLength(1);
    });
    test("one caller cancelling a shared discovery does not cancel the others", async () => {
      const c = client();
      await d.setFault({ mode: "trickle", trickleBytes: 2000, trickleIntervalMs: 20 });
      const ac = new AbortController();
      const first = c.callTool("list_signals", {}, { signal: ac.signal });
      const second = c.callTool("list_signals", {});
      ac.abort();
      expect((await first).kind).toBe("cancelled");
      expect((await second).kind).toBe("result");
    });
    test("a stale discovery is refreshed before the next call", async () => {
      const c = client({ discoveryMaxAgeMs: 0 });
      await c.callTool("list_signals", {});
      await c.callTool("list_signals", {});
      expect(d.requests.filter((r) => JSON.parse(r.body).method === "initialize")).toHaveLength(2);
    });
    test("a discovery failure is reported once on the diagnostics channel", async () => {
      await d.setFault("http-403");
      const c = client();
      await c.discover();
      await c.discover();
      expect(diagnostics).toHaveLength(1);
      expect(diagnostics[0]).toMatch(/^tool discovery failed: initialize: the hosted server rejected the request \(HTTP 403, content type application\/json, \d+ bytes, sha256 [0-9a-f]{64}\)$/);
    });
  });

  describe("outward guard", () => {
    test("a call carrying a private value is refused before anything is sent, and the value leaks nowhere", async () => {
      const secret = "0xDeadBeefCafe0000000000000000000000000001";
      const guard = new OutwardGuard([{ kind: "ioc_value", value: secret, ioc: "wallets" }]);
      const c = client({ guard: () => guard });
      await c.discover();
      const o = await c.callTool("get_signal", { name: `wallet ${secret.toUpperCase()}` });
      expect(o.kind).toBe("refused");
      if (o.kind === "refused") {
        expect(o.reason.toLowerCase()).not.toContain(secret.toLowerCase());
        expect(JSON.stringify(o.result).toLowerCase()).not.toContain(secret.toLowerCase());
      }
      const viaText = await c.callTool("get_signal", {}, { argumentsText: `{"name":"\\u0030xdeadbeefcafe0000000000000000000000000001"}` });
      expect(viaText.kind).toBe("refused");
      const viaMeta = await c.callTool("list_signals", {}, { meta: { note: secret } });
      expect(viaMeta.kind).toBe("refused");
      expect(toolCalls()).toHaveLength(0);
      for (const r of d.requests) expect(JSON.stringify(r).toLowerCase()).not.toContain(secret.toLowerCase());
      expect(diagnostics.join("\n").toLowerCase()).not.toContain(secret.toLowerCase());
    });
    test("calls without private values go through", async () => {
      const guard = new OutwardGuard([{ kind: "ioc_value", value: "some-private-handle", ioc: "handles" }]);
      const c = client({ guard: () => guard });
      expect((await c.callTool("get_signal", { name: "eval-assurance" })).kind).toBe("result");
    });
  });

  describe("published files", () => {
    test("returns the exact bytes with source URL, fetch time and generated_at", async () => {
      const c = client();
      const before = Date.now();
      const f = await c.fetchPublished("readings/eval-assurance-latest.json");
      expect(f.ok).toBe(true);
      if (!f.ok) return;
      expect(f.bytes.equals(data.published("readings/eval-assurance-latest.json")!)).toBe(true);
      expect(f.url).toBe(`${d.baseUrl}/readings/eval-assurance-latest.json`);
      expect(Date.parse(f.fetchedAt)).toBeGreaterThanOrEqual(before - 1000);
      expect(f.generatedAt).toBe(JSON.parse(f.bytes.toString()).generated_at);
      expect(f.fromCache).toBe(false);
      const site = d.requests.filter((r) => r.server === "site");
      expect(site).toHaveLength(1);
      expect(site[0].method).toBe("GET");
      expect(site[0].headers.origin).toBeUndefined();
    });
    test("a short TTL cache answers repeats; TTL 0 refetches; failures are not cached", async () => {
      const c = client({ readingsTtlMs: 60_000 });
      const first = await c.fetchPublished("readings/board-alarm-latest.json");
      const second = await c.fetchPublished("readings/board-alarm-latest.json");
      expect(second.ok && second.fromCache).toBe(true);
      if (first.ok && second.ok) expect(second.fetchedAt).toBe(first.fetchedAt);
      expect(d.requests.filter((r) => r.server === "site")).toHaveLength(1);
      const nocache = client({ readingsTtlMs: 0 });
      await nocache.fetchPublished("readings/board-alarm-latest.json");
      await nocache.fetchPublished("readings/board-alarm-latest.json");
      expect(d.requests.filter((r) => r.server === "site")).toHaveLength(3);
      await d.setFault({ mode: "file-missing", file: "readings/eval-journal-latest.json" });
      const missing = await c.fetchPublished("readings/eval-journal-latest.json");
      expect(missing).toMatchObject({ ok: false, retryable: false, reason: "the published file answered HTTP 404" });
      await d.setFault("none");
      expect((await c.fetchPublished("readings/eval-journal-latest.json")).ok).toBe(true);
    });
    test("a file above the size cap fails closed", async () => {
      const c = client({ readingsMaxBytes: 5000 });
      const f = await c.fetchPublished("readings/board-alarm-latest.json");
      expect(f).toMatchObject({ ok: false, retryable: false });
      if (!f.ok) expect(f.reason).toContain("5000-byte cap");
    });
    test("an unreachable origin is retried once and reported retryable", async () => {
      const c = client();
      await d.setFault("origin-down");
      const f = await c.fetchPublished("readings/board-alarm-latest.json");
      expect(f).toMatchObject({ ok: false, retryable: true });
      expect(d.requests.filter((r) => r.server === "site")).toHaveLength(2);
    });
    test("only readings and integrations paths are fetched; no base URL means not configured", async () => {
      const c = client();
      for (const p of ["../x.json", "readings/../secret", "/readings/a.json", "other/a.json", "readings/a.json?x=1", "readings/"]) {
        expect((await c.fetchPublished(p)).ok, p).toBe(false);
      }
      expect(d.requests).toHaveLength(0);
      const none = client({ baseUrl: undefined });
      expect(await none.fetchPublished("readings/board-alarm-latest.json")).toMatchObject({ ok: false, reason: "no published-files base URL is configured" });
    });
  });
});
