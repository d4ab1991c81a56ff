/**
 * Client of the hosted tool server (hosted-tool-server.md §7, product.md §9): stateless JSON-RPC over HTTP POST,
 * discovery (`initialize` + `tools/list`) at start-up and on demand, the seven-name allow-list and read-only rule,
 * schema-drift reporting, the outward guard (capsules/guard), answers read as data (every body parsed with the strict
 * loader and checked against its result shape; upstream-json.ts), and the `unavailable` result for every way the
 * upstream can fail. Upstream words reach a bridge sentence or stderr only labelled and bounded (upstream-words.ts).
 * Published files are fetched through {@link PublishedFiles}. Answers may come as JSON or as a `text/event-stream` (the event carrying the response to our id is picked); a session id the server
 * sets is kept and sent, a 404 for it re-initialises once, and `notifications/initialized` follows `initialize`. A
 * `notifications/tools/list_changed` event in a streamed answer makes the next call re-discover first.
 *
 * Over 400 lines because one class holds the state its request path and discovery share (negotiated version,
 * session, last discovery); the wire pieces are in http-transport.ts, event-stream.ts and json-rpc.ts.
 *
 * Nothing here writes to stdout. Diagnostics (schema drift) go to the `diagnostics` callback, stderr by default,
 * and never contain tool arguments.
 */
import type { GuardVerdict, OutwardGuard } from "../../capsules/guard/outward-guard.js";
import { DEFAULT_TIMEOUT_MS } from "../../src/config.js";
import { terminalSafe } from "../terminal-text.js";
import { Agents, MAX_RESPONSE_BYTES, mediaType, sendHttp, TransportError, type HttpResponse } from "./http-transport.js";
import { buildNotification, buildRequest, MAX_REQUEST_BYTES, parseResponse, readEvent, topLevelSpans, type ParsedResponse, type RpcErrorObject } from "./json-rpc.js";
import { isPublicToolName, PINNED_TOOLS, PUBLIC_TOOL_NAMES, type PublicToolName } from "./pinned-tools.js";
import { PublishedFiles, type PublishedOutcome } from "./published-files.js";
import { detectDrift, formatDrift, isReadOnly, type DriftReport } from "./schema-drift.js";
import { unavailableResult, type UnavailableResult } from "./unavailable.js";
import { upstreamText } from "./upstream-json.js";
import { contentTypeFacts, httpBodyFacts, quoteUpstream, upstreamName } from "./upstream-words.js";
import { toPlain } from "../../src/json/plain.js";
import type { JsonValue } from "../../src/json/value.js";

/** The upstream's notice that its tool list changed: the next call re-discovers first (issue 11 item 5). */
export const TOOLS_LIST_CHANGED = "notifications/tools/list_changed";
/** Discovery is refreshed at least this often (issue 11 item 5). */
export const DISCOVERY_MAX_AGE_MS = 60_000;
/** Protocol versions the hosted server accepts in `MCP-Protocol-Version` (§1.4); the first is preferred. */
export const SUPPORTED_PROTOCOL_VERSIONS = ["2025-06-18", "2025-03-26"] as const;

export interface HostedClientOptions {
  /** MCP endpoint (required; no default). */
  mcpUrl: string;
  /** Base of published files, for {@link HostedClient.fetchPublished}. */
  baseUrl?: string;
  /** Budget per call, retry included (default 45 s). */
  timeoutMs?: number;
  /** Response cap (default 8 MiB). */
  maxResponseBytes?: number;
  /** Pause before the single retry (default 200 ms). */
  retryDelayMs?: number;
  /** Published-file cache lifetime (default 60 s) and size cap (default 8 MiB). */
  readingsTtlMs?: number;
  readingsMaxBytes?: number;
  /** A cached discovery older than this is refreshed before the next call (default 60 s; issue 11 item 5). */
  discoveryMaxAgeMs?: number;
  /** The outward guard over every private value of the store (capsules/guard); asked at every request. */
  guard?: () => OutwardGuard;
  /** Diagnostic lines (schema drift); default: `evidence-bridge: <line>` on stderr. */
  diagnostics?: (line: string) => void;
  clientInfo?: { name: string; version: string };
}

/** A public tool as the bridge exposes it: pinned name, title, description and schema (upstream text never steers the client). */
export interface ExposedTool {
  name: PublicToolName;
  title: string;
  description: string;
  inputSchema: Readonly<Record<string, unknown>>;
  /** True when the last discovery saw the tool upstream, read-only. */
  discovered: boolean;
}

