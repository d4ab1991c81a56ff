/**
 * Test double of the hosted tool server (hosted-tool-server.md §1 and §8), answering from the recorded responses
 * and the published files under `../shared/data` (read in place at run time), or, without `../shared`, from our
 * synthetic set of the same shape (test/double/synthetic/data).
 *
 * Two loopback listeners: the MCP endpoint (`url`; any path, as the reference does not check it) and the site
 * (`baseUrl`) that serves the published files with plain GETs. Every request to either is recorded with its
 * headers and body text so privacy tests can search them.
 *
 * Over 400 lines because the whole HTTP layer (the §1.2 check order, the per-request faults, and the SSE and
 * session modes a streamable-HTTP server may have) is kept in one place; JSON-RPC and the tools are in rpc.ts and
 * the tool modules, fault definitions in faults.ts.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { randomBytes } from "node:crypto";
import {
  BODY_FAULTS,
  type FaultMode,
  type FaultSetting,
  htmlErrorPage,
  MALFORMED_BODY,
  normalizeFault,
  paddedResultBody,
  REQUEST_FAULTS,
  SSE_NOTIFICATION,
  TOOLS_LIST_CHANGED_NOTIFICATION,
  sseEvent,
} from "./faults.js";
import { deepNestingBody, duplicateContentBody, duplicateMetaBody, hostileErrorBody, hostileMessage, otherIdBody } from "./hostile.js";
import { CONNECTION_REFUSED, Origin } from "./origin.js";
import { isPyObject, pyDumps, pyParseBytes, type PyObject, type PyValue } from "./py-json.js";
import { doubleDataRoot, RecordedData } from "./recorded.js";

export { SYNTHETIC_DATA_ROOT } from "./recorded.js";
import { errorBody, RpcHandler, SUPPORTED_VERSIONS } from "./rpc.js";
import type { Toolset } from "./tool-list.js";

export type { FaultMode, FaultSetting } from "./faults.js";

export const MAX_REQUEST_BYTES = 262_144;

export interface RecordedRequest {
  server: "mcp" | "site";
  method: string;
  /** Request target as sent (path and query). */
  path: string;
  /** Headers with lower-case names (repeated headers joined with ", "). */
  headers: Record<string, string>;
  /** Body as UTF-8 text; a 413 body is not read (empty here, `bodyRead` false). */
  body: string;
  bodyRead: boolean;
}

export interface HostedDoubleOptions {
  fault?: FaultMode | FaultSetting;
  /**
   * Directory holding `hosted-responses/` and `published/`. Default: `../shared/data` beside the repository when
   * it exists, else our synthetic set `SYNTHETIC_DATA_ROOT` (test/double/synthetic/data); pass that explicitly to
   * run on synthetic data whatever is present.
   */
  dataRoot?: string;
  /** `{base_url}` written into payloads and pinned for the economic ledger (default: the recorded production origin). */
  site?: string;
  /** The first-party origin of the Origin rule (default: the origin of `site`). */
  firstPartyOrigin?: string;
  /** Reading cache lifetime in ms (the reference uses 600 s; default 0 = no cache). */
  cacheTtlMs?: number;
  /** "recorded" = the six tools of 1.9.0 (default); "current" adds research_catalog as in 1.9.3. */
  toolset?: Toolset;
  /** Payload of research_catalog calls (toolset "current"); a synthetic fixture by default. */
  researchCatalogPayload?: (offset: number, limit: number) => PyObject;
  /** See {@link TransportMode}; default the reference's (JSON, no sessions). */
  transport?: Partial<TransportMode>;
  /** Extra files the site serves, by path without the leading slash (`integrations/scamshield/…`), over the data set's. */
  files?: Record<string, Uint8Array>;
}

/**
 * Transport behaviours a streamable-HTTP server may have and the reference does not (hosted-tool-server.md §1, §7).
 */
export interface TransportMode {
  /** `sse`: every 200 JSON-RPC answer is sent as one `text/event-stream` event instead of `application/json`. */
  framing: "json" | "sse";
  /**
   * Sessions: an `initialize` answer carries a new `Mcp-Session-Id`; every other POST must carry a live one
   * (absent: 400; unknown or expired: 404), and requests other than `ping` are refused (400) until the session has
   * sent `notifications/initialized`.
   */
  sessions: boolean;
}

