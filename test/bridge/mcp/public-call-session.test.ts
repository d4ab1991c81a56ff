/**
 * The session runs a plain `tools/call` of a public tool itself, without the MCP SDK (bridge/mcp/bridge-session.ts,
 * public-call.ts; docs/startup.md "Proxied calls"). Its answers must be the SDK server's: every case below is sent
 * to a session that runs it and to one that leaves every call to the SDK (`publicCallsThroughSdk`), and the two
 * stdout lines must be the same bytes (the measured `elapsed_ms` aside). Also: the SDK server is not loaded for
 * such calls, and a call waits behind an earlier message the SDK server handles, so the message text that message
 * carried is in the outward guard before the call is checked.
 */
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { BridgeSession } from "../../../bridge/mcp/bridge-session.js";
import { LineTransport } from "../../../bridge/mcp/stdio-transport.js";
import { WireTable } from "../../../bridge/mcp/wire-table.js";
import { PUBLIC_TOOL_NAMES } from "../../../bridge/upstream/pinned-tools.js";
import { startHostedDouble, type HostedDouble } from "../../double/hosted-server.js";
import { describeShared } from "../../helpers/shared.js";
import { configFor, exampleAssessment, removeTempHomes, startSession, tempHome, type Session } from "./session.js";
import { computeAssessmentId } from "../../../capsules/assessment/assessment-id.js";
import { pythonJsonText } from "../../../capsules/assessment/json-text.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";

afterAll(removeTempHomes);

// The SDK server becomes ready 150 ms after it is asked for, so that a public call read behind a message for it would
// visibly overtake that message if the session did not keep the order read (the last test).
vi.mock("../../../bridge/mcp/server.js", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../../bridge/mcp/server.js")>();
  return {
    ...original,
    createBridgeServer: (...args: Parameters<typeof original.createBridgeServer>) => {
      const server = original.createBridgeServer(...args);
      const connect = server.mcp.connect.bind(server.mcp);
      server.mcp.connect = async (transport) => {
        await new Promise((r) => setTimeout(r, 150));
        return connect(transport);
      };
      return server;
    },
  };
});

/** The line with the one figure that differs between two runs of the same call (a duration) set to 0. */
const steady = (line: string) => line.replace(/"elapsed_ms": ?\d+/g, '"elapsed_ms": 0');

/** One request line per case: [what, the params text]. Raw text, so members the SDK treats specially stay as written. */
const CASES: [string, string][] = [
  ["a result", '{"name": "list_signals", "arguments": {}}'],
  ["no arguments member", '{"name": "list_signals"}'],
  ["a published value", '{"name": "get_signal", "arguments": {"name": "eval-assurance"}}'],
  ["a value the service has not published", '{"name": "get_signal", "arguments": {"name": "no-such-signal-here"}}'],
  ["a required argument missing", '{"name": "get_signal", "arguments": {}}'],
  ["an argument of the wrong type", '{"name": "get_signal", "arguments": {"name": 5}}'],
  ["an argument outside the pinned schema", '{"name": "list_signals", "arguments": {"x": 1}}'],
  ["an argument given twice", '{"name": "get_signal", "arguments": {"name": "eval-assurance", "name": "ooni-gfw"}}'],
  ["a __proto__ argument (left to the SDK)", '{"name": "list_signals", "arguments": {"__proto__": {"a": 1}}}'],
  ["arguments that are an array (left to the SDK)", '{"name": "list_signals", "arguments": []}'],
  ["arguments that are null (left to the SDK)", '{"name": "list_signals", "arguments": null}'],
  ["a progress token in _meta", '{"name": "list_signals", "arguments": {}, "_meta": {"progressToken": 7, "x": 1}}'],
  ["another member in params", '{"name": "list_signals", "arguments": {}, "other": true}'],
  ["a tool that is not a public one", '{"name": "no_such_tool", "arguments": {}}'],
];

/** Sends the same raw tools/call line to both sessions and returns their answers. */
async function both(fast: Session, sdk: Session, id: number, paramsText: string): Promise<[string, string]> {
  const line = `{"jsonrpc": "2.0", "id": ${id}, "method": "tools/call", "params": ${paramsText}}`;
  const a = fast.reply(id);
  fast.writeLine(line);
  const b = sdk.reply(id);
  sdk.writeLine(line);
  return [(await a).line, (await b).line];
}

describeShared("a public call run by the session is answered as the SDK server answers it", () => {
  let d: HostedDouble;
  let fast: Session;
  let sdk: Session;
  let home: string;

  beforeAll(async () => {
    d = await startHostedDouble();
    home = tempHome();
    fast = await startSession(configFor({ home, mcpUrl: d.url, baseUrl: d.baseUrl }));
    sdk = await startSession(configFor({ home, mcpUrl: d.url, baseUrl: d.baseUrl }), { publicCallsThroughSdk: true });
    return async () => {
      await fast.end();
      await sdk.end();
      await d.close();
    };
  });

  test.each(CASES.map(([what, params], i) => [what, params, 100 + i] as const))("%s", async (_what, params, id) => {
    const [a, b] = await both(fast, sdk, id, params);
    expect(steady(a)).toBe(steady(b));
  });

  test("an upstream failure (the calm unavailable result, written by the bridge) is the same", async () => {
    await d.setFault("http-500");
    try {
      const [a, b] = await both(fast, sdk, 200, '{"name": "list_signals", "arguments": {}}');
      expect(JSON.parse(a).result.structuredContent.status).toBe("unavailable");
      expect(a).toBe(b);
    } finally {
      await d.setFault("none");
    }
  });
});

