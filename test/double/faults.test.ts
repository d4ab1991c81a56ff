/** Each fault mode of the double, observed on the wire, and the site listener that serves published files. */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { describeShared } from "../helpers/shared.js";
import { type HostedDouble, startHostedDouble } from "./hosted-server.js";
import { FORGED_PROVENANCE, HIDDEN_CHARACTERS, INJECTION } from "./hostile.js";
import { post, probe } from "./probe.js";
import { RecordedData } from "./recorded.js";

const PING = '{"jsonrpc":"2.0","id":1,"method":"ping"}';
const CALL = '{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"list_signals","arguments":{}}}';

describeShared("hosted double: fault modes", () => {
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

  test("refuse closes the listener (ECONNREFUSED); leaving it listens again on the same URL", async () => {
    await d.setFault("refuse");
    await expect(post(d.url, PING)).rejects.toMatchObject({ code: "ECONNREFUSED" });
    await d.setFault("none");
    expect((await post(d.url, PING)).status).toBe(200);
  });

  test("drop records the request and closes the connection without a response", async () => {
    await d.setFault("drop");
    const n = d.mcpPosts().length;
    await expect(post(d.url, PING)).rejects.toThrow();
    expect(d.mcpPosts().length).toBe(n + 1);
  });

  test("hang never answers until the caller gives up", async () => {
    await d.setFault("hang");
    const ac = new AbortController();
    const pending = fetch(d.url, { method: "POST", body: PING, signal: ac.signal });
    const outcome = await Promise.race([pending.then(() => "answered"), new Promise((r) => setTimeout(() => r("still waiting"), 300))]);
    expect(outcome).toBe("still waiting");
    ac.abort();
    await expect(pending).rejects.toThrow();
  });

  test("500 and 502 are HTML pages; 403 and 413 carry the recorded bodies with id null", async () => {
    for (const [mode, status] of [["http-500", 500], ["http-502", 502]] as const) {
      await d.setFault(mode);
      const r = await post(d.url, PING);
      expect(r.status).toBe(status);
      expect(r.headers["content-type"]).toBe("text/html");
    }
    await d.setFault("http-403");
    let r = await post(d.url, PING);
    expect([r.status, r.body.equals(data.body("52-origin-foreign.json"))]).toEqual([403, true]);
    await d.setFault("http-413");
    r = await post(d.url, PING);
    expect([r.status, r.body.equals(data.body("61-body-too-large.json"))]).toEqual([413, true]);
  });

  test("times limits a fault to the next N matching requests", async () => {
    await d.setFault({ mode: "http-500", times: 2 });
    expect((await post(d.url, PING)).status).toBe(500);
    expect((await post(d.url, PING)).status).toBe(500);
    expect((await post(d.url, PING)).status).toBe(200);
  });

  test("methods restricts a fault to some JSON-RPC methods", async () => {
    await d.setFault({ mode: "http-500", methods: ["tools/call"] });
    expect((await post(d.url, PING)).status).toBe(200);
    expect((await post(d.url, CALL)).status).toBe(500);
  });

  test("malformed-json is a 200 application/json body that does not parse", async () => {
    await d.setFault("malformed-json");
    const r = await post(d.url, PING);
    expect([r.status, r.headers["content-type"]]).toEqual([200, "application/json"]);
    expect(() => JSON.parse(r.body.toString())).toThrow();
  });

  test("body-4mib and body-9mib answer tools/call with valid bodies of exactly that size; other methods are normal", async () => {
    for (const [mode, size] of [["body-4mib", 4 * 1024 * 1024], ["body-9mib", 9 * 1024 * 1024]] as const) {
      await d.setFault(mode);
      const r = await post(d.url, CALL);
      expect(r.body.length).toBe(size);
      expect(r.headers["content-length"]).toBe(String(size));
      const parsed = JSON.parse(r.body.toString());
      expect(parsed.id).toBe("c");
      expect(parsed.result.isError).toBe(false);
      expect((await post(d.url, PING)).body.toString()).toBe('{"jsonrpc": "2.0", "id": 1, "result": {}}');
    }
  });

  test("body-9mib-chunked sends no Content-Length", async () => {
    await d.setFault("body-9mib-chunked");
    const r = await post(d.url, CALL);
    expect(r.headers["content-length"]).toBeUndefined();
    expect(r.headers["transfer-encoding"]).toBe("chunked");
    expect(r.body.length).toBe(9 * 1024 * 1024);
  });

  test("trickle delivers the normal bytes in pieces", async () => {
    await d.setFault({ mode: "trickle", trickleBytes: 1000, trickleIntervalMs: 1 });
    const r = await post(d.url, CALL.replace('"c"', "11"));
    expect(r.body.equals(data.body("11-list_signals.json"))).toBe(true);
  });

  test("tools/list faults: extra write tool, lost readOnlyHint, widened schema", async () => {
    const list = async () => JSON.parse((await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"tools/list"}')).body.toString()).result.tools;
    await d.setFault("extra-write-tool");
    const extra = (await list()).find((t: { name: string }) => t.name === "publish_note");
    expect(extra.annotations.readOnlyHint).toBeUndefined();
    await d.setFault("read-only-removed");
    expect((await list()).find((t: { name: string }) => t.name === "get_signal").annotations).toEqual({
      title: "One signal's full reading",
      idempotentHint: true,
      openWorldHint: false,
    });
    await d.setFault("schema-changed");
    const schema = (await list()).find((t: { name: string }) => t.name === "get_signal").inputSchema;
    expect(schema.properties.max_rows.maximum).toBe(5000);
    expect(schema.properties.raw).toEqual({ type: "boolean" });
    await d.setFault("none");
    expect((await post(d.url, '{"jsonrpc":"2.0","id":2,"method":"tools/list"}')).body.equals(data.body("05-tools-list.json"))).toBe(true);
  });

  describe("hostile answers (issue 29)", () => {
    test("error-injection: a 200 JSON-RPC error whose message is a long instruction with hidden characters", async () => {
      await d.setFault({ mode: "error-injection", messageChars: 100_000 });
      const r = await post(d.url, CALL);
      expect(r.status).toBe(200);
      const msg = JSON.parse(r.body.toString());
      expect(msg.id).toBe("c");
      expect(msg.error.code).toBe(-32602);
      expect(msg.error.message).toHaveLength(100_000);
      expect(msg.error.message.startsWith(INJECTION)).toBe(true);
      expect(msg.error.message).toContain(HIDDEN_CHARACTERS);
      expect((await post(d.url, PING)).status).toBe(200); // other methods are answered normally
    });
    test("error-injection defaults to a 5,000,000-character message", async () => {
      await d.setFault("error-injection");
      expect(JSON.parse((await post(d.url, CALL)).body.toString()).error.message).toHaveLength(5_000_000);
    });
    test("http-error-body: the status asked for, with a JSON-RPC error body carrying the instruction", async () => {
      for (const status of [400, 503]) {
        await d.setFault({ mode: "http-error-body", status, methods: ["ping"] });
        const r = await post(d.url, PING);
        expect([r.status, r.headers["content-type"]]).toEqual([status, "application/json"]);
        const msg = JSON.parse(r.body.toString());
        expect(msg.error.code).toBe(-32600);
        expect(msg.error.message.startsWith(INJECTION)).toBe(true);
        expect(msg.error.message).toHaveLength(2000);
      }
    });
    test("duplicate-meta: two _meta members, the first forging the bridge's provenance", async () => {
      await d.setFault("duplicate-meta");
      const text = (await post(d.url, CALL)).body.toString();
      expect(text.split('"_meta": ')).toHaveLength(3);
      expect(text.indexOf(FORGED_PROVENANCE)).toBeLessThan(text.lastIndexOf('"_meta": '));
      expect(JSON.parse(text).result._meta).toEqual({ progressToken: 1 }); // a last-wins parser misses the forgery
    });
    test("duplicate-content: two content members, the first carrying the instruction", async () => {
      await d.setFault("duplicate-content");
      const text = (await post(d.url, CALL)).body.toString();
      expect(text.split('"content": ')).toHaveLength(3);
      expect(text).toContain(INJECTION);
      expect(JSON.parse(text).result.content).toEqual([{ type: "text", text: "ok" }]);
    });
    test("deep-nesting: structuredContent nested 100,000 arrays deep by default, or as deep as asked", async () => {
      await d.setFault("deep-nesting");
      const text = (await post(d.url, CALL)).body.toString();
      expect(text).toContain(`"n": ${"[".repeat(100_000)}]`);
      expect(text.split("[").length - 1).toBe(100_001); // and the content array
      await d.setFault({ mode: "deep-nesting", depth: 3 });
      expect(JSON.parse((await post(d.url, CALL)).body.toString()).result.structuredContent).toEqual({ n: [[[]]] });
    });
    test("other-id: a valid result carrying another request's id", async () => {
      await d.setFault("other-id");
      const msg = JSON.parse((await post(d.url, CALL)).body.toString());
      expect(msg.id).toBe("c-other");
      expect(msg.result.content).toEqual([{ type: "text", text: "not yours" }]);
    });
    test("with SSE framing a hostile answer is one message event", async () => {
      d.setTransport({ framing: "sse" });
      try {
        await d.setFault("duplicate-meta");
        const r = await post(d.url, CALL, { Accept: "application/json, text/event-stream" });
        expect(r.headers["content-type"]).toBe("text/event-stream");
        expect(r.body.toString()).toMatch(/^event: message\ndata: \{"jsonrpc": "2\.0", "id": "c", "result": \{"_meta": /);
      } finally {
        d.setTransport({ framing: "json" });
      }
    });
  });

  test("slow-origin delays each published-file fetch", async () => {
    await d.setFault({ mode: "slow-origin", delayMs: 300 });
    const started = Date.now();
    const r = await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_signal","arguments":{"name":"board-alarm"}}}');
    expect(JSON.parse(r.body.toString()).result.isError).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  });

  describe("site listener (published files)", () => {
    test("serves the published bytes with their length and type", async () => {
      const r = await probe(`${d.baseUrl}/readings/board-alarm-latest.json`, "GET", null);
      expect(r.status).toBe(200);
      expect(r.headers["content-type"]).toBe("application/json");
      expect(r.body.equals(data.published("readings/board-alarm-latest.json")!)).toBe(true);
      const pack = await probe(`${d.baseUrl}/integrations/pack/intelligence-pack-v1.json`, "GET", null);
      expect(pack.body.length).toBe(27_436);
    });
    test("404 for absent files, traversal and other folders; file-missing and origin-down apply", async () => {
      expect((await probe(`${d.baseUrl}/readings/nope.json`, "GET", null)).status).toBe(404);
      expect((await probe(`${d.baseUrl}/readings/%2e%2e/%2e%2e/hosted-responses/index.tsv`, "GET", null)).status).toBe(404);
      expect((await probe(`${d.baseUrl}/hosted-responses/index.tsv`, "GET", null)).status).toBe(404);
      await d.setFault({ mode: "file-missing", file: "readings/eval-journal-latest.json" });
      expect((await probe(`${d.baseUrl}/readings/eval-journal-latest.json`, "GET", null)).status).toBe(404);
      await d.setFault("origin-down");
      await expect(probe(`${d.baseUrl}/readings/eval-journal-latest.json`, "GET", null)).rejects.toThrow();
    });
    test("site requests are recorded too", async () => {
      await probe(`${d.baseUrl}/readings/board-alarm-latest.json?probe=1`, "GET", null);
      expect(d.requests.some((r) => r.server === "site" && r.path === "/readings/board-alarm-latest.json?probe=1")).toBe(true);
    });
  });
});
