/**
 * The Claude Desktop bundle (issue 13 item 6): `npm run mcpb` output is validated with the mcpb tool, unpacked,
 * and the server is launched exactly as its manifest says (${__dirname} and ${user_config.*} substituted), then
 * answers initialize and tools/list. Needs `npm run build` first.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../helpers/shared.js";
import { probeServer } from "./mcp-probe.js";

const MCPB_CLI = join(repoRoot, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
const work = mkdtempSync(join(tmpdir(), "eb-mcpb-"));
const unpacked = join(work, "unpacked");

interface Manifest {
  server: { type: string; entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
  user_config: Record<string, { type: string; title: string; description: string; required?: boolean }>;
  privacy_policies: string[];
  compatibility: { runtimes: { node: string } };
}
let manifest: Manifest;

beforeAll(() => {
  if (!existsSync(join(repoRoot, "dist/bundle/bin.js"))) throw new Error("run npm run build first: dist/bundle/bin.js is missing");
  const out = execFileSync(process.execPath, [join(repoRoot, "scripts/mcpb.mjs")], { cwd: repoRoot, encoding: "utf8" }).trim().split("\n").pop()!;
  execFileSync(process.execPath, [MCPB_CLI, "unpack", join(repoRoot, out), unpacked], { encoding: "utf8" });
  manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as Manifest;
}, 240_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

/** ${__dirname}, ${user_config.KEY} and ${HOME} as the client substitutes them. */
function substitute(value: string, config: Record<string, string>): string {
  return value.replace(/\$\{([A-Za-z_.]+)\}/g, (whole, key: string) => {
    if (key === "__dirname") return unpacked;
    if (key === "HOME") return work;
    if (key.startsWith("user_config.")) return config[key.slice("user_config.".length)] ?? "";
    throw new Error(`unexpected placeholder ${whole}`);
  });
}

describe("the MCP Bundle", () => {
  test("its manifest passes 'mcpb validate' and declares server, user_config, privacy policy and Node >= 20", () => {
    expect(execFileSync(process.execPath, [MCPB_CLI, "validate", join(unpacked, "manifest.json")], { encoding: "utf8" })).toMatch(/valid/i);
    expect(manifest.server.type).toBe("node");
    expect(existsSync(join(unpacked, manifest.server.entry_point))).toBe(true);
    expect(Object.keys(manifest.user_config).sort()).toEqual(["base_url", "data_dir", "mcp_url", "pack_file"]);
    expect(Object.values(manifest.server.mcp_config.env).sort()).toEqual(Object.keys(manifest.user_config).map((k) => `\${user_config.${k}}`).sort());
    expect(manifest.privacy_policies.length).toBeGreaterThan(0);
    expect(manifest.compatibility.runtimes.node).toMatch(/^>=20/);
  });

  test("launched as the manifest says, with and without user config, it answers initialize and tools/list", async () => {
    const { command, args, env } = manifest.server.mcp_config;
    const configs: Array<Record<string, string>> = [{}, { data_dir: join(work, "data"), pack_file: join(repoRoot, "examples/synthetic/intelligence-pack.json"), mcp_url: "", base_url: "" }];
    for (const config of configs) {
      const resolvedEnv = Object.fromEntries(Object.entries(env).map(([k, v]) => [k, substitute(v, config)]));
      if (!("data_dir" in config)) resolvedEnv.EVIDENCE_BRIDGE_HOME = join(work, "default-home");
      const r = await probeServer(command === "node" ? process.execPath : command, args.map((a) => substitute(a, config)), { ...resolvedEnv, HOME: work });
      expect(r.server?.name).toBe("evidence-bridge");
      expect(r.tools).toEqual(expect.arrayContaining(["record_assessment", "match_typologies", "get_candidates", "list_signals"]));
    }
  }, 120_000);
});
