/**
 * The built MCP server over stdio against the hosted double on its synthetic data set (runs in a fresh clone
 * without ../shared): the SDK `Client` with `StdioClientTransport` spawns the package's bin, and gets
 * `initialize`, `tools/list`, proxied public tools (a result, a computed combined view, the verified economic
 * ledger, research_catalog, an upstream JSON-RPC error), private tools on the synthetic pack (examples/synthetic/), and resource
 * reads. The double is given the synthetic set explicitly, so this runs the same with or without ../shared.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { PUBLIC_TOOL_NAMES } from "../../../bridge/upstream/pinned-tools.js";
import { startHostedDouble, SYNTHETIC_DATA_ROOT, type HostedDouble } from "../../double/hosted-server.js";
import { SYNTHETIC_SITE } from "../../double/synthetic/generate.js";
import { repoRoot } from "../../helpers/shared.js";
import { BIN, BUNDLE, connectCompiled, type CompiledSession } from "./compiled.js";
import { removeTempHomes, tempHome } from "./session.js";

const VERSION = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
const EXAMPLE = join(repoRoot, "examples/synthetic");
const PACK = join(EXAMPLE, "intelligence-pack.json");
const PRIVATE = ["record_assessment", "assess_message", "verify_capsule", "list_capsules", "get_candidates", "match_typologies", "check_regional_index"];

const text = (r: unknown) => (((r as { content?: Array<{ text?: string }> }).content ?? [])[0]?.text ?? "");
const proxied = (r: { _meta?: Record<string, unknown> }) => (r._meta?.["evidence-bridge/proxy"] as { source: string } | undefined)?.source;

describe("the built MCP server over stdio with the hosted double on synthetic data", () => {
  let d: HostedDouble;
  let client: Client;
  let session: CompiledSession;
  const message = readFileSync(join(EXAMPLE, "message.txt"), "utf8");

  beforeAll(async () => {
    d = await startHostedDouble({ dataRoot: SYNTHETIC_DATA_ROOT, toolset: "current" });
    const args = ["--home", tempHome(), "--mcp-url", d.url, "--base-url", d.baseUrl, "--pack", PACK, "--timeout-ms", "10000"];
    session = await connectCompiled(BUNDLE ?? BIN, args, "synthetic-double-test");
    client = session.client;
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await d?.close();
    removeTempHomes();
  });

  test("initialize: our server name and version, and the instructions", () => {
    expect(client.getServerVersion()).toEqual({ name: "evidence-bridge", version: VERSION });
    expect(client.getInstructions()).toMatch(/not evidence of calm/);
  });

  test("tools/list: the private tools and every pinned public tool", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...PRIVATE, ...PUBLIC_TOOL_NAMES].sort());
    for (const t of tools.filter((x) => (PUBLIC_TOOL_NAMES as readonly string[]).includes(x.name))) expect(t.annotations?.readOnlyHint, t.name).toBe(true);
  });

  test("proxied public tools answer from the double's synthetic data", async () => {
    const list = await client.callTool({ name: "list_signals", arguments: {} });
    expect(list.isError ?? false, text(list)).toBe(false);
    expect(proxied(list)).toBe("hosted-tool-server");
    const ls = list.structuredContent as { observatory: string; signals: Array<{ name: string }> };
    expect(ls.observatory).toBe(SYNTHETIC_SITE);
    expect(ls.signals).toHaveLength(41);

    const sig = await client.callTool({ name: "get_signal", arguments: { name: "board-alarm" } });
    expect(sig.isError ?? false, text(sig)).toBe(false);
    const data = (sig.structuredContent as { signal: string; data: { headline: string; generated_at: string } }).data;
    expect((sig.structuredContent as { signal: string }).signal).toBe("board-alarm");
    expect(data.headline).toBe("synthetic board: one layer elevated (model)");

    const capped = await client.callTool({ name: "get_signal", arguments: { name: "generative-firewall-index", max_rows: 5 } });
    expect((capped.structuredContent as { truncated: unknown }).truncated).toEqual({ dataset: { returned: 5, total: 30 } });

    const board = await client.callTool({ name: "whats_happening", arguments: {} });
    expect((board.structuredContent as { answer: string }).answer).toMatch(/^synthetic board: .* but ooni-gfw moved with its own measurement coverage/);

    const cat = await client.callTool({ name: "research_catalog", arguments: { offset: 0 } });
    expect(cat.isError ?? false, text(cat)).toBe(false);
    expect(proxied(cat)).toBe("hosted-tool-server");

    const econ = await client.callTool({ name: "query_economic_observations", arguments: { series_id: "synthetic.index.beta" } });
    expect(econ.isError ?? false, text(econ)).toBe(false);
    const e = econ.structuredContent as { source: { checksum_integrity: string }; selection: { matched: number } };
    expect(e.source.checksum_integrity).toBe("verified_against_fixed_manifest");
    expect(e.selection.matched).toBe(2);
  });

  test("an upstream JSON-RPC error reaches the client as an McpError", async () => {
    await expect(client.callTool({ name: "query_economic_observations", arguments: { period_start: "2026-03-01", period_end: "2026-02-01" } })).rejects.toSatisfy(
      (err: unknown) => err instanceof McpError && err.code === -32602 && /period_end cannot precede period_start/.test(err.message),
    );
    expect(d.mcpPosts().some((p) => p.body.includes('"period_end":"2026-02-01"'))).toBe(true);
  });

  test("private tools on the synthetic pack: record, verify, match, candidates; nothing private goes upstream", async () => {
    const rec = await client.callTool({ name: "record_assessment", arguments: { assessment: readFileSync(join(EXAMPLE, "assessment.json"), "utf8"), message_text: message } });
    expect(rec.isError ?? false, text(rec)).toBe(false);
    const sc = rec.structuredContent as { capsule_id: string; stored: boolean };
    expect(sc.stored).toBe(true);
    const ver = await client.callTool({ name: "verify_capsule", arguments: { capsule_sha256: sc.capsule_id } });
    expect((ver.structuredContent as { ok: boolean }).ok).toBe(true);
    const m = await client.callTool({ name: "match_typologies", arguments: { text: message, signals: ["commission_share_terms"] } });
    expect(m.isError ?? false, text(m)).toBe(false);
    expect(JSON.stringify(m.structuredContent)).toContain("synthetic-account-rental");
    const cands = await client.callTool({ name: "get_candidates", arguments: {} });
    expect((cands.structuredContent as { candidates: unknown[] }).candidates).toHaveLength(1);
    const fragment = "Rent your bank account";
    for (const r of d.requests) expect(r.body.includes(fragment) || r.path.includes(fragment), r.path).toBe(false);
  });

  test("resources: a reading fetched from the double's site, and the synthetic pack", async () => {
    const r = await client.readResource({ uri: "evidence-bridge://readings/board-alarm-latest.json" });
    const content = r.contents[0] as { text: string; _meta: Record<string, { source_url: string; generated_at: string }> };
    expect(JSON.parse(content.text).headline).toBe("synthetic board: one layer elevated (model)");
    expect(content._meta["evidence-bridge/reading"].source_url).toBe(`${d.baseUrl}/readings/board-alarm-latest.json`);
    expect(content._meta["evidence-bridge/reading"].generated_at).toBe("2026-01-15T08:00:00+00:00");
    expect(d.requests.some((q) => q.server === "site" && q.path === "/readings/board-alarm-latest.json")).toBe(true);
    const pack = await client.readResource({ uri: "evidence-bridge://pack/intelligence-pack-v1.json" });
    expect((pack.contents[0] as { text: string }).text).toBe(readFileSync(PACK, "utf8"));
  });

  test("stderr: no schema drift (the synthetic tool list serves the pinned schemas), no JSON-RPC, no stack trace, no message text", () => {
    const stderr = session.stderr();
    expect(stderr).not.toMatch(/schema drift/);
    expect(stderr).not.toMatch(/"jsonrpc"/);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stderr).not.toContain("Rent your bank account");
  });
});

describe("a whole MCP session on synthetic data, as a desktop client runs it (no ../shared)", () => {
  test("initialize → assess_message → get_candidates → a proxied call to the local double; nothing private goes upstream", async () => {
    const d = await startHostedDouble({ dataRoot: SYNTHETIC_DATA_ROOT, toolset: "current" });
    const args = ["--home", tempHome(), "--mcp-url", d.url, "--base-url", d.baseUrl, "--pack", PACK, "--timeout-ms", "10000"];
    const s = await connectCompiled(BUNDLE ?? BIN, args, "full-session-test");
    try {
      expect(s.client.getServerVersion()?.name).toBe("evidence-bridge");
      const message = readFileSync(join(EXAMPLE, "message.txt"), "utf8");
      const judgement = JSON.parse(readFileSync(join(EXAMPLE, "judgement.json"), "utf8")) as Record<string, unknown>;
      const assessed = await s.client.callTool({ name: "assess_message", arguments: { message_text: message, ...judgement } });
      expect(assessed.isError ?? false, text(assessed)).toBe(false);
      const id = (assessed.structuredContent as { capsule_id: string }).capsule_id;
      expect(id).toMatch(/^[0-9a-f]{64}$/);
      const cands = await s.client.callTool({ name: "get_candidates", arguments: {} });
      const list = (cands.structuredContent as { candidates: Array<{ candidate: { capsule_sha256: string }; review_status: string }> }).candidates;
      expect(list.map((c) => [c.candidate.capsule_sha256, c.review_status])).toEqual([[id, "HUMAN_REVIEW_REQUIRED"]]);
      const pub = await s.client.callTool({ name: "list_signals", arguments: {} });
      expect(pub.isError ?? false, text(pub)).toBe(false);
      expect(proxied(pub)).toBe("hosted-tool-server");
      expect(d.mcpPosts().some((p) => p.body.includes('"list_signals"'))).toBe(true);
      for (const r of d.requests) {
        for (const privateText of ["Rent your bank account", "@synthetic_recruiter_demo", "synthetic_recruiter_demo"]) expect(r.body.includes(privateText) || r.path.includes(privateText), r.path).toBe(false);
      }
    } finally {
      await s.client.close();
      await d.close();
    }
  }, 120_000);
});
