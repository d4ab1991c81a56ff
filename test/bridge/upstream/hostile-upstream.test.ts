/**
 * Issue 28 item 1, "Done when": a hostile upstream on 127.0.0.1 (the hosted double, on our synthetic data plus a
 * newsroom reading that publishes pieces of a canary) receives no private value in any form from any proxied-call
 * path. Fresh canaries are recorded through every door (`capsule assess` in an earlier process, `assess_message`,
 * `record_assessment`, `match_typologies`, the triage prompt, a refused call, a message retained by an earlier
 * process, the judgement's `source`); then a hostile client tries every argument of every tool, every spelling,
 * splits across arguments and `_meta`, and numbers. Every request the double received is searched for every canary
 * form, and every argument it received must be a published value. Legitimate calls with published values pass.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { main } from "../../../bridge/cli/main.js";
import { computeAssessmentId } from "../../../capsules/assessment/assessment-id.js";
import { pythonJsonText } from "../../../capsules/assessment/json-text.js";
import { sha256Hex } from "../../../src/hash.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { startHostedDouble, type HostedDouble } from "../../double/hosted-server.js";
import { SYNTHETIC_DATA_ROOT } from "../../double/recorded.js";
import { repoRoot } from "../../helpers/shared.js";
import { configFor, removeTempHomes, type Session, startSession, tempHome } from "../mcp/session.js";

const EXAMPLE = join(repoRoot, "examples/synthetic");
const PACK = join(EXAMPLE, "intelligence-pack.json");
const SIGNALS = ["account_rental_offer", "commission_share_terms", "earn_from_home_job_frame"];
const JUDGEMENT = { signals: SIGNALS, findings: [], surface: "private_submission", authorization: "user_submitted" };

/** Door k's canaries: a handle, a word of its text, a phone, and (where the door has one) the judgement's source. */
const handle = (k: number) => `@zq_door_${k}_desk`;
const word = (k: number) => `zqdoorword${k}x`;
const phone = (k: number) => `+91 97${k}0${k} 4${k}${k}${k}${k}`;
const message = (k: number) => `Rent your bank account to our team, commission per transfer paid every evening. ${word(k)} DM ${handle(k)} or call ${phone(k)}.`;
const source = (k: number) => `zq-source-${k}-desk`;
const DOORS = [1, 2, 3, 4, 5, 6, 7, 8];

/** Every form of every canary a leak would show: as written, folded, digits only, base64 and hex of the text. */
function canaryForms(): string[] {
  const out: string[] = [];
  for (const k of DOORS) {
    for (const c of [handle(k), word(k), phone(k), source(k)]) {
      out.push(c.toLowerCase(), Buffer.from(c).toString("base64"), Buffer.from(c).toString("base64url"), Buffer.from(c).toString("hex"));
    }
    out.push(`zq_door_${k}`, `zqdoor${k}desk`, `zqsource${k}`, phone(k).replace(/\D/g, "").slice(2), sha256Hex(message(k)).slice(0, 16));
  }
  return out;
}

/** The hostile part of the upstream: a newsroom reading whose statuses and priorities are pieces of door 2's handle. */
const NEWSROOM = {
  schema_version: "synthetic-newsroom/1",
  generated_at: "2026-01-15T08:00:00Z",
  stories: [
    { id: "s1", headline: "synthetic story one", status: "live", priority: "lead" },
    { id: "s2", headline: "synthetic story two", status: "stale", priority: "high" },
    { id: "s3", headline: "synthetic story three", status: "@zq_door_2", priority: "_desk" },
  ],
};

async function runCli(argv: string[], stdin: string): Promise<number> {
  const sink = new PassThrough();
  sink.resume();
  return main(argv, { stdin: Readable.from([Buffer.from(stdin)]), stdout: sink, stderr: sink, env: {} });
}

