/** sendHttp on its own, against small loopback servers: headers, caps, retry policy and the deadline. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { Agents, sendHttp, TransportError } from "../../../bridge/upstream/http-transport.js";

interface Seen {
  method: string;
  headers: IncomingMessage["headers"];
  body: string;
}

let servers: Server[] = [];
const agents = new Agents();

async function serve(handler: (req: IncomingMessage, res: ServerResponse, seen: Seen[]) => void): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const s = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", headers: req.headers, body: Buffer.concat(chunks).toString() });
      handler(req, res, seen);
    });
  });
  servers.push(s);
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  return { url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/mcp`, seen };
}

afterEach(async () => {
  agents.destroy();
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }
  servers = [];
});

describe("sendHttp", () => {
  test("an Origin header given by a caller is never sent; Content-Length is the exact body length", async () => {
    const { url, seen } = await serve((_q, res) => res.end("{}"));
    const body = Buffer.from('{"a":"\u00e9"}');
    await sendHttp({ method: "POST", url, body, headers: { Origin: "http://localhost", origin: "x", "Content-Length": "1" }, timeoutMs: 5000 }, agents);
    expect(seen[0].headers.origin).toBeUndefined();
    expect(seen[0].headers["content-length"]).toBe(String(body.length));
    expect(seen[0].body).toBe('{"a":"\u00e9"}');
  });

  test("a body over the cap is refused after reading at most the cap plus one chunk", async () => {
    const { url } = await serve((_q, res) => {
      res.writeHead(200, { "Content-Type": "application/json" });
      const chunk = Buffer.alloc(16 * 1024, 0x61);
      let sent = 0;
      const pump = () => {
        while (sent < 64 * 1024 * 1024 && !res.destroyed) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", pump);
        }
        res.end();
      };
      res.on("close", () => (sent = Infinity));
      pump();
    });
    const err = await sendHttp({ method: "GET", url, timeoutMs: 10_000, maxResponseBytes: 100_000 }, agents).catch((e) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect(err.kind).toBe("too-large");
    expect(err.attempts).toBe(1);
    expect(err.bytesRead).toBeGreaterThan(100_000);
    expect(err.bytesRead).toBeLessThanOrEqual(100_000 + 64 * 1024);
  });

  test("a declared length over the cap is refused before the body is read", async () => {
    const { url } = await serve((_q, res) => {
      res.writeHead(200, { "Content-Length": "200000" });
      res.write(Buffer.alloc(10));
    });
    const err = await sendHttp({ method: "GET", url, timeoutMs: 10_000, maxResponseBytes: 100_000 }, agents).catch((e) => e);
    expect([err.kind, err.bytesRead]).toEqual(["too-large", 0]);
  });

  test("4xx is returned as is, without a retry; 5xx is retried once and the last answer returned", async () => {
    let status = 404;
    const { url, seen } = await serve((_q, res) => {
      res.statusCode = status;
      res.end();
    });
    expect((await sendHttp({ method: "GET", url, timeoutMs: 5000 }, agents)).status).toBe(404);
    expect(seen).toHaveLength(1);
    status = 503;
    const res = await sendHttp({ method: "GET", url, timeoutMs: 5000, retryDelayMs: 1 }, agents);
    expect([res.status, res.attempts]).toEqual([503, 2]);
    expect(seen).toHaveLength(3);
  });

  test("retries: 0 disables the retry", async () => {
    const { url, seen } = await serve((_q, res) => {
      res.statusCode = 500;
      res.end();
    });
    expect((await sendHttp({ method: "GET", url, timeoutMs: 5000, retries: 0 }, agents)).attempts).toBe(1);
    expect(seen).toHaveLength(1);
  });

  test("one deadline covers the retry: a retry is not attempted once the budget is spent", async () => {
    const { url, seen } = await serve((_q, res) => {
      setTimeout(() => {
        res.statusCode = 500;
        res.end();
      }, 400);
    });
    const res = await sendHttp({ method: "GET", url, timeoutMs: 300, retryDelayMs: 1 }, agents).catch((e) => e);
    expect(res).toBeInstanceOf(TransportError);
    expect(res.kind).toBe("timeout");
    expect(seen.length).toBeLessThanOrEqual(1);
  });

  test("a response cut short after its headers is a connection failure (retried)", async () => {
    const { url, seen } = await serve((req, res) => {
      res.writeHead(200, { "Content-Length": "100" });
      res.write("{");
      setTimeout(() => req.socket.destroy(), 10);
    });
    const err = await sendHttp({ method: "GET", url, timeoutMs: 5000, retryDelayMs: 1 }, agents).catch((e) => e);
    expect([err.kind, err.attempts]).toEqual(["connection", 2]);
    expect(seen).toHaveLength(2);
  });

  test("aborting during the pause before the retry cancels instead of retrying", async () => {
    const { url, seen } = await serve((_q, res) => {
      res.statusCode = 500;
      res.end();
    });
    const ac = new AbortController();
    const p = sendHttp({ method: "GET", url, timeoutMs: 5000, retryDelayMs: 2000, signal: ac.signal }, agents);
    while (seen.length === 0) await new Promise((r) => setTimeout(r, 5));
    ac.abort();
    const err = await p.catch((e) => e);
    expect(err.kind).toBe("aborted");
    expect(seen).toHaveLength(1);
  });
});

describe("sendHttp: text/event-stream answers (pickEvent)", () => {
  const sse = (res: ServerResponse) => res.writeHead(200, { "Content-Type": "text/event-stream; charset=utf-8" });
  const pickAnswer = (data: string) => data.includes('"answer"');

  test("the picked event's data is the body, exactly, even split inside a UTF-8 sequence and across CRLF lines", async () => {
    const event = Buffer.from('data: {"answer": "caf\u00e9 \u{1F600}",\r\ndata:  "n": 1.0}\r\n\r\n');
    const { url } = await serve((_q, res) => {
      sse(res);
      res.write("data: {\"other\": 1}\n\n");
      // One byte at a time: every multi-byte character is split between chunks.
      let k = 0;
      const next = () => (k < event.length ? (res.write(event.subarray(k, ++k)), setImmediate(next)) : undefined);
      next();
    });
    const r = await sendHttp({ method: "POST", url, body: Buffer.from("{}"), timeoutMs: 5000, pickEvent: pickAnswer }, agents);
    expect(r.eventStream).toBe(true);
    expect(r.body.toString("utf8")).toBe('{"answer": "caf\u00e9 \u{1F600}",\n "n": 1.0}');
  });

  test("without pickEvent an event stream is an ordinary body; a non-200 stream is not read as events", async () => {
    const { url } = await serve((_q, res) => {
      sse(res);
      res.end('data: {"answer": 1}\n\n');
    });
    const r = await sendHttp({ method: "POST", url, body: Buffer.from("{}"), timeoutMs: 5000 }, agents);
    expect([r.eventStream, r.body.toString()]).toEqual([false, 'data: {"answer": 1}\n\n']);
  });

  test("invalid UTF-8 is malformed (not retried); a stream ending first is a connection failure (retried once)", async () => {
    const bad = await serve((_q, res) => {
      sse(res);
      res.end(Buffer.from([0x64, 0x61, 0x74, 0x61, 0x3a, 0x20, 0xff, 0x0a, 0x0a]));
    });
    await expect(sendHttp({ method: "POST", url: bad.url, body: Buffer.from("{}"), timeoutMs: 5000, pickEvent: pickAnswer }, agents)).rejects.toMatchObject({
      kind: "malformed",
      attempts: 1,
    });
    const short = await serve((_q, res) => {
      sse(res);
      res.end('data: {"answer": 1}\n'); // no closing blank line: the event is never complete
    });
    const e = await sendHttp({ method: "POST", url: short.url, body: Buffer.from("{}"), timeoutMs: 5000, retryDelayMs: 1, pickEvent: pickAnswer }, agents).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransportError);
    expect(e).toMatchObject({ kind: "connection", attempts: 2 });
    expect(short.seen.length).toBe(2);
  });

  test("the cap counts every byte of the stream, not only the picked event", async () => {
    const { url } = await serve((_q, res) => {
      sse(res);
      const filler = `data: ${"x".repeat(1000)}\n\n`;
      for (let k = 0; k < 20; k++) res.write(filler);
      res.end('data: {"answer": 1}\n\n');
    });
    await expect(sendHttp({ method: "POST", url, body: Buffer.from("{}"), timeoutMs: 5000, maxResponseBytes: 10_000, pickEvent: pickAnswer }, agents)).rejects.toMatchObject({
      kind: "too-large",
    });
  });
});
