/** Shared types of the double's JSON-RPC layer. */
import type { PyObject } from "./py-json.js";

/** A JSON-RPC error answered with HTTP 200 and the request's id. */
export class RpcError extends Error {
  override readonly name = "RpcError";
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** An exception inside a tool: answered as `tool failed: <message>` without structuredContent. */
export class ToolFailure extends Error {
  override readonly name = "ToolFailure";
}

/** The reference drops the connection without answering (e.g. a tools/call `name` that is an array or object). */
export class DropConnection extends Error {
  override readonly name = "DropConnection";
}

/** What a tool handler produces: a payload, or a recorded response to replay with the request's id. */
export type ToolAnswer =
  | { kind: "payload"; payload: PyObject; isError?: boolean; compactText?: boolean }
  | { kind: "replay"; file: string };
