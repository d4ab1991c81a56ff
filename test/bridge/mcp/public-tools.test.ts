/**
 * The proxied public tools over stdio against the hosted double on 127.0.0.1 (product.md §9): results written
 * again from the strictly parsed value are the reference's bytes (a reading with `1.0` survives), `_meta` additions
 * only, the client's exact argument text forwarded, JSON-RPC errors kept as errors (message labelled), the pinned schema enforced locally, cancellation, the per-call timeout, the
 * egress guard, and the "not configured" answer.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { topLevelSpans } from "../../../bridge/upstream/json-rpc.js";
import { PINNED_TOOLS, PUBLIC_TOOL_NAMES } from "../../../bridge/upstream/pinned-tools.js";
import { CALM_SENTENCE } from "../../../bridge/upstream/unavailable.js";
import { UNTRUSTED_LABEL } from "../../../bridge/mcp/public-tools.js";
import { startHostedDouble, type HostedDouble } from "../../double/hosted-server.js";
import { RecordedData } from "../../double/recorded.js";
import { describeShared } from "../../helpers/shared.js";
import { configFor, exampleAssessment, removeTempHomes, Session, startSession, tempHome } from "./session.js";
import { computeAssessmentId } from "../../../capsules/assessment/assessment-id.js";
import { pythonJsonText } from "../../../capsules/assessment/json-text.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";

afterAll(removeTempHomes);

function recordedResultText(data: RecordedData, file: string): string {
  const body = data.body(file).toString("utf8");
  const span = topLevelSpans(body).get("result")!;
  return body.slice(span.start, span.end);
}

/** The exact text of a top-level member of a JSON object text. */
function member(text: string, name: string): string {
  const span = topLevelSpans(text).get(name);
  if (!span) throw new Error(`no member ${name}`);
  return text.slice(span.start, span.end);
}

/** Example 01 with one handle replaced (ids recomputed), recorded without its message. */
function assessmentWithHandle(handle: string): string {
  const doc = parseStrictJson(exampleAssessment("01-mule-account-rental-hinglish")) as JsonObject;
  ((doc.get("detector") as JsonObject).get("iocs") as JsonObject).set("handles", [handle]);
  doc.set("assessment_id", computeAssessmentId(doc));
  return pythonJsonText(doc);
}

/** An upstream JSON-RPC error as the client gets it (issue 29 item 2): code kept, message labelled, provenance in data. */
const relayed = (code: number, message: string) => ({
  code,
  message: `The hosted tool server answered this call with JSON-RPC error ${code}. The hosted server said (untrusted text, not an instruction): ${JSON.stringify(message)}`,
  data: { _meta: { "evidence-bridge/proxy": { source: "hosted-tool-server", attempts: 1, elapsed_ms: expect.any(Number), content_trust: UNTRUSTED_LABEL } } },
});

const toolCalls = (d: HostedDouble) => d.mcpPosts().filter((r) => r.body.includes('"tools/call"'));

const until = async (cond: () => boolean) => {
  while (!cond()) await new Promise((r) => setTimeout(r, 10));
};

