/**
 * The session answers initialize, ping and tools/list without the SDK (issue 33 item 2, docs/startup.md), and its
 * answers are the SDK's: the pinned private tool entries are what the zod schemas render to, the initialize answer
 * is the SDK server's for the same request, and anything outside the plain subset is left to the SDK server, which
 * is then loaded and answers as before.
 */
import { readFileSync } from "node:fs";
import { createServer, type AddressInfo, type Socket } from "node:net";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, test } from "vitest";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { InitializeRequestSchema, LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { StoreGuard } from "../../../capsules/guard/store-guard.js";
import { BridgeSession } from "../../../bridge/mcp/bridge-session.js";
import { fastProtocolVersion, LATEST_PROTOCOL_VERSION as PINNED_LATEST, SUPPORTED_PROTOCOL_VERSIONS as PINNED_SUPPORTED } from "../../../bridge/mcp/initialize-answer.js";
import { privateToolListModule } from "../../../bridge/mcp/render-tool-list.js";
import { createBridgeServer } from "../../../bridge/mcp/server.js";
import { LineTransport } from "../../../bridge/mcp/stdio-transport.js";
import { upstreamHandles } from "../../../bridge/mcp/upstream-handles.js";
import { WireTable } from "../../../bridge/mcp/wire-table.js";
import { repoRoot } from "../../helpers/shared.js";
import { configFor, removeTempHomes } from "./session.js";

afterAll(removeTempHomes);

const VERSION = "0.0.0-test";

/** A session on PassThrough streams, with its stdout lines by id. */
function openSession(flags: Parameters<typeof configFor>[0] = {}, discoveryWaitMs?: number) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  stdout.setEncoding("utf8");
  const lines: string[] = [];
  let buffer = "";
  const waiting = new Map<string, (line: string) => void>();
  stdout.on("data", (c: string) => {
    buffer += c;
    let nl: number;
    while ((nl = buffer.indexOf("\n")) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      lines.push(line);
      const key = JSON.stringify(JSON.parse(line).id ?? null);
      waiting.get(key)?.(line);
      waiting.delete(key);
    }
  });
  const transport = new LineTransport(stdin, stdout, new WireTable(), { endGraceMs: 100 });
  const session = new BridgeSession(configFor(flags), transport, { version: VERSION, discoveryWaitMs, retryDelayMs: 10 });
  const started = session.start();
  const request = async (id: string | number, method: string, params?: unknown): Promise<string> => {
    await started;
    const p = new Promise<string>((r) => waiting.set(JSON.stringify(id), r));
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) })}\n`);
    return p;
  };
  const notify = (method: string) => stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method })}\n`);
  const notifyWith = (method: string, params: unknown) => stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method, params })}\n`);
  const end = async () => {
    stdin.end();
    await transport.finished;
    await session.close();
  };
  return { session, request, notify, notifyWith, end, lines };
}

/** The SDK server's own answer to one request (the server of ./server.ts on a bare transport). */
async function sdkAnswer(message: Record<string, unknown>): Promise<string> {
  const config = configFor({});
  const sent: JSONRPCMessage[] = [];
  const transport = {
    start: async () => undefined,
    send: async (m: JSONRPCMessage) => void sent.push(m),
    close: async () => undefined,
    onmessage: undefined as ((m: JSONRPCMessage) => void) | undefined,
  };
  const egress = new StoreGuard();
  const server = createBridgeServer(config, {
    egress,
    version: VERSION,
    diagnostics: () => undefined,
    wire: new WireTable(),
    upstream: upstreamHandles(config, { version: VERSION, diagnostics: () => undefined, guard: () => egress.guard }),
    toolList: async () => ({ tools: [] }),
  });
  await server.mcp.connect(transport);
  transport.onmessage!(message as JSONRPCMessage);
  for (let i = 0; i < 50 && sent.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
  await server.mcp.close();
  return JSON.stringify(sent[0]);
}

const PLAIN_INITIALIZE = [
  { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "a", version: "1" } },
  { protocolVersion: "2024-11-05", capabilities: { roots: { listChanged: true }, sampling: {} }, clientInfo: { name: "b", version: "2", title: "B" } },
  { protocolVersion: "1999-01-01", capabilities: { elicitation: {}, experimental: { x: {} } }, clientInfo: { name: "c", version: "3" }, _meta: { progressToken: 1 } },
  { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: { future: 1 }, clientInfo: { name: "d", version: "4", extra: true } },
];

/** Params the session leaves to the SDK (some valid, some not). */
const OTHER_INITIALIZE = [
  undefined,
  {},
  { protocolVersion: 5, capabilities: {}, clientInfo: { name: "a", version: "1" } },
  { protocolVersion: "2025-06-18", capabilities: [], clientInfo: { name: "a", version: "1" } },
  { protocolVersion: "2025-06-18", capabilities: { roots: { listChanged: "yes" } }, clientInfo: { name: "a", version: "1" } },
  { protocolVersion: "2025-06-18", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "a", version: "1" } },
  { protocolVersion: "2025-06-18", capabilities: { tasks: {} }, clientInfo: { name: "a", version: "1" } },
  { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "a" } },
  { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "a", version: "1", icons: [] } },
  { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "a", version: "1" }, task: { ttl: 1 } },
];

describe("pinned start-up data", () => {
  test("the pinned private tool entries are what the zod schemas render to (npx tsx bridge/mcp/write-tool-list.ts)", () => {
    expect(readFileSync(join(repoRoot, "bridge/mcp/private-tool-list.ts"), "utf8")).toBe(privateToolListModule());
  });

  test("the protocol versions are the SDK's", () => {
    expect(PINNED_LATEST).toBe(LATEST_PROTOCOL_VERSION);
    expect([...PINNED_SUPPORTED]).toEqual([...SUPPORTED_PROTOCOL_VERSIONS]);
  });

  test("params answered without the SDK are params the SDK accepts", () => {
    for (const params of PLAIN_INITIALIZE) {
      expect(fastProtocolVersion(params), JSON.stringify(params)).toBe(params.protocolVersion);
      expect(InitializeRequestSchema.safeParse({ method: "initialize", params }).success, JSON.stringify(params)).toBe(true);
    }
    for (const params of OTHER_INITIALIZE) expect(fastProtocolVersion(params), JSON.stringify(params)).toBeUndefined();
  });
});

describe("the session at start-up", () => {
  test("initialize, ping and tools/list are answered without loading the SDK server; the initialize answer is the SDK's", async () => {
    const s = openSession();
    for (const [i, params] of PLAIN_INITIALIZE.entries()) {
      const line = await s.request(i, "initialize", params);
      expect(line).toBe(await sdkAnswer({ jsonrpc: "2.0", id: i, method: "initialize", params }));
    }
    s.notify("notifications/initialized");
    expect(JSON.parse(await s.request("p", "ping"))).toEqual({ jsonrpc: "2.0", id: "p", result: {} });
    const list = JSON.parse(await s.request("l", "tools/list", {}));
    expect(list.result.tools).toHaveLength(14);
    expect(JSON.parse(await s.request("c", "tools/list", { cursor: "x" })).result).toEqual(list.result);
    expect(s.session.serverLoaded).toBe(false);
    await s.end();
  });

  test("any other request loads the SDK server, which answers it", async () => {
    const s = openSession();
    await s.request(1, "initialize", PLAIN_INITIALIZE[0]);
    const resources = JSON.parse(await s.request(2, "resources/list", {}));
    expect(s.session.serverLoaded).toBe(true);
    expect(resources.result.resources.length).toBeGreaterThan(5);
    expect(JSON.parse(await s.request(3, "no/such/method")).error.code).toBe(-32601);
    await s.end();
  });

  test("initialize and tools/list outside the plain subset are answered by the SDK, as before", async () => {
    for (const params of OTHER_INITIALIZE) {
      const s = openSession();
      const line = await s.request(7, "initialize", params);
      expect(s.session.serverLoaded, JSON.stringify(params)).toBe(true);
      const sdk = await sdkAnswer({ jsonrpc: "2.0", id: 7, method: "initialize", ...(params === undefined ? {} : { params }) });
      // The transport rewrites the SDK's zod issue lists into one precise line; compare the decisions.
      const ours = JSON.parse(line);
      const theirs = JSON.parse(sdk);
      expect("result" in ours, JSON.stringify(params)).toBe("result" in theirs);
      if ("result" in ours) expect(ours.result).toEqual(theirs.result);
      await s.end();
    }
    const s = openSession();
    const bad = JSON.parse(await s.request(8, "tools/list", { cursor: 5 }));
    expect(bad.error.code).toBe(-32602);
    expect(s.session.serverLoaded).toBe(true);
    await s.end();
  });

  test("a tools/list cancelled while it waits for the discovery gets no answer; the session keeps serving", async () => {
    // An upstream on 127.0.0.1 that accepts and never answers: the discovery hangs, tools/list waits for it.
    const sockets: Socket[] = [];
    const silent = createServer((c) => void sockets.push(c));
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/mcp`;
    const s = openSession({ mcpUrl: url, timeoutMs: 1000 }, 60_000);
    await s.request(1, "initialize", PLAIN_INITIALIZE[0]);
    const listed = s.request(2, "tools/list");
    await new Promise((r) => setTimeout(r, 50));
    s.notifyWith("notifications/cancelled", { requestId: 2, reason: "test" });
    expect(JSON.parse(await s.request(3, "ping")).result).toEqual({});
    const raced = await Promise.race([listed, new Promise((r) => setTimeout(() => r("none"), 1500))]);
    expect(raced).toBe("none");
    expect(s.lines.map((l) => JSON.parse(l).id)).toEqual([1, 3]);
    expect(s.session.serverLoaded).toBe(false);
    await s.end();
    for (const c of sockets) c.destroy();
    await new Promise((r) => silent.close(r));
  });
});
