/**
 * tools/list (product.md §6, §9): seven private tools (local, closed input schemas, output schemas), the seven
 * public tools with their pinned schemas verbatim, and no tool that reviews or exports.
 */
import { afterAll, describe, expect, test } from "vitest";
import { PINNED_TOOLS, PUBLIC_TOOL_NAMES } from "../../../bridge/upstream/pinned-tools.js";
import { REVIEW_STATES } from "../../../bridge/mcp/format-zod.js";
import { REVIEW_STATUSES } from "../../../capsules/store/rows.js";
import { startHostedDouble } from "../../double/hosted-server.js";
import { describeShared } from "../../helpers/shared.js";
import { configFor, removeTempHomes, startSession } from "./session.js";

afterAll(removeTempHomes);

const PRIVATE = ["record_assessment", "assess_message", "verify_capsule", "list_capsules", "get_candidates", "match_typologies", "check_regional_index"];

interface ToolEntry {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

describe("tools/list without an upstream", () => {
  test("seven private and seven public tools, nothing else", async () => {
    const s = await startSession(configFor({}));
    const tools = (await s.request("tools/list")).msg.result.tools as ToolEntry[];
    await s.end();
    expect(tools.map((t) => t.name)).toEqual([...PRIVATE, ...PUBLIC_TOOL_NAMES]);

    for (const t of tools.filter((x) => PRIVATE.includes(x.name))) {
      expect(t.annotations?.openWorldHint, t.name).toBe(false);
      expect(t.annotations?.readOnlyHint, t.name).toBe(t.name !== "record_assessment" && t.name !== "assess_message");
      expect(t.inputSchema.type, t.name).toBe("object");
      expect(t.inputSchema.additionalProperties, t.name).toBe(false);
      expect(t.outputSchema?.type, t.name).toBe("object");
      expect(t.description!.length, t.name).toBeGreaterThan(40);
    }
    for (const t of tools.filter((x) => (PUBLIC_TOOL_NAMES as readonly string[]).includes(x.name))) {
      expect(t.inputSchema, t.name).toEqual(PINNED_TOOLS[t.name as keyof typeof PINNED_TOOLS].inputSchema);
      expect(t.annotations, t.name).toMatchObject({ readOnlyHint: true, openWorldHint: true });
    }
  });

  test("no MCP tool records a review decision or exports (a human does that at the command line)", async () => {
    const s = await startSession(configFor({}));
    const tools = (await s.request("tools/list")).msg.result.tools as ToolEntry[];
    await s.end();
    for (const t of tools) {
      expect(t.name).not.toMatch(/review|approve|reject|defer|decid|export|publish|release/);
      expect(t.inputSchema.properties ?? {}).not.toHaveProperty("decision");
    }
    const called = await startSession(configFor({}));
    for (const name of ["review_approve", "approve_candidate", "export_candidates", "review_export"]) {
      const r = await called.call(name, {});
      expect(r.msg.result.isError).toBe(true);
      expect(r.msg.result.content[0].text).toMatch(/not found/);
    }
    await called.end();
  });

  test("the review states of the tool schemas are the store's", () => {
    expect([...REVIEW_STATES]).toEqual([...REVIEW_STATUSES]);
  });
});

describeShared("tools/list against the double", () => {
  test("after discovery the public tools keep the pinned titles, descriptions and schemas (upstream text never steers the client)", async () => {
    const d = await startHostedDouble({ toolset: "current" });
    const s = await startSession(configFor({ mcpUrl: d.url }));
    const tools = (await s.request("tools/list")).msg.result.tools as ToolEntry[];
    await s.end();
    await d.close();
    const upstream = JSON.parse(
      (await import("node:fs")).readFileSync(new URL("../../../../shared/data/hosted-responses/05-tools-list.json", import.meta.url), "utf8"),
    ).result.tools as { name: string; title: string; description: string }[];
    expect(upstream.some((u) => u.description !== PINNED_TOOLS[u.name as keyof typeof PINNED_TOOLS].description)).toBe(true);
    for (const u of upstream) {
      const ours = tools.find((t) => t.name === u.name)!;
      expect(ours.title).toBe(PINNED_TOOLS[u.name as keyof typeof PINNED_TOOLS].title);
      expect(ours.description).toBe(PINNED_TOOLS[u.name as keyof typeof PINNED_TOOLS].description);
      expect(ours.annotations).toEqual({ title: ours.title, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true });
      expect(ours.inputSchema).toEqual(PINNED_TOOLS[u.name as keyof typeof PINNED_TOOLS].inputSchema);
    }
  });

  test("an unreachable upstream still lists the seven pinned tools", async () => {
    const d = await startHostedDouble({ fault: "refuse" });
    const s = await startSession(configFor({ mcpUrl: d.url }));
    const names = ((await s.request("tools/list")).msg.result.tools as ToolEntry[]).map((t) => t.name);
    await s.end();
    await d.close();
    expect(names).toEqual([...PRIVATE, ...PUBLIC_TOOL_NAMES]);
  });
});