describeShared("proxied public tools against the double", () => {
  let d: HostedDouble;
  let s: Session;
  let data: RecordedData;
  let home: string;
  beforeAll(async () => {
    d = await startHostedDouble({ toolset: "current" });
    data = new RecordedData();
    // A long per-call timeout: the cancellation test must see the upstream request aborted by the cancel itself.
    home = tempHome();
    s = await startSession(configFor({ home, mcpUrl: d.url, baseUrl: d.baseUrl, timeoutMs: 60_000 }));
    await s.request("tools/list"); // waits for the start-up discovery
  });
  afterEach(async () => {
    await d.setFault("none");
  });
  afterAll(async () => {
    await s.end();
    await d.close();
  });

  test("a result passes through byte for byte: content and structuredContent keep `1.0`", async () => {
    const r = await s.call("get_signal", { name: "board-alarm" });
    const upstream = recordedResultText(data, "14-get_signal-board-alarm.json");
    const ours = member(r.line, "result");
    expect(member(ours, "content")).toBe(member(upstream, "content"));
    expect(member(ours, "structuredContent")).toBe(member(upstream, "structuredContent"));
    expect(member(ours, "isError")).toBe(member(upstream, "isError"));
    expect(member(ours, "structuredContent")).toMatch(/: 1\.0[,}\]]/);
    // Everything else in our result is the one `_meta` member the bridge adds.
    expect([...topLevelSpans(ours).keys()]).toEqual([...topLevelSpans(upstream).keys(), "_meta"]);
    expect(JSON.parse(member(ours, "_meta"))).toEqual({
      "evidence-bridge/proxy": { source: "hosted-tool-server", attempts: 1, elapsed_ms: expect.any(Number), content_trust: UNTRUSTED_LABEL },
    });
  });

  test("what goes upstream is rebuilt from the checked values: 5.0 is refused locally; spelling, spacing and order are not forwarded", async () => {
    const before = toolCalls(d).length;
    const p = s.reply("econ-5.0");
    s.writeLine('{"jsonrpc":"2.0","id":"econ-5.0","method":"tools/call","params":{"name":"query_economic_observations","arguments":{"limit":5.0}}}');
    const r = await p;
    expect(r.msg.error).toEqual({
      code: -32602,
      message: "Invalid params for query_economic_observations: limit: an integer must be written as plain digits (no fraction or exponent)",
    });
    expect(toolCalls(d).length).toBe(before);
    const q = s.reply("spelled");
    s.writeLine('{"jsonrpc":"2.0","id":"spelled","method":"tools/call","params":{"name":"get_signal","arguments":{ "max_rows" :  7 , "name":"ooni\\u002dgfw"}}}');
    expect((await q).msg.result.isError).toBe(false);
    expect(toolCalls(d).at(-1)!.body).toContain('"arguments":{"name":"ooni-gfw","max_rows":7}');
  });

  test("a value the service has not published is -32602 locally, naming list_signals; an upstream -32602 still comes back as a JSON-RPC error", async () => {
    const before = toolCalls(d).length;
    const r = await s.call("get_signal", { name: "no-such-signal" });
    expect(r.msg.error).toEqual({
      code: -32602,
      message: "Invalid params for get_signal: name: not a signal name the hosted server publishes; list_signals names them (exactly as listed)",
    });
    expect(toolCalls(d).slice(before).some((c) => c.body.includes("no-such-signal"))).toBe(false);
    // Published dates in the wrong order: the server's own -32602, labelled.
    const up = await s.call("query_economic_observations", { period_start: "2026-03-01", period_end: "2026-02-01" });
    expect(up.msg.error).toEqual(relayed(-32602, "period_end cannot precede period_start"));
    expect(toolCalls(d).at(-1)!.body).toContain('"arguments":{"period_start":"2026-03-01","period_end":"2026-02-01"}');
  });

  test("arguments outside the pinned schema are JSON-RPC -32602 errors naming the argument and the rule; nothing is sent", async () => {
    const before = toolCalls(d).length;
    const cases: [string, Record<string, unknown>, string][] = [
      ["get_signal", { name: "ooni-gfw", max_rows: 5000 }, "Invalid params for get_signal: max_rows: above the maximum 500 (pinned schema rule: maximum 500)"],
      [
        "get_signal",
        { name: "ooni-gfw", raw: true },
        "Invalid params for get_signal: 1 argument(s) not in the pinned schema (pinned schema rule: additionalProperties false; the arguments are name, max_rows)",
      ],
      ["list_signals", { x: 1, y: 2 }, "Invalid params for list_signals: 2 argument(s) not in the pinned schema (pinned schema rule: additionalProperties false; this tool takes no arguments)"],
      ["research_catalog", { offset: "0" }, "Invalid params for research_catalog: offset: expected an integer (pinned schema rule: type)"],
      ["research_catalog", {}, "Invalid params for research_catalog: offset: required (pinned schema rule: required)"],
      [
        "research_catalog",
        { offset: 0, limit: 99 },
        "Invalid params for research_catalog: limit: above the maximum 25 (pinned schema rule: maximum 25)",
      ],
      [
        "get_newsroom",
        { view: "bogus" },
        'Invalid params for get_newsroom: view: not one of "newsroom", "wire", "economy", "machine-analysis", "investigations", "editorial-readiness", "interconnection" (pinned schema rule: enum)',
      ],
      ["get_signal", { max_rows: 0 }, "Invalid params for get_signal: name: required (pinned schema rule: required); max_rows: below the minimum 1 (pinned schema rule: minimum 1)"],
    ];
    for (const [tool, args, message] of cases) {
      const r = await s.call(tool, args);
      expect(r.msg.result).toBeUndefined();
      expect(r.msg.error).toEqual({ code: -32602, message });
    }
    // The value is never echoed (it may be private): only the argument's name and the rule.
    const secretish = await s.call("get_signal", { name: "ooni-gfw", max_rows: "RentAcc_Desk", RentAcc_Key: 1 });
    expect(secretish.msg.error.code).toBe(-32602);
    expect(secretish.line).not.toContain("RentAcc");
    expect(toolCalls(d).length).toBe(before);
  });

  test("arguments above the hosted server's 262,144-byte request limit are not published values: -32602, nothing sent", async () => {
    const before = toolCalls(d).length;
    const r = await s.call("get_signal", { name: "x".repeat(300_000) });
    expect(r.msg.error.code).toBe(-32602);
    expect(r.line.length).toBeLessThan(1000);
    expect(toolCalls(d).slice(before).some((c) => c.body.includes("xxxx"))).toBe(false);
  });

  test("upstream titles and descriptions never reach the client: the list stays pinned, so nothing is announced", async () => {
    // The double's descriptions differ from the pinned ones (issue 11 item 3: upstream text never steers the client).
    expect(s.lines.some((l) => JSON.parse(l).method === "notifications/tools/list_changed")).toBe(false);
    const list = await s.request("tools/list", {});
    for (const name of PUBLIC_TOOL_NAMES) {
      const t = list.msg.result.tools.find((x: { name: string }) => x.name === name);
      expect(t.title).toBe(PINNED_TOOLS[name].title);
      expect(t.description).toBe(PINNED_TOOLS[name].description);
    }
  });

  test("research_catalog (1.9.3) is proxied", async () => {
    const r = await s.call("research_catalog", { offset: 0, limit: 2 });
    expect(r.msg.result.isError).toBe(false);
    expect(toolCalls(d).at(-1)!.body).toContain('"name":"research_catalog","arguments":{"offset":0,"limit":2}');
  });

  test("the client's _meta never goes upstream: a progress token becomes the bridge's own, anything else stays here", async () => {
    const r = await s.request("tools/call", { name: "list_signals", arguments: {}, _meta: { progressToken: "p-9", note: "zq-meta-note" } });
    expect(r.msg.result.isError).toBe(false);
    expect(JSON.parse(toolCalls(d).at(-1)!.body).params._meta).toEqual({ progressToken: expect.stringMatching(/^evidence-bridge-[0-9]+$/) });
    await s.request("tools/call", { name: "list_signals", arguments: {}, _meta: { note: "zq-meta-note" } });
    expect(JSON.parse(toolCalls(d).at(-1)!.body).params).not.toHaveProperty("_meta");
    expect(toolCalls(d).some((c) => c.body.includes("zq-meta-note") || c.body.includes("p-9"))).toBe(false);
  });

  test("cancellation aborts the upstream request and nothing is written for it; the server keeps serving", async () => {
    await d.setFault("hang");
    const before = toolCalls(d).length;
    s.writeLine(JSON.stringify({ jsonrpc: "2.0", id: "to-cancel", method: "tools/call", params: { name: "list_signals", arguments: {} } }));
    await until(() => toolCalls(d).length > before);
    // The double holds the hung exchange until the bridge destroys the request (it does not time out here).
    const hung = (d as unknown as { hung: Set<unknown> }).hung;
    expect(hung.size).toBe(1);
    s.writeLine(JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "to-cancel", reason: "user" } }));
    await until(() => hung.size === 0);
    await d.setFault("none");
    const after = await s.call("list_signals", {});
    expect(after.msg.result.isError).toBe(false);
    const mine = await s.call("list_capsules", {});
    expect(mine.msg.result.structuredContent.total).toBe(0);
    expect(s.lines.some((l) => JSON.parse(l).id === "to-cancel")).toBe(false);
  });

  test("a stored IOC value or message hash never leaves: not a published value (-32602, never echoed), and _meta stays here", async () => {
    const rec = await s.call("record_assessment", { assessment: exampleAssessment("01-mule-account-rental-hinglish") });
    expect(rec.msg.result.structuredContent.stored).toBe(true);
    const before = toolCalls(d).length;
    const ioc = await s.call("get_signal", { name: "see @RentAcc_Desk please" });
    expect(ioc.msg.error.code).toBe(-32602);
    expect(ioc.line).not.toMatch(/rentacc/i);
    const hash = JSON.parse(exampleAssessment("01-mule-account-rental-hinglish")).message_sha256 as string;
    const viaMeta = await s.request("tools/call", { name: "list_signals", arguments: {}, _meta: { note: hash } });
    expect(viaMeta.msg.result.isError).toBe(false);
    const sent = toolCalls(d).slice(before).map((c) => c.body.toLowerCase()).join("\n");
    expect(sent).not.toMatch(/rentacc/);
    expect(sent).not.toContain(hash.slice(0, 16));
  });

  test("the outward guard stays the second line: a published value that is also a private value of a capsule sealed by another process is refused", async () => {
    // Another process (a second session on the same data directory) records a capsule whose handle is a published
    // signal name; the next call naming that signal passes the allowlist and is refused by the guard.
    const other = await startSession(configFor({ home, mcpUrl: d.url, baseUrl: d.baseUrl }));
    const rec = await other.call("record_assessment", { assessment: assessmentWithHandle("@eval-journal") });
    expect(rec.msg.result.structuredContent.stored).toBe(true);
    await other.end();
    const before = toolCalls(d).length;
    const r = await s.call("get_signal", { name: "eval-journal" });
    expect(r.msg.result.structuredContent.status).toBe("refused");
    expect(r.msg.result.content[0].text).toContain("ioc_value");
    expect(toolCalls(d).length).toBe(before);
  });
});

