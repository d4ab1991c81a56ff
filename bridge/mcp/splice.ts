/**
 * Response lines around an upstream answer (product.md §9: anything the bridge adds goes under `_meta`), and the
 * bridge's provenance set on the answer's parsed value (issue 29 item 1). The answer was read with the strict loader
 * (bridge/upstream/upstream-json.ts) and is written again from that value, so no text of the upstream can precede,
 * shadow or forge the provenance: a duplicate `_meta` never got this far.
 */
import { isJsonObject, JsonFloat, type JsonObject, type JsonValue } from "../../src/json/value.js";

/** `{"jsonrpc":"2.0","id":<id>,"result":<resultText>}` */
export function resultLine(id: string | number, resultText: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultText}}`;
}

/** `{"jsonrpc":"2.0","id":<id>,"error":<errorText>}` */
export function errorLine(id: string | number, errorText: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${errorText}}`;
}

/** The namespace of the bridge's own `_meta` keys. */
export const BRIDGE_META_PREFIX = "evidence-bridge/";

/** A plain JS value the bridge builds (objects, arrays, strings, numbers, booleans, null) in the parsed value model. */
export function jsonValueOf(v: unknown): JsonValue {
  if (v === null || typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isInteger(v) ? v : new JsonFloat(v);
  if (Array.isArray(v)) return v.map(jsonValueOf);
  if (typeof v === "object") return new Map(Object.entries(v as object).map(([k, x]) => [k, jsonValueOf(x)]));
  throw new TypeError(`not a JSON value: ${typeof v}`);
}

/**
 * A copy of a parsed result object with the bridge's provenance under `_meta` (product.md §9, issue 11 item 4): the
 * bridge's members come first, then the upstream's own `_meta` members outside the bridge's namespace. Upstream
 * members in that namespace are removed and counted (for the caller to report); a `_meta` that is not an object is
 * replaced (counted as one). Every other member is kept, in order; without a `_meta`, one is added last.
 */
export function withProvenance(result: JsonObject, members: Record<string, unknown>): { result: JsonObject; removed: number } {
  const meta: JsonObject = new Map(Object.entries(members).map(([k, v]) => [k, jsonValueOf(v)]));
  const upstream = result.get("_meta");
  let removed = 0;
  if (isJsonObject(upstream)) {
    for (const [k, v] of upstream) {
      if (k.startsWith(BRIDGE_META_PREFIX)) removed++;
      else if (!meta.has(k)) meta.set(k, v);
    }
  } else if (upstream !== undefined) removed = 1;
  const out: JsonObject = new Map(result);
  out.set("_meta", meta);
  return { result: out, removed };
}
