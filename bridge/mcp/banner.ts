/**
 * The banner printed to stderr when stdin is a terminal (product.md §5): where the data lives, which upstream is
 * used, how to connect a client, and how to quit. Configuration values only, never secrets (URLs with
 * credentials are refused by the configuration loader).
 */
import type { Config } from "../../src/config.js";

/** An endpoint as the banner and `doctor` show it: the URL, whether it is the publisher's default, and "offline". */
export function endpointText(url: string | undefined, chosen: string, isDefault: boolean, offlineEffect: string): string {
  const origin = isDefault ? "the publisher's default" : "configured";
  if (url === undefined) return `offline: nothing is sent to ${chosen} (${origin}); ${offlineEffect}`;
  return `${url} (${isDefault ? "the publisher's default; contacted only on first use" : "configured"})`;
}

export function bannerText(config: Config, version: string): string {
  return [
    `evidence-bridge ${version}: MCP server on stdio (JSON-RPC, one message per line on stdin; answers on stdout)`,
    `  data directory:      ${config.home}`,
    `  hosted tool server:  ${endpointText(config.mcpUrl, config.chosen.mcpUrl, config.defaults.mcpUrl, "the seven public tools answer \"offline\"")}`,
    `  published files:     ${endpointText(config.baseUrl, config.chosen.baseUrl, config.defaults.baseUrl, "readings and the pack download are off")}`,
    `  intelligence pack:   ${config.packFile ?? "the data directory's own pack; when none is installed, the pinned published pack is fetched on first need"}`,
    "  connect a client:    configure your MCP client to run this command (see docs/mcp-clients.md)",
    "  quit:                Ctrl-D (end of input)",
    "",
  ].join("\n");
}
