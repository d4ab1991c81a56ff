/**
 * The seven public tools of the hosted tool server, registered on the SDK server (product.md §9) from the pinned
 * schemas, so they exist even when the upstream is unreachable or the bridge is offline. A plain `tools/call` of one
 * of them is run by the session without the SDK (./bridge-session.ts); the SDK runs the others (params it treats
 * specially, such as a task), through the same {@link callPublicTool} (./public-call.ts, which says what a call
 * checks and answers).
 */
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import { PINNED_TOOLS, PUBLIC_TOOL_NAMES } from "../upstream/pinned-tools.js";
import { compilePinnedValidators } from "./argument-errors.js";
import { callPublicTool, type PublicToolDeps } from "./public-call.js";
import { PUBLIC_ANNOTATIONS } from "./public-annotations.js";

export { PROXY_META_KEY, relayedError, UNTRUSTED_LABEL, type PublicToolDeps } from "./public-call.js";
// Kept in its own module so that tools/list needs none of this one's imports (start-up, docs/startup.md).
export { PUBLIC_ANNOTATIONS };

/** Registers the seven proxied tools on the server. */
export function registerPublicTools(server: McpServer, deps: PublicToolDeps): void {
  compilePinnedValidators(PUBLIC_TOOL_NAMES);
  for (const name of PUBLIC_TOOL_NAMES) {
    const pinned = PINNED_TOOLS[name];
    server.registerTool(
      name,
      {
        title: pinned.title,
        description: pinned.description,
        // Any object passes the SDK's own check (which would answer an isError result); callPublicTool checks the
        // pinned schema and answers -32602. tools/list shows the pinned schema (tools-list.ts).
        inputSchema: z.looseObject({}),
        annotations: { title: pinned.title, ...PUBLIC_ANNOTATIONS },
      },
      (args, extra) => callPublicTool(name, args as Record<string, unknown>, extra, deps),
    );
  }
}
