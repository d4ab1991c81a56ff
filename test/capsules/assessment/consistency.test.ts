/**
 * Consistency of an assessment with the loaded pack (assessment-v1 §4.10 R1–R10, §2.7 A2, §4.5 M1/M2), with and
 * without the message text. Inputs are the shared examples, read in place and mutated in memory.
 */
import { expect, test } from "vitest";
import { assessmentSignals, checkAssessmentConsistency, type ConsistencyResult } from "../../../capsules/assessment/consistency.js";
import { evaluateMessage } from "../../../published/pack/match.js";
import type { Assessment } from "../../../capsules/assessment/types.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { describeShared } from "../../helpers/shared.js";
import { lenientExamples, validExamples, type Example } from "../../published/pack/examples.js";
import { PACK_SHA256, realPack } from "../../published/pack/helpers.js";

let cachedPack: IntelligencePack | undefined;
const pack = () => (cachedPack ??= realPack());

function example(prefix: string): Example {
  const ex = validExamples().find((e) => e.name.startsWith(prefix));
  if (!ex) throw new Error(`no example ${prefix}`);
  return ex;
}

/** A fresh copy of a valid example's assessment, mutated. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
function mutated(prefix: string, mutate: (a: any) => void): Assessment {
  const a = structuredClone(example(prefix).assessment);
  mutate(a);
  return a;
}

function failure(r: ConsistencyResult): { path: string; rule: string; error: string } {
  if (r.ok) throw new Error("expected a consistency failure");
  return { path: r.path, rule: r.rule, error: r.error };
}

describeShared("assessment consistency", () => {
  test("all ten valid examples pass, with and without their message", () => {
    const examples = validExamples();
    expect(examples).toHaveLength(10);
    for (const ex of examples) {
      expect(checkAssessmentConsistency(ex.assessment, pack()), ex.name).toEqual({ ok: true });
      expect(checkAssessmentConsistency(ex.assessment, pack(), { messageText: ex.text }), ex.name).toEqual({ ok: true });
    }
  });

  test("lenient 02 (answer carries an IOC, hypotheses emptied) is rejected", () => {
    const [ex] = lenientExamples().filter((e) => e.name.startsWith("02-"));
    const f = failure(checkAssessmentConsistency(ex.assessment, pack()));
    expect(f).toMatchObject({ path: "assessment.hypotheses", rule: "R4" });
    expect(f.error).toContain("mule-crypto-cashout");
    expect(f.error).not.toContain("leaky_handle");
    expect(f.error).not.toContain("90000");
  });

  test("lenient 02 with the hypothesis restored still fails on the answer (R9) without echoing it", () => {
    const [ex] = lenientExamples().filter((e) => e.name.startsWith("02-"));
    const a = structuredClone(ex.assessment);
    a.hypotheses = structuredClone(example("01-").assessment.hypotheses);
    const f = failure(checkAssessmentConsistency(a, pack()));
    expect(f).toMatchObject({ path: "assessment.origin_answer", rule: "R9" });
    expect(f.error).not.toContain("leaky_handle");
  });

  test("lenient 05 (unsupported DIRECT_LINK) is rejected on the recomputed support level", () => {
    const [ex] = lenientExamples().filter((e) => e.name.startsWith("05-"));
    const f = failure(checkAssessmentConsistency(ex.assessment, pack()));
    expect(f).toMatchObject({ path: "assessment.hypotheses[0].support_level", rule: "R6" });
    expect(f.error).toContain("TYPOLOGY_MATCH");
  });

  test("another pack digest is named together with ours and --pack", () => {
    const other = "0".repeat(64);
    const f = failure(checkAssessmentConsistency(mutated("01-", (a) => (a.intelligence_pack.sha256 = other)), pack()));
    expect(f).toMatchObject({ path: "assessment.intelligence_pack.sha256", rule: "R1" });
    expect(f.error).toContain(other);
    expect(f.error).toContain(PACK_SHA256);
    expect(f.error).toContain("--pack");
  });

  const cases: [string, string, (a: any) => void, string, string][] = [
    ["pack version (A2)", "01-", (a) => (a.intelligence_pack.version = "2026-08-08.1"), "assessment.intelligence_pack.version", "R1"],
    ["pack publisher (A2)", "01-", (a) => (a.intelligence_pack.publisher = "Someone"), "assessment.intelligence_pack.publisher", "R1"],
    ["invented typology (W3)", "01-", (a) => (a.hypotheses[0].typology_id = "confirmed-criminal-network"), "assessment.hypotheses[0].typology_id", "R2"],
    ["invented label (W3)", "01-", (a) => (a.hypotheses[0].label = "Confirmed criminal network"), "assessment.hypotheses[0].label", "R2"],
    ["wrong dimension", "01-", (a) => (a.hypotheses[0].dimension = "predicate_offence"), "assessment.hypotheses[0].dimension", "R2"],
    ["edited typology limitation", "01-", (a) => (a.hypotheses[0].limitations[1] = "Seller @x"), "assessment.hypotheses[0].limitations[1]", "R2"],
    ["edited typology source URL", "05-", (a) => (a.hypotheses[0].typology_sources[2].url = "https://evil.example"), "assessment.hypotheses[0].typology_sources[2].url", "R2"],
    ["dropped typology source", "05-", (a) => a.hypotheses[0].typology_sources.pop(), "assessment.hypotheses[0].typology_sources", "R2"],
    ["inflated backers (W2)", "01-", (a) => (a.hypotheses[0].independent_backers = 99), "assessment.hypotheses[0].independent_backers", "R6"],
    ["CORROBORATED_LEAD claimed on reported observations", "36-", (a) => (a.hypotheses[0].support_level = "CORROBORATED_LEAD"), "assessment.hypotheses[0].support_level", "R6"],
    ["lowered support", "32-", (a) => (a.hypotheses[0].support_level = "TYPOLOGY_MATCH"), "assessment.hypotheses[0].support_level", "R6"],
    ["unknown indicator", "01-", (a) => (a.hypotheses[0].matched_indicators[0].id = "made-up"), "assessment.hypotheses[0].matched_indicators[0].id", "R3"],
    ["indicators out of pack order", "08-", (a) => a.hypotheses[0].matched_indicators.reverse(), "assessment.hypotheses[0].matched_indicators[1].id", "R3"],
    ["indicator label edited", "08-", (a) => (a.hypotheses[0].matched_indicators[1].label = "x"), "assessment.hypotheses[0].matched_indicators[1].label", "R3"],
    ["indicator specificity raised", "08-", (a) => (a.hypotheses[0].matched_indicators[1].specificity = "high"), "assessment.hypotheses[0].matched_indicators[1].specificity", "R3"],
    ["term hit that is not a pack term", "08-", (a) => a.hypotheses[0].matched_indicators[1].term_hits.push("@leaky_handle"), "assessment.hypotheses[0].matched_indicators[1].term_hits[2]", "R3"],
    ["term hits out of pack order", "08-", (a) => a.hypotheses[0].matched_indicators[1].term_hits.reverse(), "assessment.hypotheses[0].matched_indicators[1].term_hits[0]", "R3"],
    ["term hits on a signal-only indicator", "01-", (a) => a.hypotheses[0].matched_indicators[0].term_hits.push("feiqian"), "assessment.hypotheses[0].matched_indicators[0].term_hits[0]", "R3"],
    ["no term hit on a term indicator", "08-", (a) => (a.hypotheses[0].matched_indicators[0].term_hits = []), "assessment.hypotheses[0].matched_indicators[0].term_hits", "R3"],
    ["signal hit not in S", "01-", (a) => a.hypotheses[0].matched_indicators[0].signal_hits.push("account_use_solicitation"), "assessment.hypotheses[0].matched_indicators[0].signal_hits", "R3"],
    ["signal-only indicator matching S left out", "01-", (a) => {
      a.hypotheses[0].matched_indicators.splice(1, 1);
      a.hypotheses[0].evidence_classes = ["account"];
    }, "assessment.hypotheses[0].matched_indicators", "R3"],
    ["below the threshold", "11-", (a) => a.hypotheses[0].matched_indicators.splice(1, 2), "assessment.hypotheses[0].matched_indicators", "R4"],
    ["evidence class added", "01-", (a) => a.hypotheses[0].evidence_classes.push("zz_extra"), "assessment.hypotheses[0].evidence_classes", "R7"],
    ["evidence classes unsorted", "01-", (a) => a.hypotheses[0].evidence_classes.reverse(), "assessment.hypotheses[0].evidence_classes[0]", "R7"],
    ["observation-only hypothesis with an inexplicable class", "34-", (a) => a.hypotheses[0].evidence_classes.push("pocket_money"), "assessment.hypotheses[0].evidence_classes", "R7"],
    ["hypotheses out of §4.8 order", "05-", (a) => a.hypotheses.reverse(), "assessment.hypotheses[1]", "R8"],
    ["typology twice", "05-", (a) => (a.hypotheses[1] = structuredClone(a.hypotheses[0])), "assessment.hypotheses[1].typology_id", "R8"],
    ["exact IOC not bound (M2, W15 case)", "34-", (a) => (a.hypotheses[0].external_observations[0].matched_ioc_value = "tc7vvkvz8pydbri5lyhggcrdjtmnc2xrr9"), "assessment.hypotheses[0].external_observations[0].matched_ioc_value", "M2"],
    ["exact IOC with iocs {} (M2)", "34-", (a) => (a.detector.iocs = {}), "assessment.hypotheses[0].external_observations[0].matched_ioc_value", "M2"],
    ["observation filed under another typology", "32-", (a) => (a.hypotheses[0].external_observations[1].typology_id = "mule-crypto-cashout"), "assessment.hypotheses[0].external_observations[1].typology_id", "R5"],
    ["reserved observation group", "32-", (a) => (a.hypotheses[0].external_observations[0].source_group = "submitted-message"), "assessment.hypotheses[0].external_observations[0].source_group", "reserved-group"],
    ["observation with a bad timestamp", "32-", (a) => (a.hypotheses[0].external_observations[0].observed_at = "2026-08-19 00:00"), "assessment.hypotheses[0].external_observations[0].observed_at", "timestamp"],
    ["hypothesis with neither match nor observation", "34-", (a) => (a.hypotheses[0].external_observations = []), "assessment.hypotheses[0].matched_indicators", "R4"],
    ["answer not the template (R9)", "08-", (a) => (a.origin_answer = "Seller reachable at @leaky_handle"), "assessment.origin_answer", "R9"],
    ["abstentions not the template (R9)", "32-", (a) => (a.abstentions.predicate_offence = "message-level typology match only; origin not established"), "assessment.abstentions.predicate_offence", "R9"],
    ["abstention dropped (R9)", "01-", (a) => delete a.abstentions.operating_ecosystem, "assessment.abstentions.operating_ecosystem", "R9"],
    ["top-level limitation edited (R10)", "01-", (a) => (a.limitations[2] = "Contact @leaky_handle"), "assessment.limitations[2]", "R10"],
    ["top-level limitation added (R10)", "01-", (a) => a.limitations.push("x"), "assessment.limitations", "R10"],
    ["unknown hypothesis field", "01-", (a) => (a.hypotheses[0].raw_text = "x"), "assessment.hypotheses[0].raw_text", "unknown-field"],
    ["matched indicators as a string (W4)", "01-", (a) => (a.hypotheses[0].matched_indicators = "raw text"), "assessment.hypotheses[0].matched_indicators", "type"],
  ];

  test.each(cases)("%s", (_name, prefix, mutate, path, rule) => {
    const f = failure(checkAssessmentConsistency(mutated(prefix, mutate), pack()));
    expect({ path: f.path, rule: f.rule }).toEqual({ path, rule });
    expect(f.error.startsWith(`${path}: `)).toBe(true);
  });

  test("errors never echo exact IOCs or term hits", () => {
    const wallet = example("34-").assessment.detector.iocs.wallets[0];
    const f1 = failure(checkAssessmentConsistency(mutated("34-", (a) => (a.detector.iocs.wallets = ["other"])), pack()));
    expect(f1.error).not.toContain(wallet);
    const f2 = failure(checkAssessmentConsistency(mutated("08-", (a) => a.hypotheses[0].matched_indicators[1].term_hits.push("@leaky_handle")), pack()));
    expect(f2.error).not.toContain("leaky");
  });

  test("an unknown key that could carry content is described, not echoed", () => {
    const f = failure(checkAssessmentConsistency(mutated("32-", (a) => (a.hypotheses[0].external_observations[0]["@leaky_handle +91 90000"] = "")), pack()));
    expect(f).toMatchObject({ path: "assessment.hypotheses[0].external_observations[0]", rule: "unknown-field" });
    expect(f.error).toContain("<key of 23 characters>");
    expect(f.error).not.toContain("leaky");
  });

  test("an unexpected abstention key is reported at its object without echoing it", () => {
    const f = failure(checkAssessmentConsistency(mutated("01-", (a) => (a.abstentions["@leaky_handle"] = "x")), pack()));
    expect(f).toMatchObject({ path: "assessment.abstentions", rule: "R9" });
    expect(f.error).not.toContain("leaky");
  });

  test("with the message: the text must hash to message_sha256 and is never echoed", () => {
    const ex = example("08-");
    const f = failure(checkAssessmentConsistency(ex.assessment, pack(), { messageText: `${ex.text} ` }));
    expect(f).toMatchObject({ path: "assessment.message_sha256", rule: "message-hash" });
    expect(f.error).not.toContain(ex.assessment.message_sha256);
    expect(f.error).not.toContain(ex.text!.slice(0, 20));
  });

  test("with the message: plausible but wrong term hits are caught only by the re-match", () => {
    const a = mutated("08-", (x) => x.hypotheses[0].matched_indicators[1].term_hits.pop());
    expect(checkAssessmentConsistency(a, pack())).toEqual({ ok: true });
    const f = failure(checkAssessmentConsistency(a, pack(), { messageText: example("08-").text }));
    expect(f).toMatchObject({ path: "assessment.hypotheses[0].matched_indicators[1].term_hits", rule: "message-match" });
  });

  test("with the message: a sub-threshold class claimed on an observation-only hypothesis is caught by the re-match", () => {
    // mexico-cartel-drug-proceeds has term indicators; claiming one of their classes is plausible without text.
    const a = mutated("34-", (x) => (x.hypotheses[0].evidence_classes = ["actor_claim", "official_case_record"]));
    expect(checkAssessmentConsistency(a, pack())).toEqual({ ok: true });
    const f = failure(checkAssessmentConsistency(a, pack(), { messageText: example("34-").text }));
    expect(f).toMatchObject({ path: "assessment.hypotheses[0].evidence_classes[0]", rule: "message-match" });
  });

  test("with the message and the caller's evaluation: reused for the same signal set, so edits are still caught", () => {
    const ex = example("08-");
    const signals = assessmentSignals(ex.assessment);
    const evaluation = evaluateMessage(pack(), ex.text!, signals);
    expect(checkAssessmentConsistency(ex.assessment, pack(), { messageText: ex.text, messageEvaluation: { signals, evaluation } })).toEqual({ ok: true });
    const a = mutated("08-", (x) => x.hypotheses[0].matched_indicators[1].term_hits.pop());
    const f = failure(checkAssessmentConsistency(a, pack(), { messageText: ex.text, messageEvaluation: { signals, evaluation } }));
    expect(f).toMatchObject({ path: "assessment.hypotheses[0].matched_indicators[1].term_hits", rule: "message-match" });
  });

  test("with the message: an evaluation made with another signal set is not reused (the match is re-run)", () => {
    const ex = example("08-");
    // An evaluation that disagrees with the assessment (of an empty text, with no signal): believed when it is
    // passed off as made with the assessment's own signal set, ignored when it says it was made with another.
    const none = new Set<string>();
    expect(assessmentSignals(ex.assessment).size).toBeGreaterThan(0);
    const evaluation = evaluateMessage(pack(), "", none);
    const withoutSignals = failure(checkAssessmentConsistency(ex.assessment, pack(), { messageText: ex.text, messageEvaluation: { signals: assessmentSignals(ex.assessment), evaluation } }));
    expect(withoutSignals.rule).toBe("message-match");
    expect(checkAssessmentConsistency(ex.assessment, pack(), { messageText: ex.text, messageEvaluation: { signals: none, evaluation } })).toEqual({ ok: true });
  });
});
