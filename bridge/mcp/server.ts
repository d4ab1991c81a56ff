/**
 * The evidence-bridge MCP server behind the start-up session (./bridge-session.ts): the seven private tools, the
 * seven proxied public tools, the readings, pack and schema resources and the prompt, on an `McpServer` from the
 * SDK. This module (the SDK, zod, the tool schemas, the guard) loads on the first request the session does not
 * answer itself; `initialize`, `ping` and `tools/list` never wait for it (docs/startup.md).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ListToolsRequestSchema, type Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../../src/config.js";
import type { StoreGuard } from "../../capsules/guard/store-guard.js";
import { messageTextsOf } from "./message-intake.js";
import type { PackPin } from "../../published/pack/pinned.js";
import { safeErrorLine } from "./error-line.js";
import { INSTRUCTIONS, SERVER_NAME } from "./initialize-answer.js";
import { PrivateState } from "./private-state.js";
import { registerPrivateTools } from "./private-tools.js";
import { registerPrompts } from "./prompts.js";
import { registerPublicTools } from "./public-tools.js";
import { registerResources } from "./resources.js";
import type { UpstreamHandles } from "./upstream-handles.js";
import type { WireTable } from "./wire-table.js";

export { safeErrorLine, SERVER_NAME };

export interface BridgeServerDeps {
  version: string;
  /** One-line diagnostics (stderr in the real process). */
  diagnostics: (line: string) => void;
  wire: WireTable;
  upstream: UpstreamHandles;
  /** The egress guard the upstream client asks too (capsules/guard/store-guard.ts). */
  egress: StoreGuard;
  /** The private state the session's own public calls use too (a new one when not given). */
  state?: PrivateState;
  /** The pack pin of the first-need fetch (published/pack/pinned.ts; a test may name its own synthetic pack). */
  packPin?: PackPin;
  /** Where the private state's one-line notices go (stderr when not given). */
  notice?: (line: string) => void;
  /** The session's tools/list answer (the same whoever is asked). */
  toolList: () => Promise<{ tools: Tool[] }>;
}

export interface BridgeServer {
  mcp: McpServer;
  state: PrivateState;
  egress: StoreGuard;
}

export function createBridgeServer(config: Config, deps: BridgeServerDeps): BridgeServer {
  const state = deps.state ?? new PrivateState(config, { pin: deps.packPin, notice: deps.notice });
  const egress = deps.egress;
  const mcp = new McpServer({ name: SERVER_NAME, version: deps.version }, { instructions: INSTRUCTIONS });
  mcp.server.onerror = (e) => deps.diagnostics(`mcp: ${safeErrorLine(e)}`);
  // Every message text a request carries is remembered before the SDK validates or dispatches it (message-intake.ts).
  // The session relays every message it does not answer itself (initialize, ping and tools/list carry no message
  // text) through the transport this wraps.
  const connect = mcp.connect.bind(mcp);
  mcp.connect = async (transport) => {
    await connect(transport);
    const dispatch = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const texts = messageTextsOf(message);
      if (texts.length > 0) {
        for (const t of texts) egress.rememberText(t);
        void state
          .existingStore()
          .then((store) => store && egress.writeFingerprints(store))
          .catch((e: Error) => deps.diagnostics(`message fingerprint not written yet: ${safeErrorLine(e)}`));
      }
      dispatch?.(message, extra);
    };
  };

  registerPrivateTools(mcp, { state, wire: deps.wire, egress, version: deps.version });
  registerPublicTools(mcp, { hosted: deps.upstream.hosted, wire: deps.wire, egress, state, timeoutMs: config.timeoutMs });
  registerResources(mcp, { published: deps.upstream.published, state });
  registerPrompts(mcp);
  // Replaces the SDK's tools/list handler (installed by registerTool): a tools/list the session passes on (one
  // with params it leaves to the SDK's checks) is answered from the same pinned entries.
  mcp.server.setRequestHandler(ListToolsRequestSchema, () => deps.toolList());
  return { mcp, state, egress };
}
