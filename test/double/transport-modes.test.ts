/**
 * The double's transport modes a streamable-HTTP server may have and the reference does not (hosted-tool-server.md
 * §1, §7): SSE framing, sessions, and the SSE and session faults, observed on the wire.
 */
import { request } from "node:http";
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { describeShared } from "../helpers/shared.js";
import { type HostedDouble, startHostedDouble } from "./hosted-server.js";
import { post } from "./probe.js";
import { RecordedData } from "./recorded.js";

const PING = (id: number | string = 1) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"ping"}`;
const CALL = '{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"list_signals","arguments":{}}}';
const INIT = '{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}';
const INITIALIZED = '{"jsonrpc":"2.0","method":"notifications/initialized"}';

interface Streamed {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  events: EventSourceMessage[];
  /** True when the server ended the stream; false when the reader stopped first. */
  ended: boolean;
}

/** POSTs and reads SSE events until `stop` says so (then closes the connection) or the stream ends. */
function streamed(url: string, body: string, stop: (events: EventSourceMessage[]) => boolean = () => false, headers: Record<string, string> = {}): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const req = request(
      { host: u.hostname, port: u.port, path: u.pathname, method: "POST", agent: false, headers: { "Content-Type": "application/json", "Content-Length": String(Buffer.byteLength(body)), ...headers } },
      (res) => {
        const events: EventSourceMessage[] = [];
        const parser = createParser({ onEvent: (e) => events.push(e) });
        const out = (ended: boolean) => resolve({ status: res.statusCode ?? 0, headers: res.headers, events, ended });
        res.setEncoding("utf8");
        res.on("data", (c: string) => {
          parser.feed(c);
          if (stop(events)) {
            out(false);
            req.destroy();
          }
        });
        res.on("end", () => out(true));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describeShared("hosted double: SSE framing", () => {
  let d: HostedDouble;
  let data: RecordedData;
  beforeAll(async () => {
    data = new RecordedData();
    d = await startHostedDouble({ transport: { framing: "sse" } });
  });
  afterAll(async () => {
    await d.close();
  });

  test("every 200 answer is one `message` event whose data is the JSON body byte for byte; the stream then ends", async () => {
    const r = await streamed(d.url, CALL);
    expect([r.status, r.headers["content-type"], r.headers["content-length"], r.ended]).toEqual([200, "text/event-stream", undefined, true]);
    expect(r.events.map((e) => e.event)).toEqual(["message"]);
    expect(r.events[0].data).toBe(data.body("11-list_signals.json").toString("utf8"));
  });

  test("notifications stay 202 with no body; HTTP errors stay JSON", async () => {
    expect((await post(d.url, INITIALIZED)).status).toBe(202);
    const bad = await post(d.url, PING(), { "MCP-Protocol-Version": "2024-11-05" });
    expect([bad.status, bad.headers["content-type"]]).toEqual([400, "application/json"]);
  });
});

describeShared("hosted double: session mode", () => {
  let d: HostedDouble;
  beforeAll(async () => {
    d = await startHostedDouble({ transport: { sessions: true } });
  });
  afterAll(async () => {
    await d.close();
  });

  test("initialize issues a session; without it 400, with an unknown one 404, before notifications/initialized 400", async () => {
    const init = await post(d.url, INIT);
    const sid = init.headers["mcp-session-id"] as string;
    expect(sid).toMatch(/^sess-[0-9a-f]{24}$/);
    expect(d.issuedSessions).toEqual([sid]);
    expect((await post(d.url, CALL)).status).toBe(400);
    const unknown = await post(d.url, CALL, { "Mcp-Session-Id": "sess-nope" });
    expect([unknown.status, JSON.parse(unknown.body.toString()).error.message]).toEqual([404, "Session not found"]);
    const early = await post(d.url, CALL, { "Mcp-Session-Id": sid });
    expect([early.status, JSON.parse(early.body.toString()).error.message]).toEqual([400, "Bad Request: the session has not sent notifications/initialized"]);
    expect((await post(d.url, PING(), { "Mcp-Session-Id": sid })).status).toBe(200);
    expect((await post(d.url, INITIALIZED, { "Mcp-Session-Id": sid })).status).toBe(202);
    expect((await post(d.url, CALL, { "Mcp-Session-Id": sid })).status).toBe(200);
  });

  test("expireSessions: the next request in the old session is 404; a new initialize starts a new one", async () => {
    const sid = (await post(d.url, INIT)).headers["mcp-session-id"] as string;
    await post(d.url, INITIALIZED, { "Mcp-Session-Id": sid });
    d.expireSessions();
    expect((await post(d.url, PING(), { "Mcp-Session-Id": sid })).status).toBe(404);
    const again = (await post(d.url, INIT)).headers["mcp-session-id"];
    expect(again).not.toBe(sid);
  });

  test("the session-expired fault forgets every session when its request arrives", async () => {
    const sid = (await post(d.url, INIT)).headers["mcp-session-id"] as string;
    await post(d.url, INITIALIZED, { "Mcp-Session-Id": sid });
    await d.setFault({ mode: "session-expired", methods: ["tools/call"], times: 1 });
    expect((await post(d.url, PING(), { "Mcp-Session-Id": sid })).status).toBe(200);
    expect((await post(d.url, CALL, { "Mcp-Session-Id": sid })).status).toBe(404);
    await d.setFault("none");
  });

  test("sessions combine with SSE framing: the initialize event's response carries the header", async () => {
    d.setTransport({ framing: "sse" });
    try {
      const r = await streamed(d.url, INIT);
      expect(r.headers["mcp-session-id"]).toMatch(/^sess-/);
      expect(JSON.parse(r.events[0].data).result.serverInfo.name).toBe("palimpsest");
    } finally {
      d.setTransport({ framing: "json" });
    }
  });
});

describeShared("hosted double: SSE faults", () => {
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

  test("sse-several: events to skip, then the answer split over two data lines; the stream stays open", async () => {
    await d.setFault("sse-several");
    const answer = (events: EventSourceMessage[]) => events.some((e) => e.id === "3");
    const r = await streamed(d.url, CALL, answer);
    expect(r.ended).toBe(false);
    // The comment and the priming event (an id, no data) are never dispatched as events (SSE rules).
    expect(r.events.map((e) => [e.event, e.id, JSON.parse(e.data).method ?? JSON.parse(e.data).id])).toEqual([
      ["message", "2", "notifications/message"],
      ["audit", undefined, 11],
      [undefined, undefined, "not-11"],
      [undefined, "3", 11],
    ]);
    const last = r.events.at(-1)!.data;
    expect(last.split("\n").length).toBe(2);
    expect(last.replace("\n", " ")).toBe(data.body("11-list_signals.json").toString("utf8"));
  });

  test("sse-no-response ends the stream after a notification, without the answer", async () => {
    await d.setFault("sse-no-response");
    const r = await streamed(d.url, CALL);
    expect(r.ended).toBe(true);
    expect(r.events.map((e) => JSON.parse(e.data).method)).toEqual(["notifications/message"]);
  });

  test("sse-endless keeps sending notifications and never the answer", async () => {
    await d.setFault("sse-endless");
    const r = await streamed(d.url, CALL, (events) => events.length >= 5);
    expect(r.ended).toBe(false);
    expect(new Set(r.events.map((e) => JSON.parse(e.data).method))).toEqual(new Set(["notifications/message"]));
  });

  test("sse-9mib: one event whose data is a valid 9 MiB result, for tools/call only", async () => {
    await d.setFault("sse-9mib");
    const r = await streamed(d.url, CALL);
    expect(r.events.length).toBe(1);
    expect(r.events[0].data.length).toBe(9 * 1024 * 1024);
    expect(JSON.parse(r.events[0].data).id).toBe(11);
    expect((await post(d.url, PING())).headers["content-type"]).toBe("application/json");
  });
});
