/** Indicator clauses, thresholds, hypothesis construction and ordering on synthetic packs (assessment-v1 §4.3–§4.8). */
import { describe, expect, test } from "vitest";
import { PackError } from "../../../published/pack/errors.js";
import { evaluateMessage, matchMessage, signalSet } from "../../../published/pack/match.js";
import { assessProvenance } from "../../../published/pack/provenance.js";
import type { ExternalObservation } from "../../../published/pack/types.js";
import { syntheticPack, typology } from "./helpers.js";

const ind = (id: string, over: Record<string, unknown>) => ({ id, label: `L ${id}`, evidence_class: `c_${id.replace(/-/g, "_")}`, specificity: "low", ...over });

function obs(typology_id: string, over: Partial<ExternalObservation> = {}): ExternalObservation {
  return {
    typology_id,
    evidence_class: "news_report",
    source_id: "src-a",
    source_group: "group-a",
    source_kind: "public_osint",
    match_type: "context",
    summary: "A summary.",
    reliability: "reported",
    artifact_uri: "",
    observed_at: "",
    matched_ioc_kind: "",
    matched_ioc_value: "",
    ...over,
  };
}

describe("indicator clauses (§4.3)", () => {
  const pack = syntheticPack([
    typology("t", {
      indicators: [
        ind("any-t", { any_terms: ["alpha", "beta", "Gamma Ray"] }),
        ind("all-t", { all_terms: ["one", "two"] }),
        ind("any-s", { any_signals: ["sig_a", "sig_b"] }),
        ind("all-s", { all_signals: ["sig_a", "sig_c"] }),
        ind("mixed", { any_terms: ["delta"], any_signals: ["sig_b"], all_signals: ["sig_a"] }),
        ind("both", { any_terms: ["eps", "zeta"], all_terms: ["zeta", "eta"] }),
      ],
    }),
  ]);
  const matched = (text: string, signals: string[]) =>
    Object.fromEntries(evaluateMessage(pack, text, signalSet(signals))[0].matched.map((m) => [m.id, [m.term_hits, m.signal_hits]]));

  test("any_terms: any one term; hits in pack order as written in the pack", () => {
    expect(matched("BETA and gamma ray and alpha", [])["any-t"]).toEqual([["alpha", "beta", "Gamma Ray"], []]);
    expect(matched("alphabet", [])["any-t"]).toBeUndefined();
  });

  test("all_terms: every term", () => {
    expect(matched("one and two", [])["all-t"]).toEqual([["one", "two"], []]);
    expect(matched("one only", [])["all-t"]).toBeUndefined();
  });

  test("signal clauses: any and all over S; signal hits any-clause first, deduplicated", () => {
    expect(matched("", ["sig_b"])["any-s"]).toEqual([[], ["sig_b"]]);
    expect(matched("", ["sig_a"])["all-s"]).toBeUndefined();
    expect(matched("", ["sig_c", "sig_a"])["all-s"]).toEqual([[], ["sig_a", "sig_c"]]);
  });

  test("every non-empty clause must hold (terms AND signals)", () => {
    expect(matched("delta", ["sig_b"]).mixed).toBeUndefined();
    expect(matched("delta", ["sig_a"]).mixed).toBeUndefined();
    expect(matched("no", ["sig_a", "sig_b"]).mixed).toBeUndefined();
    expect(matched("delta", ["sig_a", "sig_b"]).mixed).toEqual([["delta"], ["sig_b", "sig_a"]]);
  });

  test("term hits: anyT then allT, deduplicated keeping the first occurrence", () => {
    expect(matched("zeta eta eps", []).both).toEqual([["eps", "zeta", "eta"], []]);
  });

  test("signal names must be identifiers (lower)", () => {
    expect(() => signalSet(["ok_name", "Bad Name"])).toThrow(PackError);
    expect(() => signalSet(["ok_name", "Bad Name"])).toThrow("signals[1]: ");
    expect(() => matchMessage(pack, "x", ["1abc"])).toThrow(/identifier/);
  });
});

describe("typology threshold (§4.4)", () => {
  const pack = syntheticPack([
    typology("need-two-medium", {
      minimum_indicators: 2,
      minimum_specificity: "medium",
      indicators: [
        ind("low-1", { any_terms: ["lowone"] }),
        ind("low-2", { any_terms: ["lowtwo"] }),
        ind("med", { specificity: "medium", any_terms: ["med"] }),
      ],
    }),
  ]);
  const hit = (text: string) => matchMessage(pack, text, []).map((h) => h.matched_indicators.map((m) => m.id));

  test("needs enough indicators and the strongest one at the minimum specificity", () => {
    expect(hit("lowone lowtwo")).toEqual([]); // two, but none medium
    expect(hit("med")).toEqual([]); // medium, but only one
    expect(hit("lowone med")).toEqual([["low-1", "med"]]); // only the strongest needs the minimum
  });
});

