/**
 * The banner printed to stderr when stdin is a terminal (product.md §5): where the data lives, which upstream is
 * used, how to connect a client, and how to quit. Configuration values only, never secrets (URLs with
 * credentials are refused by the configuration loader).
 */
import type { Config } from "../../src/config.js";

export function bannerText(config: Config, version: string): string {
  return [
    `evidence-bridge ${version}: MCP server on stdio (JSON-RPC, one message per line on stdin; answers on stdout)`,
    `  data directory:      ${config.home}`,
    `  hosted tool server:  ${config.mcpUrl ?? "not configured (the seven public tools answer \"not configured\"; set EVIDENCE_BRIDGE_MCP_URL or --mcp-url)"}`,
    `  published files:     ${config.baseUrl ?? "not configured (readings unavailable; set EVIDENCE_BRIDGE_BASE_URL or --base-url)"}`,
    `  intelligence pack:   ${config.packFile ?? "the data directory's own pack when installed (pack install FILE, or EVIDENCE_BRIDGE_PACK)"}`,
    "  connect a client:    configure your MCP client to run this command (see docs/mcp-clients.md)",
    "  quit:                Ctrl-D (end of input)",
    "",
  ].join("\n");
}
