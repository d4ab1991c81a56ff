/**
 * Bad input (assessment-v1 §9.3): the reference's lenient examples wrapped in capsules the way the reference bridge
 * did (reference-producer mode, no schema or consistency check), then derived. Their candidates are withheld or
 * sanitised; the IOC text they carry never reaches a candidate or a reason.
 */
import { expect, it } from "vitest";
import type { JsonObject } from "../../../src/json/value.js";
import { loadPack } from "../../../published/pack/load.js";
import { NO_HYPOTHESIS_ANSWER } from "../../../published/pack/templates.js";
import { parseAssessment } from "../../../capsules/assessment/parse-assessment.js";
import { deriveCandidate } from "../../helpers/derive.js";
import { WITHHELD_ANSWER } from "../../../capsules/candidates/feed-policy.js";
import { OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import { assessmentPrivateValues } from "../../../capsules/guard/private-values.js";
import type { CandidateView, DeriveResult } from "../../../capsules/candidates/types.js";
import { describeShared, readShared } from "../../helpers/shared.js";
import { assessmentBytes, at, capsuleFor, exampleBytes, exampleValue, put } from "./build-helpers.js";

const MODES: CandidateView[] = [
  { includeTypologyMatches: false, includeClean: true },
  { includeTypologyMatches: true, includeClean: true },
];
const LEAKS = [/leaky/i, /90000\s*11111/, /rentacc/i, /98765\s*43210/];
const FILES = ["02-origin-answer-carries-ioc", "05-unsupported-direct-link"];

function outward(r: DeriveResult): string {
  return r.status === "emitted" ? new TextDecoder().decode(r.bytes) : r.reason;
}

function expectNoLeak(r: DeriveResult): void {
  const s = outward(r);
  for (const leak of LEAKS) expect(s).not.toMatch(leak);
  if (r.status === "emitted") expect(s).not.toContain("DIRECT_LINK");
}

describeShared("lenient reference inputs in capsules", () => {
  const pack = loadPack(readShared("data/intelligence-pack/intelligence-pack-v1.json"));

  for (const file of FILES) {
    it(`${file}: the capsule as the reference bridge built it is withheld in both modes, reason without IOCs`, () => {
      const capsule = capsuleFor(exampleBytes("lenient", file));
      for (const opts of MODES) {
        const r = deriveCandidate(capsule, pack, opts);
        expect(r.status).toBe("withheld");
        expectNoLeak(r);
      }
    });
  }

  it("02 with its assessment_id re-hashed: emitted, sanitised to the no-hypothesis template", () => {
    const doc = exampleValue("lenient", "02-origin-answer-carries-ioc");
    expect(at(doc, "origin_answer")).toMatch(/@leaky_handle/);
    const capsule = capsuleFor(assessmentBytes(doc));
    for (const opts of MODES) {
      const r = deriveCandidate(capsule, pack, opts);
      expect(r.status).toBe("emitted");
      if (r.status !== "emitted") return;
      expect(r.candidate.origin_answer).toBe(NO_HYPOTHESIS_ANSWER);
      expect(r.candidate.hypotheses).toEqual([]);
      expectNoLeak(r);
    }
  });

  it("02 with the planted handle and phone also among its IOCs: the leak guard alone catches the reference's record (W1)", () => {
    const doc = exampleValue("lenient", "02-origin-answer-carries-ioc");
    put(doc, ["detector", "iocs", "handles"], ["@leaky_handle"]);
    put(doc, ["detector", "iocs", "phones"], ["+91 90000 11111"]);
    const bytes = assessmentBytes(doc);
    const r = deriveCandidate(capsuleFor(bytes), pack, MODES[1]);
    if (r.status !== "emitted") throw new Error(r.reason);
    const { assessment } = parseAssessment(bytes);
    const referenceLike = { ...r.candidate, origin_answer: assessment.origin_answer };
    const guard = new OutwardGuard(assessmentPrivateValues(assessment, pack)).check(referenceLike, "candidate");
    expect(guard.ok).toBe(false);
    expect(!guard.ok && guard.reason).toBe("leak guard: ioc_value in candidate.origin_answer");
    // Our own candidate of the same capsule passes the guard: its answer is the template.
    expect(new OutwardGuard(assessmentPrivateValues(assessment, pack)).check(r.candidate, "candidate")).toEqual({ ok: true });
    expectNoLeak(r);
  });

  it("05 with its assessment_id re-hashed: still withheld (DIRECT_LINK without a binding observation)", () => {
    const capsule = capsuleFor(assessmentBytes(exampleValue("lenient", "05-unsupported-direct-link")));
    for (const opts of MODES) {
      const r = deriveCandidate(capsule, pack, opts);
      expect(r.status).toBe("withheld");
      expect(outward(r)).toMatch(/^assessment artifact: assessment\.hypotheses\[0\]\.support_level: DIRECT_LINK requires/);
    }
  });

  it("05 claiming CORROBORATED_LEAD instead (passes the schema): lowered to TYPOLOGY_MATCH, withheld by the default feed", () => {
    const doc = exampleValue("lenient", "05-unsupported-direct-link");
    put(doc, ["hypotheses", 0, "support_level"], "CORROBORATED_LEAD");
    const capsule = capsuleFor(assessmentBytes(doc));
    const def = deriveCandidate(capsule, pack, MODES[0]);
    expect(def.status === "emitted" && def.candidate.hypotheses).toEqual([]);
    expect(def.status === "emitted" && def.candidate.origin_answer).toBe(WITHHELD_ANSWER);
    const analyst = deriveCandidate(capsule, pack, MODES[1]);
    expect(analyst.status === "emitted" && analyst.candidate.hypotheses.map((h) => h.support_level)).toEqual(["TYPOLOGY_MATCH"]);
    expectNoLeak(def);
    expectNoLeak(analyst);
  });

  it("the lenient files differ from valid 01 only where the spec says", () => {
    const base = exampleValue("valid", "01-mule-account-rental-hinglish");
    const l05 = exampleValue("lenient", "05-unsupported-direct-link");
    expect(at(l05, "hypotheses", 0, "support_level")).toBe("DIRECT_LINK");
    expect(at(base, "assessment_id")).toBe(at(l05, "assessment_id"));
    expect((at(l05, "hypotheses", 0) as JsonObject).get("external_observations")).toEqual([]);
  });
});
