/**
 * The MCP stdio transport of the bridge: newline-delimited JSON-RPC on stdin/stdout, as the SDK's own stdio
 * transport, plus what the bridge needs and that one does not do:
 *
 * - **Exact bytes.** The text of every `tools/call` request's `arguments` is kept (see {@link WireTable}), and a
 *   response whose request set an override is written from the upstream's strictly parsed `result` (its text again
 *   in the reference's own form, `1.0` kept; bridge/upstream/upstream-json.ts) with the bridge's provenance set on
 *   it, or from the `error` the bridge built, instead of `JSON.stringify` of a plain copy, which would turn `1.0`
 *   into `1` (hosted-tool-server.md §7).
 * - **Bad lines answered.** A line that is not JSON gets -32700, a batch or a non-JSON-RPC value -32600, a line
 *   above the size cap -32600; the line's content is never echoed, and the process keeps serving.
 * - **End of input.** When stdin ends (or closes, or stdout breaks because the client went away) the transport
 *   lets requests already read finish for a short grace period, closes (the SDK then aborts what is left), waits
 *   for writes in progress to complete, and resolves {@link LineTransport.finished}.
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { asJsonRpcMessage, RpcErrorCode as ErrorCode } from "./jsonrpc-message.js";
import { topLevelSpans } from "../upstream/json-rpc.js";
import { preciseParamsError } from "./params-errors.js";
import { errorLine, resultLine, withProvenance } from "./splice.js";
import { upstreamText } from "../upstream/upstream-json.js";
import type { JsonObject } from "../../src/json/value.js";
import { idKey, WireTable, type RequestId } from "./wire-table.js";

/** Largest accepted input line (a regional index or a capsule given inline fits; the SDK's default is 10 MiB). */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;
/** How long requests already read may still be answered after stdin ends. */
export const END_GRACE_MS = 700;
/** How long writes in progress may take to complete after that. */
export const WRITE_DRAIN_MS = 200;

export interface LineTransportOptions {
  maxLineBytes?: number;
  endGraceMs?: number;
  writeDrainMs?: number;
  /** One-line diagnostics (stderr); never given message content. */
  diagnostic?: (line: string) => void;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function validId(v: unknown): v is RequestId {
  return typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private readonly maxLine: number;
  private readonly graceMs: number;
  private readonly drainMs: number;
  private readonly diagnostic: (line: string) => void;
  private chunks: Buffer[] = [];
  private chunkBytes = 0;
  private oversize = false;
  /** Requests read and not yet answered or cancelled. */
  private readonly pending = new Set<string>();
  private writing = 0;
  private started = false;
  private closed = false;
  private inputEnded = false;
  private outputBroken = false;
  private readonly waiters = new Set<() => void>();
  private resolveFinished!: () => void;
  /** Resolves once the transport has shut down after the end of input (or a broken output). */
  readonly finished: Promise<void>;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    readonly wire: WireTable = new WireTable(),
    opts: LineTransportOptions = {},
  ) {
    this.maxLine = opts.maxLineBytes ?? MAX_LINE_BYTES;
    this.graceMs = opts.endGraceMs ?? END_GRACE_MS;
    this.drainMs = opts.writeDrainMs ?? WRITE_DRAIN_MS;
    this.diagnostic = opts.diagnostic ?? (() => undefined);
    this.finished = new Promise((r) => (this.resolveFinished = r));
  }

  async start(): Promise<void> {
    if (this.started) throw new Error("LineTransport already started");
    this.started = true;
    this.input.on("data", this.onData);
    this.input.on("end", this.onInputEnd);
    this.input.on("close", this.onInputEnd);
    this.input.on("error", this.onInputError);
    this.output.on("error", this.onOutputError);
  }

  /** Requests read and not yet answered (for tests). */
  get pendingCount(): number {
    return this.pending.size;
  }

  // ---- input ------------------------------------------------------------------------------------------------