/** The synthetic assessment recorded for `k`, its handle and message replaced (ids recomputed). */
function assessmentFor(k: number): string {
  const doc = parseStrictJson(readFileSync(join(EXAMPLE, "assessment.json"))) as JsonObject;
  ((doc.get("detector") as JsonObject).get("iocs") as JsonObject).set("handles", [handle(k)]);
  doc.set("message_sha256", sha256Hex(message(k)));
  doc.set("assessment_id", computeAssessmentId(doc));
  return pythonJsonText(doc);
}

describe("a hostile upstream receives nothing private from any proxied-call path", () => {
  let dataRoot: string;
  let d: HostedDouble;
  let home: string;
  let s: Session;
  const replies: string[] = [];

  beforeAll(async () => {
    dataRoot = mkdtempSync(join(tmpdir(), "eb-hostile-"));
    cpSync(SYNTHETIC_DATA_ROOT, dataRoot, { recursive: true });
    writeFileSync(join(dataRoot, "published/readings/newsroom-latest.json"), JSON.stringify(NEWSROOM));
    d = await startHostedDouble({ dataRoot, toolset: "current" });
    home = tempHome();
    const config = () => configFor({ home, mcpUrl: d.url, baseUrl: d.baseUrl, pack: PACK });

    // Door 1, an earlier process: `capsule assess` at the command line, with its judgement's source.
    const file = join(home, "..", `${home.split("/").at(-1)}-message.txt`);
    writeFileSync(file, message(1));
    expect(await runCli(["--home", home, "--pack", PACK, "capsule", "assess", "--message-file", file], JSON.stringify({ ...JUDGEMENT, source: source(1) }))).toBe(0);
    rmSync(file);

    // Door 7, an earlier process: a message retained by an MCP session that has ended.
    const earlier = await startSession(config());
    const kept = await earlier.call("assess_message", { message_text: message(7), ...JUDGEMENT, source: source(7), retain_message: true });
    expect(kept.msg.result.structuredContent.message_retained).toBe(true);
    await earlier.end();

    // This process: every other door.
    s = await startSession(config());
    await s.request("tools/list");
    const two = await s.call("assess_message", { message_text: message(2), ...JUDGEMENT, source: source(2) });
    expect(two.msg.result.structuredContent.status).toBe("new");
    const three = await s.call("record_assessment", { assessment: assessmentFor(3), message_text: message(3) });
    expect(three.msg.result.structuredContent.stored).toBe(true);
    await s.call("match_typologies", { text: message(4) });
    await s.request("prompts/get", { name: "triage_message", arguments: { message: message(5) } });
    const refused = await s.call("assess_message", { message_text: message(6), ...JUDGEMENT, surface: "not-a-surface", source: source(6) });
    expect(JSON.stringify(refused.msg)).toMatch(/"isError":true|"error"/);
    const eight = await s.call("assess_message", { message_text: message(8), ...JUDGEMENT, source: source(8) });
    expect(eight.msg.result.structuredContent.status).toBe("new");
  });

  afterAll(async () => {
    await s?.end();
    await d?.close();
    rmSync(dataRoot, { recursive: true, force: true });
    removeTempHomes();
  });

  const call = async (name: string, args: unknown, meta?: unknown) => {
    const r = await s.request("tools/call", { name, arguments: args, ...(meta === undefined ? {} : { _meta: meta }) });
    replies.push(r.line);
    return r;
  };

  test("legitimate calls with published values pass, rebuilt exactly", async () => {
    const toolCalls = () => d.mcpPosts().filter((p) => p.body.includes('"tools/call"'));
    const signal = await call("get_signal", { name: "ooni-gfw", max_rows: 5 });
    expect(signal.msg.result.isError).toBe(false);
    expect(toolCalls().at(-1)!.body).toContain('"arguments":{"name":"ooni-gfw","max_rows":5}');

    const news = await call("get_newsroom", { view: "newsroom", status: "live", priority: "lead", limit: 3 });
    expect(news.msg.result.isError).toBe(false);
    expect(toolCalls().at(-1)!.body).toContain('"arguments":{"view":"newsroom","limit":3,"status":"live","priority":"lead"}');

    const page1 = await call("query_economic_observations", { series_id: "synthetic.index.alpha", period_start: "2025-01-01", limit: 1 });
    expect(page1.msg.result.isError).toBe(false);
    const cursor = page1.msg.result.structuredContent.next_cursor as string;
    expect(typeof cursor).toBe("string");
    const page2 = await call("query_economic_observations", { series_id: "synthetic.index.alpha", period_start: "2025-01-01", limit: 1, cursor });
    expect(page2.msg.result.isError).toBe(false);
    expect(toolCalls().at(-1)!.body).toContain(`"cursor":${JSON.stringify(cursor)}`);

    const catalog = await call("research_catalog", { offset: 0, limit: 2 });
    expect(catalog.msg.result.isError).toBe(false);
    for (const tool of ["list_signals", "whats_happening", "gfw_reading"]) expect((await call(tool, {})).msg.result.isError).toBe(false);
  });

  test("every door's canaries, in every argument, spelling and split, and in _meta: nothing reaches the double", async () => {
    const b64 = (c: string) => Buffer.from(c).toString("base64");
    for (const k of DOORS) {
      for (const c of [handle(k), word(k), phone(k), source(k), message(k)]) {
        const half = Math.floor(c.length / 2);
        const attempts: [string, unknown, unknown?][] = [
          ["get_signal", { name: c }],
          ["get_signal", { name: c.toUpperCase().replace(/[^A-Z0-9]/g, "-") }],
          ["get_signal", { name: b64(c) }],
          ["get_signal", { name: "ooni-gfw" }, { progressToken: c, note: c }],
          ["get_newsroom", { status: c }],
          ["get_newsroom", { priority: c }],
          ["get_newsroom", { status: c.slice(0, half), priority: c.slice(half) }],
          ["get_newsroom", { status: "live" }, { progressToken: c.slice(0, half), rest: c.slice(half) }],
          ["query_economic_observations", { series_id: c }],
          ["query_economic_observations", { source_id: "synthetic_source", geography: c }],
          ["query_economic_observations", { cursor: Buffer.from(c).toString("base64url") }],
          ["query_economic_observations", { as_of: c }],
          ["list_signals", {}, { note: c }],
          ["research_catalog", { offset: 0 }, { progressToken: b64(c) }],
        ];
        for (const [tool, args, meta] of attempts) {
          const r = await call(tool, args, meta);
          expect(r.line.toLowerCase(), `${tool} reply`).not.toContain(c.toLowerCase());
        }
      }
      // Numbers: a phone's digits as integers are outside the pinned bounds or the reported offsets.
      const digits = Number(phone(k).replace(/\D/g, "").slice(-5));
      expect((await call("get_signal", { name: "ooni-gfw", max_rows: digits })).msg.error.code).toBe(-32602);
      expect((await call("research_catalog", { offset: 900 + k })).msg.error.code).toBe(-32602);
    }

    // The hostile reading published two pieces of door 2's handle: both are published values, and their joined
    // text is the handle, so the outward guard (the second line) refuses the call.
    const split = await call("get_newsroom", { status: "@zq_door_2", priority: "_desk" });
    expect(split.msg.result.structuredContent.status).toBe("refused");

    const requests = d.requests.map((r) => `${r.method} ${r.path}\n${JSON.stringify(r.headers)}\n${r.body}`).join("\n");
    const folded = requests.toLowerCase();
    for (const form of canaryForms()) expect(folded.includes(form.toLowerCase()), form).toBe(false);
    expect(folded.replace(/[^a-z0-9]/g, "")).not.toMatch(/zqdoor|zqsource/);
  });

  test("every argument the double received is a published value; _meta is only the bridge's own progress token", () => {
    const list = JSON.parse(readFileSync(join(dataRoot, "hosted-responses/11-list_signals.json"), "utf8")).result.structuredContent;
    const allowed = new Set<string>(list.signals.map((x: { name: string }) => x.name));
    for (const st of NEWSROOM.stories) allowed.add(st.status).add(st.priority);
    for (const line of readFileSync(join(dataRoot, "published/readings/china-econ-observations.jsonl"), "utf8").trim().split("\n")) {
      const row = JSON.parse(line) as Record<string, string>;
      for (const k of ["series_id", "source_id", "geography", "sector", "firm_size", "ownership", "released_at", "collected_at"]) allowed.add(row[k]);
    }
    for (const v of ["newsroom", "wire", "economy", "machine-analysis", "investigations", "editorial-readiness", "interconnection", "all", "latest-as-of"]) allowed.add(v);
    for (const r of replies) for (const m of r.matchAll(/"next_cursor": "([A-Za-z0-9_-]+)"/g)) allowed.add(m[1]);
    const calls = d.mcpPosts().filter((p) => p.body.includes('"tools/call"'));
    expect(calls.length).toBeGreaterThan(20);
    for (const p of calls) {
      const params = JSON.parse(p.body).params as { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> };
      expect(Object.keys(params).filter((k) => k !== "_meta")).toEqual(["name", "arguments"]);
      if (params._meta !== undefined) expect(params._meta).toEqual({ progressToken: expect.stringMatching(/^evidence-bridge-[0-9]+$/) });
      for (const [k, v] of Object.entries(params.arguments)) {
        if (typeof v === "number") expect(Number.isSafeInteger(v), k).toBe(true);
        else if (/^(period_start|period_end)$/.test(k)) expect(v).toMatch(/^\d{4}-\d{2}-\d{2}$/);
        else expect(allowed.has(v as string), `${params.name}.${k}`).toBe(true);
      }
    }
  });
});

