/**
 * Result shapes shared by the private tools: a structured result whose text content is the same JSON (for clients
 * that show text only), a precise isError result `{status, reason, ...}`, and the bytes of a document argument.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { hasLoneSurrogate } from "../../src/json/value.js";

export function structuredResult(value: object, isError = false): CallToolResult {
  const out: CallToolResult = { content: [{ type: "text", text: JSON.stringify(value) }], structuredContent: value as Record<string, unknown> };
  if (isError) out.isError = true;
  return out;
}

/** An isError result: `status` is a short machine word (`rejected`, `invalid`, `not_found`, ...), `reason` one line. */
export function errorResult(status: string, reason: string, details: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: "text", text: reason }], structuredContent: { status, reason, ...details } };
}

const encoder = new TextEncoder();

/** A document argument that has no UTF-8 form. */
export class DocumentError extends Error {
  override readonly name = "DocumentError";
}

/**
 * The exact bytes of a document argument: JSON text as given, or an object as the client wrote it (`raw`, from the
 * request line). Without the raw text (never the case over stdio) the object is serialised. A JSON text string
 * holding a lone surrogate (possible through `\ud800` escapes) cannot be UTF-8 and is refused, not replaced.
 */
export function documentBytes(name: string, value: unknown, raw: string | undefined): Uint8Array {
  if (typeof value === "string") {
    if (hasLoneSurrogate(value)) throw new DocumentError(`${name}: the JSON text contains a lone surrogate, which UTF-8 cannot encode`);
    return encoder.encode(value);
  }
  return encoder.encode(raw ?? JSON.stringify(value));
}