export interface IgnoredTool {
  name: string;
  reason: "not on the allow-list" | "not read-only";
}

export interface Discovery {
  /** When discovery completed (ms since the epoch). */
  at: number;
  /** Negotiated version, sent as `MCP-Protocol-Version` afterwards (undefined when upstream chose another). */
  protocolVersion: string | undefined;
  /** The upstream `initialize` result, written again from its parsed value (upstream-json.ts). */
  initializeResultText: string;
  initializeResult: Record<string, unknown>;
  /** Upstream tools/list entries, as received. */
  upstreamTools: unknown[];
  /** Allow-listed, read-only upstream tool names. */
  exposed: Set<PublicToolName>;
  ignored: IgnoredTool[];
  drift: DriftReport;
}

export type DiscoveryOutcome = { ok: true; discovery: Discovery } | { ok: false; reason: string; retryable: boolean };

/** Outcome of any JSON-RPC request to the hosted server. */
export type RpcOutcome =
  /**
   * A JSON-RPC result, read with the strict loader: `value` is the parsed value (the bridge writes the answer again
   * from it), `result` a plain copy for checks.
   */
  | { kind: "result"; result: unknown; value: JsonValue; attempts: number }
  /**
   * A JSON-RPC error answered with HTTP 200: relayed as an error, never as an isError result, its message only
   * labelled and bounded (upstream-words.ts).
   */
  | { kind: "rpc-error"; error: RpcErrorObject; attempts: number }
  /** Upstream could not answer (transport failure, 4xx/5xx, malformed or oversize body). */
  | { kind: "unavailable"; reason: string; retryable: boolean; attempts: number; httpStatus?: number; result: UnavailableResult }
  /** The caller cancelled: the HTTP request was aborted and no response must be written. */
  | { kind: "cancelled"; attempts: number }
  /** Refused locally (not a public tool, not read-only upstream, egress guard, request too large); nothing sent. */
  | { kind: "refused"; reason: string; result: RefusedResult }
  /**
   * The hosted server's tools/list does not offer this public tool (e.g. research_catalog on a 1.9.0 server): a
   * fact about that server, not an outage, so not the calm `unavailable` result. Nothing sent; the drift was
   * reported once, by discovery.
   */
  | { kind: "not-offered"; tool: PublicToolName; server: ServerIdentity; result: NotOfferedResult };

/** The hosted server as its `initialize` answer names it (`serverInfo.name`, `serverInfo.version`). */
export interface ServerIdentity {
  name: string;
  version: string;
}

export interface NotOfferedResult {
  isError: true;
  content: [{ type: "text"; text: string }];
  structuredContent: { status: "not-offered"; tool: string; server: ServerIdentity };
}

export type ToolCallOutcome = RpcOutcome;

