/**
 * Upstream words wherever they go (issue 29 item 2): the label, the 300-character bound and the cleaning of quoted
 * upstream text; the facts that replace an HTTP error body; upstream names and server identities repeated only as
 * plain identifiers; a reading's `generated_at` repeated only when it is a timestamp.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { HostedClient, serverIdentity } from "../../../bridge/upstream/hosted-client.js";
import { Agents } from "../../../bridge/upstream/http-transport.js";
import { PublishedFiles } from "../../../bridge/upstream/published-files.js";
import { compareSchemas } from "../../../bridge/upstream/schema-drift.js";
import {
  cleanUpstreamText,
  contentTypeFacts,
  httpBodyFacts,
  MAX_UPSTREAM_CHARS,
  quoteUpstream,
  safeMediaType,
  UPSTREAM_SAID,
  upstreamName,
} from "../../../bridge/upstream/upstream-words.js";
import { HIDDEN_CHARACTERS, hostileMessage, INJECTION } from "../../double/hostile.js";

const CONTROL_OR_BIDI = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

describe("quoted upstream text", () => {
  test("a short message is quoted whole after the label, JSON-quoted so it cannot end the quotation", () => {
    expect(quoteUpstream("limit must be an integer")).toBe(`${UPSTREAM_SAID}"limit must be an integer"`);
    expect(quoteUpstream('say "done" \\ then')).toBe(`${UPSTREAM_SAID}"say \\"done\\" \\\\ then"`);
  });
  test("control and bidi characters are removed; other text, emoji and joiners are kept", () => {
    expect(cleanUpstreamText(`a${HIDDEN_CHARACTERS}b`)).toBe("a[2Jb");
    expect(cleanUpstreamText("caf\u00e9 \u{1F469}\u200d\u{1F4BB} \u0645\u200c\u06cc")).toBe("caf\u00e9 \u{1F469}\u200d\u{1F4BB} \u0645\u200c\u06cc");
  });
  test("at most 300 characters (code points), a cut marked with an ellipsis, whatever the length", () => {
    const visible = INJECTION.repeat(3).slice(0, 310);
    // The escape character goes, its printable tail "[2J" stays: 3 + n characters after cleaning.
    for (const n of [296, 297, 298, 310]) {
      const out = cleanUpstreamText(`${HIDDEN_CHARACTERS.slice(0, 4)}${visible.slice(0, n)}`);
      expect(out).toBe(n + 3 <= 300 ? `[2J${visible.slice(0, n)}` : `[2J${visible.slice(0, 296)}\u2026`);
      expect([...out].length).toBeLessThanOrEqual(MAX_UPSTREAM_CHARS);
    }
    const long = cleanUpstreamText(hostileMessage(5_000_000));
    expect([...long]).toHaveLength(300);
    expect(long.endsWith("\u2026")).toBe(true);
    expect(long).not.toMatch(CONTROL_OR_BIDI);
    const astral = "\u{1F600}".repeat(400);
    expect([...cleanUpstreamText(astral)]).toHaveLength(300);
    expect(cleanUpstreamText(astral)).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    // A text made mostly of hidden characters is cut on what is left after cleaning.
    expect(cleanUpstreamText(`${"\u202e".repeat(10_000)}${INJECTION}`)).toBe("\u2026");
  });
});

describe("HTTP error bodies", () => {
  test("only the status, the content type, the length and the digest are given", () => {
    const body = Buffer.from(`{"jsonrpc": "2.0", "id": null, "error": {"code": -32600, "message": "${INJECTION}"}}`);
    const digest = createHash("sha256").update(body).digest("hex");
    expect(httpBodyFacts(403, "application/json; charset=utf-8", body)).toBe(`HTTP 403, content type application/json, ${body.length} bytes, sha256 ${digest}`);
    expect(httpBodyFacts(500, undefined, Buffer.alloc(0))).toMatch(/^HTTP 500, no content type, 0 bytes, sha256 e3b0c442/);
  });
  test("a content type that is not a plain media type is not copied", () => {
    expect(safeMediaType("Text/HTML; charset=x")).toBe("text/html");
    for (const bad of [`text/${INJECTION}`, "text/html\u202e", "x".repeat(70) + "/json", "json", ""]) {
      expect(safeMediaType(bad)).toBeUndefined();
      expect(httpBodyFacts(400, bad, Buffer.from("x"))).toMatch(/^HTTP 400, an unreadable content type, 1 bytes, sha256 /);
      expect(contentTypeFacts(bad)).toBe("an unreadable content type");
    }
    expect(contentTypeFacts(undefined)).toBe("no content type");
  });
});

describe("a 200 answer that is not JSON", () => {
  let server: Server;
  let url = "";
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        res.writeHead(200, { "Content-Type": `${INJECTION} base64`, "Content-Length": "2" });
        res.end("{}");
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });
  test("is unavailable, naming no words of its content type", async () => {
    const diagnostics: string[] = [];
    const c = new HostedClient({ mcpUrl: url, timeoutMs: 5000, retryDelayMs: 10, diagnostics: (l) => diagnostics.push(l) });
    try {
      const out = await c.request("ping");
      expect(out.kind).toBe("unavailable");
      if (out.kind === "unavailable") expect(out.reason).toBe("the hosted server answered with an unreadable content type, not JSON");
      expect((await c.discover()).ok).toBe(false);
      expect(diagnostics.join("\n")).not.toMatch(/SYSTEM OVERRIDE/);
    } finally {
      c.close();
    }
  });
});

describe("upstream names and identities", () => {
  test("a plain identifier is kept; anything else is quoted, cleaned and cut to 64 characters", () => {
    expect(upstreamName("publish_note")).toBe("publish_note");
    expect(upstreamName("max_rows")).toBe("max_rows");
    const hostile = upstreamName(`x ${INJECTION}\u202e`);
    expect(hostile.startsWith('"x SYSTEM')).toBe(true);
    expect([...JSON.parse(hostile)].length).toBeLessThanOrEqual(64);
    expect(hostile).not.toMatch(CONTROL_OR_BIDI);
  });
  test("schema drift paths carry upstream keys only that way", () => {
    const diffs = compareSchemas({ type: "object" }, { type: "object", [`${INJECTION}\n${"x".repeat(100_000)}`]: 1 });
    expect(diffs).toHaveLength(1);
    expect(diffs[0].path.length).toBeLessThan(100);
    expect(diffs[0].path).not.toMatch(CONTROL_OR_BIDI);
  });
  test("the server's name and version are repeated only as plain identifiers", () => {
    expect(serverIdentity({ serverInfo: { name: "palimpsest", version: "1.9.0" } })).toEqual({ name: "palimpsest", version: "1.9.0" });
    expect(serverIdentity({ serverInfo: { name: INJECTION, version: "1.9.0\u202e" } })).toEqual({ name: "unknown", version: "unknown" });
    expect(serverIdentity({})).toEqual({ name: "unknown", version: "unknown" });
  });
});

describe("a published reading's generated_at", () => {
  let server: Server;
  let base = "";
  const bodies: Record<string, string> = {
    "/readings/ok.json": '{"generated_at": "2026-08-22T01:46:43.191692+00:00", "v": 1}',
    "/readings/hostile.json": JSON.stringify({ generated_at: `${INJECTION} ${"x".repeat(10_000)}`, v: 1 }),
  };
  beforeAll(async () => {
    server = createServer((req, res) => {
      const body = bodies[req.url ?? ""] ?? "";
      res.writeHead(body ? 200 : 404, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
      res.end(body);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise<void>((r) => server.close(() => r()));
  });
  test("is repeated when it is an ISO-8601 timestamp, and left out otherwise (the bytes are served unchanged)", async () => {
    const agents = new Agents();
    try {
      const files = new PublishedFiles({ baseUrl: base, timeoutMs: 5000, ttlMs: 0 }, agents);
      const ok = await files.fetch("readings/ok.json");
      expect(ok.ok && ok.generatedAt).toBe("2026-08-22T01:46:43.191692+00:00");
      const hostile = await files.fetch("readings/hostile.json");
      expect(hostile.ok).toBe(true);
      if (hostile.ok) {
        expect(hostile.generatedAt).toBeUndefined();
        expect(hostile.bytes.toString()).toBe(bodies["/readings/hostile.json"]);
      }
    } finally {
      agents.destroy();
    }
  });
});