export interface HostedDouble {
  /** MCP endpoint. */
  url: string;
  /** Site serving `/readings/...` and `/integrations/...`. */
  baseUrl: string;
  /** Every request received by either listener, in arrival order. */
  requests: RecordedRequest[];
  /** MCP POSTs only (convenience for counting attempts). */
  mcpPosts(): RecordedRequest[];
  /** Fetches of published files made by the double's own tools (cache misses). */
  originFetches(): number;
  setFault(f: FaultMode | FaultSetting): Promise<void>;
  /** Changes the transport mode (sessions already issued stay valid). */
  setTransport(t: Partial<TransportMode>): void;
  /** Forgets every session: the next request carrying one is answered 404. */
  expireSessions(): void;
  /**
   * Announces that the tool list changed: the next answer sent as an event stream (framing `sse`) carries a
   * `notifications/tools/list_changed` event before the answer. JSON answers cannot carry it.
   */
  announceToolListChanged(): void;
  /** Session ids issued so far, in order. */
  readonly issuedSessions: string[];
  close(): Promise<void>;
}

function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (let k = 0; k < req.rawHeaders.length; k += 2) {
    const name = req.rawHeaders[k].toLowerCase();
    const value = req.rawHeaders[k + 1];
    out[name] = name in out ? `${out[name]}, ${value}` : value;
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolveBody, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolveBody(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves when `res` can take more data or has closed, removing both listeners either way. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = (): void => {
      res.off("drain", done);
      res.off("close", done);
      resolve();
    };
    res.once("drain", done);
    res.once("close", done);
  });
}

class HostedDoubleServer implements HostedDouble {
  url = "";
  baseUrl = "";
  readonly requests: RecordedRequest[] = [];
  private readonly data: RecordedData;
  private readonly origin: Origin;
  private readonly rpc: RpcHandler;
  private readonly firstParty: string;
  private fault: FaultSetting = { mode: "none" };
  private readonly mcp: Server;
  private readonly site: Server;
  private mcpPort = 0;
  private listening = false;
  private readonly sockets = new Set<Socket>();
  private readonly hung = new Set<ServerResponse>();
  private closed = false;
  private mode: TransportMode = { framing: "json", sessions: false };
  /** Notifications waiting for the next event-stream answer. */
  private readonly pendingNotices: string[] = [];
  private readonly liveSessions = new Set<string>();
  private readonly initializedSessions = new Set<string>();
  readonly issuedSessions: string[] = [];
  private readonly files: Map<string, Buffer>;

