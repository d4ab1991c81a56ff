/**
 * The JSON-RPC 2.0 message check of the stdio transport, without the SDK's zod schemas (so start-up does not build
 * them; docs/startup.md). It accepts exactly what `JSONRPCMessageSchema` of @modelcontextprotocol/sdk 1.32 accepts:
 * a request (`jsonrpc` "2.0", `id` a string or safe integer, `method` a string, optional object `params`), a
 * notification (the same without `id`), a result response (`id`, object `result`) or an error response (optional
 * `id`, `error` with an integer `code`, a string `message`, any `data`); no other top-level member. `params._meta`
 * and `result._meta`, when present, are objects whose `progressToken` is a string or safe integer and whose
 * `io.modelcontextprotocol/related-task` is an object with a string `taskId`.
 * test/bridge/mcp/jsonrpc-message.test.ts compares the two on every case.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** The JSON-RPC error codes the bridge writes (the values of the SDK's `ErrorCode`). */
export const RpcErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
} as const;

const RELATED_TASK = "io.modelcontextprotocol/related-task";

type Obj = Record<string, unknown>;

export function isPlainObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function isId(v: unknown): boolean {
  return typeof v === "string" || (typeof v === "number" && Number.isSafeInteger(v));
}

function onlyKeys(o: Obj, allowed: readonly string[]): boolean {
  for (const k of Object.keys(o)) if (!allowed.includes(k)) return false;
  return true;
}

/** `_meta` of request params, notification params and results (the SDK's loose `RequestMetaSchema`). */
function validMeta(meta: unknown): boolean {
  if (meta === undefined) return true;
  if (!isPlainObject(meta)) return false;
  if (meta.progressToken !== undefined && !isId(meta.progressToken)) return false;
  const task = meta[RELATED_TASK];
  if (task !== undefined && !(isPlainObject(task) && typeof task.taskId === "string")) return false;
  return true;
}

function validParams(params: unknown): boolean {
  return params === undefined || (isPlainObject(params) && validMeta(params._meta));
}

function isRequest(m: Obj): boolean {
  return onlyKeys(m, ["jsonrpc", "id", "method", "params"]) && isId(m.id) && typeof m.method === "string" && validParams(m.params);
}

function isNotification(m: Obj): boolean {
  return onlyKeys(m, ["jsonrpc", "method", "params"]) && typeof m.method === "string" && validParams(m.params);
}

function isResult(m: Obj): boolean {
  return onlyKeys(m, ["jsonrpc", "id", "result"]) && isId(m.id) && isPlainObject(m.result) && validMeta(m.result._meta);
}

function isError(m: Obj): boolean {
  if (!onlyKeys(m, ["jsonrpc", "id", "error"]) || (m.id !== undefined && !isId(m.id))) return false;
  const e = m.error;
  return isPlainObject(e) && typeof e.code === "number" && Number.isSafeInteger(e.code) && typeof e.message === "string";
}

/** The value as a JSON-RPC message when it is one (the same value, not a copy), else undefined. */
export function asJsonRpcMessage(value: unknown): JSONRPCMessage | undefined {
  if (!isPlainObject(value) || value.jsonrpc !== "2.0") return undefined;
  return isRequest(value) || isNotification(value) || isResult(value) || isError(value) ? (value as JSONRPCMessage) : undefined;
}
