/**
 * Result shapes shared by the private tools: a structured result whose text content is the same JSON (for clients
 * that show text only), a precise isError result, and the bytes of a document argument.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { hasLoneSurrogate } from "../../src/json/value.js";

/**
 * `text`: a short sentence a model can read (clients differ in whether they show text or structured content);
 * without it the text content is the JSON itself.
 */
export function structuredResult(value: object, isError = false, text?: string): CallToolResult {
  const out: CallToolResult = {
    content: text === undefined ? [{ type: "text", text: JSON.stringify(value) }] : [{ type: "text", text }, { type: "text", text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
  if (isError) out.isError = true;
  return out;
}

/** Where an error result's machine-readable details go. */
export const ERROR_META_KEY = "evidence-bridge/error";

/**
 * An isError result: the reason as text, and `{status, reason, ...details}` under `_meta` (`status` is a short
 * machine word: `rejected`, `invalid`, `not_found`, ...). Not as structuredContent: clients validate structured
 * content against the tool's output schema even on errors (the SDK client does), and these tools have one.
 */
export function errorResult(status: string, reason: string, details: Record<string, unknown> = {}): CallToolResult {
  return { isError: true, content: [{ type: "text", text: reason }], _meta: { [ERROR_META_KEY]: { status, reason, ...details } } };
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
