/** Fault modes of the hosted double and the bodies some of them send. */

export type FaultMode =
  /** Normal behaviour. */
  | "none"
  /** The MCP listener is closed: connections are refused (ECONNREFUSED). Leaving this mode listens again. */
  | "refuse"
  /** The request is read and recorded, then the connection is closed without a response. */
  | "drop"
  /** The request is read and recorded, then never answered (until the double closes). */
  | "hang"
  /** HTTP 500 with a non-JSON (HTML) body, as a failing reverse proxy sends. */
  | "http-500"
  /** HTTP 502 with an HTML body (reverse proxy, upstream down). */
  | "http-502"
  /** HTTP 403 with the recorded `origin not allowed` body (id null). */
  | "http-403"
  /** HTTP 413 with the recorded `request body too large` body (id null). */
  | "http-413"
  /** HTTP 200, `application/json`, a truncated (unparseable) JSON-RPC body. */
  | "malformed-json"
  /** tools/call answered with a valid success result whose whole body is exactly 4 MiB. */
  | "body-4mib"
  /** tools/call answered with a valid success result whose whole body is exactly 9 MiB, with Content-Length. */
  | "body-9mib"
  /** As body-9mib but sent chunked, without Content-Length (the size is only known by counting). */
  | "body-9mib-chunked"
  /** The normal answer, written in small chunks with pauses. */
  | "trickle"
  /** tools/list gains a write tool (`publish_note`) without readOnlyHint. */
  | "extra-write-tool"
  /** tools/list: get_signal loses its readOnlyHint. */
  | "read-only-removed"
  /** tools/list: get_signal's input schema is widened (max_rows maximum 5000, a new `raw` property). */
  | "schema-changed"
  /** Published files unreachable: signal tools answer `unavailable`, the economic tool its typed fetch error. */
  | "origin-down"
  /** One published file (`FaultSetting.file`, e.g. `readings/board-alarm-latest.json`) answers 404. */
  | "file-missing"
  /** The economic ledger bytes no longer match the manifest (integrity error). */
  | "ledger-tampered"
  /** Every published-file fetch waits `FaultSetting.delayMs` (default 2000). */
  | "slow-origin"
  /**
   * The answer as `text/event-stream` with several events before it (a comment, a priming event with an id and no
   * data, a logging notification, an event of another type and a response to another id, each of which the client
   * must skip), the answer's JSON split over two `data:` lines, written in small pieces. The stream then stays open.
   */
  | "sse-several"
  /** `text/event-stream`: a notification, then the stream ends without the answer. */
  | "sse-no-response"
  /** `text/event-stream`: a notification every 20 ms, never the answer (until the client gives up). */
  | "sse-endless"
  /** tools/call answered by one SSE event whose data is a valid 9 MiB result (no Content-Length). */
  | "sse-9mib"
  /** Session mode: the double forgets every session when this request arrives, so it is answered 404. */
  | "session-expired"
  /**
   * HTTP 200 and a JSON-RPC error (code `FaultSetting.code`, default -32602) whose message is an instruction to the
   * client with control and bidi characters in it, `FaultSetting.messageChars` long (default 5,000,000).
   */
  | "error-injection"
  /**
   * HTTP `FaultSetting.status` (default 400, a 5xx status is retried by the client) whose `application/json` body is
   * a JSON-RPC error carrying the same instruction (`messageChars` default 2,000).
   */
  | "http-error-body"
  /** tools/call answered with a result holding two `_meta` members, the first forging the bridge's provenance. */
  | "duplicate-meta"
  /** tools/call answered with a result holding two `content` members, the first carrying an instruction. */
  | "duplicate-content"
  /** tools/call answered with a result whose structuredContent nests `FaultSetting.depth` arrays (default 100,000). */
  | "deep-nesting"
  /** tools/call answered with a valid result that carries another request's id. */
  | "other-id";