  constructor(opts: HostedDoubleOptions) {
    this.mode = { ...this.mode, ...opts.transport };
    this.data = new RecordedData(opts.dataRoot ?? doubleDataRoot());
    this.files = new Map(Object.entries(opts.files ?? {}).map(([k, v]) => [k, Buffer.from(v)]));
    const recordedOrigin = this.data.recordedOrigin();
    const site = (opts.site ?? recordedOrigin).replace(/\/+$/, "");
    this.firstParty = opts.firstPartyOrigin ?? new URL(site).origin;
    this.origin = new Origin(this.data, opts.cacheTtlMs ?? 0);
    this.rpc = new RpcHandler({
      data: this.data,
      origin: this.origin,
      site,
      recordedOrigin,
      toolset: opts.toolset ?? "recorded",
      cacheTtlMs: opts.cacheTtlMs ?? 0,
      researchCatalogPayload: opts.researchCatalogPayload,
    });
    this.mcp = createServer((req, res) => void this.onMcp(req, res).catch((e) => this.internalError(res, e)));
    this.mcp.on("clientError", (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => this.onClientError(err, socket));
    this.site = createServer((req, res) => void this.onSite(req, res).catch((e) => this.internalError(res, e)));
    for (const s of [this.mcp, this.site]) {
      s.on("connection", (sock: Socket) => {
        this.sockets.add(sock);
        sock.on("close", () => this.sockets.delete(sock));
      });
    }
  }

  async start(fault: FaultMode | FaultSetting | undefined): Promise<void> {
    await new Promise<void>((r) => this.mcp.listen(0, "127.0.0.1", r));
    this.mcpPort = (this.mcp.address() as AddressInfo).port;
    this.listening = true;
    await new Promise<void>((r) => this.site.listen(0, "127.0.0.1", r));
    this.url = `http://127.0.0.1:${this.mcpPort}/mcp`;
    this.baseUrl = `http://127.0.0.1:${(this.site.address() as AddressInfo).port}`;
    await this.setFault(fault ?? "none");
  }

  mcpPosts(): RecordedRequest[] {
    return this.requests.filter((r) => r.server === "mcp" && r.method === "POST");
  }

  originFetches(): number {
    return this.origin.fetchCount;
  }

  async setFault(f: FaultMode | FaultSetting): Promise<void> {
    const next = normalizeFault(f);
    if (next.mode === "refuse" && next.times !== undefined) throw new Error("hosted double: 'refuse' cannot count requests it never receives");
    this.fault = next;
    const mode = next.mode;
    this.rpc.toolListChanges = {
      extraWriteTool: mode === "extra-write-tool",
      readOnlyRemovedFrom: mode === "read-only-removed" ? "get_signal" : undefined,
      schemaChangedFor: mode === "schema-changed" ? "get_signal" : undefined,
    };
    const st = this.origin.state;
    st.down = mode === "origin-down";
    st.downReason = next.downReason ?? CONNECTION_REFUSED;
    st.missing = new Set(mode === "file-missing" && next.file ? [next.file] : []);
    st.tamperLedger = mode === "ledger-tampered";
    st.delayMs = mode === "slow-origin" ? (next.delayMs ?? 2000) : 0;
    if (mode === "refuse" && this.listening) {
      this.listening = false;
      const closed = new Promise<void>((r) => this.mcp.close(() => r()));
      this.mcp.closeAllConnections();
      await closed;
    } else if (mode !== "refuse" && !this.listening && !this.closed) {
      await new Promise<void>((r, reject) => {
        this.mcp.once("error", reject);
        this.mcp.listen(this.mcpPort, "127.0.0.1", () => {
          this.mcp.off("error", reject);
          r();
        });
      });
      this.listening = true;
    }
  }

  setTransport(t: Partial<TransportMode>): void {
    this.mode = { ...this.mode, ...t };
  }

  expireSessions(): void {
    this.liveSessions.clear();
    this.initializedSessions.clear();
  }

  announceToolListChanged(): void {
    this.pendingNotices.push(TOOLS_LIST_CHANGED_NOTIFICATION);
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const res of this.hung) res.destroy();
    this.hung.clear();
    for (const s of this.sockets) s.destroy();
    const stop = (s: Server) => new Promise<void>((r) => (s.listening ? s.close(() => r()) : r()));
    await Promise.all([stop(this.mcp), stop(this.site)]);
  }

  private internalError(res: ServerResponse, e: unknown): void {
    process.stderr.write(`hosted double: internal error: ${(e as Error).stack ?? String(e)}\n`);
    if (!res.headersSent) {
      res.writeHead(500, { "Content-Type": "text/plain", Connection: "close" });
      res.end("hosted double internal error");
    } else res.destroy();
  }

  /** Writes a JSON body with Content-Length and closes the connection after it (the reference speaks HTTP/1.0). */
  private send(res: ServerResponse, status: number, body: string | Buffer, extra: Record<string, string> = {}): void {
    const bytes = typeof body === "string" ? Buffer.from(body, "utf8") : body;
    res.writeHead(status, { "Content-Type": "application/json", "Content-Length": String(bytes.length), Connection: "close", ...extra });
    res.end(bytes);
  }

  /** Origin rule (§1.3): undefined when allowed (with the CORS headers to add), else the 403 body was sent. */
  private originCheck(headers: Record<string, string | undefined>): { cors: Record<string, string> } | undefined {
    const origin = headers.origin;
    if (origin === undefined) return { cors: {} };
    if (origin === this.firstParty) return { cors: { "Access-Control-Allow-Origin": origin, Vary: "Origin" } };
    return undefined;
  }

