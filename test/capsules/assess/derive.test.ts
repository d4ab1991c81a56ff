/**
 * Derivation (capsules/assess/derive.ts): every judgement the schema accepts yields an assessment our own strict
 * intake accepts (property test), the reference examples' provenance is reproduced from their text and signals,
 * and the capsule names the assess producer and carries the judgement-origin claim.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { deriveAssessment } from "../../../capsules/assess/derive.js";
import { checkJudgement, JudgementError, type Judgement } from "../../../capsules/assess/judgement.js";
import { ASSESS_PRODUCER } from "../../../capsules/assessment/adapter.js";
import { buildFromIntake } from "../../../capsules/pipeline/build.js";
import { intakeAssessment } from "../../../capsules/pipeline/intake.js";
import { AUTHORIZATIONS, SURFACES } from "../../../capsules/assessment/types.js";
import { THREAT_EVIDENCE_CLASSES } from "../../../capsules/assessment/vocabulary.js";
import { deriveCandidate } from "../../helpers/derive.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { fromJs } from "../../../capsules/capsule/js-input.js";
import { loadPackFile } from "../../../published/pack/file.js";
import { KNOWN_DETECTOR_SIGNALS, THREAT_RULE_IDS } from "../../../published/pack/vocabulary.js";
import type { JsonValue } from "../../../src/json/value.js";
import { describeShared, readShared, sharedPath, validExampleNames } from "../../helpers/shared.js";
import { SAMPLES } from "./messages.js";

const KEY = "0".repeat(64);
const NOW = new Date("2026-11-24T10:00:00.123Z");

function judgement(j: unknown): Judgement {
  return checkJudgement(fromJs(j) as JsonValue);
}

describeShared("deriveAssessment", () => {
  const pack = loadPackFile(sharedPath("data/intelligence-pack/intelligence-pack-v1.json"));

  test("a message in every script with its judgement passes our intake and becomes a verifying capsule", () => {
    for (const s of SAMPLES) {
      const j = judgement({ signals: ["account_rental_offer", "commission_share_terms"], findings: [], surface: "guardian_group", authorization: "administrator_authorized" });
      const d = deriveAssessment({ message: s.text, judgement: j, pack, pseudonymKey: KEY, now: NOW });
      expect(d.assessment.detector.iocs).toEqual(s.iocs);
      expect(d.assessment.collection.script_hints).toEqual(s.scripts);
      expect(d.assessment.created_at).toBe("2026-11-24T10:00:00.123000Z");
      const built = buildFromIntake(d.intake, ASSESS_PRODUCER);
      expect(verifyCapsule(built.envelope).ok).toBe(true);
      const content = JSON.parse(new TextDecoder().decode(built.bytes)).content as { producer: unknown; claims: { id: string; statement: string }[] };
      expect(content.producer).toEqual({ name: "evidence-bridge", software: "evidence-bridge/assess" });
      expect(content.claims.find((c) => c.id === "judgement-origin")?.statement).toMatch(/stated by the analyst's client/);
    }
  });

  test("the outward candidate derives from the capsule (the rebuilt content matches, judgement claim included)", () => {
    const s = SAMPLES[0];
    const j = judgement({ signals: ["account_rental_offer", "account_sourcing_demand", "commission_share_terms"], findings: [], surface: "private_submission", authorization: "user_submitted", source: "telegram-user:1" });
    const d = deriveAssessment({ message: s.text, judgement: j, pack, pseudonymKey: KEY, now: NOW });
    const built = buildFromIntake(d.intake, ASSESS_PRODUCER);
    const r = deriveCandidate(built.bytes, pack, { includeTypologyMatches: true, includeClean: false });
    expect(r.status).toBe("emitted");
    // weights.ts: 30 + 20 + 10 = 60 → CONFIRMED_PATTERN; the pseudonym is keyed, 24 hex characters.
    expect(d.assessment.detector.score).toBe(60);
    expect(d.assessment.detector.tier).toBe("CONFIRMED_PATTERN");
    expect(d.assessment.detector.families).toEqual(["ACCOUNT"]);
    expect(d.assessment.collection.source_pseudonym).toMatch(/^[0-9a-f]{24}$/);
  });

  for (const name of validExampleNames()) {
    test(`reference example ${name}: same hypotheses, answer and abstentions from its text and signal set`, () => {
      const text = readShared("data/bridge-examples/valid", `${name}.txt`).toString("utf8");
      const ref = JSON.parse(readShared("data/bridge-examples/valid", `${name}.json`).toString("utf8"));
      if (ref.hypotheses.some((h: { external_observations: unknown[] }) => h.external_observations.length > 0)) return; // observations are not part of a judgement
      const j = judgement({
        signals: ref.detector.signals.map((s: { name: string }) => s.name),
        findings: ref.threat_assessment.findings.map((f: { rule_id: string; tier: string; evidence_classes: string[]; matched_terms: Record<string, string[]> }) => ({
          rule_id: f.rule_id,
          tier: f.tier,
          evidence_classes: f.evidence_classes,
          fragments: f.matched_terms,
        })),
        surface: ref.collection.surface,
        authorization: ref.collection.authorization,
        source: "channel-1",
      });
      const d = deriveAssessment({ message: text, judgement: j, pack, pseudonymKey: KEY, now: NOW });
      expect(d.assessment.hypotheses).toEqual(ref.hypotheses);
      expect(d.assessment.origin_answer).toBe(ref.origin_answer);
      expect(d.assessment.abstentions).toEqual(ref.abstentions);
      expect(d.assessment.threat_assessment).toEqual(ref.threat_assessment);
      expect(d.assessment.message_sha256).toBe(ref.message_sha256);
    });
  }

  test("a fragment that is not an exact substring is refused by path, without echoing it", () => {
    const j = judgement({
      signals: [],
      findings: [{ rule_id: "task_scam_pattern", tier: "WATCH", evidence_classes: ["offer"], fragments: { offer: ["SECRET-PARAPHRASE"] } }],
      surface: "offline_import",
      authorization: "operator_authorized",
    });
    try {
      deriveAssessment({ message: "earn money by liking videos", judgement: j, pack, pseudonymKey: KEY, now: NOW });
      throw new Error("expected a refusal");
    } catch (e) {
      expect(e).toBeInstanceOf(JudgementError);
      expect((e as Error).message).toBe("judgement.findings[0].fragments.offer[0]: not an exact substring of the message (fragments are quoted, not paraphrased)");
    }
  });

  test("property: every judgement the schema accepts yields an assessment our strict intake accepts", () => {
    const snippets = [...SAMPLES.map((s) => s.text), "Golden Triangle casino junket, points accounts", "地下钱庄 对敲", "ivory for sale no CITES permit", ""];
    const findingArb = fc.record(
      {
        rule_id: fc.constantFrom(...THREAT_RULE_IDS),
        tier: fc.constantFrom("WATCH", "LIKELY_SCAM", "CONFIRMED_PATTERN"),
        evidence_classes: fc.uniqueArray(fc.constantFrom(...THREAT_EVIDENCE_CLASSES), { minLength: 1, maxLength: 6 }),
        fragments: fc.option(fc.dictionary(fc.constantFrom(...THREAT_EVIDENCE_CLASSES), fc.array(fc.nat(400), { minLength: 1, maxLength: 3 }), { maxKeys: 3 }), { nil: undefined }),
      },
      { requiredKeys: ["rule_id", "tier", "evidence_classes"] },
    );
    const arb = fc.record({
      message: fc.tuple(fc.constantFrom(...snippets), fc.string({ unit: "grapheme", maxLength: 40 }), fc.constantFrom(...snippets)).map((p) => p.join(" ")),
      signals: fc.uniqueArray(fc.constantFrom(...KNOWN_DETECTOR_SIGNALS), { maxLength: 8 }),
      findings: fc.uniqueArray(findingArb, { maxLength: 4, selector: (f) => f.rule_id }),
      surface: fc.constantFrom(...SURFACES),
      authorization: fc.constantFrom(...AUTHORIZATIONS),
      source: fc.option(fc.string({ minLength: 1, maxLength: 20 }), { nil: undefined }),
      observed: fc.option(fc.date({ min: new Date("2020-01-01"), max: new Date("2030-01-01"), noInvalidDate: true }), { nil: undefined }),
    });
    let accepted = 0;
    fc.assert(
      fc.property(arb, (g) => {
        // Fragments: substrings of the message picked by offset (the schema wants exact substrings).
        const findings = g.findings.map((f) => {
          const out: Record<string, unknown> = { rule_id: f.rule_id, tier: f.tier, evidence_classes: f.evidence_classes };
          if (f.fragments) {
            out.fragments = Object.fromEntries(
              Object.entries(f.fragments).map(([cls, offsets]) => [cls, [...new Set(offsets.map((o) => [...g.message].slice(o % Math.max(1, [...g.message].length), (o % Math.max(1, [...g.message].length)) + 12).join("")))]]),
            );
          }
          return out;
        });
        const raw: Record<string, unknown> = { signals: g.signals, findings, surface: g.surface, authorization: g.authorization };
        if (g.source !== undefined) raw.source = g.source;
        if (g.observed !== undefined) raw.observed_at = `${g.observed.toISOString().slice(0, 19)}Z`;
        let j: Judgement;
        try {
          j = judgement(raw);
        } catch (e) {
          if (e instanceof JudgementError) return; // outside the schema: not this property's concern
          throw e;
        }
        let d;
        try {
          d = deriveAssessment({ message: g.message, judgement: j, pack, pseudonymKey: KEY, now: NOW });
        } catch (e) {
          if (e instanceof JudgementError && e.rule === "fragment") return; // a lone-surrogate split or empty fragment
          throw e;
        }
        accepted++;
        expect(() => intakeAssessment(d.bytes, pack, { messageText: g.message })).not.toThrow();
        const built = buildFromIntake(d.intake, ASSESS_PRODUCER);
        expect(verifyCapsule(built.envelope).ok).toBe(true);
      }),
      { numRuns: 400 },
    );
    // About a fifth of generated judgements are inside the schema (a fresh-clone run saw 28 of 150): 400 runs make
    // fewer than 31 accepted practically impossible while the property still checks dozens of derivations.
    expect(accepted).toBeGreaterThan(30);
  });
});