  private readonly onData = (chunk: Buffer | string): void => {
    const buf = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    let start = 0;
    while (start < buf.length) {
      const nl = buf.indexOf(10, start);
      if (nl === -1) {
        this.append(buf.subarray(start));
        return;
      }
      this.append(buf.subarray(start, nl));
      this.endOfLine();
      start = nl + 1;
    }
  };

  private append(part: Buffer): void {
    if (this.oversize || part.length === 0) return;
    if (this.chunkBytes + part.length > this.maxLine) {
      this.oversize = true;
      this.chunks = [];
      this.chunkBytes = 0;
      return;
    }
    this.chunks.push(part);
    this.chunkBytes += part.length;
  }

  private endOfLine(): void {
    if (this.oversize) {
      this.oversize = false;
      this.reject(null, ErrorCode.InvalidRequest, `Invalid Request: the message exceeds ${this.maxLine} bytes and was discarded`);
      return;
    }
    const line = this.chunks.length === 1 ? this.chunks[0] : Buffer.concat(this.chunks, this.chunkBytes);
    this.chunks = [];
    this.chunkBytes = 0;
    this.handleLine(line);
  }

  private handleLine(bytes: Buffer): void {
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      this.reject(null, ErrorCode.ParseError, "Parse error: the line is not valid UTF-8");
      return;
    }
    if (text.endsWith("\r")) text = text.slice(0, -1);
    if (text.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reject(null, ErrorCode.ParseError, "Parse error: the line is not valid JSON");
      return;
    }
    if (Array.isArray(value)) {
      this.reject(null, ErrorCode.InvalidRequest, "Invalid Request: JSON-RPC batches are not supported; send one message per line");
      return;
    }
    const message = asJsonRpcMessage(value);
    if (message === undefined) {
      const id = isObject(value) && validId(value.id) ? value.id : null;
      const what = isObject(value) && typeof value.jsonrpc === "string" && value.jsonrpc !== "2.0" ? "jsonrpc must be \"2.0\"" : "not a JSON-RPC 2.0 request, notification or response";
      // A malformed response or notification gets no answer (JSON-RPC answers requests only); anything else does.
      if (isObject(value) && !("method" in value) && ("result" in value || "error" in value)) {
        this.diagnostic("ignored a malformed JSON-RPC response from the client");
        return;
      }
      if (isObject(value) && typeof value.method === "string" && !("id" in value)) {
        this.diagnostic("ignored a malformed JSON-RPC notification from the client");
        return;
      }
      this.reject(id, ErrorCode.InvalidRequest, `Invalid Request: ${what}`);
      return;
    }
    const m = message as Record<string, unknown>;
    if (typeof m.method === "string" && "id" in m && validId(m.id)) {
      this.pending.add(idKey(m.id));
      if (m.method === "tools/call") this.keepArguments(m.id, text);
    } else if (m.method === "notifications/cancelled" && isObject(m.params) && validId(m.params.requestId)) {
      this.settle(m.params.requestId);
    }
    this.onmessage?.(message);
  }

  /** Keeps the exact `params.arguments` text of a tools/call request (the line is known to be valid JSON). */
  private keepArguments(id: RequestId, line: string): void {
    const params = topLevelSpans(line).get("params");
    if (params === undefined) return;
    const paramsText = line.slice(params.start, params.end);
    const args = topLevelSpans(paramsText).get("arguments");
    if (args !== undefined) this.wire.setRawArguments(id, paramsText.slice(args.start, args.end));
  }

  /** The upstream result's text with the bridge's `_meta` provenance set; forged bridge keys are removed and reported. */
  private provenance(result: JsonObject, meta: Record<string, unknown>): string {
    const { result: out, removed } = withProvenance(result, meta);
    if (removed === 0) return upstreamText(out);
    const marked = Object.fromEntries(
      Object.entries(meta).map(([k, v]) => [k, typeof v === "object" && v !== null ? { ...v, upstream_meta_removed: removed } : v]),
    );
    this.diagnostic(`removed ${removed} _meta member(s) of an upstream result that claimed the bridge's namespace or was not an object`);
    return upstreamText(withProvenance(result, marked).result);
  }

  private readonly onInputEnd = (): void => {
    if (this.inputEnded) return;
    this.inputEnded = true;
    if (this.chunkBytes > 0 || this.oversize) this.endOfLine(); // a last line without a newline
    void this.shutdown();
  };

  private readonly onInputError = (e: Error): void => {
    this.onerror?.(e);
    this.onInputEnd();
  };

  private readonly onOutputError = (e: NodeJS.ErrnoException): void => {
    if (this.outputBroken) return;
    this.outputBroken = true;
    this.diagnostic(`stdout failed (${e.code ?? e.message}); the client is gone, shutting down`);
    this.inputEnded = true;
    void this.shutdown();
  };

  // ---- output -----------------------------------------------------------------------------------------------

  private settle(id: RequestId): void {
    this.pending.delete(idKey(id));
    this.wire.forget(id);
    this.kick();
  }

  private reject(id: RequestId | null, code: number, message: string): void {
    this.diagnostic(`answered a bad input line with JSON-RPC error ${code}`);
    void this.write(JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } }));
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const m = message as Record<string, unknown>;
    let line: string;
    if (!("method" in m) && ("result" in m || "error" in m) && validId(m.id)) {
      const id = m.id;
      const o = this.wire.takeOverride(id);
      if (o?.kind === "result") line = resultLine(id, o.meta ? this.provenance(o.result, o.meta) : upstreamText(o.result));
      else if (o?.kind === "error") line = errorLine(id, o.errorText);
      else {
        const precise = "error" in m ? preciseParamsError(m.error as { code: number; message: string }) : undefined;
        line = JSON.stringify(precise ? { jsonrpc: "2.0", id, error: precise } : message);
      }
      await this.write(line);
      this.settle(id);
      return;
    }
    await this.write(JSON.stringify(message));
  }

  private write(line: string): Promise<void> {
    if (this.outputBroken) return Promise.resolve();
    this.writing++;
    return new Promise((resolve) => {
      const done = () => {
        this.writing--;
        this.kick();
        resolve();
      };
      try {
        this.output.write(`${line}\n`, (err) => {
          if (err) this.onOutputError(err as NodeJS.ErrnoException);
          done();
        });
      } catch (e) {
        this.onOutputError(e as NodeJS.ErrnoException);
        done();
      }
    });
  }

  // ---- shutdown ---------------------------------------------------------------------------------------------

  private kick(): void {
    for (const w of [...this.waiters]) w();
  }

  /** Resolves when `done()` holds or at `deadline` (ms since the epoch), whichever comes first. */
  private waitUntil(done: () => boolean, deadline: number): Promise<void> {
    if (done()) return Promise.resolve();
    return new Promise((resolve) => {
      const finish = () => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      const check = () => {
        if (done()) finish();
      };
      const timer = setTimeout(finish, Math.max(0, deadline - Date.now()));
      this.waiters.add(check);
    });
  }

  private shuttingDown = false;

  private async shutdown(): Promise<void> {
    if (this.shuttingDown) return;
    this.shuttingDown = true;
    const start = Date.now();
    if (!this.outputBroken) await this.waitUntil(() => this.pending.size === 0, start + this.graceMs);
    await this.close();
    await this.waitUntil(() => this.writing === 0, Date.now() + this.drainMs);
    this.resolveFinished();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off("data", this.onData);
    if (this.input.listenerCount("data") === 0) this.input.pause();
    this.onclose?.();
    if (this.inputEnded && !this.shuttingDown) void this.shutdown();
    if (!this.inputEnded) {
      // Closed from the server side: nothing more will be read; finish once writes in progress are done.
      this.inputEnded = true;
      this.shuttingDown = true;
      void this.waitUntil(() => this.writing === 0, Date.now() + this.drainMs).then(() => this.resolveFinished());
    }
  }
}