export interface RefusedResult {
  isError: true;
  content: [{ type: "text"; text: string }];
  structuredContent: { status: "refused"; reason: string };
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Budget for this call (default: the client's). */
  timeoutMs?: number;
  /**
   * The client's original `arguments` JSON text, forwarded verbatim instead of re-serializing `args` (which would
   * turn `5.0` into `5` and `1e400` into `null`). Must be a JSON object text equal in meaning to `args`.
   */
  argumentsText?: string;
  /** `_meta` to send; the MCP side passes only the bridge's own progress token, never the client's `_meta` (published-vocabulary.ts). */
  meta?: unknown;
}

/** A server name or version the bridge repeats in its own sentences: one word, no spaces, at most 64 characters. */
const IDENTITY_WORD = /^[A-Za-z0-9][A-Za-z0-9._@/+-]{0,63}$/;

/**
 * `serverInfo.name` and `.version` of an initialize result: upstream words, so only a plain identifier is repeated
 * (`unknown` for anything else: missing, not a string, spaces, other characters, longer than 64).
 */
export function serverIdentity(initializeResult: Record<string, unknown>): ServerIdentity {
  const info = initializeResult.serverInfo as Record<string, unknown> | undefined;
  const str = (v: unknown) => (typeof v === "string" && IDENTITY_WORD.test(v) ? v : "unknown");
  return { name: str(info?.name), version: str(info?.version) };
}

export function notOffered(tool: PublicToolName, server: ServerIdentity): Extract<RpcOutcome, { kind: "not-offered" }> {
  const text = `${tool} is not offered by this hosted tool server (${server.name}, ${server.version}); its tools/list does not include it, so the bridge does not call it.`;
  return { kind: "not-offered", tool, server, result: { isError: true, content: [{ type: "text", text }], structuredContent: { status: "not-offered", tool, server } } };
}

function refused(reason: string): Extract<RpcOutcome, { kind: "refused" }> {
  return {
    kind: "refused",
    reason,
    result: { isError: true, content: [{ type: "text", text: reason }], structuredContent: { status: "refused", reason } },
  };
}

/** A session id as the streamable-HTTP rules allow it (visible ASCII), or undefined. */
function sessionHeader(v: string | string[] | undefined): string | undefined {
  return typeof v === "string" && /^[\x21-\x7e]{1,1024}$/.test(v) ? v : undefined;
}

/** The refusal of a guard hit: the kinds and where (argument paths), never the value. */
function guardRefusal(verdict: Extract<GuardVerdict, { ok: false }>): Extract<RpcOutcome, { kind: "refused" }> {
  const kinds = [...new Set(verdict.hits.map((h) => h.kind))].join(", ");
  return refused(
    `refused: the call would send a private value from the evidence store (${kinds}) to the hosted server; nothing was sent (${verdict.reason})`,
  );
}

/**
 * An argument the pinned schema does not declare (`__proto__` included: JSON.parse makes it an own member),
 * as a refusal reason that names no value; undefined when every argument is declared.
 */
export function unknownArgument(name: PublicToolName, sent: object, argsText: string): string | undefined {
  const declared = Object.keys((PINNED_TOOLS[name].inputSchema.properties ?? {}) as object);
  const names = [...Object.keys(sent), ...topLevelSpans(argsText).keys()];
  if (Object.getPrototypeOf(sent) !== Object.prototype || names.some((k) => !declared.includes(k))) {
    return `refused: ${name} takes only the arguments of its pinned schema (${declared.join(", ") || "none"}); an undeclared argument was given, nothing was sent`;
  }
  return undefined;
}

/** Why a tools/call result is not a CallToolResult (MCP 2025-06-18), or undefined. */
export function callToolResultProblem(r: unknown): string | undefined {
  if (typeof r !== "object" || r === null || Array.isArray(r)) return "not an object";
  const o = r as Record<string, unknown>;
  if (!Array.isArray(o.content)) return "content is not an array";
  for (const [i, c] of o.content.entries()) {
    if (typeof c !== "object" || c === null || Array.isArray(c) || typeof (c as Record<string, unknown>).type !== "string") {
      return `content[${i}] is not a content block with a type`;
    }
    if ((c as Record<string, unknown>).type === "text" && typeof (c as Record<string, unknown>).text !== "string") return `content[${i}].text is not a string`;
  }
  if ("isError" in o && typeof o.isError !== "boolean") return "isError is not a boolean";
  if ("structuredContent" in o && (typeof o.structuredContent !== "object" || o.structuredContent === null || Array.isArray(o.structuredContent))) {
    return "structuredContent is not an object";
  }
  if ("_meta" in o && (typeof o._meta !== "object" || o._meta === null || Array.isArray(o._meta))) return "_meta is not an object";
  return undefined;
}

function unavailable(reason: string, retryable: boolean, attempts: number, httpStatus?: number): Extract<RpcOutcome, { kind: "unavailable" }> {
  return { kind: "unavailable", reason, retryable, attempts, httpStatus, result: unavailableResult(reason, retryable) };
}

export class HostedClient {
  private readonly agents = new Agents();
  private readonly published: PublishedFiles;
  private nextId = 1;
  private current: Discovery | undefined;
  /** Set after an upstream fault or a change notice: the next call re-discovers first. */
  private stale = false;
  private discovering: Promise<DiscoveryOutcome> | undefined;
  private readonly diagnostics: (line: string) => void;
  /** Last diagnostics reported, so that rediscovery does not repeat them. */
  private lastReport = "";
  /** `Mcp-Session-Id` the server set in its last `initialize` answer (the reference never sets one). */
  private sessionId: string | undefined;
  /** A re-initialisation after a 404 for the session, shared by the requests that saw it. */
  private reinitializing: Promise<boolean> | undefined;