export interface FaultSetting {
  mode: FaultMode;
  /** Apply the fault to this many matching MCP requests, then return to "none". Not for "refuse". */
  times?: number;
  /** JSON-RPC methods the transport and body faults apply to (default: all for transport faults, tools/call for body faults). */
  methods?: string[];
  /** file-missing: the published path that answers 404. */
  file?: string;
  /** slow-origin: delay per fetch in milliseconds. */
  delayMs?: number;
  /** trickle: bytes per chunk (default 512) and pause between chunks (default 5 ms). */
  trickleBytes?: number;
  trickleIntervalMs?: number;
  /** origin-down: the exception text written into `unavailable` (default the reference's connection-refused text). */
  downReason?: string;
  /** error-injection, http-error-body: the JSON-RPC error code and the message length in characters. */
  code?: number;
  messageChars?: number;
  /** http-error-body: the HTTP status. */
  status?: number;
  /** deep-nesting: how many arrays deep structuredContent goes. */
  depth?: number;
}

/**
 * The hostile answers (hostile.ts): tools/call by default, like the body faults; sent as one event when the double
 * frames its answers as an event stream, so the bridge meets them in both forms.
 */
export const HOSTILE_FAULTS: readonly FaultMode[] = ["error-injection", "http-error-body", "duplicate-meta", "duplicate-content", "deep-nesting", "other-id"];

/** Faults applied per MCP request (the others change state: tool list, origin, listener). */
export const REQUEST_FAULTS = new Set<FaultMode>([
  "drop",
  "hang",
  "http-500",
  "http-502",
  "http-403",
  "http-413",
  "malformed-json",
  "body-4mib",
  "body-9mib",
  "body-9mib-chunked",
  "trickle",
  "sse-several",
  "sse-no-response",
  "sse-endless",
  "sse-9mib",
  "session-expired",
  ...HOSTILE_FAULTS,
]);

export const BODY_FAULTS = new Set<FaultMode>(["body-4mib", "body-9mib", "body-9mib-chunked", "sse-9mib", ...HOSTILE_FAULTS]);

/** One SSE event: optional `event:` and `id:` fields, then each data line (none for a data-less event). */
export function sseEvent(dataLines: string[], opts: { event?: string; id?: string } = {}): string {
  const head = `${opts.event === undefined ? "" : `event: ${opts.event}\n`}${opts.id === undefined ? "" : `id: ${opts.id}\n`}`;
  return `${head}${dataLines.map((l) => `data: ${l}\n`).join("")}\n`;
}

/** The notice a server sends when its tool list changed (MCP 2025-06-18, `listChanged`); the client re-discovers. */
export const TOOLS_LIST_CHANGED_NOTIFICATION = '{"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}';

/** A logging notification the server may send on any stream (the client ignores it). */
export const SSE_NOTIFICATION = '{"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": "working"}}';

export function normalizeFault(f: FaultMode | FaultSetting | undefined): FaultSetting {
  if (f === undefined) return { mode: "none" };
  return typeof f === "string" ? { mode: f } : { ...f };
}

export function htmlErrorPage(status: number, reason: string): string {
  return `<html>\r\n<head><title>${status} ${reason}</title></head>\r\n<body>\r\n<center><h1>${status} ${reason}</h1></center>\r\n</body>\r\n</html>\r\n`;
}

/**
 * A valid JSON-RPC success body of exactly `size` bytes: a tools/call result whose single text item is padded so
 * that the whole body has that length.
 */
export function paddedResultBody(idText: string, size: number): Buffer {
  const head = `{"jsonrpc": "2.0", "id": ${idText}, "result": {"content": [{"type": "text", "text": "`;
  const tail = `"}], "structuredContent": {"padding": true}, "isError": false}}`;
  const pad = size - head.length - tail.length;
  if (pad < 0) throw new Error("padded body too small for its envelope");
  const buf = Buffer.alloc(size, 0x61);
  buf.write(head, 0, "latin1");
  buf.write(tail, size - tail.length, "latin1");
  return buf;
}

export const MALFORMED_BODY = '{"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "{\\"signal\\": ';
