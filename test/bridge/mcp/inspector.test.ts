/**
 * One run with the MCP Inspector CLI (`@modelcontextprotocol/inspector-cli` 1.x) against the compiled bridge and
 * the hosted double, as documented in docs/mcp-clients.md. The Inspector exits 0 even when a tool call fails, so
 * the test reads its JSON output.
 *
 * The Inspector is not a dependency of the project: the test runs when it is installed in node_modules or when
 * EVIDENCE_BRIDGE_INSPECTOR_CLI names its `build/cli.js`, and is skipped with that reason otherwise.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startHostedDouble, type HostedDouble } from "../../double/hosted-server.js";
import { hasShared, repoRoot } from "../../helpers/shared.js";
import { BIN, ensureBuilt } from "./compiled.js";
import { PACK_PATH, removeTempHomes, tempHome } from "./session.js";

const run = promisify(execFile);

function inspectorCli(): string | undefined {
  const fromEnv = process.env.EVIDENCE_BRIDGE_INSPECTOR_CLI;
  if (fromEnv) return existsSync(fromEnv) ? fromEnv : undefined;
  try {
    const pkg = createRequire(join(repoRoot, "package.json")).resolve("@modelcontextprotocol/inspector-cli/package.json");
    return join(dirname(pkg), "build/cli.js");
  } catch {
    return undefined;
  }
}

const CLI = inspectorCli();
const suite = CLI && hasShared ? describe : describe.skip;
const reason = CLI
  ? "../shared is absent"
  : "@modelcontextprotocol/inspector-cli is not installed (add it as a devDependency or set EVIDENCE_BRIDGE_INSPECTOR_CLI to its build/cli.js)";

suite(`MCP Inspector CLI against the compiled bridge${CLI && hasShared ? "" : ` (skipped: ${reason})`}`, () => {
  let d: HostedDouble;
  let home: string;
  beforeAll(async () => {
    ensureBuilt();
    d = await startHostedDouble({ toolset: "current" });
    home = tempHome();
  }, 180_000);
  afterAll(async () => {
    await d?.close();
    removeTempHomes();
  });

  /**
   * Runs `mcp-inspector-cli --cli node dist/bridge/cli/bin.js <flags> <method args>` and parses its stdout. The
   * working directory is dist/: Inspector CLI 1.0.x looks for its own package.json relative to the working
   * directory's parent (see docs/mcp-clients.md).
   */
  async function inspect(methodArgs: string[]): Promise<{ json: Record<string, unknown>; stderr: string }> {
    const bridge = [BIN, "--home", home, "--pack", PACK_PATH, "--mcp-url", d.url, "--base-url", d.baseUrl];
    const { stdout, stderr } = await run(process.execPath, [CLI!, "--cli", process.execPath, ...bridge, ...methodArgs], {
      cwd: join(repoRoot, "dist"),
      maxBuffer: 64 * 1024 * 1024,
    });
    return { json: JSON.parse(stdout) as Record<string, unknown>, stderr };
  }

  test("tools/list shows the thirteen tools", async () => {
    const { json } = await inspect(["--method", "tools/list"]);
    expect((json.tools as { name: string }[]).map((t) => t.name)).toHaveLength(14);
  });

  test("a private tool call and a proxied call return structured results", async () => {
    const match = await inspect(["--method", "tools/call", "--tool-name", "match_typologies", "--tool-arg", "text=Bank account on rent chahiye"]);
    expect((match.json.structuredContent as { pack_sha256: string }).pack_sha256).toMatch(/^[0-9a-f]{64}$/);
    const signals = await inspect(["--method", "tools/call", "--tool-name", "list_signals"]);
    expect(signals.json.isError).toBe(false);
    expect(d.mcpPosts().some((p) => p.body.includes('"list_signals"'))).toBe(true);
  });

  test("a failing tool exits 0 too: the output carries isError", async () => {
    const { json } = await inspect(["--method", "tools/call", "--tool-name", "verify_capsule", "--tool-arg", `capsule_sha256=${"0".repeat(64)}`]);
    expect(json.isError).toBe(true);
    expect((json._meta as Record<string, { status: string }>)["evidence-bridge/error"].status).toBe("not_found");
    expect(json.structuredContent).toBeUndefined();
  });
});
