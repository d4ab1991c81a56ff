/**
 * Canary test (issue 6, product.md §2): canary IOC values and a canary message go through record_assessment;
 * afterwards they appear in no stderr output, in no request the hosted double receives (any header, path or
 * body), and in no tool result or resource read, except the one reply that echoes its own caller's input by
 * design (match_typologies on the canary text, whose term hits are fragments of that text).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { computeAssessmentId } from "../../../capsules/assessment/assessment-id.js";
import { pythonJsonText } from "../../../capsules/assessment/json-text.js";
import { sha256Hex } from "../../../src/hash.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { PACK_URI, READINGS, readingUri } from "../../../bridge/mcp/resources.js";
import { startHostedDouble } from "../../double/hosted-server.js";
import { describeShared } from "../../helpers/shared.js";
import { configFor, EXAMPLES, removeTempHomes, startSession, tempHome } from "./session.js";

afterAll(removeTempHomes);

const HANDLE = "@zqCanaryHandle77";
const PHONE = "+91 97531 86420";
const WORD = "zqcanarytext55";
const BASE = "01-mule-account-rental-hinglish";

function canaryCase(): { assessment: string; message: string; hash: string } {
  const original = readFileSync(join(EXAMPLES, `${BASE}.txt`), "utf8");
  const message = `${original.replace("@rentacc_desk", HANDLE).replace("+91 98765 43210", PHONE)} ${WORD}`;
  const doc = parseStrictJson(readFileSync(join(EXAMPLES, `${BASE}.json`))) as JsonObject;
  const iocs = (doc.get("detector") as JsonObject).get("iocs") as JsonObject;
  iocs.set("handles", [HANDLE]);
  iocs.set("phones", [PHONE]);
  const hash = sha256Hex(message);
  doc.set("message_sha256", hash);
  doc.set("assessment_id", computeAssessmentId(doc));
  return { assessment: pythonJsonText(doc), message, hash };
}

describeShared("canaries through record_assessment", () => {
  test("appear nowhere outward: stderr, upstream requests, later results and readings", async () => {
    const { assessment, message, hash } = canaryCase();
    const needles = [HANDLE, PHONE, PHONE.replace(/ /g, ""), WORD, hash, hash.slice(0, 16), hash.slice(-16)].map((n) => n.toLowerCase());
    const found = (text: string) => needles.filter((n) => text.toLowerCase().includes(n));

    const d = await startHostedDouble({ toolset: "current" });
    const home = tempHome();
    const s = await startSession(configFor({ home, mcpUrl: d.url, baseUrl: d.baseUrl }));
    await s.request("tools/list");

    // The canaries go in ...
    const first = await s.call("record_assessment", { assessment, message_text: message });
    expect(first.msg.result.structuredContent.stored).toBe(true);
    expect(first.msg.result.structuredContent.candidate_preview.status).toBe("emitted");
    const id = first.msg.result.structuredContent.capsule_id as string;
    const kept = await s.call("record_assessment", { assessment: JSON.parse(assessment), message_text: message, retain_message: true });
    expect(kept.msg.result.structuredContent.message_retained).toBe(true);
    const linesAfterInput = s.lines.length - 2;

    // ... and everything afterwards is searched.
    const echoes = new Set<string>();
    await s.call("list_capsules", {});
    await s.call("get_candidates", {});
    await s.call("get_candidates", { include_typology_matches: true });
    await s.call("verify_capsule", { capsule_sha256: id });
    await s.call("list_signals", {});
    await s.call("get_signal", { name: "board-alarm" });
    await s.call("whats_happening", {});
    const refused = await s.call("get_signal", { name: `look up ${HANDLE.toUpperCase()}` });
    expect(refused.msg.error.code).toBe(-32602);
    const catalog = await s.call("research_catalog", { offset: 0 });
    expect(catalog.msg.result.isError).toBe(false);
    const viaMeta = await s.request("tools/call", { name: "list_signals", arguments: {}, _meta: { note: hash } });
    expect(viaMeta.msg.result.isError).toBe(false);
    for (const file of READINGS) await s.request("resources/read", { uri: readingUri(file) });
    await s.request("resources/read", { uri: PACK_URI });
    const echo = await s.call("match_typologies", { text: message }, "echo-by-design");
    echoes.add(echo.line);
    await s.end();
    await d.close();

    // The record results themselves carry no canary either (nothing in them is echoed by design).
    expect(found(first.line)).toEqual([]);
    expect(found(kept.line)).toEqual([]);
    const later = s.lines.slice(linesAfterInput).filter((l) => !echoes.has(l));
    expect(later.length).toBeGreaterThan(15);
    for (const line of later) expect(found(line), line.slice(0, 200)).toEqual([]);
    expect(found(s.stderrOutput)).toEqual([]);
    const upstream = d.requests.map((r) => `${r.method} ${r.path}\n${JSON.stringify(r.headers)}\n${r.body}`).join("\n");
    expect(d.requests.length).toBeGreaterThan(10);
    expect(found(upstream)).toEqual([]);
  });
});
