/**
 * `tools/list`: the six private tools (their JSON Schemas rendered from zod exactly as the SDK renders them) and
 * the proxied public tools with their PINNED names, titles, descriptions, annotations and input schemas, verbatim
 * (upstream text never steers the client). A tool the upstream no longer marks read-only is not listed. Without a configured upstream, or before it answers, the seven pinned tools are listed.
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { normalizeObjectSchema } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { toJsonSchemaCompat } from "@modelcontextprotocol/sdk/server/zod-json-schema-compat.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { HostedClient } from "../upstream/hosted-client.js";
import { PINNED_TOOLS, PUBLIC_TOOL_NAMES, pinnedSchemaCopy } from "../upstream/pinned-tools.js";
import type { PrivateToolDef } from "./private-tools.js";
import { PUBLIC_ANNOTATIONS } from "./public-tools.js";

function jsonSchema(schema: PrivateToolDef["input"], io: "input" | "output"): Tool["inputSchema"] {
  return toJsonSchemaCompat(normalizeObjectSchema(schema)!, { strictUnions: true, pipeStrategy: io }) as Tool["inputSchema"];
}

export function privateToolEntries(defs: readonly PrivateToolDef[]): Tool[] {
  return defs.map((t) => ({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: jsonSchema(t.input, "input"),
    outputSchema: jsonSchema(t.output, "output") as Tool["outputSchema"],
    annotations: t.annotations,
  }));
}

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

/**
 * Replaces the SDK's tools/list handler (installed by registerTool) with ours. `publicClient` resolves to the
 * upstream client after its start-up discovery has had a short chance to finish.
 */
export function installToolList(server: McpServer, defs: readonly PrivateToolDef[], publicClient: () => Promise<HostedClient | undefined>): void {
  let privateEntries: Tool[] | undefined;
  server.server.setRequestHandler(ListToolsRequestSchema, async () => {
    privateEntries ??= privateToolEntries(defs);
    return { tools: [...privateEntries, ...publicToolEntries(await publicClient())] };
  });
}
