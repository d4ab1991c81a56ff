/**
 * The client configuration in docs/mcp-clients.md and the registry manifest server.json: every JSON block parses
 * into a stdio server entry that names only real configuration variables, the local-checkout block works as
 * written (its command and args, with the checkout path filled in, start a server an SDK client talks to), and
 * server.json matches the package and the registry format's rules.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, test } from "vitest";
import { startHostedDouble } from "../../double/hosted-server.js";
import { describeShared, repoRoot } from "../../helpers/shared.js";
import { ensureBuilt } from "./compiled.js";
import { PACK_PATH, removeTempHomes, tempHome } from "./session.js";
import { childEnv } from "../../helpers/test-env.js";

afterAll(removeTempHomes);

const CONFIG_ENV = ["EVIDENCE_BRIDGE_HOME", "EVIDENCE_BRIDGE_MCP_URL", "EVIDENCE_BRIDGE_BASE_URL", "EVIDENCE_BRIDGE_OFFLINE", "EVIDENCE_BRIDGE_PACK", "EVIDENCE_BRIDGE_TIMEOUT_MS", "EVIDENCE_BRIDGE_PASSPHRASE"];
const PKG = JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { name: string; version: string };

interface Entry {
  type?: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

function jsonBlocks(): Entry[] {
  const md = readFileSync(join(repoRoot, "docs/mcp-clients.md"), "utf8");
  const blocks = [...md.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]) as Record<string, Record<string, Entry>>);
  return blocks.map((b) => (b.mcpServers ?? b.servers)["evidence-bridge"]);
}

describe("docs/mcp-clients.md", () => {
  test("every block is a stdio entry for evidence-bridge naming only real configuration variables", () => {
    const entries = jsonBlocks();
    expect(entries.length).toBeGreaterThanOrEqual(3);
    for (const e of entries) {
      // The installed bin (package tarball) or a checkout's bundle; never `npx` of a name we have not published.
      expect(["evidence-bridge", "node"]).toContain(e.command);
      if (e.type !== undefined) expect(e.type).toBe("stdio");
      if (e.command === PKG.name) expect(e.args ?? []).toEqual([]);
      else expect(e.args[0]).toMatch(/^\/path\/to\/evidence-bridge\/dist\/(bundle|bridge\/cli)\/bin\.js$/);
      for (const k of Object.keys(e.env ?? {})) expect(CONFIG_ENV).toContain(k);
    }
    // The names agree with the configuration loader.
    const config = readFileSync(join(repoRoot, "src/config.ts"), "utf8");
    for (const k of CONFIG_ENV) expect(config).toMatch(new RegExp(`\\b${k}\\b`));
  });
});

describeShared("the local-checkout block works as written", () => {
  test("its command and args (checkout path filled in) serve a client", async () => {
    ensureBuilt();
    const block = jsonBlocks().find((e) => e.command === "node")!;
    const d = await startHostedDouble({ toolset: "current" });
    const env: Record<string, string> = childEnv(block.env);
    env.EVIDENCE_BRIDGE_MCP_URL = d.url;
    env.EVIDENCE_BRIDGE_BASE_URL = d.baseUrl;
    env.EVIDENCE_BRIDGE_PACK = PACK_PATH;
    env.EVIDENCE_BRIDGE_HOME = tempHome();
    const transport = new StdioClientTransport({
      command: block.command === "node" ? process.execPath : block.command,
      args: block.args.map((a) => a.replace("/path/to/evidence-bridge", repoRoot)),
      env,
      stderr: "pipe",
    });
    const client = new Client({ name: "docs-check", version: "1" });
    try {
      await client.connect(transport);
      expect(client.getServerVersion()?.name).toBe("evidence-bridge");
      expect((await client.listTools()).tools).toHaveLength(14);
      const r = await client.callTool({ name: "list_signals", arguments: {} });
      expect(r.isError).toBe(false);
    } finally {
      await client.close();
      await d.close();
    }
  }, 180_000);
});

describe("server.json", () => {
  const manifest = JSON.parse(readFileSync(join(repoRoot, "server.json"), "utf8")) as {
    $schema: string;
    name: string;
    description: string;
    version: string;
    packages: { registryType: string; identifier: string; version: string; transport: { type: string }; environmentVariables: { name: string; isSecret?: boolean }[] }[];
  };

  test("follows the registry format's rules and matches package.json", () => {
    expect(manifest.$schema).toMatch(/^https:\/\/static\.modelcontextprotocol\.io\/schemas\/\d{4}-\d{2}-\d{2}\/server\.schema\.json$/);
    expect(manifest.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(manifest.description.length).toBeGreaterThan(0);
    expect(manifest.description.length).toBeLessThanOrEqual(100);
    expect(manifest.version).toBe(PKG.version);
    expect(manifest.packages).toHaveLength(1);
    const [p] = manifest.packages;
    expect(p).toMatchObject({ registryType: "npm", identifier: PKG.name, version: PKG.version, transport: { type: "stdio" } });
    expect(p.version).not.toBe("latest");
  });

  test("declares exactly the configuration variables, the passphrase as a secret", () => {
    const vars = manifest.packages[0].environmentVariables;
    expect(vars.map((v) => v.name).sort()).toEqual([...CONFIG_ENV].sort());
    expect(vars.find((v) => v.name === "EVIDENCE_BRIDGE_PASSPHRASE")?.isSecret).toBe(true);
  });
});
