/**
 * JSON-RPC bodies for the upstream client: building single-message requests (the client's exact argument text is
 * kept: `JSON.parse` would turn `5.0` into `5`), and reading responses and stream events with the strict loader
 * (upstream-json.ts; issue 29 item 1), which keeps `1.0` apart from `1` and key order as received.
 */
import { isJsonObject, type JsonValue } from "../../src/json/value.js";
import { parseUpstreamJson } from "./upstream-json.js";

export const MAX_REQUEST_BYTES = 262_144;

/** A request body: `{"jsonrpc":"2.0","id":<id>,"method":<method>[,"params":<paramsText>]}`. */
export function buildRequest(id: number, method: string, paramsText?: string): string {
  const params = paramsText === undefined ? "" : `,"params":${paramsText}`;
  return `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)}${params}}`;
}

/** A notification body (no id): `{"jsonrpc":"2.0","method":<method>[,"params":<paramsText>]}`. */
export function buildNotification(method: string, paramsText?: string): string {
  const params = paramsText === undefined ? "" : `,"params":${paramsText}`;
  return `{"jsonrpc":"2.0","method":${JSON.stringify(method)}${params}}`;
}

/** An upstream JSON-RPC error as the bridge keeps it: its code and its message (upstream words, relayed only labelled). */
export interface RpcErrorObject {
  code: number;
  message: string;
}

export type ParsedResponse =
  /** `result` is the parsed value (strict loader); the bridge writes it again from this value, never from the text. */
  | { kind: "result"; result: JsonValue; id: JsonValue | undefined }
  | { kind: "error"; error: RpcErrorObject; id: JsonValue | undefined }
  /** `reason` says what is wrong and quotes nothing from the body. */
  | { kind: "invalid"; reason: string };

/** Spans of the top-level members of a JSON object text (the text must already be known to be valid JSON). */
export function topLevelSpans(text: string): Map<string, { start: number; end: number }> {
  const spans = new Map<string, { start: number; end: number }>();
  let i = 0;
  const ws = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t" || text[i] === "\n" || text[i] === "\r")) i++;
  };
  const skipString = () => {
    i++;
    while (text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
  };
  const skipValue = () => {
    const c = text[i];
    if (c === '"') return skipString();
    if (c === "{" || c === "[") {
      let depth = 0;
      do {
        const d = text[i];
        if (d === '"') {
          skipString();
          continue;
        }
        if (d === "{" || d === "[") depth++;
        else if (d === "}" || d === "]") depth--;
        i++;
      } while (depth > 0);
      return;
    }
    while (i < text.length && text[i] !== "," && text[i] !== "}" && text[i] !== "]" && !/\s/.test(text[i])) i++;
  };
  ws();
  if (text[i] !== "{") return spans;
  i++;
  for (;;) {
    ws();
    if (text[i] === "}") break;
    const keyStart = i;
    skipString();
    const key = JSON.parse(text.slice(keyStart, i)) as string;
    ws();
    i++; // ':'
    ws();
    const start = i;
    skipValue();
    spans.set(key, { start, end: i });
    ws();
    if (text[i] === ",") i++;
    else break;
  }
  return spans;
}

/**
 * Reads a response body strictly (upstream-json.ts: duplicate keys, depth over 64 and the other loader rules refuse
 * it) and checks it is a JSON-RPC 2.0 response object with exactly one of `result` / `error`.
 */
export function parseResponse(body: Uint8Array | string, maxBytes: number): ParsedResponse {
  const parsed = parseUpstreamJson(body, maxBytes);
  if (!parsed.ok) return { kind: "invalid", reason: parsed.reason };
  return responseOf(parsed.value);
}

/** The JSON-RPC response a parsed message is, or why it is not one. */
export function responseOf(msg: JsonValue): ParsedResponse {
  if (!isJsonObject(msg)) return { kind: "invalid", reason: "the response body is not a JSON-RPC response object" };
  if (msg.get("jsonrpc") !== "2.0") return { kind: "invalid", reason: "the response is not JSON-RPC 2.0" };
  const result = msg.get("result");
  const err = msg.get("error");
  if ((result === undefined) === (err === undefined)) return { kind: "invalid", reason: "the response has neither or both of result and error" };
  const id = msg.get("id");
  if (result !== undefined) return { kind: "result", result, id };
  const code = isJsonObject(err) ? err.get("code") : undefined;
  const message = isJsonObject(err) ? err.get("message") : undefined;
  if (typeof code !== "number" || typeof message !== "string") {
    return { kind: "invalid", reason: "the response error is not a JSON-RPC error object" };
  }
  return { kind: "error", error: { code, message }, id };
}

/** What one event of a streamed answer is, to the request it may answer. */
export type StreamEvent =
  /** The response to the request (or a body that breaks the strict rules: refused, since it may be). */
  | { kind: "answer"; response: ParsedResponse }
  /** A JSON-RPC notification (a `method` and no `id`). */
  | { kind: "notification"; method: string }
  /** Anything else: not JSON, a server request, a response to another id. Skipped. */
  | { kind: "other" };

/**
 * Reads one event's data strictly. It answers request `id` when it is a JSON-RPC response (result or error, no
 * method) whose id is `id`, or an error with id null (the server could not read the request). Data that is JSON but
 * breaks a strict rule (a duplicate key, depth over 64) is taken as the answer and refused: what it would answer
 * cannot be known. Data that is not JSON at all is skipped.
 */
export function readEvent(data: string, id: number, maxBytes: number): StreamEvent {
  const parsed = parseUpstreamJson(data, maxBytes);
  if (!parsed.ok) return parsed.rule === "syntax" ? { kind: "other" } : { kind: "answer", response: { kind: "invalid", reason: parsed.reason } };
  const m = parsed.value;
  if (!isJsonObject(m)) return { kind: "other" };
  const method = m.get("method");
  if (method !== undefined) return typeof method === "string" && !m.has("id") ? { kind: "notification", method } : { kind: "other" };
  if (!m.has("result") && !m.has("error")) return { kind: "other" };
  const to = m.get("id");
  return to === id || (to === null && m.has("error")) ? { kind: "answer", response: responseOf(m) } : { kind: "other" };
}
