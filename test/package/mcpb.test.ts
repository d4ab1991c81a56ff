/**
 * The Claude Desktop bundle as the host runs it (issue 30 item 1): `npm run mcpb` output passes `mcpb validate`, has
 * an icon (drawn by scripts/make-icon.mjs) and a `default` for every setting; the real `getMcpConfigForManifest` of
 * @anthropic-ai/mcpb turns blank, partial and full settings into the command and environment the host starts, and
 * that server answers a private and a public call through the SDK client.
 *
 * Blank settings mean the publisher's endpoints: the server is started with test/helpers/loopback-only.cjs preloaded,
 * which fails every socket to a non-loopback host before any lookup and names it on stderr, so the test sees the
 * default chosen and nothing leaves the machine. Partial and full settings point at the local double on 127.0.0.1.
 * Needs `npm run build` first.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getMcpConfigForManifest } from "@anthropic-ai/mcpb";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startHostedDouble, SYNTHETIC_DATA_ROOT, type HostedDouble } from "../double/hosted-server.js";
import { repoRoot } from "../helpers/shared.js";

const MCPB_CLI = join(repoRoot, "node_modules/@anthropic-ai/mcpb/dist/cli/cli.js");
const LOOPBACK_ONLY = join(repoRoot, "test/helpers/loopback-only.cjs");
const EXAMPLE = join(repoRoot, "examples/synthetic");
const work = mkdtempSync(join(tmpdir(), "eb-mcpb-"));
const unpacked = join(work, "unpacked");

interface Setting {
  type: string;
  title: string;
  description: string;
  required?: boolean;
  default?: unknown;
}
interface Manifest {
  icon?: string;
  server: { type: string; entry_point: string; mcp_config: { command: string; args: string[]; env: Record<string, string> } };
  user_config: Record<string, Setting>;
  privacy_policies: string[];
  compatibility: { runtimes: { node: string } };
}
let manifest: Manifest;
let double: HostedDouble;

beforeAll(async () => {
  if (!existsSync(join(repoRoot, "dist/bundle/bin.js"))) throw new Error("run npm run build first: dist/bundle/bin.js is missing");
  const out = execFileSync(process.execPath, [join(repoRoot, "scripts/mcpb.mjs")], { cwd: repoRoot, encoding: "utf8" }).trim().split("\n").pop()!;
  execFileSync(process.execPath, [MCPB_CLI, "unpack", join(repoRoot, out), unpacked], { encoding: "utf8" });
  manifest = JSON.parse(readFileSync(join(unpacked, "manifest.json"), "utf8")) as Manifest;
  double = await startHostedDouble({ dataRoot: SYNTHETIC_DATA_ROOT, toolset: "current" });
}, 240_000);

afterAll(async () => {
  await double?.close();
  rmSync(work, { recursive: true, force: true });
});

const text = (r: unknown) => (((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? "");

/** What the host starts for these settings, exactly as @anthropic-ai/mcpb computes it. */
async function hostConfig(userConfig: Record<string, string | boolean>) {
  const config = await getMcpConfigForManifest({
    manifest: manifest as never,
    extensionPath: unpacked,
    systemDirs: { HOME: work, DESKTOP: join(work, "Desktop"), DOCUMENTS: join(work, "Documents"), DOWNLOADS: join(work, "Downloads") },
    userConfig,
    pathSeparator: "/",
  });
  if (config === undefined) throw new Error("getMcpConfigForManifest gave no configuration");
  return config as { command: string; args: string[]; env: Record<string, string> };
}

