/**
 * End to end with a real client (issue 6): the COMPILED bridge is spawned and driven by the SDK's `Client` over
 * `StdioClientTransport`, against the hosted double on 127.0.0.1: initialize, list tools, private and public
 * calls, resources. Plus the process-level contract: stdout carries only JSON-RPC, and when stdin ends the
 * process writes its pending answers and exits by itself with status 0.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startHostedDouble, type HostedDouble } from "../../double/hosted-server.js";
import { describeShared, repoRoot } from "../../helpers/shared.js";
import { BIN, BUNDLE, connectCompiled, ensureBuilt, type CompiledSession } from "./compiled.js";
import { exampleAssessment, PACK_PATH, removeTempHomes, tempHome } from "./session.js";
import { childEnv } from "../../helpers/test-env.js";

const VERSION = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;

describeShared("the compiled bridge with the SDK client", () => {
  let d: HostedDouble;
  let client: Client;
  let session: CompiledSession;
  beforeAll(async () => {
    d = await startHostedDouble({ toolset: "current" });
    session = await connectCompiled(BIN, ["--home", tempHome(), "--mcp-url", d.url, "--base-url", d.baseUrl, "--pack", PACK_PATH, "--timeout-ms", "10000"], "e2e-test");
    client = session.client;
  }, 180_000);
  afterAll(async () => {
    await client?.close();
    await d?.close();
    removeTempHomes();
  });

  test("initialize: server name and version", () => {
    expect(client.getServerVersion()).toEqual({ name: "evidence-bridge", version: VERSION });
    expect(client.getInstructions()).toMatch(/not evidence of calm/);
  });

  test("tools/list: seven private tools and the seven public ones", async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "record_assessment",
        "assess_message",
        "verify_capsule",
        "list_capsules",
        "get_candidates",
        "match_typologies",
        "check_regional_index",
        "research_catalog",
        "list_signals",
        "get_signal",
        "get_newsroom",
        "query_economic_observations",
        "whats_happening",
        "gfw_reading",
      ].sort(),
    );
  });

  test("private tools: record, verify by id, list, candidates (the client validates each against its output schema)", async () => {
    const rec = await client.callTool({ name: "record_assessment", arguments: { assessment: exampleAssessment("01-mule-account-rental-hinglish") } });
    const sc = rec.structuredContent as { capsule_id: string; stored: boolean; candidate_preview: { status: string } };
    expect(sc.stored).toBe(true);
    expect(sc.candidate_preview.status).toBe("emitted");
    const ver = await client.callTool({ name: "verify_capsule", arguments: { capsule_sha256: sc.capsule_id } });
    expect((ver.structuredContent as { ok: boolean }).ok).toBe(true);
    const list = await client.callTool({ name: "list_capsules", arguments: {} });
    expect((list.structuredContent as { total: number }).total).toBe(1);
    const cands = await client.callTool({ name: "get_candidates", arguments: {} });
    expect((cands.structuredContent as { candidates: unknown[] }).candidates).toHaveLength(1);
  });

  test("private tool errors pass the client's output-schema check (details under _meta, not structuredContent)", async () => {
    const missing = await client.callTool({ name: "verify_capsule", arguments: { capsule_sha256: "f".repeat(64) } });
    expect(missing.isError).toBe(true);
    expect((missing._meta as Record<string, { status: string }>)["evidence-bridge/error"].status).toBe("not_found");
    const rejected = await client.callTool({ name: "record_assessment", arguments: { assessment: "{}" } });
    expect(rejected.isError).toBe(true);
    // A capsule that does not verify carries its full report, which fits the output schema.
    const doc = JSON.parse(readFileSync(join(repoRoot, "../shared/data/bridge-examples/valid/01-mule-account-rental-hinglish.capsule.json"), "utf8"));
    doc.content_sha256 = "0".repeat(64);
    const bad = await client.callTool({ name: "verify_capsule", arguments: { capsule: doc } });
    expect(bad.isError).toBe(true);
    expect((bad.structuredContent as { ok: boolean }).ok).toBe(false);
  });

  test("public tools through the double: a result, an upstream JSON-RPC error as an McpError", async () => {
    const r = await client.callTool({ name: "get_signal", arguments: { name: "board-alarm" } });
    expect(r.isError).toBe(false);
    expect((r.structuredContent as { signal: string }).signal).toBe("board-alarm");
    expect((r._meta as Record<string, { source: string }>)["evidence-bridge/proxy"].source).toBe("hosted-tool-server");
    await expect(client.callTool({ name: "query_economic_observations", arguments: { period_start: "2026-03-01", period_end: "2026-02-01" } })).rejects.toSatisfy(
      (e: unknown) => e instanceof McpError && e.code === -32602 && /period_end cannot precede period_start/.test(e.message),
    );
    expect(d.mcpPosts().some((p) => p.body.includes('"period_end":"2026-02-01"'))).toBe(true);
    // Below the pinned minimum: an invalid-params error (-32602) found locally, never sent.
    await expect(client.callTool({ name: "query_economic_observations", arguments: { limit: 0 } })).rejects.toSatisfy(
      (e: unknown) => e instanceof McpError && e.code === -32602 && /limit: below the minimum 1 \(pinned schema rule: minimum 1\)/.test(e.message),
    );
    expect(d.mcpPosts().some((p) => p.body.includes('"limit":0'))).toBe(false);
  });

  test("resources: a reading with its source URL", async () => {
    const { resources } = await client.listResources();
    expect(resources.length).toBe(5 + 1 + 8);
    const r = await client.readResource({ uri: "evidence-bridge://readings/board-alarm-latest.json" });
    const meta = r.contents[0]._meta as Record<string, { source_url: string }>;
    expect(meta["evidence-bridge/reading"].source_url).toBe(`${d.baseUrl}/readings/board-alarm-latest.json`);
  });

  test("stderr carries no JSON-RPC and no stack trace", () => {
    expect(session.stderr()).not.toMatch(/"jsonrpc"/);
    expect(session.stderr()).not.toMatch(/\n\s+at /);
  });
});

describeShared("the package's bin entry (the esbuild bundle)", () => {
  test.runIf(BUNDLE !== undefined)("serves the same tools, private and proxied calls, and lazily loaded chunks", async () => {
    ensureBuilt();
    const d = await startHostedDouble({ toolset: "current" });
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BUNDLE!, "--home", tempHome(), "--mcp-url", d.url, "--base-url", d.baseUrl, "--pack", PACK_PATH],
      env: childEnv(),
      stderr: "pipe",
    });
    const c = new Client({ name: "bundle-test", version: "1" });
    try {
      await c.connect(transport);
      expect(c.getServerVersion()).toEqual({ name: "evidence-bridge", version: VERSION });
      expect((await c.listTools()).tools).toHaveLength(14);
      const rec = await c.callTool({ name: "record_assessment", arguments: { assessment: exampleAssessment("01-mule-account-rental-hinglish") } });
      expect((rec.structuredContent as { stored: boolean }).stored).toBe(true);
      const idx = await c.callTool({ name: "check_regional_index", arguments: { index: readFileSync(join(repoRoot, "test/fixtures/regional/valid/bri.json"), "utf8") } });
      expect((idx.structuredContent as { conforms: boolean }).conforms).toBe(true);
      expect((await c.callTool({ name: "whats_happening", arguments: {} })).isError).toBe(false);
      const schema = await c.readResource({ uri: "evidence-bridge://schemas/assessment-v1.schema.json" });
      expect(JSON.parse((schema.contents[0] as { text: string }).text).title).toMatch(/assessment/);
    } finally {
      await c.close();
      await d.close();
      removeTempHomes();
    }
  }, 180_000);
});

describeShared("the compiled bridge as a process", () => {
  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(removeTempHomes);

  test("stdin ends: the answers to lines already sent are written, stdout is only JSON-RPC, exit status 0", async () => {
    const child = spawn(process.execPath, [BIN, "--home", tempHome(), "--pack", PACK_PATH], { stdio: ["pipe", "pipe", "pipe"], cwd: repoRoot });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on("exit", (code, signal) => r({ code, signal })));
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "p", version: "1" } } })}\n`);
    child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
    child.stdin.write("this is not json\n");
    child.stdin.end('{"jsonrpc":"2.0","id":2,"method":"tools/list"}\n');
    const { code, signal } = await exited;
    expect({ code, signal }).toEqual({ code: 0, signal: null });
    const lines = out.trimEnd().split("\n").map((l) => JSON.parse(l));
    for (const m of lines) expect(m.jsonrpc).toBe("2.0");
    expect(lines.map((m) => m.id).sort()).toEqual([1, 2, null].sort());
    expect(lines.find((m) => m.id === 2).result.tools).toHaveLength(14);
    expect(err).toMatch(/^evidence-bridge: answered a bad input line with JSON-RPC error -32700$/m);
  });

  test("the client going away (stdout closed) ends the process", async () => {
    const child = spawn(process.execPath, [BIN, "--home", tempHome()], { stdio: ["pipe", "pipe", "pipe"], cwd: repoRoot });
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));
    child.stdout.destroy();
    child.stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    child.stdin.end();
    expect(await exited).toBe(0);
  });
});