  /** Steps 1–4 of §1.2 (shared with the parser-error path): an error reply, or the CORS headers to use. */
  private preBody(
    headers: Record<string, string | undefined>,
    contentLengthOk: boolean,
  ): { status: number; body: string } | { cors: Record<string, string>; length: number } {
    const o = this.originCheck(headers);
    if (!o) return { status: 403, body: errorBody("null", -32600, "origin not allowed") };
    const version = headers["mcp-protocol-version"];
    if (version !== undefined && !SUPPORTED_VERSIONS.includes(version)) {
      return { status: 400, body: errorBody("null", -32600, `unsupported MCP protocol version: ${version}`) };
    }
    const declared = headers["content-length"];
    if (!contentLengthOk || (declared !== undefined && !/^\s*\+?[0-9]+\s*$/.test(declared))) {
      return { status: 400, body: errorBody("null", -32600, "bad Content-Length") };
    }
    const length = declared === undefined ? 0 : Number(declared.trim());
    if (length > 262_144) return { status: 413, body: errorBody("null", -32600, "request body too large: 262144 bytes maximum") };
    return { cors: o.cors, length };
  }

  /** Node's parser rejects a malformed Content-Length before the handler runs; answer as the reference does. */
  private onClientError(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket): void {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const raw = err.rawPacket?.toString("latin1") ?? "";
    const [head] = raw.split("\r\n\r\n");
    const lines = head.split("\r\n");
    const method = (lines[0] ?? "").split(" ")[0];
    const headers: Record<string, string> = {};
    for (const l of lines.slice(1)) {
      const k = l.indexOf(":");
      if (k > 0) headers[l.slice(0, k).trim().toLowerCase()] = l.slice(k + 1).trim();
    }
    this.requests.push({ server: "mcp", method, path: (lines[0] ?? "").split(" ")[1] ?? "", headers, body: "", bodyRead: false });
    const contentLengthError = err.code === "HPE_INVALID_CONTENT_LENGTH" || err.code === "HPE_UNEXPECTED_CONTENT_LENGTH";
    let status = 400;
    let body = errorBody("null", -32600, "bad Content-Length");
    if (method === "POST" && contentLengthError) {
      const r = this.preBody(headers, false);
      if ("status" in r) ({ status, body } = r);
    } else if (!contentLengthError) {
      socket.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    const reason = status === 403 ? "Forbidden" : "Bad Request";
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
  }

  private async onMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = headerRecord(req);
    const record: RecordedRequest = { server: "mcp", method: req.method ?? "", path: req.url ?? "", headers, body: "", bodyRead: false };
    this.requests.push(record);
    const method = req.method ?? "";
    if (method === "GET" || method === "DELETE" || method === "OPTIONS") {
      record.body = (await readBody(req)).toString("utf8");
      record.bodyRead = true;
      const o = this.originCheck(headers);
      if (!o) return this.send(res, 403, errorBody("null", -32600, "origin not allowed"));
      if (method === "OPTIONS") {
        if (headers.origin === undefined) return this.send(res, 204, "");
        res.writeHead(204, {
          ...o.cors,
          "Access-Control-Allow-Methods": "POST, OPTIONS",
          "Access-Control-Allow-Headers": "Content-Type, MCP-Protocol-Version",
          "Access-Control-Max-Age": "86400",
          "Content-Length": "0",
          Connection: "close",
        });
        return void res.end();
      }
      const message = method === "GET" ? "this stateless endpoint does not provide an SSE stream" : "this stateless endpoint has no sessions";
      return this.send(res, 405, errorBody("null", -32600, message), { Allow: "POST, OPTIONS", ...o.cors });
    }
    if (method !== "POST") {
      const page = Buffer.from(htmlErrorPage(501, `Unsupported method ('${method}')`), "utf8");
      res.writeHead(501, { "Content-Type": "text/html;charset=utf-8", "Content-Length": String(page.length), Connection: "close" });
      return void res.end(method === "HEAD" ? undefined : page);
    }
    const pre = this.preBody(headers, true);
    if ("status" in pre) {
      if (pre.status !== 413) {
        record.body = (await readBody(req)).toString("utf8");
        record.bodyRead = true;
      }
      return this.send(res, pre.status, pre.body);
    }
    const bytes = await readBody(req);
    record.body = bytes.toString("utf8");
    record.bodyRead = true;
    // A chunked request (no Content-Length) is read as empty, as the reference does.
    const effective = headers["content-length"] === undefined ? Buffer.alloc(0) : bytes;
    let message: PyValue;
    if (effective.length === 0) message = null;
    else {
      try {
        message = pyParseBytes(effective);
      } catch {
        return this.send(res, 400, errorBody("null", -32700, "empty or non-JSON body"), pre.cors);
      }
    }
    const rpcMethod = isPyObject(message) && typeof message.get("method") === "string" ? (message.get("method") as string) : "";
    const fault = this.takeRequestFault(rpcMethod);
    if (fault?.mode === "session-expired") this.expireSessions();
    let newSession: string | undefined;
    if (this.mode.sessions) {
      const isNotification = isPyObject(message) && !message.has("id");
      const refused = this.sessionCheck(rpcMethod, isNotification, headers["mcp-session-id"]);
      if (refused) return this.send(res, refused.status, refused.body, pre.cors);
      if (rpcMethod === "initialize") newSession = `sess-${randomBytes(12).toString("hex")}`;
    }
    if (fault) {
      const handled = await this.applyRequestFault(fault, message, res, pre.cors);
      if (handled) return;
    }
    const reply = await this.rpc.handle(message);
    if (reply.kind === "drop") return void req.socket.destroy();
    if (reply.kind === "accepted") return this.send(res, 202, "", pre.cors);
    const extra: Record<string, string> = { ...pre.cors };
    if (newSession !== undefined && reply.status === 200 && reply.body.includes('"result": ')) {
      this.liveSessions.add(newSession);
      this.issuedSessions.push(newSession);
      extra["Mcp-Session-Id"] = newSession;
    }
    if (fault?.mode === "trickle") return this.trickle(res, reply.status, Buffer.from(reply.body, "utf8"), extra, fault);
    if (reply.status === 200 && fault?.mode === "sse-several") return this.sseSeveral(res, reply.body, extra);
    if (reply.status === 200 && this.mode.framing === "sse") {
      const notices = this.pendingNotices.splice(0).map((n) => sseEvent([n], { event: "message" }));
      return this.sse(res, [...notices, sseEvent([reply.body], { event: "message" })], extra, false);
    }
    return this.send(res, reply.status, reply.body, extra);
  }