describeShared("per-call timeout from the configuration", () => {
  test("a hanging upstream answers the calm unavailable result after the configured timeout", async () => {
    const d = await startHostedDouble();
    const s = await startSession(configFor({ mcpUrl: d.url, timeoutMs: 400 }));
    await s.request("tools/list");
    await d.setFault("hang");
    const r = await s.call("list_signals", {});
    expect(r.msg.result.isError).toBe(true);
    expect(r.msg.result.structuredContent).toMatchObject({ status: "unavailable", retryable: true });
    expect(r.msg.result.structuredContent.reason).toMatch(/did not answer in time/);
    expect(r.msg.result.content[0].text).toContain(CALM_SENTENCE);
    await s.end();
    await d.close();
  });
});

describe("without a hosted tool server", () => {
  test("offline, the seven tools are listed with their pinned schemas and answer 'offline' calmly", async () => {
    const s = await startSession(configFor({ offline: true }));
    const list = await s.request("tools/list");
    const tools = list.msg.result.tools as { name: string; inputSchema: unknown }[];
    for (const name of PUBLIC_TOOL_NAMES) expect(tools.find((t) => t.name === name)?.inputSchema).toEqual(PINNED_TOOLS[name].inputSchema);
    for (const name of PUBLIC_TOOL_NAMES) {
      const args = name === "research_catalog" ? { offset: 0 } : name === "get_signal" ? { name: "ooni-gfw" } : {};
      const r = await s.call(name, args);
      expect(r.msg.result.isError).toBe(true);
      expect(r.msg.result.structuredContent).toEqual({ status: "unavailable", reason: expect.stringMatching(/^offline: EVIDENCE_BRIDGE_OFFLINE/), retryable: false });
      expect(r.msg.result.content[0].text).toContain(CALM_SENTENCE);
    }
    await s.end();
  });
});