  constructor(private readonly opts: HostedClientOptions) {
    const u = new URL(opts.mcpUrl);
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("mcpUrl: only http and https URLs are allowed");
    this.diagnostics = opts.diagnostics ?? ((line) => void process.stderr.write(`evidence-bridge: ${terminalSafe(line)}\n`));
    this.published = new PublishedFiles(
      {
        baseUrl: opts.baseUrl,
        timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
        ttlMs: opts.readingsTtlMs,
        maxBytes: opts.readingsMaxBytes,
        retryDelayMs: opts.retryDelayMs,
      },
      this.agents,
    );
  }

  /** Makes the next call re-discover first (the upstream signalled that its tool list changed). */
  invalidateDiscovery(): void {
    this.stale = true;
  }

  /** The last successful discovery, if any. */
  get discovery(): Discovery | undefined {
    return this.current;
  }

  /** Closes idle keep-alive connections. */
  close(): void {
    this.agents.destroy();
  }

  /**
   * Sends one JSON-RPC request (`paramsText` is the exact params JSON) and classifies the answer. The negotiated
   * protocol version is sent as `MCP-Protocol-Version` unless `protocolVersion` overrides it (`null`: omit).
   */
  async request(
    method: string,
    paramsText?: string,
    opts: { signal?: AbortSignal; timeoutMs?: number; protocolVersion?: string | null; sessionRetried?: boolean; guarded?: boolean } = {},
  ): Promise<RpcOutcome> {
    const guard = paramsText === undefined || opts.guarded ? undefined : this.opts.guard?.();
    if (guard) {
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(paramsText!);
      } catch {
        return refused("refused: the request parameters are not valid JSON");
      }
      const verdict = guard.check([parsed, paramsText], "params");
      if (!verdict.ok) return guardRefusal(verdict);
    }
    const id = this.nextId++;
    const body = Buffer.from(buildRequest(id, method, paramsText), "utf8");
    if (body.length > MAX_REQUEST_BYTES) {
      return refused(`refused: the request would exceed the hosted server's ${MAX_REQUEST_BYTES}-byte request limit`);
    }
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "User-Agent": "evidence-bridge",
    };
    const version = opts.protocolVersion === undefined ? this.current?.protocolVersion : (opts.protocolVersion ?? undefined);
    if (version !== undefined) headers["MCP-Protocol-Version"] = version;
    const session = method === "initialize" ? undefined : this.sessionId;
    if (session !== undefined) headers["Mcp-Session-Id"] = session;
    let res: HttpResponse;
    const maxResponseBytes = this.opts.maxResponseBytes ?? MAX_RESPONSE_BYTES;
    /** The picked event of a streamed answer, already read strictly (it is not read twice). */
    let picked: ParsedResponse | undefined;
    try {
      res = await sendHttp(
        {
          method: "POST",
          url: this.opts.mcpUrl,
          headers,
          body,
          timeoutMs: opts.timeoutMs ?? this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          signal: opts.signal,
          maxResponseBytes,
          retryDelayMs: this.opts.retryDelayMs,
          // A streamed answer: the event carrying the response to this request's id. Events before it may carry
          // notices; a changed tool list makes the next call re-discover (a tool may have stopped being read-only).
          pickEvent: (data) => {
            const event = readEvent(data, id, maxResponseBytes);
            if (event.kind === "notification" && event.method === TOOLS_LIST_CHANGED) this.invalidateDiscovery();
            if (event.kind !== "answer") return false;
            picked = event.response;
            return true;
          },
        },
        this.agents,
      );
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      if (e.kind === "aborted") return { kind: "cancelled", attempts: e.attempts };
      if (e.kind === "too-large") return unavailable(`the hosted server's response was refused: ${e.message}`, false, e.attempts);
      if (e.kind === "malformed") return unavailable(`the hosted server sent a malformed response (${e.message})`, true, e.attempts);
      const what = e.kind === "timeout" ? "the hosted server did not answer in time" : "the hosted server could not be reached";
      return unavailable(`${what} (${e.message}${e.attempts > 1 ? ` after ${e.attempts} attempts` : ""})`, true, e.attempts);
    }
    // The server ended our session (404 for a request that carried it): initialise again, once, and resend.
    if (res.status === 404 && session !== undefined && opts.sessionRetried !== true) {
      if (!(await this.reinitialize(session))) return this.classify(res, id, picked, maxResponseBytes);
      return this.request(method, paramsText, { ...opts, sessionRetried: true });
    }
    const out = this.classify(res, id, picked, maxResponseBytes);
    if (method === "initialize" && out.kind === "result") this.sessionId = sessionHeader(res.headers["mcp-session-id"]);
    return out;
  }

  /**
   * Sends a notification (no id; the server answers 202 with no body). True when the server accepted it (any 2xx).
   * Nothing is written for a notification, whatever happens.
   */
  async notify(method: string, paramsText?: string, opts: { protocolVersion?: string | null; timeoutMs?: number } = {}): Promise<{ ok: boolean; reason?: string }> {
    const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", "User-Agent": "evidence-bridge" };
    const version = opts.protocolVersion === undefined ? this.current?.protocolVersion : (opts.protocolVersion ?? undefined);
    if (version !== undefined) headers["MCP-Protocol-Version"] = version;
    if (this.sessionId !== undefined) headers["Mcp-Session-Id"] = this.sessionId;
    try {
      const res = await sendHttp(
        {
          method: "POST",
          url: this.opts.mcpUrl,
          headers,
          body: Buffer.from(buildNotification(method, paramsText), "utf8"),
          timeoutMs: opts.timeoutMs ?? this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          maxResponseBytes: 65_536,
          retryDelayMs: this.opts.retryDelayMs,
        },
        this.agents,
      );
      return res.status >= 200 && res.status < 300 ? { ok: true } : { ok: false, reason: `HTTP ${res.status}` };
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      return { ok: false, reason: e.message };
    }
  }

  /**
   * `initialize` (without MCP-Protocol-Version, so a stale negotiated value cannot get it rejected), keeping the
   * session id the server sets, then `notifications/initialized` in that session. The outcome is initialize's,
   * unless the server refused the notification.
   */
  private async initializeSession(): Promise<{ init: RpcOutcome; protocolVersion: string | undefined; failure?: string }> {
    const clientInfo = this.opts.clientInfo ?? { name: "evidence-bridge", version: "0" };
    const initParams = JSON.stringify({ protocolVersion: SUPPORTED_PROTOCOL_VERSIONS[0], capabilities: {}, clientInfo });
    const init = await this.request("initialize", initParams, { protocolVersion: null });
    if (init.kind !== "result" || typeof init.result !== "object" || init.result === null) return { init, protocolVersion: undefined };
    const pv = (init.result as Record<string, unknown>).protocolVersion;
    const protocolVersion = (SUPPORTED_PROTOCOL_VERSIONS as readonly unknown[]).includes(pv) ? (pv as string) : undefined;
    const sent = await this.notify("notifications/initialized", undefined, { protocolVersion: protocolVersion ?? null });
    if (!sent.ok) return { init, protocolVersion, failure: `notifications/initialized: the hosted server did not accept it (${sent.reason})` };
    return { init, protocolVersion };
  }

  /** After a 404 for `expired`: one shared re-initialisation (skipped when another request already renewed it). */
  private reinitialize(expired: string): Promise<boolean> {
    if (this.sessionId !== expired) return Promise.resolve(this.sessionId !== undefined);
    this.reinitializing ??= this.initializeSession()
      .then((r) => r.init.kind === "result" && r.failure === undefined)
      .finally(() => {
        this.reinitializing = undefined;
      });
    return this.reinitializing;
  }

  /**
   * The outcome of an HTTP answer. A non-200 body is never read for words: the reason gives its facts only (status,
   * content type, length, digest). A 200 body is read strictly (`picked`: the event a stream answered with) and must
   * answer request `id` (an error may carry id null: the server could not read the request).
   */
  private classify(res: HttpResponse, id: number, picked: ParsedResponse | undefined, maxBytes: number): RpcOutcome {
    const { status, attempts } = res;
    const type = res.headers["content-type"];
    if (status !== 200) {
      const facts = httpBodyFacts(status, type, res.body);
      if (status >= 500) return unavailable(`the hosted server failed (${facts}) after ${attempts} attempt${attempts > 1 ? "s" : ""}`, true, attempts, status);
      return unavailable(`the hosted server rejected the request (${facts})`, false, attempts, status);
    }
    // A picked event's data is the JSON-RPC message itself.
    if (!res.eventStream && mediaType(type) !== "application/json") {
      return unavailable(`the hosted server answered with ${contentTypeFacts(type)}, not JSON`, true, attempts, status);
    }
    const p = res.eventStream && picked !== undefined ? picked : parseResponse(res.body, maxBytes);
    if (p.kind === "invalid") return unavailable(`the hosted server sent a malformed response (${p.reason})`, true, attempts, status);
    if (p.id !== id && !(p.kind === "error" && p.id === null)) {
      return unavailable("the hosted server sent a malformed response (it answers another request id)", true, attempts, status);
    }
    if (p.kind === "error") return { kind: "rpc-error", error: p.error, attempts };
    return { kind: "result", result: toPlain(p.result), value: p.result, attempts };
  }

  /**
   * Discovery: `initialize` then `tools/list` (following `nextCursor`). Concurrent callers share one run, which
   * no single caller can cancel: `signal` only stops this caller's wait. Drift findings and failures are written
   * to the diagnostics callback, once per change.
   */
  discover(signal?: AbortSignal): Promise<DiscoveryOutcome> {
    if (!this.discovering) {
      this.discovering = this.runDiscovery().finally(() => {
        this.discovering = undefined;
      });
    }
    const run = this.discovering;
    if (!signal) return run;
    const cancelled: DiscoveryOutcome = { ok: false, reason: "discovery: cancelled", retryable: true };
    if (signal.aborted) return Promise.resolve(cancelled);
    return new Promise((resolve) => {
      const onAbort = () => resolve(cancelled);
      signal.addEventListener("abort", onAbort, { once: true });
      void run.then((o) => {
        signal.removeEventListener("abort", onAbort);
        resolve(o);
      });
    });
  }

  private report(lines: string[]): void {
    const summary = lines.join("\n");
    if (summary === this.lastReport) return;
    this.lastReport = summary;
    for (const line of lines) this.diagnostics(line);
  }

  private async runDiscovery(): Promise<DiscoveryOutcome> {
    const fail = (what: string, o: RpcOutcome): DiscoveryOutcome => {
      let out: DiscoveryOutcome;
      if (o.kind === "unavailable") out = { ok: false, reason: `${what}: ${o.reason}`, retryable: o.retryable };
      else if (o.kind === "rpc-error") out = { ok: false, reason: `${what}: the hosted server answered with JSON-RPC error ${o.error.code}. ${quoteUpstream(o.error.message)}`, retryable: false };
      else if (o.kind === "refused") out = { ok: false, reason: `${what}: ${o.reason}`, retryable: false };
      else out = { ok: false, reason: `${what}: unexpected result shape`, retryable: false };
      this.report([`tool discovery failed: ${out.reason}`]);
      return out;
    };
    const { init, protocolVersion, failure } = await this.initializeSession();
    if (init.kind !== "result" || typeof init.result !== "object" || init.result === null) return fail("initialize", init);
    if (failure !== undefined) {
      this.report([`tool discovery failed: ${failure}`]);
      return { ok: false, reason: failure, retryable: true };
    }
    const initResult = init.result as Record<string, unknown>;
    const tools: unknown[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 20; page++) {
      const params = cursor === undefined ? undefined : JSON.stringify({ cursor });
      const list = await this.request("tools/list", params, { protocolVersion: protocolVersion ?? null });
      if (list.kind !== "result") return fail("tools/list", list);
      const r = list.result as Record<string, unknown> | null;
      if (typeof r !== "object" || r === null || !Array.isArray(r.tools)) return fail("tools/list", list);
      tools.push(...r.tools);
      cursor = typeof r.nextCursor === "string" && r.nextCursor !== "" ? r.nextCursor : undefined;
      if (cursor === undefined) break;
    }
    const exposed = new Set<PublicToolName>();
    const ignored: IgnoredTool[] = [];
    for (const t of tools) {
      const name = typeof t === "object" && t !== null ? (t as Record<string, unknown>).name : undefined;
      // An ignored tool's name is upstream text shown by doctor: bounded and cleaned (upstream-words.ts).
      if (!isPublicToolName(name)) ignored.push({ name: typeof name === "string" ? upstreamName(name) : typeof name, reason: "not on the allow-list" });
      else if (!isReadOnly(t)) ignored.push({ name, reason: "not read-only" });
      else exposed.add(name);
    }
    const drift = detectDrift(tools);
    this.report(formatDrift(drift));
    const discovery: Discovery = {
      at: Date.now(),
      protocolVersion,
      initializeResultText: upstreamText(init.value),
      initializeResult: initResult,
      upstreamTools: tools,
      exposed,
      ignored,
      drift,
    };
    this.current = discovery;
    return { ok: true, discovery };
  }

  /**
   * The public tools to list: the pinned seven, minus any the last discovery saw upstream without
   * `readOnlyHint: true`. Names, titles, descriptions and schemas are always the pinned ones: upstream text never
   * steers the client (issue 11 item 3); upstream drift is reported by doctor and on stderr.
   */
  listTools(): ExposedTool[] {
    const d = this.current;
    const out: ExposedTool[] = [];
    for (const name of PUBLIC_TOOL_NAMES) {
      const pinned = PINNED_TOOLS[name];
      const live = d?.upstreamTools.find((t) => typeof t === "object" && t !== null && (t as Record<string, unknown>).name === name) as
        | Record<string, unknown>
        | undefined;
      if (live && !d!.exposed.has(name)) continue;
      out.push({
        name,
        title: pinned.title,
        description: pinned.description,
        inputSchema: pinned.inputSchema,
        discovered: live !== undefined,
      });
    }
    return out;
  }

  /** Calls one public tool and classifies the answer; a result is strictly parsed and checked against the CallToolResult shape. */
  async callTool(name: string, args: unknown, opts: CallOptions = {}): Promise<ToolCallOutcome> {
    if (!isPublicToolName(name)) return refused("refused: not one of the seven public tools of the hosted server");
    let argsText: string;
    let sent: unknown;
    if (opts.argumentsText !== undefined) {
      try {
        sent = JSON.parse(opts.argumentsText);
      } catch {
        return refused("refused: the tool arguments are not valid JSON");
      }
      argsText = opts.argumentsText;
    } else {
      sent = args === undefined ? {} : args;
      try {
        argsText = JSON.stringify(sent) ?? "null";
      } catch {
        return refused("refused: the tool arguments cannot be serialized as JSON");
      }
    }
    if (typeof sent !== "object" || sent === null || Array.isArray(sent)) return refused("refused: the tool arguments must be a JSON object");
    const guard = this.opts.guard?.();
    if (guard) {
      // Everything that would leave: each argument, their exact text (escapes included), their joined text, _meta.
      const verdict = guard.checkCall(sent, opts.meta, argsText);
      if (!verdict.ok) return guardRefusal(verdict);
    }
    const unknown = unknownArgument(name, sent, argsText);
    if (unknown !== undefined) return refused(unknown);
    const maxAge = this.opts.discoveryMaxAgeMs ?? DISCOVERY_MAX_AGE_MS;
    if (!this.current || this.stale || Date.now() - this.current.at >= maxAge) {
      this.stale = false;
      const d = await this.discover(opts.signal);
      if (!d.ok && !this.current) {
        if (opts.signal?.aborted) return { kind: "cancelled", attempts: 0 };
        return unavailable(`tool discovery failed (${d.reason})`, d.retryable, 0);
      }
    }
    const d = this.current!;
    if (!d.exposed.has(name)) {
      const offered = d.upstreamTools.some((t) => typeof t === "object" && t !== null && (t as Record<string, unknown>).name === name);
      if (offered) return refused(`refused: the hosted server does not mark ${name} read-only, so the bridge does not call it`);
      return notOffered(name, serverIdentity(d.initializeResult));
    }
    let paramsText = `{"name":${JSON.stringify(name)},"arguments":${argsText}`;
    if (opts.meta !== undefined) {
      let metaText: string | undefined;
      try {
        metaText = JSON.stringify(opts.meta);
      } catch {
        metaText = undefined;
      }
      if (metaText === undefined) return refused("refused: _meta cannot be serialized as JSON");
      paramsText += `,"_meta":${metaText}`;
    }
    paramsText += "}";
    const out = await this.request("tools/call", paramsText, { signal: opts.signal, timeoutMs: opts.timeoutMs, guarded: guard !== undefined });
    // After any upstream fault the next call re-discovers first (a tool may have stopped being read-only).
    if (out.kind === "unavailable" || out.kind === "rpc-error") this.stale = true;
    if (out.kind === "result") {
      const malformed = callToolResultProblem(out.result);
      if (malformed !== undefined) {
        this.stale = true;
        return unavailable(`the hosted server sent a malformed tools/call result (${malformed})`, true, out.attempts);
      }
    }
    return out;
  }

  /** Fetches a published file (`readings/...`, `integrations/...`) from the configured base URL. */
  fetchPublished(path: string, signal?: AbortSignal): Promise<PublishedOutcome> {
    return this.published.fetch(path, signal);
  }
}
