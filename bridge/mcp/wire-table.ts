/**
 * What the stdio transport and the tool handlers share about one JSON-RPC request, keyed by its id:
 *
 * - the exact text of `params.arguments` as the client sent it (JSON.parse would turn `5.0` into `5`, so proxied
 *   calls forward this text, and private tools read object arguments from it as exact bytes);
 * - a response override set by a proxied call: the upstream's `result` as the strict loader parsed it (written
 *   again from that value, with the bridge's provenance set on it), or the JSON-RPC `error` text the bridge built,
 *   that the transport writes instead of re-serialising the handler's plain copy.
 *
 * Entries live from the request line until its response is written or it is cancelled.
 */
import { topLevelSpans } from "../upstream/json-rpc.js";
import type { JsonObject } from "../../src/json/value.js";

export type RequestId = string | number;

export type ResponseOverride =
  /** Write `result` (an upstream result, strictly parsed) again as `result`, with `meta` members set under `_meta`. */
  | { kind: "result"; result: JsonObject; meta?: Record<string, unknown> }
  /** Write `errorText` (an error object the bridge built) verbatim as `error`. */
  | { kind: "error"; errorText: string };

/** A map key for a JSON-RPC id (numbers and strings never collide). */
export function idKey(id: RequestId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

export class WireTable {
  private readonly rawArgs = new Map<string, string>();
  private readonly overrides = new Map<string, ResponseOverride>();

  /** Records the exact `arguments` text of a tools/call request. */
  setRawArguments(id: RequestId, text: string): void {
    this.rawArgs.set(idKey(id), text);
  }

  /** The exact `arguments` text of a request, if it had an `arguments` member. */
  rawArguments(id: RequestId): string | undefined {
    return this.rawArgs.get(idKey(id));
  }

  /** The exact text of one top-level member of the request's arguments (an object given as an argument). */
  rawArgument(id: RequestId, name: string): string | undefined {
    const text = this.rawArgs.get(idKey(id));
    if (text === undefined) return undefined;
    const span = topLevelSpans(text).get(name);
    return span === undefined ? undefined : text.slice(span.start, span.end);
  }

  setOverride(id: RequestId, o: ResponseOverride): void {
    this.overrides.set(idKey(id), o);
  }

  /** Removes and returns the override of a request (called when its response is written). */
  takeOverride(id: RequestId): ResponseOverride | undefined {
    const key = idKey(id);
    const o = this.overrides.get(key);
    this.overrides.delete(key);
    return o;
  }

  /** Forgets everything about a request (answered or cancelled). */
  forget(id: RequestId): void {
    const key = idKey(id);
    this.rawArgs.delete(key);
    this.overrides.delete(key);
  }

  /** Number of requests with state (for tests: nothing leaks after answers and cancellations). */
  get size(): number {
    return new Set([...this.rawArgs.keys(), ...this.overrides.keys()]).size;
  }
}
