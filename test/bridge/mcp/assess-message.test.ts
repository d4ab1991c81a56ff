/**
 * MCP `assess_message` over stdio: a raw message and a judgement become a sealed capsule; the result carries a
 * short text and structuredContent without the message, its hash or IOC values; idempotence and supersede; client
 * IOCs that are not in the message are refused by kind; the triage_message prompt; record_assessment's
 * assessment_id idempotence.
 */
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { describeShared } from "../../helpers/shared.js";
import { configFor, exampleAssessment, removeTempHomes, Session, startSession, tempHome } from "./session.js";

const CANARY = "CANARY-ASSESS-5519";
const HANDLE = "@canary_desk_5519";
const MESSAGE = `${CANARY} Bank account on rent chahiye, 3% commission daily, DM ${HANDLE} or call +91 98765 43210`;
const JUDGEMENT = {
  signals: ["account_rental_offer", "account_sourcing_demand", "commission_share_terms"],
  findings: [],
  surface: "private_submission",
  authorization: "user_submitted",
};

describeShared("assess_message", () => {
  let s: Session;
  let home: string;
  beforeAll(async () => {
    home = tempHome();
    s = await startSession(configFor({ home }));
  });
  afterAll(async () => {
    await s.end();
    removeTempHomes();
  });

  test("records a raw message: short text + structuredContent, nothing private in the result or on disk", async () => {
    const r = await s.call("assess_message", { message_text: MESSAGE, ...JUDGEMENT });
    const result = r.msg.result;
    expect(result.isError).toBeUndefined();
    const sc = result.structuredContent;
    expect(sc.status).toBe("new");
    expect(sc.capsule_id).toMatch(/^[0-9a-f]{64}$/);
    expect(sc.detector).toEqual({ tier: "CONFIRMED_PATTERN", score: 60 });
    expect(sc.ioc_counts).toMatchObject({ handles: 1, phones: 1 });
    expect(sc.hypotheses).toEqual([{ typology_id: "mule-crypto-cashout", support_level: "TYPOLOGY_MATCH" }]);
    expect(sc.verification.ok).toBe(true);
    expect(sc.candidate_preview.status).toBe("emitted");
    expect(result.content[0].text).toMatch(/^Recorded capsule [0-9a-f]{64}; verification ok; detector CONFIRMED_PATTERN 60/);
    const hash = createHash("sha256").update(MESSAGE).digest("hex");
    for (const secret of [CANARY, HANDLE, "98765 43210", hash]) expect(r.line).not.toContain(secret);
    for (const e of readdirSync(home, { recursive: true, withFileTypes: true })) {
      if (!e.isFile()) continue;
      const bytes = readFileSync(join(e.parentPath, e.name));
      for (const secret of [CANARY, HANDLE, hash]) expect(bytes.includes(secret)).toBe(false);
    }
  });

  test("the same message again returns the existing capsule and says so; supersede records a new one naming it", async () => {
    const again = await s.call("assess_message", { message_text: MESSAGE, ...JUDGEMENT });
    const first = again.msg.result.structuredContent;
    expect(first.status).toBe("already_recorded");
    expect(first.warnings[0]).toMatch(/already recorded as capsule/);
    // Its candidate may have been reviewed since the first call: it is not said to await review.
    expect(again.msg.result.content[0].text).toMatch(/; outward candidate emitted when it was first recorded \(get_candidates shows its review status\)\.$/);
    const sup = await s.call("assess_message", { message_text: MESSAGE, ...JUDGEMENT, supersede: true });
    const sc = sup.msg.result.structuredContent;
    expect(sc.status).toBe("new");
    expect(sc.supersedes).toEqual([first.capsule_id]);
    expect(sc.capsule_id).not.toBe(first.capsule_id);
  });

  test("a client IOC that is not in the message is refused naming the kind, never the value", async () => {
    const r = await s.call("assess_message", { message_text: MESSAGE, ...JUDGEMENT, iocs: { wallets: ["TNOTINMESSAGE0000000000000000000"] } });
    expect(r.msg.result.isError).toBe(true);
    expect(r.msg.result.content[0].text).toBe("judgement.iocs.wallets[0]: this wallet does not occur in the message (after Unicode normalisation)");
    expect(r.line).not.toContain("TNOTINMESSAGE");
    expect(r.line).not.toContain(CANARY);
  });

  test("a missing or mistyped message_text is worded as the judgement's members are", async () => {
    const missing = await s.call("assess_message", { ...JUDGEMENT });
    expect(missing.msg.result?.isError ?? true).toBe(true);
    expect(missing.msg.error?.message ?? missing.msg.result.content[0].text).toMatch(/missing \(expected string\) at message_text/);
    const mistyped = await s.call("assess_message", { ...JUDGEMENT, message_text: 7 });
    expect(mistyped.msg.error?.message ?? mistyped.msg.result.content[0].text).toMatch(/expected string \(got integer\) at message_text/);
  });

  test("the input schema publishes the closed vocabularies; unknown names are refused", async () => {
    const list = await s.request("tools/list");
    const tool = list.msg.result.tools.find((t: { name: string }) => t.name === "assess_message");
    expect(tool.inputSchema.properties.signals.items.enum).toHaveLength(45);
    expect(tool.inputSchema.properties.surface.enum).toContain("public_channel");
    const r = await s.call("assess_message", { message_text: "x", ...JUDGEMENT, signals: ["made_up"] });
    expect(r.msg.result.isError).toBe(true);
  });

  test("values or keys in the wrong place are refused without being quoted: a handle as a signal, a message as a key", async () => {
    const asSignal = await s.call("assess_message", { message_text: MESSAGE, ...JUDGEMENT, signals: ["canarydesk_9"] });
    expect(asSignal.msg.result.isError).toBe(true);
    expect(asSignal.line).toContain("a string of 12 characters");
    const asKey = await s.call("assess_message", { message_text: MESSAGE, ...JUDGEMENT, [`${HANDLE} ${CANARY}`]: "x" });
    expect(asKey.msg.error?.message ?? asKey.msg.result?.content?.[0]?.text).toMatch(/1 unknown argument\(s\), names not shown \(the arguments are message_text, signals/);
    const nested = await s.call("assess_message", { message_text: MESSAGE, ...JUDGEMENT, iocs: { [HANDLE]: ["x"] } });
    expect(nested.msg.result?.isError ?? true).toBe(true);
    for (const r of [asSignal, asKey, nested]) {
      expect(r.line).not.toContain("canarydesk_9");
      expect(r.line).not.toContain(HANDLE.slice(1));
      expect(r.line).not.toContain(CANARY);
    }
  });

  test("a message retained earlier is not said to be discarded when it is sent again", async () => {
    const text = `${MESSAGE} (retained copy)`;
    const first = await s.call("assess_message", { message_text: text, ...JUDGEMENT, retain_message: true });
    expect(first.msg.result.structuredContent.message_retained).toBe(true);
    const again = await s.call("assess_message", { message_text: text, ...JUDGEMENT });
    const warnings: string[] = again.msg.result.structuredContent.warnings;
    expect(warnings).toContain("message_text was hashed and used; the store already holds it sealed from an earlier call");
    expect(warnings.join(" ")).not.toMatch(/discarded/);
  });

  test("a message without visible text, or with a lone surrogate, is refused before anything is stored", async () => {
    const before = await s.call("list_capsules", {});
    const empty = await s.call("assess_message", { message_text: "\u200b \n", ...JUDGEMENT });
    expect(empty.msg.result.isError).toBe(true);
    expect(empty.msg.result.content[0].text).toBe("message_text: no visible character (empty, or only spaces and invisible characters)");
    const lone = await s.call("assess_message", { message_text: `${CANARY} \ud800`, ...JUDGEMENT });
    expect(lone.msg.result.isError).toBe(true);
    expect(lone.msg.result.content[0].text).toMatch(/^message_text: not well-formed Unicode/);
    expect(lone.line).not.toContain(CANARY);
    const after = await s.call("list_capsules", {});
    expect(after.msg.result.structuredContent.total).toBe(before.msg.result.structuredContent.total);
  });

  test("private tool results carry a short sentence first and the structured content (also as JSON text)", async () => {
    const calls: [string, Record<string, unknown>, RegExp][] = [
      ["get_candidates", {}, /^\d+ outward candidate\(s\) for human review, \d+ withheld, \d+ excluded/],
      ["list_capsules", {}, /^\d+ of \d+ stored capsule\(s\)/],
      ["match_typologies", { text: MESSAGE, signals: JUDGEMENT.signals }, /^Message-level typology match: mule-crypto-cashout \(nothing was stored\)\.$/],
    ];
    for (const [name, args, sentence] of calls) {
      const r = await s.call(name, args);
      expect(r.msg.result.content[0].text, name).toMatch(sentence);
      expect(JSON.parse(r.msg.result.content[1].text), name).toEqual(r.msg.result.structuredContent);
    }
  });

  test("prompt triage_message walks read → assess → candidates", async () => {
    const list = await s.request("prompts/list");
    expect(list.msg.result.prompts.map((p: { name: string }) => p.name)).toContain("triage_message");
    const got = await s.request("prompts/get", { name: "triage_message", arguments: { message: "hello there" } });
    const text = got.msg.result.messages[0].content.text;
    expect(text).toMatch(/assess_message/);
    expect(text).toMatch(/get_candidates/);
    expect(text).toContain("hello there");
  });

  test("record_assessment: the same assessment_id with other bytes returns the stored capsule with a warning", async () => {
    const name = "01-mule-account-rental-hinglish";
    const original = exampleAssessment(name);
    const a = await s.call("record_assessment", { assessment: original });
    const id = a.msg.result.structuredContent.capsule_id;
    const reindented = JSON.stringify(JSON.parse(original), null, 2).replace('"rate": 91.97', '"rate": 91.97');
    const b = await s.call("record_assessment", { assessment: reindented });
    expect(b.msg.result.isError).toBeUndefined();
    const sc = b.msg.result.structuredContent;
    expect(sc.capsule_id).toBe(id);
    expect(sc.store_status).toBe("existing");
    expect(sc.warnings.join(" ")).toMatch(/already recorded as capsule/);
  });
});
