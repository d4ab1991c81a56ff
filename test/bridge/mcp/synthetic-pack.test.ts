/**
 * The MCP server over stdio on our own synthetic data (runs in a fresh clone, no ../shared): the bundle configured
 * as the .mcpb bundle or a client config would (environment only) records an assessment, matches and lists
 * candidates; started again without EVIDENCE_BRIDGE_PACK it uses the pack the data directory remembered; and with
 * no pack at all (offline) the error names the one command and the environment variable, never a CLI flag. Needs `npm run build` first.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../helpers/shared.js";
import { childEnv } from "../../helpers/test-env.js";

const BUNDLE = join(repoRoot, "dist/bundle/bin.js");
const EXAMPLE = join(repoRoot, "examples/synthetic");
const work = mkdtempSync(join(tmpdir(), "eb-mcp-synthetic-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function session<T>(env: Record<string, string>, body: (c: Client) => Promise<T>): Promise<T> {
  if (!existsSync(BUNDLE)) throw new Error("run npm run build first: dist/bundle/bin.js is missing");
  const transport = new StdioClientTransport({ command: process.execPath, args: [BUNDLE], env: childEnv(env), stderr: "pipe" });
  const c = new Client({ name: "synthetic-test", version: "1" });
  await c.connect(transport);
  try {
    return await body(c);
  } finally {
    await c.close();
  }
}

const text = (r: unknown) => (((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? "");

describe("the MCP server on the synthetic example", () => {
  test("records, matches and lists candidates; later sessions use the remembered pack", async () => {
    const home = join(work, "home");
    const assessment = readFileSync(join(EXAMPLE, "assessment.json"), "utf8");
    const message = readFileSync(join(EXAMPLE, "message.txt"), "utf8");
    await session({ EVIDENCE_BRIDGE_HOME: home, EVIDENCE_BRIDGE_PACK: join(EXAMPLE, "intelligence-pack.json") }, async (c) => {
      const rec = await c.callTool({ name: "record_assessment", arguments: { assessment, message_text: message } });
      expect(rec.isError ?? false, text(rec)).toBe(false);
      expect((rec.structuredContent as { stored: boolean }).stored).toBe(true);
      const m = await c.callTool({ name: "match_typologies", arguments: { text: message, signals: ["commission_share_terms"] } });
      expect(m.isError ?? false, text(m)).toBe(false);
      expect(JSON.stringify(m.structuredContent)).toContain("synthetic-account-rental");
    });
    expect(existsSync(join(home, "intelligence-pack-v1.json.sha256"))).toBe(true);
    await session({ EVIDENCE_BRIDGE_HOME: home }, async (c) => {
      const g = await c.callTool({ name: "get_candidates", arguments: {} });
      expect(g.isError ?? false, text(g)).toBe(false);
      expect(JSON.stringify(g.structuredContent)).toContain("HUMAN_REVIEW_REQUIRED");
    });
  }, 120_000);

  test("offline without any pack the private tools name the one command and the bundle setting, never a flag", async () => {
    await session({ EVIDENCE_BRIDGE_HOME: join(work, "empty"), EVIDENCE_BRIDGE_OFFLINE: "1" }, async (c) => {
      const r = await c.callTool({ name: "match_typologies", arguments: { text: "hello" } });
      expect(r.isError).toBe(true);
      expect(text(r)).toContain("run 'evidence-bridge pack fetch'");
      expect(text(r)).toMatch(/EVIDENCE_BRIDGE_PACK/);
      expect(text(r)).not.toMatch(/--pack|--\w/);
    });
  }, 60_000);
});
