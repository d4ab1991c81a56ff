/**
 * For every valid bridge example, re-running §4 on its `.txt` message with the signals and external observations
 * recorded in its assessment reproduces the hypotheses, `origin_answer` and `abstentions` exactly
 * (assessment-v1 §9.1).
 */
import { expect, test } from "vitest";
import { messageSha256 } from "../../../src/message-hash.js";
import { matchMessage } from "../../../published/pack/match.js";
import { assessProvenance } from "../../../published/pack/provenance.js";
import { describeShared } from "../../helpers/shared.js";
import { observationsOf, signalsOf, validExamples } from "./examples.js";
import { realPack } from "./helpers.js";

describeShared("the valid examples reproduce", () => {
  const examples = validExamples();

  test("there are ten of them, each with its message", () => {
    expect(examples).toHaveLength(10);
    for (const ex of examples) {
      expect(ex.text, ex.name).toBeTypeOf("string");
      expect(messageSha256(ex.text!), ex.name).toBe(ex.assessment.message_sha256);
    }
  });

  test.each(examples.map((ex) => [ex.name, ex] as const))("%s", (_name, ex) => {
    const pack = realPack();
    const a = ex.assessment;
    const result = assessProvenance(pack, { text: ex.text!, signals: signalsOf(a), observations: observationsOf(a), iocs: a.detector.iocs });
    expect(result.hypotheses).toStrictEqual(a.hypotheses);
    expect(result.origin_answer).toBe(a.origin_answer);
    expect(result.abstentions).toStrictEqual(a.abstentions);
    // Key order of abstentions follows the dimension order, as in the producer.
    expect(Object.keys(result.abstentions)).toEqual(Object.keys(a.abstentions));
  });

  test.each(examples.map((ex) => [ex.name, ex] as const))("%s: message-only match equals its message-matched hypotheses", (_name, ex) => {
    const a = ex.assessment;
    const expected = a.hypotheses
      .filter((h: { matched_indicators: unknown[] }) => h.matched_indicators.length > 0)
      .map((h: Record<string, unknown>) => ({
        ...h,
        external_observations: [],
        support_level: "TYPOLOGY_MATCH",
        independent_backers: 1,
        evidence_classes: [...new Set((h.matched_indicators as { evidence_class: string }[]).map((m) => m.evidence_class))].sort(),
      }));
    const got = matchMessage(realPack(), ex.text!, signalsOf(a));
    expect(got).toEqual(expected);
  });

  test("example 05 matches CJK substring terms and example 34 binds the wallet exactly", () => {
    const [ex05] = validExamples().filter((e) => e.name.startsWith("05-"));
    const china = assessProvenance(realPack(), { text: ex05.text!, signals: signalsOf(ex05.assessment) }).hypotheses[0];
    expect(china.typology_id).toBe("china-underground-banking");
    expect(china.matched_indicators.map((m) => m.term_hits)).toEqual([["地下钱庄", "对敲"], ["外汇额度"]]);

    const [ex34] = validExamples().filter((e) => e.name.startsWith("34-"));
    const a = ex34.assessment;
    const withoutIocs = () => assessProvenance(realPack(), { text: ex34.text!, signals: signalsOf(a), observations: observationsOf(a), iocs: {} });
    expect(withoutIocs).toThrow(/M2/);
  });
});
