/** Each hardening rule of product.md §8 on capsules built from mutated examples (assessment-v1 §7.4, §8). */
import { describe, expect, it } from "vitest";
import { canonicalBytes, canonicalText } from "../../../src/json/canonical.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { loadPack } from "../../../published/pack/load.js";
import { projectProducer } from "../../../capsules/assessment/adapter.js";
import { deriveCandidate } from "../../helpers/derive.js";
import { candidateView, deriveCapsule } from "../../../capsules/pipeline/derive.js";
import { WITHHELD_ANSWER } from "../../../capsules/candidates/feed-policy.js";
import { truncateToHour } from "../../../capsules/candidates/hour.js";
import { renderLimitations } from "../../../capsules/candidates/render.js";
import type { CandidateView, DeriveResult } from "../../../capsules/candidates/types.js";
import { ASSESSMENT_LIMITATIONS } from "../../../published/pack/templates.js";
import { describeShared, readShared } from "../../helpers/shared.js";
import { assessmentBytes, at, capsuleFor, cloneJson, exampleBytes, exampleValue, mutatedCapsule, put } from "./build-helpers.js";

const DEFAULT: CandidateView = { includeTypologyMatches: false, includeClean: false };
const ANALYST: CandidateView = { includeTypologyMatches: true, includeClean: false };

function emitted(r: DeriveResult) {
  expect(r.status, r.status === "emitted" ? "" : r.reason).toBe("emitted");
  if (r.status !== "emitted") throw new Error("not emitted");
  return r;
}

function withheldReason(r: DeriveResult): string {
  expect(r.status).toBe("withheld");
  return r.status === "withheld" ? r.reason : "";
}

function text(r: DeriveResult): string {
  return r.status === "emitted" ? new TextDecoder().decode(r.bytes) : r.reason;
}

describe("rule 8: created_at truncated to the hour", () => {
  it("truncates microseconds and seconds, keeps the UTC hour", () => {
    expect(truncateToHour("2026-08-20T12:58:37.641214Z")).toBe("2026-08-20T12:00:00Z");
    expect(truncateToHour("2026-08-20T09:56:10Z")).toBe("2026-08-20T09:00:00Z");
    expect(truncateToHour("2024-02-29T23:59:59Z")).toBe("2024-02-29T23:00:00Z");
  });
  it("refuses anything outside the assessment grammar", () => {
    for (const bad of ["2026-08-20T14:37:03+05:30", "2026-02-30T10:00:00Z", "2026-08-20T24:00:00Z", "2026-08-20t10:00:00z", "2026-08-20T10:00:00.1234567Z", ""]) {
      expect(truncateToHour(bad), bad).toBeUndefined();
    }
  });
});

describe("rule 1: limitations", () => {
  it("keeps only the fixed sentences, once each, in assessment order", () => {
    const [a, b, c] = ASSESSMENT_LIMITATIONS;
    expect(renderLimitations([c, "Seller reachable at @leaky_handle", a, c, b])).toEqual([c, a, b]);
    expect(renderLimitations(["x"])).toEqual([]);
  });
});

