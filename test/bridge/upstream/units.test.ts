/** Unit tests of the upstream client's pure modules: unavailable results, egress guard, pinned tools, drift, JSON-RPC bodies. */
import { describe, expect, test } from "vitest";
import { OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import { buildRequest, parseResponse, readEvent, topLevelSpans } from "../../../bridge/upstream/json-rpc.js";
import { upstreamText } from "../../../bridge/upstream/upstream-json.js";
import { isPublicToolName, PINNED_TOOLS, PUBLIC_TOOL_NAMES } from "../../../bridge/upstream/pinned-tools.js";
import { compareSchemas, detectDrift, formatDrift, isReadOnly } from "../../../bridge/upstream/schema-drift.js";
import { CALM_SENTENCE, isUnavailableResult, offlineResult, unavailableResult } from "../../../bridge/upstream/unavailable.js";
import { describeShared, readShared } from "../../helpers/shared.js";

describe("unavailable result", () => {
  test("has the documented shape and always carries the calm sentence", () => {
    for (const retryable of [true, false]) {
      const r = unavailableResult("the hosted server could not be reached (connection refused)", retryable);
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toEqual({ status: "unavailable", reason: "the hosted server could not be reached (connection refused)", retryable });
      expect(r.content).toHaveLength(1);
      expect(r.content[0].type).toBe("text");
      expect(r.content[0].text).toContain("A missing or stale measurement is not evidence of calm.");
      expect(r.content[0].text).toContain("connection refused");
      expect(isUnavailableResult(r)).toBe(true);
    }
    expect(CALM_SENTENCE).toBe("A missing or stale measurement is not evidence of calm.");
    expect(isUnavailableResult({ isError: false, structuredContent: { status: "unavailable", reason: "x", retryable: true } })).toBe(false);
  });
  test("offline is unavailable and not retryable, and names the setting", () => {
    const r = offlineResult();
    expect(r.structuredContent.retryable).toBe(false);
    expect(r.structuredContent.reason).toMatch(/^offline: EVIDENCE_BRIDGE_OFFLINE/);
    expect(r.structuredContent.reason).not.toContain("--mcp-url");
    expect(r.content[0].text).toContain(CALM_SENTENCE);
  });
});

/** The outward guard over IOC values, as the upstream client asks it. */
function checkEgress(args: unknown, secrets: { values: string[] }): { ok: true } | { ok: false; reason: string } {
  const v = new OutwardGuard(secrets.values.map((value) => ({ kind: "ioc_value" as const, value }))).check(args, "arguments");
  return v.ok ? v : { ok: false, reason: v.reason };
}

describe("outward guard on upstream arguments", () => {
  const secrets = { values: ["TRX9aBcDeFgHiJkLmNoP", "+91 98765 43210", "5f2b0c"] };
  test("passes arguments without private values", () => {
    expect(checkEgress({ name: "ooni-gfw", max_rows: 5 }, secrets)).toEqual({ ok: true });
    expect(checkEgress({}, { values: [] })).toEqual({ ok: true });
  });
  test("refuses a private value anywhere, case-insensitively: nested strings, keys, arrays, Maps, numbers", () => {
    const hits: unknown[] = [
      { status: "wallet trx9abcdefghijklmnop seen" },
      { deep: [{ x: ["+91 98765 43210"] }] },
      { ["TRX9ABCDEFGHIJKLMNOP"]: 1 },
      new Map([["q", "about 5F2B0C"]]),
      [{ n: 5 }, "5f2b0c"],
    ];
    for (const h of hits) expect(checkEgress(h, secrets).ok, JSON.stringify(h instanceof Map ? [...h] : h)).toBe(false);
    expect(checkEgress({ phone: 919876543210 }, { values: ["9876543210"] }).ok).toBe(false);
  });
  test("zero-width characters cannot split a private value", () => {
    expect(checkEgress({ q: "TRX9aBcDe\u200BFgHiJkLmNoP" }, secrets).ok).toBe(false);
  });
  test("the reason never echoes the private value, the matching text or the key", () => {
    const v = checkEgress({ "key-TRX9aBcDeFgHiJkLmNoP": "context TRX9aBcDeFgHiJkLmNoP context" }, secrets);
    expect(v.ok).toBe(false);
    const reason = (v as { reason: string }).reason;
    expect(reason.toLowerCase()).not.toContain("trx9");
    expect(reason).not.toContain("context");
    expect(reason).not.toContain("key-");
  });
  test("empty private values are ignored instead of matching everything", () => {
    expect(checkEgress({ q: "anything" }, { values: ["", "  ", "\u200B"] })).toEqual({ ok: true });
  });
});

describe("events of a streamed answer", () => {
  const m = "notifications/tools/list_changed";
  const read = (data: string, id = 1) => readEvent(data, id, 1 << 20);
  test("a tools/list_changed notice is recognised only as a notification of that method", () => {
    expect(read('{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}')).toEqual({ kind: "notification", method: m });
    expect(read('{"jsonrpc":"2.0","method":"notifications/tools/list_changed","params":{}}')).toEqual({ kind: "notification", method: m });
    // A request with an id, another method, a result that merely mentions the name, or no JSON is not the notice.
    expect(read('{"jsonrpc":"2.0","id":3,"method":"notifications/tools/list_changed"}')).toEqual({ kind: "other" });
    expect(read('{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"notifications/tools/list_changed"}}')).toEqual({
      kind: "notification",
      method: "notifications/message",
    });
    expect(read('{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"notifications/tools/list_changed"}]}}').kind).toBe("answer");
    expect(read("notifications/tools/list_changed")).toEqual({ kind: "other" });
    expect(read('["notifications/tools/list_changed"]')).toEqual({ kind: "other" });
  });
  test("the response to this id (or an error with id null) is the answer; other ids and non-JSON are skipped", () => {
    expect(read('{"jsonrpc": "2.0", "id": 7, "result": {}}', 7)).toMatchObject({ kind: "answer", response: { kind: "result" } });
    expect(read('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "x"}}', 7)).toMatchObject({ kind: "answer", response: { kind: "error" } });
    expect(read('{"jsonrpc": "2.0", "id": 8, "result": {}}', 7)).toEqual({ kind: "other" });
    expect(read('{"jsonrpc": "2.0", "id": "7", "result": {}}', 7)).toEqual({ kind: "other" });
    expect(read("ping", 7)).toEqual({ kind: "other" });
  });
  test("JSON that breaks a strict rule is taken as the answer and refused, quoting nothing", () => {
    for (const [data, reason] of [
      ['{"jsonrpc": "2.0", "id": 9, "id": 7, "result": {}}', "an object in it has a duplicate key"],
      [`{"jsonrpc": "2.0", "id": 7, "result": {"n": ${"[".repeat(70)}${"]".repeat(70)}}}`, "it nests deeper than 64 levels"],
    ]) {
      expect(read(data, 7)).toEqual({ kind: "answer", response: { kind: "invalid", reason } });
    }
  });
});

describe("pinned tools", () => {
  test("the allow-list is exactly the seven public tools", () => {
    expect([...PUBLIC_TOOL_NAMES].sort()).toEqual(
      ["get_newsroom", "get_signal", "gfw_reading", "list_signals", "query_economic_observations", "research_catalog", "whats_happening"].sort(),
    );
    expect(isPublicToolName("get_signal")).toBe(true);
    expect(isPublicToolName("publish_note")).toBe(false);
    expect(isPublicToolName(undefined)).toBe(false);
  });
  test("research_catalog follows the interface specification", () => {
    expect(PINNED_TOOLS.research_catalog.inputSchema).toEqual({
      type: "object",
      properties: { offset: { type: "integer", minimum: 0, maximum: 1000 }, limit: { type: "integer", minimum: 1, maximum: 25 } },
      required: ["offset"],
      additionalProperties: false,
    });
  });
  test("pinned schemas are frozen and name no host", () => {
    expect(Object.isFrozen(PINNED_TOOLS.get_signal.inputSchema)).toBe(true);
    expect(() => {
      (PINNED_TOOLS.get_signal.inputSchema as Record<string, unknown>).additionalProperties = true;
    }).toThrow();
    expect(JSON.stringify(PINNED_TOOLS)).not.toMatch(/https?:|\.info\b|palimpsest/i);
  });
});

describeShared("pinned tools against the recorded tools/list", () => {
  test("the six 1.9.0 schemas equal the recorded ones exactly, with no drift reported", () => {
    const tools = JSON.parse(readShared("data", "hosted-responses", "05-tools-list.json").toString()).result.tools as Array<{
      name: string;
      inputSchema: unknown;
    }>;
    expect(tools).toHaveLength(6);
    for (const t of tools) {
      expect(isPublicToolName(t.name)).toBe(true);
      expect(PINNED_TOOLS[t.name as keyof typeof PINNED_TOOLS].inputSchema, t.name).toEqual(t.inputSchema);
      expect(isReadOnly(t)).toBe(true);
    }
    const report = detectDrift(tools);
    // research_catalog is missing from the 1.9.0 list: that is the only finding.
    expect(report.tools).toEqual([{ tool: "research_catalog", status: "missing", differences: [] }]);
  });
});

describe("schema drift", () => {
  const schema = () => structuredClone(PINNED_TOOLS.get_signal.inputSchema) as Record<string, any>;
  const entry = (name: string, inputSchema: unknown, readOnly = true) => ({
    name,
    inputSchema,
    annotations: readOnly ? { readOnlyHint: true } : { readOnlyHint: false },
  });
  const all = () => PUBLIC_TOOL_NAMES.map((n) => entry(n, structuredClone(PINNED_TOOLS[n].inputSchema)));

  test("identical schemas (member order ignored, required as a set) are not drift", () => {
    const s = schema();
    const reordered = { additionalProperties: s.additionalProperties, required: [...s.required].reverse(), properties: s.properties, type: s.type };
    expect(compareSchemas(PINNED_TOOLS.get_signal.inputSchema, reordered)).toEqual([]);
    expect(detectDrift(all())).toEqual({ drifted: false, tools: [] });
  });
  test("changed constraints, new properties and removed members are reported with paths", () => {
    const s = schema();
    s.properties.max_rows.maximum = 5000;
    s.properties.raw = { type: "boolean" };
    delete s.additionalProperties;
    const diffs = compareSchemas(PINNED_TOOLS.get_signal.inputSchema, s);
    expect(diffs).toEqual([
      { path: "inputSchema.additionalProperties", kind: "constraint", pinned: "false", upstream: undefined },
      { path: "inputSchema.properties.max_rows.maximum", kind: "constraint", pinned: "500", upstream: "5000" },
      { path: "inputSchema.properties.raw", kind: "constraint", pinned: undefined, upstream: '{"type":"boolean"}' },
    ]);
    const tools = all().map((t) => (t.name === "get_signal" ? entry("get_signal", s) : t));
    const report = detectDrift(tools);
    expect(report.drifted).toBe(true);
    expect(formatDrift(report)).toContain("schema drift: get_signal.inputSchema.properties.max_rows.maximum: pinned 500, upstream 5000");
  });
  test("description-only changes are annotations and do not count as drift", () => {
    const s = schema();
    s.properties.name.description = "new words";
    const report = detectDrift(all().map((t) => (t.name === "get_signal" ? entry("get_signal", s) : t)));
    expect(report.drifted).toBe(false);
    expect(report.tools[0].differences[0].kind).toBe("annotation");
  });
  test("missing and not-read-only public tools are drift; unknown tools are not this report's business", () => {
    const tools = all().filter((t) => t.name !== "gfw_reading").map((t) => (t.name === "list_signals" ? { ...t, annotations: {} } : t));
    tools.push(entry("publish_note", {}, false));
    const report = detectDrift(tools);
    expect(report.drifted).toBe(true);
    expect(report.tools.map((t) => [t.tool, t.status])).toEqual([
      ["list_signals", "not-read-only"],
      ["gfw_reading", "missing"],
    ]);
  });
  test("readOnlyHint must be exactly true", () => {
    expect(isReadOnly({ annotations: { readOnlyHint: "true" } })).toBe(false);
    expect(isReadOnly({ annotations: { readOnlyHint: 1 } })).toBe(false);
    expect(isReadOnly({})).toBe(false);
    expect(isReadOnly({ annotations: { readOnlyHint: true } })).toBe(true);
  });
});

describe("JSON-RPC bodies", () => {
  test("requests are compact single messages", () => {
    expect(buildRequest(3, "tools/call", '{"name":"x","arguments":{"limit":5.0}}')).toBe(
      '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"x","arguments":{"limit":5.0}}}',
    );
    expect(buildRequest(4, "ping")).toBe('{"jsonrpc":"2.0","id":4,"method":"ping"}');
  });
  test("a result written again from its parsed value keeps floats, key order and escapes, in the reference's form", () => {
    const result = '{"b": 1.0, "a": {"2": "x", "1": "\\u00e9 \\ud83d\\ude00 \\n\\"\\\\"}, "e": 1e-05, "n": -12, "s": "}\\"]", "z": [true, false, null]}';
    const body = `{"jsonrpc": "2.0", "id": 7, "result": ${result}}`;
    const p = parseResponse(Buffer.from(body), 1 << 20);
    expect(p.kind).toBe("result");
    if (p.kind === "result") {
      expect(upstreamText(p.result)).toBe(result);
      expect(p.id).toBe(7);
    }
    // Compact text, raw non-ASCII and `\/` come out in the same one form: printable ASCII on one line.
    const compact = parseResponse('{"jsonrpc":"2.0","id":1,"result":{"t":"caf\u00e9\u202e\\/","u":[1,2.50]}}', 1 << 20);
    expect(compact.kind === "result" && upstreamText(compact.result)).toBe('{"t": "caf\\u00e9\\u202e/", "u": [1, 2.50]}');
  });
  test("every strict-loader rule refuses the answer, with a reason that quotes nothing from it", () => {
    const cases: [string, RegExp][] = [
      ['{"jsonrpc": "2.0", "id": 1, "result": {"_meta": {"evidence-bridge/proxy": 1}, "_meta": {}}}', /^an object in it has a duplicate key$/],
      ['{"jsonrpc": "2.0", "id": 1, "result": {"content": [], "content": []}}', /duplicate key/],
      ['{"jsonrpc": "2.0", "id": 1, "result": {"n": 123456789012345678901234567890}}', /interoperable range/],
      ['{"jsonrpc": "2.0", "id": 1, "result": {"n": NaN}}', /NaN or Infinity/],
      ['{"jsonrpc": "2.0", "id": 1, "result": {"s": "\\ud800"}}', /lone Unicode surrogate/],
      ['{"jsonrpc": "2.0", "id": 1, "result": {', /^it is not JSON$/],
    ];
    for (const [body, reason] of cases) {
      const p = parseResponse(Buffer.from(body), 1 << 20);
      expect(p.kind, body).toBe("invalid");
      if (p.kind === "invalid") {
        expect(p.reason).toMatch(reason);
        expect(p.reason).not.toMatch(/evidence-bridge|content|_meta|1234|d800/);
      }
    }
    expect(parseResponse(Buffer.from("{}".padEnd(100, " ")), 50)).toEqual({ kind: "invalid", reason: "it is larger than the response cap" });
  });
  test("depth: a value inside 64 arrays and objects passes, inside 65 it is refused (counted over the whole message)", () => {
    // The message object and `result` enclose `n`; its arrays add the rest around the innermost 0.
    const body = (levels: number) => `{"jsonrpc": "2.0", "id": 1, "result": {"n": ${"[".repeat(levels - 2)}0${"]".repeat(levels - 2)}}}`;
    expect(parseResponse(body(64), 1 << 20).kind).toBe("result");
    expect(parseResponse(body(65), 1 << 20)).toEqual({ kind: "invalid", reason: "it nests deeper than 64 levels" });
    expect(parseResponse(body(100_000), 1 << 20)).toEqual({ kind: "invalid", reason: "it nests deeper than 64 levels" });
  });
  test("errors keep their code and message; malformed bodies are invalid", () => {
    const p = parseResponse(Buffer.from('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "origin not allowed", "data": {"x": 1}}}'), 1 << 20);
    expect(p).toEqual({ kind: "error", error: { code: -32600, message: "origin not allowed" }, id: null });
    for (const bad of [
      '{"jsonrpc": "2.0", "id": 1, "result": {',
      "[]",
      '{"jsonrpc":"1.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","id":1}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":"x","message":1}}',
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32600.0,"message":"m"}}',
    ]) {
      expect(parseResponse(Buffer.from(bad), 1 << 20).kind, bad).toBe("invalid");
    }
    expect(parseResponse(Buffer.from([0x7b, 0xff]), 1 << 20)).toEqual({ kind: "invalid", reason: "it is not UTF-8" });
  });
  test("top-level spans skip nested structures and strings with brackets", () => {
    const text = ' { "a" : [1, {"]": "}"}] , "b":"x\\"y" ,"c": -1.5e3 } ';
    const spans = topLevelSpans(text);
    expect([...spans.keys()]).toEqual(["a", "b", "c"]);
    expect(text.slice(spans.get("a")!.start, spans.get("a")!.end)).toBe('[1, {"]": "}"}]');
    expect(text.slice(spans.get("b")!.start, spans.get("b")!.end)).toBe('"x\\"y"');
    expect(text.slice(spans.get("c")!.start, spans.get("c")!.end)).toBe("-1.5e3");
  });
});
