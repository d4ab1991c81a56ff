/**
 * The evidence-bridge MCP server (product.md §6): six private tools, the seven proxied public tools, the readings,
 * pack and schema resources, on an `McpServer` from the SDK. Only what `initialize` and `tools/list` need is
 * loaded eagerly; the upstream client, the published-files fetcher and the private side load on first use.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { Config } from "../../src/config.js";
import type { HostedClient } from "../upstream/hosted-client.js";
import type { Agents } from "../upstream/http-transport.js";
import { PINNED_TOOLS, PUBLIC_TOOL_NAMES } from "../upstream/pinned-tools.js";
import type { PublishedFiles } from "../upstream/published-files.js";
import { StoreGuard } from "../../capsules/guard/store-guard.js";
import { messageTextsOf } from "./message-intake.js";
import type { PackPin } from "../../published/pack/pinned.js";
import { PrivateState } from "./private-state.js";
import { PRIVATE_TOOLS, registerPrivateTools } from "./private-tools.js";
import { registerPrompts } from "./prompts.js";
import { registerPublicTools } from "./public-tools.js";
import { registerResources } from "./resources.js";
import { installToolList } from "./tools-list.js";
import { WireTable } from "./wire-table.js";

export const SERVER_NAME = "evidence-bridge";

/** How long `tools/list` waits for the start-up discovery before listing the pinned tools. */
export const DISCOVERY_WAIT_MS = 1500;

const INSTRUCTIONS = `evidence-bridge keeps investigative evidence on this machine.
Private tools (local only): assess_message records a raw message from its text and your judgement in closed vocabularies (the prompt triage_message walks through it); record_assessment seals a producer's assessment JSON into the private store and previews its outward candidate; verify_capsule, list_capsules, get_candidates, match_typologies and check_regional_index read or check local data. Results never contain IOC values, message text or message hashes beyond what you sent in that call.
Public tools (research_catalog, list_signals, get_signal, get_newsroom, query_economic_observations, whats_happening, gfw_reading) are passed through to the configured hosted tool server; their arguments must be values the service itself published (signal names from list_signals, statuses and priorities from get_newsroom answers, economic values from its ledger or answers, cursors it returned), anything else is refused with -32602, and so is a value from the private store. A missing or stale measurement is not evidence of calm.
Review decisions and exports are made by a human at the command line, not through MCP.`;

export interface BridgeServerOptions {
  version: string;
  /** One-line diagnostics (stderr in the real process). */
  diagnostics?: (line: string) => void;
  discoveryWaitMs?: number;
  /** Pause before the upstream client's single retry (tests shorten it). */
  retryDelayMs?: number;
  /** The pack pin of the first-need fetch (published/pack/pinned.ts; a test may name its own synthetic pack). */
  packPin?: PackPin;
}

export interface BridgeServer {
  mcp: McpServer;
  wire: WireTable;
  state: PrivateState;
  /** The upstream client (created on first use), or undefined when offline. */
  hostedClient(): Promise<HostedClient | undefined>;
  /**
   * Starts the upstream discovery in the background (after connect), for an endpoint the user configured. The
   * publisher's default endpoint is never contacted before the first public-tool call (product.md §4).
   */
  startDiscovery(): void;
  close(): Promise<void>;
}

/** Error text for stderr: one line, and never the JSON of a message (the SDK quotes whole messages in some errors). */
export function safeErrorLine(e: Error): string {
  const first = (e.message ?? String(e)).split("\n")[0];
  const cut = first.search(/[{[]/);
  return (cut === -1 ? first : `${first.slice(0, cut)}…`).slice(0, 300);
}

export function createBridgeServer(config: Config, opts: BridgeServerOptions): BridgeServer {
  const diagnostics = opts.diagnostics ?? (() => undefined);
  const wire = new WireTable();
  const state = new PrivateState(config, { pin: opts.packPin, notice: opts.diagnostics });
  const egress = new StoreGuard();

  let hostedPromise: Promise<HostedClient> | undefined;
  const hosted =
    config.mcpUrl === undefined
      ? undefined
      : () =>
          (hostedPromise ??= import("../upstream/hosted-client.js").then(
            ({ HostedClient }) =>
              new HostedClient({
                mcpUrl: config.mcpUrl!,
                baseUrl: config.baseUrl,
                timeoutMs: config.timeoutMs,
                retryDelayMs: opts.retryDelayMs,
                guard: () => egress.guard,
                diagnostics,
                clientInfo: { name: SERVER_NAME, version: opts.version },
              }),
          ));

  let agents: Agents | undefined;
  let publishedPromise: Promise<PublishedFiles> | undefined;
  const published =
    config.baseUrl === undefined
      ? undefined
      : () =>
          (publishedPromise ??= Promise.all([import("../upstream/published-files.js"), import("../upstream/http-transport.js")]).then(([p, h]) => {
            agents = new h.Agents();
            return new p.PublishedFiles({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs, retryDelayMs: opts.retryDelayMs }, agents);
          }));

  const mcp = new McpServer({ name: SERVER_NAME, version: opts.version }, { instructions: INSTRUCTIONS });
  mcp.server.onerror = (e) => diagnostics(`mcp: ${safeErrorLine(e)}`);
  // Every message text a request carries is remembered before the SDK validates or dispatches it (message-intake.ts).
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
          .catch((e: Error) => diagnostics(`message fingerprint not written yet: ${safeErrorLine(e)}`));
      }
      dispatch?.(message, extra);
    };
  };

  registerPrivateTools(mcp, { state, wire, egress, version: opts.version });
  registerPublicTools(mcp, { hosted, wire, egress, state, timeoutMs: config.timeoutMs });
  registerResources(mcp, { published, state });
  registerPrompts(mcp);

  // tools/list_changed after a discovery that changed the public list, once the client has finished initializing.
  let clientReady = false;
  let changePending = false;
  const announceChange = () => {
    if (clientReady && changePending && mcp.isConnected()) {
      changePending = false;
      mcp.sendToolListChanged();
    }
  };
  mcp.server.oninitialized = () => {
    clientReady = true;
    announceChange();
  };

  let discovery: Promise<unknown> | undefined;
  const waitMs = opts.discoveryWaitMs ?? DISCOVERY_WAIT_MS;
  installToolList(mcp, PRIVATE_TOOLS, async () => {
    if (!hosted) return undefined;
    if (discovery) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([discovery, new Promise((r) => (timer = setTimeout(r, waitMs)))]);
      clearTimeout(timer);
    }
    return hosted();
  });

  return {
    mcp,
    wire,
    state,
    hostedClient: async () => (hosted ? hosted() : undefined),
    startDiscovery() {
      if (!hosted || discovery || config.defaults.mcpUrl) return;
      discovery = hosted()
        .then(async (c) => {
          await c.discover();
          // Clients that listed the pinned tools before discovery finished learn that the list changed.
          const names = c.listTools().map((t) => `${t.name}\u0000${t.title}\u0000${t.description}`);
          const pinned = PUBLIC_TOOL_NAMES.map((n) => `${n}\u0000${PINNED_TOOLS[n].title}\u0000${PINNED_TOOLS[n].description}`);
          if (names.join("\n") !== pinned.join("\n")) {
            changePending = true;
            announceChange();
          }
        })
        .catch((e: Error) => diagnostics(`tool discovery failed: ${safeErrorLine(e)}`));
    },
    async close() {
      await mcp.close();
      if (hostedPromise) (await hostedPromise).close();
      agents?.destroy();
    },
  };
}