  /** Session rules of {@link TransportMode}: the refusal to send, or undefined when the POST may proceed. */
  private sessionCheck(rpcMethod: string, isNotification: boolean, sid: string | undefined): { status: number; body: string } | undefined {
    if (rpcMethod === "initialize") return undefined;
    if (sid === undefined) return { status: 400, body: errorBody("null", -32600, "Bad Request: Mcp-Session-Id header is required") };
    if (!this.liveSessions.has(sid)) return { status: 404, body: errorBody("null", -32001, "Session not found") };
    if (rpcMethod === "notifications/initialized" && isNotification) this.initializedSessions.add(sid);
    else if (!isNotification && rpcMethod !== "ping" && !this.initializedSessions.has(sid)) {
      return { status: 400, body: errorBody("null", -32600, "Bad Request: the session has not sent notifications/initialized") };
    }
    return undefined;
  }

  /**
   * Writes an SSE response: `Content-Type: text/event-stream`, no Content-Length, the given pieces in order with a
   * pause between them; then ends the stream, or (keepOpen) holds it until the client goes away or the double closes.
   */
  private async sse(res: ServerResponse, pieces: (string | Buffer)[], extra: Record<string, string>, keepOpen: boolean, pauseMs = 0): Promise<void> {
    res.writeHead(200, { "Content-Type": "text/event-stream", "Cache-Control": "no-cache", Connection: "close", ...extra });
    this.hung.add(res);
    res.on("close", () => this.hung.delete(res));
    for (const p of pieces) {
      if (res.destroyed) return;
      if (!res.write(p)) {
        await drainedOrClosed(res);
      }
      if (pauseMs > 0) await wait(pauseMs);
    }
    if (!keepOpen && !res.destroyed) res.end();
  }