describeShared("hardening of derived candidates", () => {
  const pack = loadPack(readShared("data/intelligence-pack/intelligence-pack-v1.json"));

  it("the test serialiser reproduces the producer's exact bytes", () => {
    for (const name of ["01-mule-account-rental-hinglish", "32-ext-wildlife-corroborated-lead", "34-ext-direct-link-wallet"]) {
      expect(Buffer.from(assessmentBytes(exampleValue("valid", name), false)).equals(Buffer.from(exampleBytes("valid", name)))).toBe(true);
    }
  });

  it("guards each view on its own: a value only in the default view's origin_answer withholds that view alone", () => {
    // derive.ts checks the default view's origin_answer alone once the typology view (its superset otherwise) passed.
    const capsule = mutatedCapsule("03-usdt-inr-kitchen-sink-iocs", (doc) => {
      (at(doc, "detector", "iocs") as Map<string, unknown>).set("handles", ["corroboration"]);
    });
    expect(withheldReason(deriveCandidate(capsule, pack, DEFAULT))).toBe("leak guard: ioc_value in candidate.origin_answer");
    expect(emitted(deriveCandidate(capsule, pack, ANALYST)).candidate.origin_answer).not.toMatch(/corroboration/i);
  });

  describe("rule 1: no free text copied", () => {
    it("renders origin_answer and labels from templates and our pack, whatever the assessment says", () => {
      const capsule = mutatedCapsule("34-ext-direct-link-wallet", (doc) => {
        put(doc, ["origin_answer"], "Seller reachable at @cashout_wallet_desk, confirmed criminal network");
        put(doc, ["hypotheses", 0, "label"], "Confirmed criminal network of @cashout_wallet_desk");
        put(doc, ["hypotheses", 1, "label"], "Money mules at Tc7vvkvZ8PyDBri5LYHGgCrDJtMnc2XRr9");
      });
      for (const opts of [DEFAULT, ANALYST]) {
        const r = emitted(deriveCandidate(capsule, pack, opts));
        expect(r.candidate.hypotheses[0].label).toBe("Mexico-based cartel drug proceeds");
        expect(r.candidate.origin_answer).toBe(
          "An exact IOC has an authoritative public-record link to: Mexico-based cartel drug proceeds. Human review of the cited record is still required.",
        );
        expect(text(r)).not.toMatch(/cashout_wallet_desk|Tc7vvkvZ8|criminal network/i);
      }
      const analyst = emitted(deriveCandidate(capsule, pack, ANALYST));
      expect(analyst.candidate.hypotheses[1].label).toBe("Money-mule and crypto cash-out infrastructure");
    });
  });

  describe("rule 2: typologies and the pack digest", () => {
    it("withholds every hypothesis when the assessment names another pack, and says why", () => {
      const capsule = mutatedCapsule("32-ext-wildlife-corroborated-lead", (doc) => put(doc, ["intelligence_pack", "sha256"], "0".repeat(64)));
      for (const opts of [DEFAULT, ANALYST]) {
        const r = emitted(deriveCandidate(capsule, pack, opts));
        expect(r.candidate.hypotheses).toEqual([]);
        expect(r.candidate.hypotheses_withheld).toBe("assessment.intelligence_pack.sha256 differs from the digest of the loaded pack");
        expect(r.candidate.origin_answer).toBe(WITHHELD_ANSWER);
      }
    });

    it("withholds hypotheses with an unknown typology without echoing its id", () => {
      const capsule = mutatedCapsule("13-wildlife-ivory-en", (doc) => put(doc, ["hypotheses", 0, "typology_id"], "ivory-direct-hk-network"));
      const r = emitted(deriveCandidate(capsule, pack, ANALYST));
      expect(r.candidate.hypotheses).toEqual([]);
      expect(r.candidate.hypotheses_withheld).toBe("assessment.hypotheses[0].typology_id is not a typology of the loaded pack");
      expect(text(r)).not.toContain("ivory-direct");
    });

    it("withholds hypotheses whose dimension differs from the pack's", () => {
      const capsule = mutatedCapsule("08-golden-triangle-casino-junket", (doc) =>
        put(doc, ["hypotheses", 0, "dimension"], "predicate_offence"),
      );
      const r = emitted(deriveCandidate(capsule, pack, ANALYST));
      expect(r.candidate.hypotheses).toEqual([]);
      expect(r.candidate.hypotheses_withheld).toBe("assessment.hypotheses[0].dimension differs from the loaded pack's dimension of that typology");
    });

    it("has no hypotheses_withheld member when nothing was withheld by rule 2", () => {
      const r = emitted(deriveCandidate(readShared("data/bridge-examples/valid/05-feiqian-zh-simplified-plus-mule.capsule.json"), pack, ANALYST));
      expect("hypotheses_withheld" in r.candidate).toBe(false);
    });
  });

  describe("rule 3: support levels and backers recomputed", () => {
    it("lowers a CORROBORATED_LEAD that its observations do not support, and recomputes backers", () => {
      const capsule = mutatedCapsule("32-ext-wildlife-corroborated-lead", (doc) => {
        put(doc, ["hypotheses", 0, "external_observations", 1, "reliability"], "reported");
        put(doc, ["hypotheses", 0, "independent_backers"], 99);
      });
      const def = emitted(deriveCandidate(capsule, pack, DEFAULT));
      expect(def.candidate.hypotheses).toEqual([]);
      expect(def.candidate.origin_answer).toBe(WITHHELD_ANSWER);
      const analyst = emitted(deriveCandidate(capsule, pack, ANALYST));
      expect(analyst.candidate.hypotheses).toEqual([
        {
          typology_id: "illegal-wildlife-trade",
          dimension: "predicate_offence",
          label: "Illegal wildlife or timber trafficking proceeds",
          support_level: "TYPOLOGY_MATCH",
          independent_backers: 3,
        },
      ]);
      expect(analyst.candidate.origin_answer).toBe(
        "The message is consistent with these public typologies: Illegal wildlife or timber trafficking proceeds. Message patterns alone do not establish where these specific funds originated.",
      );
    });

    it("does not raise a claimed level below the recomputed one", () => {
      const capsule = mutatedCapsule("32-ext-wildlife-corroborated-lead", (doc) => put(doc, ["hypotheses", 0, "support_level"], "TYPOLOGY_MATCH"));
      const r = emitted(deriveCandidate(capsule, pack, ANALYST));
      expect(r.candidate.hypotheses[0].support_level).toBe("TYPOLOGY_MATCH");
    });

    it("withholds every hypothesis when one has neither a message match nor a bound observation", () => {
      const capsule = mutatedCapsule("01-mule-account-rental-hinglish", (doc) => {
        put(doc, ["hypotheses", 0, "matched_indicators"], []);
      });
      const r = emitted(deriveCandidate(capsule, pack, ANALYST));
      expect(r.candidate.hypotheses).toEqual([]);
      expect(r.candidate.hypotheses_withheld).toBe("assessment.hypotheses[0] has neither a message match nor a bound external observation");
    });

    it("counts only matched indicators whose signal clauses hold over the assessment's signals", () => {
      // Without the detector signals the mule indicators (signal-only) cannot have matched.
      const capsule = mutatedCapsule("01-mule-account-rental-hinglish", (doc) => {
        const signals = at(doc, "detector", "signals") as JsonObject[];
        put(doc, ["detector", "signals"], signals.filter((s) => s.get("family") === "RATE"));
      });
      const r = emitted(deriveCandidate(capsule, pack, ANALYST));
      expect(r.candidate.hypotheses).toEqual([]);
      expect(r.candidate.hypotheses_withheld).toBe("assessment.hypotheses[0] has neither a message match nor a bound external observation");
    });

    it("refuses a DIRECT_LINK without a binding observation (the schema's M2 rule), without echoing the IOC", () => {
      const capsule = mutatedCapsule("34-ext-direct-link-wallet", (doc) =>
        put(doc, ["hypotheses", 0, "external_observations", 0, "matched_ioc_value"], "TXXXotherWalletNotInMessage"),
      );
      const reason = withheldReason(deriveCandidate(capsule, pack, ANALYST));
      expect(reason).toMatch(/^assessment artifact: assessment\.hypotheses\[0\]\.external_observations\[0\]\.matched_ioc_value: /);
      expect(reason).not.toContain("TXXX");
    });
  });

  describe("rule 4: pseudonym", () => {
    it("keeps the pseudonym only for public_channel + public", () => {
      const pub = emitted(deriveCandidate(readShared("data/bridge-examples/valid/13-wildlife-ivory-en.capsule.json"), pack, ANALYST));
      expect(pub.candidate.collection.source_pseudonym).toBe("bd63752a477439e2ded02847");
      const capsule = mutatedCapsule("13-wildlife-ivory-en", (doc) => {
        put(doc, ["collection", "surface"], "authorized_private_channel");
        put(doc, ["collection", "authorization"], "operator_authorized");
      });
      const r = emitted(deriveCandidate(capsule, pack, ANALYST));
      expect("source_pseudonym" in r.candidate.collection).toBe(false);
      expect(text(r)).not.toContain("bd63752a477439e2ded02847");
    });
  });

  describe("rule 6: the leak guard runs on every candidate", () => {
    it("withholds a candidate whose pack label contains an IOC value of the message, naming kind and path only", () => {
      const capsule = mutatedCapsule("05-feiqian-zh-simplified-plus-mule", (doc) => {
        put(doc, ["detector", "iocs", "handles"], ["@hk_duiqiao_desk", "Underground Banking"]);
      });
      const reason = withheldReason(deriveCandidate(capsule, pack, ANALYST));
      // The typology id matches too, in the separator-free form of the IOC (`china-underground-banking`).
      expect(reason).toBe(
        "leak guard: ioc_value in candidate.hypotheses[0].typology_id; ioc_value in candidate.hypotheses[0].label; ioc_value in candidate.origin_answer",
      );
    });

    it("withholds a candidate that would carry a raw message fragment", () => {
      const capsule = mutatedCapsule("34-ext-direct-link-wallet", (doc) => {
        const doc34 = doc;
        const finding = {
          rule_id: "narcotics_trade_offer",
          family: "NARCOTICS",
          label: "Possible narcotics-market solicitation",
          tier: "LIKELY_SCAM",
          score: 35,
          evidence_classes: ["offer", "subject"],
          matched_terms: { subject: ["cartel drug proceeds"] },
          attribution_markers: [],
          limitations: ["A narcotics term is not proof of a drug sale."],
        };
        const threat = at(doc34, "threat_assessment") as JsonObject;
        threat.set("findings", [parseStrictJson(JSON.stringify(finding))]);
        threat.set("tier", "LIKELY_SCAM");
        threat.set("score", 35);
        threat.set("families", ["NARCOTICS"]);
      });
      const r = deriveCandidate(capsule, pack, ANALYST);
      const reason = withheldReason(r);
      expect(reason).toMatch(/^leak guard: /);
      expect(reason).toContain("matched_term in candidate.hypotheses[0].label");
    });
  });

  describe("capsule checks (O1, W12)", () => {
    const valid = readShared("data/bridge-examples/valid/01-mule-account-rental-hinglish.capsule.json");
    const envelope = () => JSON.parse(valid.toString("utf8")) as { content: Record<string, unknown>; content_sha256: string; attestations: unknown[] };
    const hash = "4080784d2be288390fbe20ac";

    it("accepts our own producer block, with another capsule digest and otherwise the same candidate", () => {
      const ours = capsuleFor(exampleBytes("valid", "01-mule-account-rental-hinglish"), projectProducer("0.1.0"));
      const a = emitted(deriveCandidate(ours, pack, ANALYST));
      const b = emitted(deriveCandidate(valid, pack, ANALYST));
      expect(a.candidate.capsule_sha256).not.toBe(b.candidate.capsule_sha256);
      expect({ ...a.candidate, capsule_sha256: "" }).toEqual({ ...b.candidate, capsule_sha256: "" });
    });

    it("accepts the capsule as bytes, as plain values and as the value model alike", () => {
      const fromBytes = emitted(deriveCandidate(valid, pack, DEFAULT));
      expect(emitted(deriveCandidate(envelope(), pack, DEFAULT)).digest).toBe(fromBytes.digest);
      expect(emitted(deriveCandidate(parseStrictJson(valid), pack, DEFAULT)).digest).toBe(fromBytes.digest);
    });

    const cases: [string, () => unknown, RegExp][] = [
      ["not JSON", () => new TextEncoder().encode("{"), /^capsule: not strict JSON/],
      ["an extra envelope member", () => ({ ...envelope(), extra: 1 }), /^capsule: the envelope must have exactly/],
      ["a tampered claim statement", () => {
        const e = envelope();
        (e.content.claims as { statement: string }[])[0].statement = "edited";
        return e;
      }, /^capsule: content differs from the capsule our adapter builds/],
      ["a wrong content_sha256", () => ({ ...envelope(), content_sha256: "f".repeat(64) }), /^capsule: content_sha256 does not match canonical content$/],
      ["another producer's subject (W12)", () => {
        const e = envelope();
        (e.content.subject as { title: string }).title = "Something else";
        return e;
      }, /^capsule: content differs/],
      ["an attestation for another capsule", () => ({
        ...envelope(),
        attestations: [{ type: "statement-v1", content_sha256: "a".repeat(64), actor: "x", issued_at: "2026-01-01T00:00:00Z", statement: "s" }],
      }), /^capsule: attestations do not verify/],
      ["swapped artifact bytes", () => {
        const e = envelope();
        const art = (e.content.artifacts as { location: { data: string } }[])[0];
        art.location.data = Buffer.from(exampleBytes("valid", "03-usdt-inr-kitchen-sink-iocs")).toString("base64");
        return e;
      }, /^capsule: content differs/],
      ["broken base64", () => {
        const e = envelope();
        (e.content.artifacts as { location: { data: string } }[])[0].location.data = "@@@@";
        return e;
      }, /^capsule: the assessment artifact is not valid base64$/],
      ["no assessment artifact", () => {
        const e = envelope();
        (e.content.artifacts as { id: string }[])[0].id = "other";
        return e;
      }, /^capsule: content.artifacts has no single assessment artifact$/],
    ];
    for (const [what, make, expected] of cases) {
      it(`withholds a capsule with ${what}, without echoing its values`, () => {
        const reason = withheldReason(deriveCandidate(make() as never, pack, ANALYST));
        expect(reason).toMatch(expected);
        expect(reason).not.toContain(hash);
        expect(reason).not.toContain("rentacc");
      });
    }

    it("derives the store's loaded capsule and its bytes alike, and still compares the loaded content", () => {
      const full = emitted(deriveCandidate(valid, pack, ANALYST));
      const loaded = (bytes: Uint8Array) => ({ bytes, envelope: parseStrictJson(bytes) as JsonObject });
      expect(emitted(candidateView(deriveCapsule(loaded(valid), pack), ANALYST)).digest).toBe(full.digest);
      // Edited content in a loaded value is still refused by the structural comparison with the rebuild.
      const edited = envelope();
      (edited.content.claims as { statement: string }[])[0].statement = "edited";
      expect(withheldReason(candidateView(deriveCapsule(loaded(canonicalBytes(edited, "capsule")), pack), ANALYST))).toMatch(/^capsule: content differs/);
    });

    it("withholds an assessment edited after hashing (assessment_id mismatch)", () => {
      const capsule = mutatedCapsule("01-mule-account-rental-hinglish", (doc) => put(doc, ["detector", "score"], 61), false);
      expect(withheldReason(deriveCandidate(capsule, pack, ANALYST))).toMatch(/^assessment artifact: assessment\.assessment_id: does not match/);
    });

    it("redacts values the intake error would echo (an IOC put into an enum field)", () => {
      const capsule = mutatedCapsule("03-usdt-inr-kitchen-sink-iocs", (doc) => {
        put(doc, ["detector", "iocs", "channels"], ["usdt_inr_rates_demo"]);
        put(doc, ["collection", "surface"], "usdt_inr_rates_demo");
      });
      const reason = withheldReason(deriveCandidate(capsule, pack, ANALYST));
      expect(reason).toMatch(/^assessment artifact: assessment\.collection\.surface: /);
      expect(reason).not.toContain("usdt_inr");
    });

    it("withholds an artifact the assessment schema rejects, naming path and rule", () => {
      const capsule = mutatedCapsule("01-mule-account-rental-hinglish", (doc) => put(doc, ["detector", "families"], ["JohnDoe"]));
      const reason = withheldReason(deriveCandidate(capsule, pack, ANALYST));
      expect(reason).toMatch(/^assessment artifact: assessment\.detector\.families\[0\]/);
    });
  });

  it("the candidate bytes are canonical and contain no message hash or IOC of any valid example", () => {
    for (const name of ["01-mule-account-rental-hinglish", "03-usdt-inr-kitchen-sink-iocs", "34-ext-direct-link-wallet"]) {
      const doc = cloneJson(exampleValue("valid", name));
      const r = emitted(deriveCandidate(readShared("data/bridge-examples/valid", `${name}.capsule.json`), pack, ANALYST));
      const out = text(r);
      expect(out).toBe(canonicalText(r.candidate, "candidate"));
      expect(out).not.toContain(at(doc, "message_sha256") as string);
      for (const values of (at(doc, "detector", "iocs") as JsonObject).values()) {
        for (const v of values as string[]) expect(out).not.toContain(v);
      }
    }
  });
});