interface Started {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** Starts the described server as the host would (its env over a minimal one with HOME), with the loopback guard. */
async function start(config: { command: string; args: string[]; env: Record<string, string> }, home: string): Promise<Started> {
  const transport = new StdioClientTransport({
    command: config.command === "node" ? process.execPath : config.command,
    args: config.args,
    env: { PATH: process.env.PATH ?? "", HOME: home, NODE_OPTIONS: `--require ${LOOPBACK_ONLY}`, ...config.env },
    stderr: "pipe",
  });
  let err = "";
  transport.stderr?.on("data", (c: Buffer) => (err += c.toString("utf8")));
  const client = new Client({ name: "claude-desktop-like", version: "1" });
  await client.connect(transport);
  return { client, stderr: () => err, close: () => client.close() };
}

const message = readFileSync(join(EXAMPLE, "message.txt"), "utf8");
const judgement = JSON.parse(readFileSync(join(EXAMPLE, "judgement.json"), "utf8")) as Record<string, unknown>;

describe("the MCP Bundle", () => {
  test("passes 'mcpb validate' (icon included); every setting has a default; server, privacy policy and Node >= 20", () => {
    expect(execFileSync(process.execPath, [MCPB_CLI, "validate", join(unpacked, "manifest.json")], { encoding: "utf8" })).toMatch(/valid/i);
    expect(manifest.server.type).toBe("node");
    expect(existsSync(join(unpacked, manifest.server.entry_point))).toBe(true);
    expect(Object.keys(manifest.user_config).sort()).toEqual(["base_url", "data_dir", "mcp_url", "offline", "pack_file"]);
    for (const [key, s] of Object.entries(manifest.user_config)) {
      expect(s.default, key).toBeDefined();
      expect(s.required ?? false, key).toBe(false);
    }
    expect(Object.values(manifest.server.mcp_config.env).sort()).toEqual(Object.keys(manifest.user_config).map((k) => `\${user_config.${k}}`).sort());
    expect(manifest.privacy_policies.length).toBeGreaterThan(0);
    expect(manifest.compatibility.runtimes.node).toMatch(/^>=20/);
  });

  test("its icon is our own 256x256 PNG, re-drawn byte for byte by scripts/make-icon.mjs", async () => {
    const icon = readFileSync(join(unpacked, manifest.icon ?? "missing.png"));
    expect(icon.subarray(1, 4).toString("latin1")).toBe("PNG");
    expect([icon.readUInt32BE(16), icon.readUInt32BE(20)]).toEqual([256, 256]);
    const { iconPng } = (await import(join(repoRoot, "scripts/make-icon.mjs"))) as { iconPng: () => Buffer };
    expect(iconPng().equals(icon)).toBe(true);
    expect(readFileSync(join(repoRoot, "mcpb/icon.png")).equals(icon)).toBe(true);
  });

  test("blank settings: no literal ${user_config...} reaches the server; it starts on the publisher's defaults and sends nothing until asked", async () => {
    const config = await hostConfig({});
    for (const v of Object.values(config.env)) expect(v).not.toMatch(/\$\{/);
    const home = join(work, "blank-home");
    const s = await start(config, home);
    try {
      expect(s.client.getServerVersion()?.name).toBe("evidence-bridge");
      const tools = (await s.client.listTools()).tools.map((t) => t.name);
      expect(tools).toEqual(expect.arrayContaining(["assess_message", "get_candidates", "list_signals"]));
      // Private: answers from the (empty) default data directory under HOME.
      const list = await s.client.callTool({ name: "list_capsules", arguments: {} });
      expect(list.isError ?? false, text(list)).toBe(false);
      expect(s.stderr()).not.toContain("loopback-only");
      // The pack is needed: the pinned pack is fetched from the publisher's site (refused here by the guard), and
      // the refusal names the one command that fixes it.
      const assess = await s.client.callTool({ name: "assess_message", arguments: { message_text: message, ...judgement } });
      expect(assess.isError).toBe(true);
      expect(text(assess)).toContain("run 'evidence-bridge pack fetch'");
      expect(s.stderr()).toContain("loopback-only: refused a connection to palimpsest.info:443");
      // Public: goes to the publisher's endpoint (refused here), answered calmly as unavailable.
      const pub = await s.client.callTool({ name: "list_signals", arguments: {} });
      expect(pub.isError).toBe(true);
      expect((pub.structuredContent as { status: string }).status).toBe("unavailable");
      expect(s.stderr()).toContain("loopback-only: refused a connection to api.seiche.info:443");
    } finally {
      await s.close();
    }
  }, 60_000);

  test("partial settings (data directory, pack, hosted server): private and public calls answer; the rest stays default", async () => {
    const data = join(work, "partial-data");
    const config = await hostConfig({ data_dir: data, pack_file: join(EXAMPLE, "intelligence-pack.json"), mcp_url: double.url });
    expect(config.env.EVIDENCE_BRIDGE_BASE_URL).toBe("");
    expect(config.env.EVIDENCE_BRIDGE_OFFLINE).toBe("false");
    const s = await start(config, join(work, "partial-home"));
    try {
      const assess = await s.client.callTool({ name: "assess_message", arguments: { message_text: message, ...judgement } });
      expect(assess.isError ?? false, text(assess)).toBe(false);
      const pub = await s.client.callTool({ name: "list_signals", arguments: {} });
      expect(pub.isError ?? false, text(pub)).toBe(false);
      expect(double.mcpPosts().length).toBeGreaterThan(0);
      expect(s.stderr()).not.toContain("loopback-only");
    } finally {
      await s.close();
    }
  }, 60_000);

  test("full settings: private calls, a public call and a reading from the local double; Offline then sends nothing", async () => {
    const data = join(work, "full-data");
    const settings = { data_dir: data, pack_file: join(EXAMPLE, "intelligence-pack.json"), mcp_url: double.url, base_url: double.baseUrl, offline: false };
    const s = await start(await hostConfig(settings), join(work, "full-home"));
    try {
      const assess = await s.client.callTool({ name: "assess_message", arguments: { message_text: message, ...judgement } });
      expect(assess.isError ?? false, text(assess)).toBe(false);
      const cands = await s.client.callTool({ name: "get_candidates", arguments: {} });
      expect((cands.structuredContent as { candidates: unknown[] }).candidates).toHaveLength(1);
      const pub = await s.client.callTool({ name: "list_signals", arguments: {} });
      expect(pub.isError ?? false, text(pub)).toBe(false);
      const reading = await s.client.readResource({ uri: "evidence-bridge://readings/board-alarm-latest.json" });
      expect(reading.contents).toHaveLength(1);
    } finally {
      await s.close();
    }
    const before = double.requests.length;
    const off = await start(await hostConfig({ ...settings, offline: true }), join(work, "full-home"));
    try {
      const pub = await off.client.callTool({ name: "list_signals", arguments: {} });
      expect(text(pub)).toMatch(/offline/);
      const cands = await off.client.callTool({ name: "get_candidates", arguments: {} });
      expect(cands.isError ?? false, text(cands)).toBe(false);
      expect(double.requests.length).toBe(before);
    } finally {
      await off.close();
    }
  }, 60_000);
});
