/**
 * `tools/list`: the seven private tools (their pinned entries, ./private-tool-list.ts, rendered from zod exactly as
 * the SDK renders them) and the proxied public tools with their PINNED names, titles, descriptions, annotations and
 * input schemas, verbatim (upstream text never steers the client). A tool the upstream no longer marks read-only is
 * not listed. Without a configured upstream, or before it answers, the seven pinned tools are listed. Nothing here
 * loads zod or the MCP SDK: tools/list is answered at start-up (docs/startup.md).
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { HostedClient } from "../upstream/hosted-client.js";
import { PINNED_TOOLS, PUBLIC_TOOL_NAMES, pinnedSchemaCopy } from "../upstream/pinned-tools.js";
import { PRIVATE_TOOL_LIST } from "./private-tool-list.js";
import { PUBLIC_ANNOTATIONS } from "./public-annotations.js";

/** Public entries from the upstream client's view (or the pins when there is no client). */
export function publicToolEntries(client: HostedClient | undefined): Tool[] {
  const exposed = client
    ? client.listTools().map((t) => ({ name: t.name, title: t.title, description: t.description }))
    : PUBLIC_TOOL_NAMES.map((n) => ({ name: n, title: PINNED_TOOLS[n].title, description: PINNED_TOOLS[n].description }));
  return exposed.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: pinnedSchemaCopy(t.name) as Tool["inputSchema"],
    annotations: { title: t.title, ...PUBLIC_ANNOTATIONS },
  }));
}

/** The tools/list result; `publicClient` resolves to the upstream client after its discovery had a short chance. */
export async function toolListResult(publicClient: () => Promise<HostedClient | undefined>): Promise<{ tools: Tool[] }> {
  return { tools: [...PRIVATE_TOOL_LIST, ...publicToolEntries(await publicClient())] };
}