  /** The `sse-several` answer (faults.ts): events the client must skip, then the answer split over two data lines. */
  private sseSeveral(res: ServerResponse, body: string, extra: Record<string, string>): Promise<void> {
    const at = body.indexOf('"result": ') >= 0 ? body.indexOf('"result": ') : body.indexOf('"error": ');
    const idText = /"id": ([^,]+), /.exec(body)?.[1] ?? "null";
    const other = `{"jsonrpc": "2.0", "id": "not-${idText.replace(/"/g, "")}", "result": {"content": [], "isError": false}}`;
    const text = [
      ": keep-alive comment\n\n",
      sseEvent([], { id: "prime-1" }),
      sseEvent([SSE_NOTIFICATION], { event: "message", id: "2" }),
      sseEvent([body], { event: "audit" }),
      sseEvent([other]),
      sseEvent([body.slice(0, at).trimEnd(), body.slice(at)], { id: "3" }),
    ].join("");
    const pieces: string[] = [];
    for (let k = 0; k < text.length; k += 97) pieces.push(text.slice(k, k + 97));
    return this.sse(res, pieces, extra, true, 1);
  }

  /** The active per-request fault for this JSON-RPC method, consuming one of its `times`. */
  private takeRequestFault(rpcMethod: string): FaultSetting | undefined {
    const f = this.fault;
    if (!REQUEST_FAULTS.has(f.mode)) return undefined;
    const methods = f.methods ?? (BODY_FAULTS.has(f.mode) ? ["tools/call"] : undefined);
    if (methods && !methods.includes(rpcMethod)) return undefined;
    if (f.times !== undefined) {
      f.times--;
      if (f.times <= 0) this.fault = { mode: "none" };
    }
    return f;
  }

  /** Sends the faulty answer; returns false when the normal answer should still be produced (trickle). */
  private async applyRequestFault(f: FaultSetting, message: PyValue, res: ServerResponse, cors: Record<string, string>): Promise<boolean> {
    const idText = isPyObject(message) && message.has("id") ? pyDumps(message.get("id")) : "null";
    switch (f.mode) {
      case "drop":
        res.socket?.destroy();
        return true;
      case "hang":
        this.hung.add(res);
        res.on("close", () => this.hung.delete(res));
        return true;
      case "http-500":
      case "http-502": {
        const status = f.mode === "http-500" ? 500 : 502;
        const page = Buffer.from(htmlErrorPage(status, status === 500 ? "Internal Server Error" : "Bad Gateway"), "utf8");
        res.writeHead(status, { "Content-Type": "text/html", "Content-Length": String(page.length), Connection: "close" });
        res.end(page);
        return true;
      }
      case "http-403":
        this.send(res, 403, errorBody("null", -32600, "origin not allowed"));
        return true;
      case "http-413":
        this.send(res, 413, errorBody("null", -32600, "request body too large: 262144 bytes maximum"));
        return true;
      case "malformed-json":
        this.send(res, 200, MALFORMED_BODY, cors);
        return true;
      case "body-4mib":
        this.send(res, 200, paddedResultBody(idText, 4 * 1024 * 1024), cors);
        return true;
      case "body-9mib":
        this.send(res, 200, paddedResultBody(idText, 9 * 1024 * 1024), cors);
        return true;
      case "body-9mib-chunked":
        await this.streamChunked(res, paddedResultBody(idText, 9 * 1024 * 1024), cors);
        return true;
      case "sse-9mib": {
        const body = paddedResultBody(idText, 9 * 1024 * 1024);
        const pieces: Buffer[] = [Buffer.from("event: message\ndata: ")];
        for (let at = 0; at < body.length; at += 65_536) pieces.push(body.subarray(at, at + 65_536));
        pieces.push(Buffer.from("\n\n"));
        await this.sse(res, pieces, cors, false);
        return true;
      }
      case "error-injection":
        this.answer(res, hostileErrorBody(idText, f.code ?? -32602, hostileMessage(f.messageChars ?? 5_000_000)), cors);
        return true;
      case "http-error-body":
        this.send(res, f.status ?? 400, hostileErrorBody(idText, f.code ?? -32600, hostileMessage(f.messageChars ?? 2000)), cors);
        return true;
      case "duplicate-meta":
        this.answer(res, duplicateMetaBody(idText), cors);
        return true;
      case "duplicate-content":
        this.answer(res, duplicateContentBody(idText), cors);
        return true;
      case "deep-nesting":
        this.answer(res, deepNestingBody(idText, f.depth ?? 100_000), cors);
        return true;
      case "other-id":
        this.answer(res, otherIdBody(idText), cors);
        return true;
      case "sse-no-response":
        await this.sse(res, [sseEvent([SSE_NOTIFICATION])], cors, false);
        return true;
      case "sse-endless":
        void this.sse(res, [sseEvent([SSE_NOTIFICATION])], cors, true).then(async () => {
          while (!res.destroyed && !this.closed) {
            res.write(sseEvent([SSE_NOTIFICATION]));
            await wait(20);
          }
        });
        return true;
      default:
        return false;
    }
  }

