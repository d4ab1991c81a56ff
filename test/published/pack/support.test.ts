/** Support levels and backers (assessment-v1 §4.6, §4.7) and external observation validation (§4.5, M1, M2). */
import { describe, expect, test } from "vitest";
import { PackError } from "../../../published/pack/errors.js";
import { checkObservations, validateObservation } from "../../../published/pack/observations.js";
import { independentBackers, supportLevel } from "../../../published/pack/support.js";
import type { ExternalObservation } from "../../../published/pack/types.js";
import { syntheticPack, typology } from "./helpers.js";

function o(over: Partial<ExternalObservation> = {}): ExternalObservation {
  return {
    typology_id: "t",
    evidence_class: "class_a",
    source_id: "src",
    source_group: "g1",
    source_kind: "public_osint",
    match_type: "context",
    summary: "Summary.",
    reliability: "derived",
    artifact_uri: "",
    observed_at: "",
    matched_ioc_kind: "",
    matched_ioc_value: "",
    ...over,
  };
}

describe("support level (§4.7)", () => {
  test("DIRECT_LINK needs authoritative + exact_ioc + direct in one observation", () => {
    const direct = { source_kind: "authoritative", match_type: "exact_ioc", reliability: "direct", matched_ioc_kind: "wallets", matched_ioc_value: "w" } as const;
    expect(supportLevel([o(direct)])).toBe("DIRECT_LINK");
    expect(supportLevel([o({ ...direct, reliability: "derived" })])).toBe("TYPOLOGY_MATCH");
    expect(supportLevel([o({ ...direct, source_kind: "blockchain_analytics" })])).toBe("TYPOLOGY_MATCH");
    expect(supportLevel([o({ source_kind: "authoritative", match_type: "entity", reliability: "direct" })])).toBe("TYPOLOGY_MATCH");
  });

  test("CORROBORATED_LEAD needs two qualifying groups and two classes", () => {
    expect(supportLevel([o({ source_group: "g1" }), o({ source_group: "g2", evidence_class: "class_b" })])).toBe("CORROBORATED_LEAD");
    expect(supportLevel([o({ source_group: "g1" }), o({ source_group: "g2" })])).toBe("TYPOLOGY_MATCH"); // one class
    expect(supportLevel([o({ source_group: "g1" }), o({ source_group: "g1", evidence_class: "class_b" })])).toBe("TYPOLOGY_MATCH"); // one group
  });

  test("non-qualifying rows of a qualifying group contribute their class", () => {
    expect(
      supportLevel([o({ source_group: "g1" }), o({ source_group: "g2" }), o({ source_group: "g2", reliability: "reported", evidence_class: "class_b" })]),
    ).toBe("CORROBORATED_LEAD");
    // ... but a row of a non-qualifying group does not.
    expect(supportLevel([o({ source_group: "g1" }), o({ source_group: "g2" }), o({ source_group: "g3", reliability: "reported", evidence_class: "class_b" })])).toBe(
      "TYPOLOGY_MATCH",
    );
  });

  test("local_history, user_supplied and reported never upgrade", () => {
    for (const weak of [{ source_kind: "local_history" }, { source_kind: "user_supplied" }, { reliability: "reported" }] as const) {
      expect(supportLevel([o({ ...weak, source_group: "g1" }), o({ ...weak, source_group: "g2", evidence_class: "class_b" })])).toBe("TYPOLOGY_MATCH");
    }
  });

  test("backers: distinct groups plus the message when it matched", () => {
    expect(independentBackers([o({ source_group: "g1" }), o({ source_group: "g1" }), o({ source_group: "g2" })], true)).toBe(3);
    expect(independentBackers([o({ source_group: "g1" })], false)).toBe(1);
    expect(independentBackers([], true)).toBe(1);
  });
});

describe("observation validation (§4.5)", () => {
  const bad: [string, Record<string, unknown>, string, string][] = [
    ["identifier", { source_group: "Group A" }, "obs.source_group", "identifier"],
    ["reserved group", { source_group: "submitted-message" }, "obs.source_group", "reserved-group"],
    ["source kind", { source_kind: "rumour" }, "obs.source_kind", "enum"],
    ["match type", { match_type: "fuzzy" }, "obs.match_type", "enum"],
    ["reliability", { reliability: "" }, "obs.reliability", "enum"],
    ["blank summary", { summary: " \u3000" }, "obs.summary", "blank"],
    ["long summary", { summary: "x".repeat(1025) }, "obs.summary", "max-length"],
    ["bidi in summary", { summary: "a\u202eb" }, "obs.summary", "control-character"],
    ["artifact uri scheme", { artifact_uri: "http://example.org" }, "obs.artifact_uri", "artifact-uri"],
    ["observed_at grammar", { observed_at: "2026-02-30T00:00:00Z" }, "obs.observed_at", "timestamp"],
    ["exact_ioc kind", { match_type: "exact_ioc", matched_ioc_kind: "ips", matched_ioc_value: "1" }, "obs.matched_ioc_kind", "enum"],
    ["exact_ioc value", { match_type: "exact_ioc", matched_ioc_kind: "wallets", matched_ioc_value: " " }, "obs.matched_ioc_value", "blank"],
    ["ioc fields on other types", { matched_ioc_kind: "wallets" }, "obs.matched_ioc_kind", "ioc-fields"],
    ["unknown field", { extra: "x" }, "obs.extra", "unknown-field"],
    ["non-string", { summary: 5 }, "obs.summary", "type"],
  ];
  test.each(bad)("%s", (_name, over, path, rule) => {
    try {
      validateObservation({ ...o(), ...over }, "obs");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PackError);
      expect({ path: (e as PackError).path, rule: (e as PackError).rule }).toEqual({ path, rule });
    }
  });

  test("valid observations pass, including urn: and https: URIs and a timestamp", () => {
    expect(() => validateObservation(o({ artifact_uri: "urn:x:y", observed_at: "2026-08-19T00:00:00Z" }), "obs")).not.toThrow();
    expect(() => validateObservation(o({ artifact_uri: "https://example.org", observed_at: "2026-08-19T00:00:00.123456Z" }), "obs")).not.toThrow();
  });

  const pack = syntheticPack([typology("t", { indicators: [{ id: "i", label: "L", evidence_class: "c", specificity: "low", any_terms: ["x"] }] })]);
  const iocs = { handles: [], phones: [], channels: [], wallets: ["0xAbC"], emails: [], urls: [] };
  const exact = (value: string) => o({ source_kind: "authoritative", match_type: "exact_ioc", reliability: "direct", matched_ioc_kind: "wallets", matched_ioc_value: value });

  test("M1: unknown typologies fail", () => {
    expect(() => checkObservations(pack, [o({ typology_id: "nope" })], iocs, (i) => `o[${i}]`)).toThrow(
      "o[0].typology_id: external observations reference unknown typologies: ['nope'] (M1)",
    );
  });

  test("M2: exact IOC binding is exact and case-sensitive; {} binds nothing; the value is never echoed", () => {
    expect(checkObservations(pack, [exact("0xAbC")], iocs, (i) => `o[${i}]`)).toHaveLength(1);
    for (const [value, set] of [["0xabc", iocs], ["0xAbC", {}], ["0xAbC ", iocs]] as const) {
      try {
        checkObservations(pack, [exact(value)], set, (i) => `o[${i}]`);
        expect.unreachable();
      } catch (e) {
        expect((e as PackError).rule).toBe("M2");
        expect((e as PackError).message).toBe("o[0].matched_ioc_value: exact_ioc observation does not bind an IOC extracted from this message (M2)");
      }
    }
  });
});
