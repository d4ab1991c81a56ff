/**
 * Response lines built around exact upstream text (product.md §9: results pass through byte-faithfully, anything
 * the bridge adds goes under `_meta`). The upstream text is never parsed and re-serialised: members are inserted
 * next to it, so `content` and `structuredContent` keep every byte (`1.0`, escapes, key order, big integers).
 */
import { topLevelSpans } from "../upstream/json-rpc.js";

/** `{"jsonrpc":"2.0","id":<id>,"result":<resultText>}` */
export function resultLine(id: string | number, resultText: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":${resultText}}`;
}

/** `{"jsonrpc":"2.0","id":<id>,"error":<errorText>}` */
export function errorLine(id: string | number, errorText: string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"error":${errorText}}`;
}

function lastCloseBrace(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return text[i] === "}" ? i : -1;
}

/**
 * Adds `members` to the `_meta` object of a JSON object text (creating `_meta` when absent) without touching any
 * other byte. Returns the text unchanged when it is not an object, when `_meta` is present but not an object, or
 * when `_meta` already has one of the member names (the upstream's value is never shadowed by a duplicate key).
 */
export function withMetaMembers(objectText: string, members: Record<string, unknown>): string {
  const entries = Object.entries(members);
  if (entries.length === 0) return objectText;
  const close = lastCloseBrace(objectText);
  if (close === -1) return objectText;
  const inserted = entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(",");
  const spans = topLevelSpans(objectText);
  const meta = spans.get("_meta");
  if (meta === undefined) {
    const glue = spans.size === 0 ? "" : ",";
    return `${objectText.slice(0, close)}${glue}"_meta":{${inserted}}${objectText.slice(close)}`;
  }
  const metaText = objectText.slice(meta.start, meta.end);
  if (!metaText.startsWith("{")) return objectText;
  const existing = topLevelSpans(metaText);
  if (entries.some(([k]) => existing.has(k))) return objectText;
  const glue = existing.size === 0 ? "" : ",";
  return `${objectText.slice(0, meta.start + 1)}${inserted}${glue}${objectText.slice(meta.start + 1)}`;
}

/** The namespace of the bridge's own `_meta` keys. */
export const BRIDGE_META_PREFIX = "evidence-bridge/";

/**
 * Sets the bridge's provenance under `_meta` of a result object text (product.md §9, issue 11 item 4): the
 * upstream cannot forge or remove it. Upstream `_meta` members in the bridge's namespace are removed (and
 * counted, for the caller to report); a `_meta` that is not an object is replaced. Every other byte outside
 * `_meta` is kept; `_meta` is re-serialised only when something had to be removed.
 */
export function withProvenance(objectText: string, members: Record<string, unknown>): { text: string; removed: number } {
  const spans = topLevelSpans(objectText);
  const meta = spans.get("_meta");
  if (meta === undefined) return { text: withMetaMembers(objectText, members), removed: 0 };
  const metaText = objectText.slice(meta.start, meta.end);
  let parsed: unknown;
  try {
    parsed = JSON.parse(metaText);
  } catch {
    parsed = undefined;
  }
  const isObject = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed);
  const ours = isObject ? Object.keys(parsed as object).filter((k) => k.startsWith(BRIDGE_META_PREFIX)) : [];
  if (isObject && ours.length === 0 && !metaText.includes(BRIDGE_META_PREFIX.slice(0, -1))) {
    return { text: withMetaMembers(objectText, members), removed: 0 };
  }
  const kept: Record<string, unknown> = {};
  if (isObject) for (const [k, v] of Object.entries(parsed as object)) if (!k.startsWith(BRIDGE_META_PREFIX)) kept[k] = v;
  const replaced = JSON.stringify({ ...members, ...kept });
  return {
    text: `${objectText.slice(0, meta.start)}${replaced}${objectText.slice(meta.end)}`,
    removed: isObject ? ours.length : 1,
  };
}
