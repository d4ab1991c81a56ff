/**
 * Every message text a client gives the bridge over MCP, read from the request itself before any validation (issue
 * 28 item 5): `assess_message` (`message_text`, and the judgement's `source`), `record_assessment`
 * (`message_text`), `match_typologies` (`text`) and the `triage_message` prompt (`message`). The server remembers
 * each one in its outward guard (capsules/guard/store-guard.ts) and seals its fingerprint into the store, so a
 * call refused by validation, or a text given to a tool that stores nothing, still guards every later outward
 * text, in this process and in later ones.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Which string arguments of which request carry message text. */
const TOOL_TEXTS: Readonly<Record<string, readonly string[]>> = {
  assess_message: ["message_text", "source"],
  record_assessment: ["message_text"],
  match_typologies: ["text"],
};
const PROMPT_TEXTS: Readonly<Record<string, readonly string[]>> = { triage_message: ["message"] };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);

/** The message texts `message` gives the bridge (none for any other request). */
export function messageTextsOf(message: JSONRPCMessage): string[] {
  const m = message as Record<string, unknown>;
  if (!isObject(m.params) || typeof m.params.name !== "string") return [];
  const table = m.method === "tools/call" ? TOOL_TEXTS : m.method === "prompts/get" ? PROMPT_TEXTS : undefined;
  const names = table !== undefined && Object.hasOwn(table, m.params.name) ? table[m.params.name] : undefined;
  const args = m.params.arguments;
  if (names === undefined || !isObject(args)) return [];
  const out: string[] = [];
  for (const n of names) if (Object.hasOwn(args, n) && typeof args[n] === "string" && args[n] !== "") out.push(args[n] as string);
  return out;
}