  /** A 200 answer in the double's framing: a JSON body, or one `message` event of an event stream. */
  private answer(res: ServerResponse, body: string, cors: Record<string, string>): void {
    if (this.mode.framing === "sse") void this.sse(res, [sseEvent([body], { event: "message" })], cors, false);
    else this.send(res, 200, body, cors);
  }

  /** Writes a body in 64 KiB chunks without Content-Length, respecting back-pressure and a client that gives up. */
  private async streamChunked(res: ServerResponse, body: Buffer, cors: Record<string, string>): Promise<void> {
    res.writeHead(200, { "Content-Type": "application/json", Connection: "close", ...cors });
    for (let at = 0; at < body.length && !res.destroyed; at += 65_536) {
      if (!res.write(body.subarray(at, at + 65_536))) {
        await drainedOrClosed(res);
      }
    }
    if (!res.destroyed) res.end();
  }

  private async trickle(res: ServerResponse, status: number, body: Buffer, cors: Record<string, string>, f: FaultSetting): Promise<void> {
    const step = f.trickleBytes ?? 512;
    const pause = f.trickleIntervalMs ?? 5;
    res.writeHead(status, { "Content-Type": "application/json", "Content-Length": String(body.length), Connection: "close", ...cors });
    for (let at = 0; at < body.length && !res.destroyed; at += step) {
      res.write(body.subarray(at, at + step));
      await wait(pause);
    }
    if (!res.destroyed) res.end();
  }

  private async onSite(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const headers = headerRecord(req);
    const body = (await readBody(req)).toString("utf8");
    this.requests.push({ server: "site", method: req.method ?? "", path: req.url ?? "", headers, body, bodyRead: true });
    const st = this.origin.state;
    if (st.delayMs > 0) await wait(st.delayMs);
    if (st.down) return void req.socket.destroy();
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.writeHead(405, { Allow: "GET, HEAD", "Content-Length": "0", Connection: "close" });
      return void res.end();
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname).replace(/^\/+/, "");
    } catch {
      path = "";
    }
    const allowed = /^(readings|integrations)\/[A-Za-z0-9._/-]+$/.test(path) && !path.split("/").includes("..");
    const bytes = allowed && !st.missing.has(path) ? (this.files.get(path) ?? this.data.published(path)) : undefined;
    if (!bytes) {
      const page = Buffer.from(htmlErrorPage(404, "Not Found"), "utf8");
      res.writeHead(404, { "Content-Type": "text/html", "Content-Length": String(page.length), Connection: "close" });
      return void res.end(req.method === "HEAD" ? undefined : page);
    }
    const type = path.endsWith(".jsonl") ? "application/x-ndjson" : "application/json";
    res.writeHead(200, { "Content-Type": type, "Content-Length": String(bytes.length), Connection: "close" });
    res.end(req.method === "HEAD" ? undefined : bytes);
  }
}

/** Starts the double on 127.0.0.1 (ports chosen by the system). */
export async function startHostedDouble(opts: HostedDoubleOptions = {}): Promise<HostedDouble> {
  const d = new HostedDoubleServer(opts);
  await d.start(opts.fault);
  return d;
}
