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