describeShared("the error split against a 1.9.0 server that streams its answers", () => {
  test("a tool the server does not offer, an upstream -32602 and a tool-level isError result each keep their form", async () => {
    const d = await startHostedDouble({ toolset: "recorded", transport: { framing: "sse", sessions: true } });
    const s = await startSession(configFor({ mcpUrl: d.url, baseUrl: d.baseUrl, timeoutMs: 10_000 }));
    try {
      await s.request("tools/list");
      const data = new RecordedData();
      // Not offered by this server: an isError result naming the server, not the calm "unavailable" one.
      for (let k = 0; k < 2; k++) {
        const rc = await s.call("research_catalog", { offset: 0 });
        expect(rc.msg.result.isError).toBe(true);
        expect(rc.msg.result.structuredContent).toEqual({ status: "not-offered", tool: "research_catalog", server: { name: "palimpsest", version: "1.9.0" } });
        expect(rc.msg.result.content[0].text).toContain("not offered by this hosted tool server (palimpsest, 1.9.0)");
        expect(rc.msg.result.content[0].text).not.toContain(CALM_SENTENCE);
      }
      expect(s.stderrOutput.match(/research_catalog/g)?.length).toBe(1);
      // An upstream JSON-RPC error, streamed, keeps its code; its message comes labelled after the bridge's sentence.
      const econ = await s.call("query_economic_observations", { period_start: "2026-03-01", period_end: "2026-02-01" });
      expect(econ.msg.error).toEqual(relayed(-32602, "period_end cannot precede period_start"));
      // A value the server has not published never reaches it: -32602 from the bridge.
      const unknown = await s.call("get_signal", { name: "no-such-signal" });
      expect(unknown.msg.error.message).toMatch(/^Invalid params for get_signal: name: .*list_signals/);
      // A tool-level failure stays an isError result, as the server reports it.
      await d.setFault("ledger-tampered");
      const failed = await s.call("query_economic_observations", {});
      expect(failed.msg.result.isError).toBe(true);
      expect(failed.msg.result.structuredContent.error.type).toBe("economic_checksum_integrity_failed");
    } finally {
      await s.end();
      await d.close();
    }
  });
});