describe("a public call run by the session, offline", () => {
  test("every public tool answers the same 'offline' result as through the SDK, member for member in the SDK's order", async () => {
    const fast = await startSession(configFor({ offline: true }));
    const sdk = await startSession(configFor({ offline: true }), { publicCallsThroughSdk: true });
    try {
      let id = 300;
      for (const name of PUBLIC_TOOL_NAMES) {
        const args = name === "research_catalog" ? { offset: 0 } : name === "get_signal" ? { name: "ooni-gfw" } : {};
        const [a, b] = await both(fast, sdk, id++, JSON.stringify({ name, arguments: args }));
        expect(Object.keys(JSON.parse(a).result)).toEqual(["content", "structuredContent", "isError"]);
        expect(a).toBe(b);
      }
    } finally {
      await fast.end();
      await sdk.end();
    }
  });
});

/** Example 01 with one handle replaced (ids recomputed), recorded without its message. */
function assessmentWithHandle(handle: string): string {
  const doc = parseStrictJson(exampleAssessment("01-mule-account-rental-hinglish")) as JsonObject;
  ((doc.get("detector") as JsonObject).get("iocs") as JsonObject).set("handles", [handle]);
  doc.set("assessment_id", computeAssessmentId(doc));
  return pythonJsonText(doc);
}

describeShared("a data directory without a store, then with one", () => {
  test("calls before any store pass; once another process seals a capsule, its values guard the next call", async () => {
    const d = await startHostedDouble();
    const home = tempHome();
    const s = await startSession(configFor({ home, mcpUrl: d.url, baseUrl: d.baseUrl }));
    try {
      const before = await s.call("get_signal", { name: "eval-journal" });
      expect(before.msg.result.isError).toBe(false);
      const other = await startSession(configFor({ home, mcpUrl: d.url, baseUrl: d.baseUrl }));
      const rec = await other.call("record_assessment", { assessment: assessmentWithHandle("@eval-journal") });
      expect(rec.msg.result.structuredContent.stored).toBe(true);
      await other.end();
      const after = await s.call("get_signal", { name: "eval-journal" });
      expect(after.msg.result.structuredContent.status).toBe("refused");
      expect(after.msg.result.content[0].text).toContain("ioc_value");
    } finally {
      await s.end();
      await d.close();
    }
  });
});

/** A session on PassThrough streams whose BridgeSession the test can look at. */
function openSession(flags: Parameters<typeof configFor>[0]) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  stdout.setEncoding("utf8");
  let buffer = "";
  const waiting = new Map<string, (line: string) => void>();
  stdout.on("data", (c: string) => {
    buffer += c;
    let nl: number;
    while ((nl = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      const key = JSON.stringify(JSON.parse(line).id ?? null);
      waiting.get(key)?.(line);
      waiting.delete(key);
    }
  });
  const transport = new LineTransport(stdin, stdout, new WireTable(), { endGraceMs: 100 });
  const session = new BridgeSession(configFor(flags), transport, { version: "0.0.0-test", retryDelayMs: 10 });
  const started = session.start();
  const reply = (id: number) => new Promise<string>((r) => waiting.set(JSON.stringify(id), r));
  const write = async (message: object) => {
    await started;
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
  };
  const end = async () => {
    stdin.end();
    await transport.finished;
    await session.close();
  };
  return { session, reply, write, end };
}

describeShared("the session's public calls and the SDK server", () => {
  let d: HostedDouble;
  beforeAll(async () => {
    d = await startHostedDouble();
    return () => d.close();
  });

  test("public calls do not load the SDK server; a private tool then does, and both keep answering", async () => {
    const s = openSession({ mcpUrl: d.url, baseUrl: d.baseUrl });
    try {
      const first = s.reply(1);
      await s.write({ id: 1, method: "tools/call", params: { name: "list_signals", arguments: {} } });
      expect(JSON.parse(await first).result.content[0].type).toBe("text");
      const second = s.reply(2);
      await s.write({ id: 2, method: "tools/call", params: { name: "get_signal", arguments: { name: "eval-assurance" } } });
      expect(JSON.parse(await second).result.isError).toBe(false);
      expect(s.session.serverLoaded).toBe(false);
      const priv = s.reply(3);
      await s.write({ id: 3, method: "tools/call", params: { name: "list_capsules", arguments: {} } });
      expect(JSON.parse(await priv).result).toBeDefined();
      expect(s.session.serverLoaded).toBe(true);
      const third = s.reply(4);
      await s.write({ id: 4, method: "tools/call", params: { name: "list_signals", arguments: {} } });
      expect(JSON.parse(await third).result.content[0].type).toBe("text");
    } finally {
      await s.end();
    }
  });

  test("a public call read right after a message text waits for it: the text is in the outward guard first", async () => {
    // The two lines arrive together, while the SDK server (which takes the text in) is still loading. A published
    // signal name given as the message text makes the guard refuse the public call naming it, which it can only do
    // when the call was checked after the text was taken in.
    const s = openSession({ home: tempHome(), mcpUrl: d.url, baseUrl: d.baseUrl });
    try {
      const text = s.reply(1);
      const call = s.reply(2);
      await s.write({ id: 1, method: "tools/call", params: { name: "match_typologies", arguments: { text: "eval-assurance" } } });
      await s.write({ id: 2, method: "tools/call", params: { name: "get_signal", arguments: { name: "eval-assurance" } } });
      await text;
      const r = JSON.parse(await call);
      expect(r.result.structuredContent.status).toBe("refused");
      expect(r.result.content[0].text).not.toContain("eval-assurance");
    } finally {
      await s.end();
    }
  });
});
