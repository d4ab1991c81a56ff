/**
 * The double reproduces the transport contract of hosted-tool-server.md §1 and the §8.1 checklist, checked
 * against the recorded responses: every indexed exchange is replayed and compared byte for byte (status, content
 * type, listed headers, body), then each rule of §1 is probed on its own.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describeShared } from "../helpers/shared.js";
import { type HostedDouble, startHostedDouble } from "./hosted-server.js";
import { parseRaw, post, probe, rawExchange } from "./probe.js";
import { RecordedData } from "./recorded.js";

describeShared("hosted double: transport contract (§1, §8.1)", () => {
  let d: HostedDouble;
  let data: RecordedData;
  beforeAll(async () => {
    data = new RecordedData();
    d = await startHostedDouble();
  });
  afterAll(async () => {
    await d.close();
  });

  describe("every recorded exchange is reproduced byte for byte", () => {
    // Built lazily so that the suite can be skipped cleanly without ../shared.
    const rows = () => new RecordedData().exchanges();
    test("the index covers every numbered sample", () => {
      expect(rows().length).toBe(66);
    });
    test.each(Array.from({ length: 66 }, (_, k) => k))("sample #%i", async (k) => {
      const ex = rows()[k];
      const headers = Object.fromEntries(ex.requestHeaders);
      let res;
      if (ex.requestBody === null) {
        // 61: the recorded body was a file larger than the limit; only its declared length matters.
        res = await probe(d.url, "POST", Buffer.alloc(262_145, 0x20), headers);
      } else if (ex.method === "POST") {
        res = await probe(d.url, "POST", ex.requestBody, headers);
      } else {
        res = await probe(d.url, ex.method, null, headers);
      }
      expect(res.status, ex.file).toBe(ex.httpStatus);
      expect(res.body.equals(data.body(ex.file)), `${ex.file} body`).toBe(true);
      expect(res.headers["content-type"], ex.file).toBe(ex.contentType === "" ? undefined : ex.contentType);
      expect(res.headers["content-length"], ex.file).toBe(String(ex.bodyBytes));
      for (const [name, value] of ex.otherHeaders) expect(res.headers[name.toLowerCase()], `${ex.file} ${name}`).toBe(value);
      expect(res.headers["mcp-session-id"]).toBeUndefined();
    });
  });

  test("the double computed the reproducible readings rather than replaying them (a replay needs a missing file)", async () => {
    // eval-assurance is published locally, so the answer is computed; with a different site base its URL changes.
    const other = await startHostedDouble({ site: "http://127.0.0.1:9" });
    try {
      const res = await post(other.url, '{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"get_signal","arguments":{"name":"eval-assurance"}}}');
      const expected = data.body("13-get_signal-eval-assurance.json").toString("utf8").split(data.recordedOrigin()).join("http://127.0.0.1:9");
      expect(res.body.toString("utf8")).toBe(expected);
    } finally {
      await other.close();
    }
  });

  describe("order of checks on POST (§1.2)", () => {
    test("Origin is checked before the protocol header, the length and the body", async () => {
      const res = await probe(d.url, "POST", "{not json", { Origin: "https://evil.example", "MCP-Protocol-Version": "1999-01-01" });
      expect(res.status).toBe(403);
      expect(res.body.toString()).toBe('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "origin not allowed"}}');
    });
    test("the protocol header is checked before the length and the body", async () => {
      const res = await probe(d.url, "POST", "{not json", { "MCP-Protocol-Version": "2025-11-25" });
      expect(res.status).toBe(400);
      expect(res.body.toString()).toBe(
        '{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "unsupported MCP protocol version: 2025-11-25"}}',
      );
    });
    test("both supported versions are accepted on any POST", async () => {
      for (const v of ["2025-03-26", "2025-06-18"]) {
        const res = await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { "MCP-Protocol-Version": v });
        expect(res.status).toBe(200);
      }
    });
    test("a non-integer Content-Length is a 400 -32600 `bad Content-Length`", async () => {
      for (const bad of ["abc", "-5", "1.5"]) {
        const raw = await rawExchange(d.url, `POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: ${bad}\r\n\r\n{}`);
        const r = parseRaw(raw);
        expect(r.status, bad).toBe(400);
        expect(r.body, bad).toBe('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "bad Content-Length"}}');
      }
    });
    test("the Origin rule still comes first when the Content-Length is malformed", async () => {
      const raw = await rawExchange(d.url, "POST /mcp HTTP/1.1\r\nHost: x\r\nOrigin: null\r\nContent-Length: abc\r\n\r\n");
      expect(parseRaw(raw).status).toBe(403);
    });
    test("413 is decided on the declared length alone, before any byte is read", async () => {
      // Headers only: the body never arrives, yet the answer comes at once.
      const raw = await rawExchange(d.url, "POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 262145\r\n\r\n");
      const r = parseRaw(raw);
      expect(r.status).toBe(413);
      expect(r.body).toBe('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "request body too large: 262144 bytes maximum"}}');
    });
    test("exactly 262,144 bytes are accepted", async () => {
      const msg = '{"jsonrpc":"2.0","id":7,"method":"ping"}';
      const body = msg + " ".repeat(262_144 - msg.length);
      const res = await post(d.url, body);
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('{"jsonrpc": "2.0", "id": 7, "result": {}}');
    });
    test("an empty body is JSON null: 200 -32600 with id null (not a parse error)", async () => {
      const res = await post(d.url, "");
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "not a JSON-RPC 2.0 message"}}');
    });
    test("a chunked request (no Content-Length) is read as empty and its id is lost", async () => {
      const res = await probe(d.url, "POST", '{"jsonrpc":"2.0","id":99,"method":"ping"}', { "Content-Type": "application/json" }, { chunked: true });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "not a JSON-RPC 2.0 message"}}');
    });
    test("a body that is not UTF-8 is a parse error", async () => {
      const res = await probe(d.url, "POST", Buffer.from([0x7b, 0xff, 0x7d]));
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body.toString()).error.code).toBe(-32700);
    });
  });

  describe("shapes, notifications and ids (§1.2 steps 6–8, §1.5)", () => {
    test("any notification, known or not, is 202 with an empty JSON body", async () => {
      for (const method of ["notifications/initialized", "notifications/cancelled", "tools/call", "no/such"]) {
        const res = await post(d.url, JSON.stringify({ jsonrpc: "2.0", method, params: { name: "get_signal" } }));
        expect(res.status, method).toBe(202);
        expect(res.body.length).toBe(0);
        expect(res.headers["content-type"]).toBe("application/json");
        expect(res.headers["content-length"]).toBe("0");
      }
    });
    test("a batch gets one -32600 with id null and none of its members runs", async () => {
      const before = d.originFetches();
      const res = await post(d.url, '[{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_signal","arguments":{"name":"board-alarm"}}}]');
      expect(res.body.toString()).toBe('{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "not a JSON-RPC 2.0 message"}}');
      expect(d.originFetches()).toBe(before);
    });
    test("an object with a bad shape keeps its id; a non-object gets id null", async () => {
      expect((await post(d.url, '{"jsonrpc":"2.0","id":"k","method":5}')).body.toString()).toBe(
        '{"jsonrpc": "2.0", "id": "k", "error": {"code": -32600, "message": "not a JSON-RPC 2.0 message"}}',
      );
      expect((await post(d.url, '"ping"')).body.toString()).toContain('"id": null');
    });
    test("ids are echoed verbatim (Python rendering): strings, null, floats, big integers", async () => {
      const cases: Array<[string, string]> = [
        ['"\u00e9t\u00e9"', '"\\u00e9t\\u00e9"'],
        ["null", "null"],
        ["1.0", "1.0"],
        ["1e400", "Infinity"],
        ["123456789012345678901234567890", "123456789012345678901234567890"],
      ];
      for (const [sent, echoed] of cases) {
        const res = await post(d.url, `{"jsonrpc":"2.0","id":${sent},"method":"ping"}`);
        expect(res.body.toString(), sent).toBe(`{"jsonrpc": "2.0", "id": ${echoed}, "result": {}}`);
      }
    });
    test("unknown methods are -32601; params that are not an object count as {}", async () => {
      expect((await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"completion/complete"}')).body.toString()).toBe(
        '{"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "method not found: completion/complete"}}',
      );
      const res = await post(d.url, '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":[1]}');
      expect(res.body.toString()).toBe('{"jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "unknown tool: None"}}');
    });
    test("a tools/call whose name is an array or object gets the connection closed without a response", async () => {
      await expect(post(d.url, '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":["x"]}}')).rejects.toThrow();
    });
  });

  describe("Origin rule and methods (§1.1, §1.3)", () => {
    test("the first-party origin is allowed with CORS headers; others, including localhost, are 403", async () => {
      const fp = data.recordedOrigin();
      const ok = await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { Origin: fp });
      expect(ok.status).toBe(200);
      expect(ok.headers["access-control-allow-origin"]).toBe(fp);
      expect(ok.headers.vary).toBe("Origin");
      for (const o of ["http://localhost:3000", `${fp}/`, fp.replace("https:", "http:")]) {
        expect((await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { Origin: o })).status, o).toBe(403);
      }
    });
    test("the first-party origin is configurable", async () => {
      const other = await startHostedDouble({ firstPartyOrigin: "https://example.test" });
      try {
        expect((await post(other.url, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { Origin: "https://example.test" })).status).toBe(200);
        expect((await post(other.url, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { Origin: data.recordedOrigin() })).status).toBe(403);
      } finally {
        await other.close();
      }
    });
    test("GET and DELETE check the Origin first, then answer 405 with Allow", async () => {
      expect((await probe(d.url, "GET", null, { Origin: "https://evil.example" })).status).toBe(403);
      const get = await probe(d.url, "GET", null, { "MCP-Protocol-Version": "1999-01-01" });
      expect(get.status).toBe(405);
      expect(get.headers.allow).toBe("POST, OPTIONS");
    });
    test("HEAD, PUT and PATCH get 501 with an HTML page, not JSON", async () => {
      for (const m of ["PUT", "PATCH"]) {
        const res = await probe(d.url, m, "{}");
        expect(res.status).toBe(501);
        expect(res.headers["content-type"]).toMatch(/^text\/html/);
        expect(() => JSON.parse(res.body.toString())).toThrow();
      }
      expect((await probe(d.url, "HEAD", null)).status).toBe(501);
    });
    test("the path and query are not checked", async () => {
      const res = await post(d.url.replace("/mcp", "/anything?x=1"), '{"jsonrpc":"2.0","id":1,"method":"ping"}');
      expect(res.body.toString()).toBe('{"jsonrpc": "2.0", "id": 1, "result": {}}');
    });
  });

  describe("body encoding (§1.7)", () => {
    test("bodies are single-line ASCII with Python separators; the text keeps non-ASCII literal", async () => {
      const res = await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_signal","arguments":{"name":"eval-findings"}}}');
      const body = res.body.toString("latin1");
      expect(/^[\x20-\x7e]*$/.test(body)).toBe(true);
      expect(body.startsWith('{"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": ')).toBe(true);
      const parsed = JSON.parse(body);
      expect(Object.keys(parsed)).toEqual(["jsonrpc", "id", "result"]);
      expect(JSON.parse(parsed.result.content[0].text)).toEqual(parsed.result.structuredContent);
    });
    test("the response is JSON, never SSE, whatever Accept says", async () => {
      const res = await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"ping"}', { Accept: "text/event-stream" });
      expect(res.headers["content-type"]).toBe("application/json");
    });
    test("the connection is closed after each response (no keep-alive)", async () => {
      const raw = await rawExchange(d.url, 'POST /mcp HTTP/1.1\r\nHost: x\r\nContent-Length: 40\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"ping"}');
      expect(parseRaw(raw).headers.connection).toBe("close");
    });
  });

  describe("initialize and protocol versions (§1.4, §2.1)", () => {
    test("a supported version is echoed; anything else is answered 2025-06-18", async () => {
      const ask = async (v: unknown) => {
        const res = await post(d.url, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: v === undefined ? {} : { protocolVersion: v } }));
        return JSON.parse(res.body.toString()).result.protocolVersion as string;
      };
      expect(await ask("2025-03-26")).toBe("2025-03-26");
      expect(await ask("2025-06-18")).toBe("2025-06-18");
      expect(await ask("2025-11-25")).toBe("2025-06-18");
      expect(await ask(undefined)).toBe("2025-06-18");
      expect(await ask(20250326)).toBe("2025-06-18");
    });
  });

  describe("requests are recorded for privacy tests", () => {
    test("method, path, headers and body text of every request are kept", async () => {
      await post(d.url, '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"canary":"CANARY-123"}}', { "X-Probe": "yes" });
      const last = d.requests[d.requests.length - 1];
      expect(last).toMatchObject({ server: "mcp", method: "POST", path: "/mcp", bodyRead: true });
      expect(last.body).toContain("CANARY-123");
      expect(last.headers["x-probe"]).toBe("yes");
    });
  });
});
