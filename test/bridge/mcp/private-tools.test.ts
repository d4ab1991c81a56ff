/**
 * The private tools over stdio (product.md §6): record_assessment, verify_capsule, list_capsules,
 * get_candidates, match_typologies, check_regional_index, with their bad inputs answered precisely.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { candidateSchema } from "../../../bridge/mcp/format-zod.js";
import { repoRoot } from "../../helpers/shared.js";
import { describeShared } from "../../helpers/shared.js";
import { configFor, exampleAssessment, exampleMessage, removeTempHomes, Session, startSession, tempHome } from "./session.js";

afterAll(removeTempHomes);

const MULE = "01-mule-account-rental-hinglish";
const CLEAN = "22-clean-mandi-prices";
const REGIONAL = join(repoRoot, "test/fixtures/regional");

describeShared("private tools", () => {
  let s: Session;
  let home: string;
  beforeAll(async () => {
    home = tempHome();
    s = await startSession(configFor({ home }));
  });
  afterAll(async () => {
    await s.end();
  });

  describe("record_assessment", () => {
    let capsuleId: string;

    test("records a valid assessment given as JSON text: id, stored, verification, candidate preview", async () => {
      const r = await s.call("record_assessment", { assessment: exampleAssessment(MULE) });
      const out = r.msg.result;
      expect(out.isError).toBeUndefined();
      const sc = out.structuredContent;
      expect(sc.capsule_id).toMatch(/^[0-9a-f]{64}$/);
      expect(sc.stored).toBe(true);
      expect(sc.store_status).toBe("new");
      expect(sc.message_retained).toBe(false);
      expect(sc.verification.ok).toBe(true);
      expect(sc.verification.errors).toEqual([]);
      expect(sc.candidate_preview.status).toBe("emitted");
      expect(sc.candidate_preview.digest).toMatch(/^[0-9a-f]{64}$/);
      expect(candidateSchema.safeParse(sc.candidate_preview.candidate).success).toBe(true);
      expect(sc.candidate_preview.candidate.capsule_sha256).toBe(sc.capsule_id);
      // The text content carries the same JSON for text-only clients.
      expect(out.content[0].text).toMatch(/^Capsule [0-9a-f]{64} (recorded|was already recorded); verification ok/);
      expect(JSON.parse(out.content[1].text)).toEqual(sc);
      capsuleId = sc.capsule_id;
    });

    test("the same assessment given as an object is the same capsule, already stored", async () => {
      const r = await s.call("record_assessment", { assessment: JSON.parse(exampleAssessment(MULE)) });
      const sc = r.msg.result.structuredContent;
      expect(sc.capsule_id).toBe(capsuleId);
      expect(sc.store_status).toBe("existing");
      expect(sc.warnings.join(" ")).toMatch(/already held this capsule/);
    });

    test("an object argument is read from the client's exact bytes (a float lexeme survives)", async () => {
      // The raw text keeps 91.97 and the original key order; a re-serialised object would still verify, but the
      // capsule embeds the exact bytes, so the id follows the text actually sent.
      const text = exampleAssessment(MULE);
      const line = `{"jsonrpc":"2.0","id":"raw-1","method":"tools/call","params":{"name":"record_assessment","arguments":{"assessment":${text.trim()}}}}`;
      const p = s.reply("raw-1");
      s.writeLine(line);
      const r = await p;
      expect(r.msg.result.structuredContent.capsule_id).toBe(capsuleId);
    });

    test("message_text is checked against message_sha256 and then dropped; retain_message seals it", async () => {
      const ok = await s.call("record_assessment", { assessment: exampleAssessment(MULE), message_text: exampleMessage(MULE) });
      expect(ok.msg.result.structuredContent.warnings.join(" ")).toMatch(/discarded/);
      const kept = await s.call("record_assessment", { assessment: exampleAssessment(MULE), message_text: exampleMessage(MULE), retain_message: true });
      expect(kept.msg.result.structuredContent.message_retained).toBe(true);
      const bad = await s.call("record_assessment", { assessment: exampleAssessment(MULE), message_text: `${exampleMessage(MULE)} ` });
      expect(bad.msg.result.isError).toBe(true);
      expect(bad.msg.result._meta["evidence-bridge/error"]).toMatchObject({ status: "rejected", rule: "message-hash", path: "assessment.message_sha256" });
    });

    test("retain_message without message_text is refused", async () => {
      const r = await s.call("record_assessment", { assessment: exampleAssessment(MULE), retain_message: true });
      expect(r.msg.result.isError).toBe(true);
      expect(r.msg.result._meta["evidence-bridge/error"].status).toBe("rejected");
    });

    test("a rejected assessment is a precise isError result naming path and rule; nothing is stored", async () => {
      const doc = JSON.parse(exampleAssessment(MULE));
      doc.detector.tier = "SEVERE";
      const r = await s.call("record_assessment", { assessment: JSON.stringify(doc) });
      expect(r.msg.result.isError).toBe(true);
      expect(r.msg.result._meta["evidence-bridge/error"].status).toBe("rejected");
      expect(r.msg.result._meta["evidence-bridge/error"].reason).toMatch(/^assessment\.detector\.tier: /);
      const list = await s.call("list_capsules", {});
      expect(list.msg.result.structuredContent.total).toBe(1);
    });

    test("an edited assessment (id no longer matches) and a non-JSON text are rejected", async () => {
      const doc = JSON.parse(exampleAssessment(MULE));
      doc.detector.score = 61;
      const edited = await s.call("record_assessment", { assessment: JSON.stringify(doc) });
      expect(edited.msg.result._meta["evidence-bridge/error"].status).toBe("rejected");
      const notJson = await s.call("record_assessment", { assessment: "{not json" });
      expect(notJson.msg.result.isError).toBe(true);
      expect(notJson.msg.result._meta["evidence-bridge/error"].status).toBe("rejected");
    });

    test("an oversized assessment (over 1 MiB) is rejected before parsing", async () => {
      const r = await s.call("record_assessment", { assessment: " ".repeat(1_048_577) });
      expect(r.msg.result._meta["evidence-bridge/error"]).toMatchObject({ status: "rejected", rule: "size" });
      expect(r.msg.result._meta["evidence-bridge/error"].reason).toMatch(/1048577 bytes exceed the 1048576-byte/);
    });

    test("a CLEAN assessment is stored without an outward candidate", async () => {
      const r = await s.call("record_assessment", { assessment: exampleAssessment(CLEAN) });
      const sc = r.msg.result.structuredContent;
      expect(sc.stored).toBe(true);
      expect(sc.candidate_preview).toEqual({ status: "excluded", reason: expect.stringMatching(/CLEAN/) });
    });

    test("arguments outside the input schema are an isError result", async () => {
      const r = await s.call("record_assessment", { assessment: exampleAssessment(MULE), extra: 1 });
      expect(r.msg.result.isError).toBe(true);
      expect(r.msg.result.content[0].text).toMatch(/Input validation error/);
      const missing = await s.call("record_assessment", {});
      expect(missing.msg.result.isError).toBe(true);
    });
  });

  describe("verify_capsule", () => {
    const capsuleText = () => readFileSync(join(sharedPathValid(), `${MULE}.capsule.json`), "utf8");

    test("inline capsule (text and object): the full report, ok", async () => {
      for (const capsule of [capsuleText(), JSON.parse(capsuleText())]) {
        const r = await s.call("verify_capsule", { capsule });
        expect(r.msg.result.isError).toBeUndefined();
        expect(r.msg.result.structuredContent.ok).toBe(true);
        expect(r.msg.result.structuredContent.schema.status).toBe("verified");
      }
    });

    test("a capsule that does not verify: isError with the report", async () => {
      const doc = JSON.parse(capsuleText());
      doc.content.subject.title = `${doc.content.subject.title} (edited)`;
      const r = await s.call("verify_capsule", { capsule: doc });
      expect(r.msg.result.isError).toBe(true);
      expect(r.msg.result.structuredContent.ok).toBe(false);
      expect(r.msg.result.structuredContent.integrity.status).toBe("failed");
      expect(r.msg.result.content[0].text).toMatch(/^the capsule does not verify: /);
    });

    test("not a capsule at all: invalid, with the loader's message", async () => {
      const r = await s.call("verify_capsule", { capsule: "[1, 2]" });
      expect(r.msg.result._meta["evidence-bridge/error"]).toEqual({ status: "invalid", reason: "capsule envelope must be a JSON object" });
      expect(r.msg.result.structuredContent).toBeUndefined();
      const dup = await s.call("verify_capsule", { capsule: '{"a": 1, "a": 2}' });
      expect(dup.msg.result._meta["evidence-bridge/error"].status).toBe("invalid");
    });

    test("a stored capsule by id; an unknown id is not_found; both or neither argument is an error", async () => {
      const rec = await s.call("record_assessment", { assessment: exampleAssessment(MULE) });
      const id = rec.msg.result.structuredContent.capsule_id;
      const r = await s.call("verify_capsule", { capsule_sha256: id });
      expect(r.msg.result.structuredContent.ok).toBe(true);
      expect(r.msg.result.structuredContent.integrity.actual).toBe(id);
      const none = await s.call("verify_capsule", { capsule_sha256: "0".repeat(64) });
      expect(none.msg.result._meta["evidence-bridge/error"].status).toBe("not_found");
      const both = await s.call("verify_capsule", { capsule_sha256: id, capsule: capsuleText() });
      expect(both.msg.result.isError).toBe(true);
      expect(both.msg.result.content[0].text).toMatch(/exactly one of capsule or capsule_sha256/);
      const neither = await s.call("verify_capsule", {});
      expect(neither.msg.result.isError).toBe(true);
    });
  });

  describe("list_capsules and get_candidates", () => {
    test("rows are minimized, paged with a cursor, filtered by review status", async () => {
      const all = await s.call("list_capsules", {});
      const sc = all.msg.result.structuredContent;
      expect(sc.total).toBe(2);
      for (const row of sc.rows) {
        expect(Object.keys(row).sort()).toEqual(["approvals", "created_at", "families", "id", "ioc_counts", "kind", "review_status", "tiers"]);
        expect(row.approvals).toEqual({ counted: 0, required: 1, met: false });
      }
      const first = await s.call("list_capsules", { limit: 1 });
      expect(first.msg.result.structuredContent.rows).toEqual([sc.rows[0]]);
      const second = await s.call("list_capsules", { limit: 1, cursor: first.msg.result.structuredContent.next_cursor });
      expect(second.msg.result.structuredContent.rows).toEqual([sc.rows[1]]);
      expect(second.msg.result.structuredContent.next_cursor).toBeNull();
      const approved = await s.call("list_capsules", { review_status: "APPROVED_FOR_RELEASE" });
      expect(approved.msg.result.structuredContent).toEqual({ rows: [], total: 0, next_cursor: null });
      const bad = await s.call("list_capsules", { cursor: "nonsense" });
      expect(bad.msg.result._meta["evidence-bridge/error"].status).toBe("invalid");
      const badStatus = await s.call("list_capsules", { review_status: "MAYBE" });
      expect(badStatus.msg.result.isError).toBe(true);
    });

    test("candidates in feed order with digest and review status; CLEAN counted as excluded", async () => {
      const r = await s.call("get_candidates", {});
      const sc = r.msg.result.structuredContent;
      expect(sc.candidates).toHaveLength(1);
      expect(sc.candidates[0].review_status).toBe("HUMAN_REVIEW_REQUIRED");
      expect(sc.candidates[0].approvals).toEqual({ counted: 0, required: 1, met: false });
      expect(sc.excluded).toBe(1);
      expect(sc.withheld).toEqual([]);
      const withMatches = await s.call("get_candidates", { include_typology_matches: true });
      const c = withMatches.msg.result.structuredContent.candidates[0];
      expect(c.candidate.feed_policy.typology_match_visible).toBe(true);
      expect(c.digest).not.toBe(sc.candidates[0].digest);
    });
  });

  describe("match_typologies", () => {
    test("message-level hypotheses from the local pack; the pack digest is named", async () => {
      const r = await s.call("match_typologies", { text: exampleMessage(MULE), signals: ["account_rental_offer", "account_sourcing_demand", "commission_share_terms"] });
      const sc = r.msg.result.structuredContent;
      expect(sc.pack_sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(sc.hypotheses.map((h: { typology_id: string }) => h.typology_id)).toContain("mule-crypto-cashout");
      expect(typeof sc.origin_answer).toBe("string");
    });

    test("the signal vocabulary is a published enum; an unknown name is refused, naming it", async () => {
      const list = await s.request("tools/list");
      const tool = list.msg.result.tools.find((t: { name: string }) => t.name === "match_typologies");
      const items = tool.inputSchema.properties.signals.items;
      expect(items.enum).toHaveLength(55);
      expect(items.enum).toContain("account_rental_offer");
      expect(items.enum).toContain("forced_labour_recruitment_risk");
      const r = await s.call("match_typologies", { text: "hello", signals: ["account_rental_offer", "ok_signal"] });
      expect(r.msg.result.isError).toBe(true);
      expect(r.msg.result.content[0].text).toMatch(/unknown signal name 'ok_signal'/);
    });
  });

  describe("check_regional_index", () => {
    test("a valid index conforms (the regional validator is wired, not a placeholder)", async () => {
      const text = readFileSync(join(REGIONAL, "valid/gwadar.json"), "utf8");
      const r = await s.call("check_regional_index", { index: text });
      expect(r.msg.result.isError).toBeUndefined();
      expect(r.msg.result.structuredContent).toMatchObject({ conforms: true, region: "gwadar", error_count: 0 });
      const asObject = await s.call("check_regional_index", { index: JSON.parse(text) });
      expect(asObject.msg.result.structuredContent.content_sha256).toEqual(r.msg.result.structuredContent.content_sha256);
    });

    test("every broken fixture is reported as an isError result with its errors", async () => {
      const broken = readdirSync(join(REGIONAL, "broken")).filter((f) => f.endsWith(".json")).slice(0, 12);
      expect(broken.length).toBeGreaterThan(0);
      for (const f of broken) {
        const r = await s.call("check_regional_index", { index: readFileSync(join(REGIONAL, "broken", f), "utf8") });
        expect(r.msg.result.isError, f).toBe(true);
        expect(r.msg.result.structuredContent.conforms, f).toBe(false);
        expect(r.msg.result.structuredContent.error_count, f).toBeGreaterThan(0);
      }
    });
  });
});

function sharedPathValid(): string {
  return join(repoRoot, "../shared/data/bridge-examples/valid");
}

describe("without a pack", () => {
  test("record_assessment says the pack is not configured; the process keeps serving", async () => {
    const s = await startSession(configFor({ pack: null }));
    const r = await s.call("record_assessment", { assessment: "{}" });
    expect(r.msg.result._meta["evidence-bridge/error"]).toMatchObject({ status: "unavailable", rule: "not-configured" });
    const list = await s.call("list_capsules", {});
    expect(list.msg.result.structuredContent.total).toBe(0);
    await s.end();
  });
});