describe("hypotheses (§4.6–§4.8)", () => {
  const pack = syntheticPack([
    typology("zeta-mech", { indicators: [ind("z", { any_terms: ["zword"] })] }),
    typology("alpha-mech", { indicators: [ind("a", { any_terms: ["aword"] })] }),
    typology("pred", {
      dimension: "predicate_offence",
      minimum_indicators: 2,
      source_refs: ["s2", "s1"],
      indicators: [ind("p1", { any_terms: ["pone"] }), ind("p2", { any_terms: ["ptwo"] })],
    }),
    typology("eco", { dimension: "operating_ecosystem", indicators: [ind("e", { any_terms: ["eword"] })] }),
  ]);

  test("fields come from the pack; sources follow source_refs order", () => {
    const [h] = matchMessage(pack, "pone ptwo", []);
    expect(h).toStrictEqual({
      typology_id: "pred",
      dimension: "predicate_offence",
      label: "Label pred",
      support_level: "TYPOLOGY_MATCH",
      matched_indicators: [
        { id: "p1", label: "L p1", evidence_class: "c_p1", specificity: "low", term_hits: ["pone"], signal_hits: [] },
        { id: "p2", label: "L p2", evidence_class: "c_p2", specificity: "low", term_hits: ["ptwo"], signal_hits: [] },
      ],
      external_observations: [],
      independent_backers: 1,
      evidence_classes: ["c_p1", "c_p2"],
      typology_sources: [
        { id: "s2", publisher: "P2", title: "T2", published_at: "2026", url: "https://example.org/2" },
        { id: "s1", publisher: "P1", title: "T1", published_at: "2026", url: "https://example.org/1" },
      ],
      limitations: ["Limitation pred"],
    });
  });

  test("observation-only hypothesis: empty matched indicators, but sub-threshold indicator classes still count (parity quirk)", () => {
    const r = assessProvenance(pack, { text: "pone only", signals: [], observations: [obs("pred")] });
    expect(r.hypotheses).toHaveLength(1);
    expect(r.hypotheses[0].matched_indicators).toEqual([]);
    expect(r.hypotheses[0].independent_backers).toBe(1);
    expect(r.hypotheses[0].evidence_classes).toEqual(["c_p1", "news_report"]);
  });

  test("order: support desc, backers desc, dimension asc, typology id asc", () => {
    const r = assessProvenance(pack, {
      text: "zword aword eword pone ptwo",
      signals: [],
      observations: [obs("eco", { source_group: "g1" }), obs("eco", { source_group: "g2" })],
    });
    expect(r.hypotheses.map((h) => [h.typology_id, h.support_level, h.independent_backers])).toEqual([
      ["eco", "TYPOLOGY_MATCH", 3],
      ["alpha-mech", "TYPOLOGY_MATCH", 1],
      ["zeta-mech", "TYPOLOGY_MATCH", 1],
      ["pred", "TYPOLOGY_MATCH", 1],
    ]);
    expect(r.origin_answer).toBe(
      "The message is consistent with these public typologies: Label eco, Label alpha-mech. Message patterns alone do not establish where these specific funds originated.",
    );
    expect(r.abstentions).toStrictEqual({
      laundering_mechanism: "message-level typology match only; origin not established",
      operating_ecosystem: "message-level typology match only; origin not established",
      predicate_offence: "message-level typology match only; origin not established",
    });
  });

  test("a DIRECT_LINK sorts first and drives the answer; its dimension leaves the abstentions", () => {
    const r = assessProvenance(pack, {
      text: "zword",
      signals: [],
      iocs: { handles: [], phones: [], channels: [], wallets: ["0xAbC"], emails: [], urls: [] },
      observations: [
        obs("pred", { source_kind: "authoritative", match_type: "exact_ioc", reliability: "direct", matched_ioc_kind: "wallets", matched_ioc_value: "0xAbC" }),
      ],
    });
    expect(r.hypotheses.map((h) => [h.typology_id, h.support_level])).toEqual([
      ["pred", "DIRECT_LINK"],
      ["zeta-mech", "TYPOLOGY_MATCH"],
    ]);
    expect(r.origin_answer).toBe(
      "An exact IOC has an authoritative public-record link to: Label pred. Human review of the cited record is still required.",
    );
    expect(r.abstentions).toStrictEqual({
      laundering_mechanism: "message-level typology match only; origin not established",
      operating_ecosystem: "no qualifying case-specific evidence",
    });
  });

  test("no hypotheses: the fixed answer and three abstentions", () => {
    const r = assessProvenance(pack, { text: "nothing here", signals: [] });
    expect(r).toStrictEqual({
      hypotheses: [],
      origin_answer: "No source attribution can be made from the available evidence. No qualifying provenance typology was supported.",
      abstentions: {
        laundering_mechanism: "no qualifying case-specific evidence",
        operating_ecosystem: "no qualifying case-specific evidence",
        predicate_offence: "no qualifying case-specific evidence",
      },
    });
  });
});
