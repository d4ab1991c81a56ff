/**
 * Issue 28 item 5, end to end: message texts given to the MCP server through every door (assess_message with its
 * judgement's source, a call refused by validation, match_typologies, the triage prompt, record_assessment) are
 * fingerprinted into the store; a later server process over the same data directory refuses a public call that
 * quotes any of them, and the hosted double (on 127.0.0.1) never receives the quote. Runs on synthetic data.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { StoreGuard } from "../../../capsules/guard/store-guard.js";
import { openStore } from "../../../capsules/store/store.js";
import { startHostedDouble, SYNTHETIC_DATA_ROOT } from "../../double/hosted-server.js";
import { repoRoot } from "../../helpers/shared.js";
import { configFor, removeTempHomes, startSession, tempHome } from "../mcp/session.js";

afterAll(removeTempHomes);

const EXAMPLE = join(repoRoot, "examples/synthetic");
const PACK = join(EXAMPLE, "intelligence-pack.json");

/** Each door's text, and a clause of it that a later call quotes. */
const ASSESSED = "Zqlantern earn daily from home! Rent your bank account to our team, commission per transfer paid every evening.";
const SOURCE = "zq lantern broker room";
const REFUSED = "Zq invalid judgement message: send your zqquartz passport scan before midnight tonight.";
const MATCHED = "Zq matched only: the zqember desk rents savings accounts for a weekly commission.";
const PROMPTED = "Zq pasted into the prompt: the zqcobalt team pays per transfer into rented accounts.";
const QUOTES = [
  "zqlantern earn daily from home",
  "look at zq lantern broker room",
  "send your zqquartz passport scan",
  "the zqember desk rents savings",
  "the zqcobalt team pays per",
];

test("every door's message text is refused in a later process, and never reaches the hosted server", async () => {
  const d = await startHostedDouble({ dataRoot: SYNTHETIC_DATA_ROOT, toolset: "current" });
  const home = tempHome();
  const config = configFor({ home, mcpUrl: d.url, baseUrl: d.baseUrl, pack: PACK });
  const judgement = JSON.parse(readFileSync(join(EXAMPLE, "judgement.json"), "utf8")) as Record<string, unknown>;

  const a = await startSession(config);
  await a.initialize();
  const assessed = await a.call("assess_message", { ...judgement, iocs: {}, message_text: ASSESSED, surface: "public_channel", authorization: "public", source: SOURCE });
  expect(assessed.msg.result.isError, assessed.line).not.toBe(true);
  // Refused by validation: an unknown signal name (the SDK's schema or the judgement check).
  const refused = await a.call("assess_message", { ...judgement, message_text: REFUSED, signals: ["no_such_signal"] });
  expect(refused.msg.error !== undefined || refused.msg.result.isError === true, refused.line).toBe(true);
  const matched = await a.call("match_typologies", { text: MATCHED });
  expect(matched.msg.result.isError, matched.line).not.toBe(true);
  const prompted = await a.request("prompts/get", { name: "triage_message", arguments: { message: PROMPTED } });
  expect(prompted.msg.result.messages).toHaveLength(1);
  // In this process too (the allowlist or the guard refuses it).
  const here = await a.call("get_signal", { name: QUOTES[2] });
  expect(here.msg.error !== undefined || here.msg.result.structuredContent?.status === "refused", here.line).toBe(true);
  await a.end();

  const b = await startSession(config);
  await b.initialize();
  for (const quote of QUOTES) {
    // Refused by the upstream allowlist (not a published signal name: -32602) or by the guard's fingerprints.
    const r = await b.call("get_signal", { name: quote });
    expect(r.msg.error !== undefined || r.msg.result.structuredContent?.status === "refused", `${quote}: ${r.line}`).toBe(true);
    expect(r.line.toLowerCase()).not.toContain(quote);
  }
  // Every door sealed its text's fingerprint: the later process's guard refuses each quote on its own.
  const store = await openStore({ home, passphrase: undefined });
  const later = new StoreGuard();
  later.refreshFrom(store);
  for (const quote of QUOTES) {
    const v = later.guard.checkCall({ name: quote }, undefined, JSON.stringify({ name: quote }));
    expect(v.ok, quote).toBe(false);
    if (!v.ok) expect(v.reason.startsWith("leak guard: message_text in arguments.name")).toBe(true);
  }
  // Legitimate calls still pass.
  const legit = await b.call("list_signals", {});
  expect(legit.msg.result.isError, legit.line).not.toBe(true);
  await b.end();
  await d.close();

  const sent = d.requests.map((r) => `${r.path}\n${JSON.stringify(r.headers)}\n${r.body}`.toLowerCase()).join("\n");
  for (const quote of QUOTES) expect(sent.includes(quote), quote).toBe(false);
  for (const word of ["zqlantern", "zqquartz", "zqember", "zqcobalt"]) expect(sent.includes(word), word).toBe(false);
}, 120_000);