describe("a vocabulary that cannot be learned: `unavailable`, and nothing else is sent", () => {
  test("the site is down (the ledger cannot be read), then the server is down (list_signals cannot be asked)", async () => {
    const d = await startHostedDouble({ dataRoot: SYNTHETIC_DATA_ROOT, toolset: "current" });
    const s = await startSession(configFor({ mcpUrl: d.url, baseUrl: d.baseUrl, pack: PACK }));
    try {
      await s.request("tools/list");
      const toolCalls = () => d.mcpPosts().filter((p) => p.body.includes('"tools/call"'));
      await d.setFault("origin-down");
      const econ = await s.call("query_economic_observations", { series_id: "synthetic.index.alpha" });
      expect(econ.msg.result.structuredContent).toMatchObject({ status: "unavailable", retryable: true });
      expect(econ.msg.result.structuredContent.reason).toMatch(/^the published economic ledger could not be read to learn its values/);
      expect(toolCalls().length).toBe(0);
      expect(d.requests.filter((r) => r.server === "site").map((r) => r.path)).toContain("/readings/china-econ-observations-latest.json");

      await d.setFault("refuse");
      const signal = await s.call("get_signal", { name: "ooni-gfw" });
      expect(signal.msg.result.structuredContent).toMatchObject({ status: "unavailable", retryable: true });
      expect(signal.msg.result.structuredContent.reason).toMatch(/^the published signal names \(list_signals\) could not be learned/);
      await d.setFault("none");
      expect(toolCalls().some((p) => p.body.includes('"get_signal"'))).toBe(false);
      // Reachable again: learned, then sent.
      expect((await s.call("get_signal", { name: "ooni-gfw" })).msg.result.isError).toBe(false);
      expect(toolCalls().map((p) => JSON.parse(p.body).params.name)).toEqual(["list_signals", "get_signal"]);
    } finally {
      await s.end();
      await d.close();
    }
  });
});
