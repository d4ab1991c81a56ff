/**
 * JSON-RPC bodies for the upstream client: building single-message requests, and reading responses while
 * keeping the exact text of `result` / `error` (hosted-tool-server.md §7: results pass through byte for byte;
 * `JSON.parse` would turn `1.0` into `1`, reorder integer-like keys and lose big-integer precision).
 */

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

/**
 * True when an event's data is the response to request `id`: a JSON-RPC response (result or error, no method)
 * whose id is `id`, or an error with id null (the server could not read the request; correlated by exchange).
 * Server notifications and requests, and responses to other ids, are not.
 */
export function answersRequest(data: string, id: number): boolean {
  const r = jsonObject(data);
  if (r === undefined) return false;
  if ("method" in r || !("result" in r || "error" in r)) return false;
  return r.id === id || (r.id === null && "error" in r);
}

/** True when `data` is a JSON-RPC notification (a `method` and no `id`) of the given method. */
export function isNotification(data: string, method: string): boolean {
  if (!data.includes(method)) return false;
  const r = jsonObject(data);
  return r !== undefined && r.method === method && !("id" in r);
}

/** The JSON object an event's data holds, or undefined (not JSON, or not an object). */
function jsonObject(data: string): Record<string, unknown> | undefined {
  let m: unknown;
  try {
    m = JSON.parse(data);
  } catch {
    return undefined;
  }
  return typeof m === "object" && m !== null && !Array.isArray(m) ? (m as Record<string, unknown>) : undefined;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type ParsedResponse =
  | { kind: "result"; result: unknown; resultText: string; id: unknown }
  | { kind: "error"; error: RpcErrorObject; errorText: string; id: unknown }
  | { kind: "invalid"; reason: string };

const utf8 = new TextDecoder("utf-8", { fatal: true });

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
 * The text with its raw CR and LF removed. In valid JSON they can only be whitespace between tokens (inside strings
 * they must be escaped), so the value is unchanged; the stdio side writes one message per line, and a streamed
 * answer may spread its JSON over several `data:` lines. Every other byte is kept.
 */
export function oneLine(text: string): string {
  return text.includes("\n") || text.includes("\r") ? text.replace(/[\r\n]/g, "") : text;
}

/** Reads a response body: a JSON-RPC 2.0 response object with exactly one of `result` / `error`. */
export function parseResponse(body: Uint8Array): ParsedResponse {
  let text: string;
  try {
    text = utf8.decode(body);
  } catch {
    return { kind: "invalid", reason: "the response body is not UTF-8" };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { kind: "invalid", reason: "the response body is not JSON" };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    return { kind: "invalid", reason: "the response body is not a JSON-RPC response object" };
  }
  const msg = parsed as Record<string, unknown>;
  if (msg.jsonrpc !== "2.0") return { kind: "invalid", reason: "the response is not JSON-RPC 2.0" };
  const hasResult = "result" in msg;
  const hasError = "error" in msg;
  if (hasResult === hasError) return { kind: "invalid", reason: "the response has neither or both of result and error" };
  const spans = topLevelSpans(text);
  if (hasResult) {
    const span = spans.get("result")!;
    return { kind: "result", result: msg.result, resultText: oneLine(text.slice(span.start, span.end)), id: msg.id };
  }
  const err = msg.error as Record<string, unknown> | null;
  if (typeof err !== "object" || err === null || !Number.isInteger(err.code) || typeof err.message !== "string") {
    return { kind: "invalid", reason: "the response error is not a JSON-RPC error object" };
  }
  const span = spans.get("error")!;
  const error: RpcErrorObject = { code: err.code as number, message: err.message };
  if ("data" in err) error.data = err.data;
  return { kind: "error", error, errorText: oneLine(text.slice(span.start, span.end)), id: msg.id };
}
