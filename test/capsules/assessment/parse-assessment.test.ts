/**
 * Strict shape of scamshield-provenance/v1 (assessment-v1 §2): every valid example is accepted, every invalid
 * example is rejected naming the path and rule (§9.2), and each hardened rule rejects a one-field mutation of a
 * valid example with a precise, privacy-safe message.
 */
import { expect, it } from "vitest";
import { AssessmentError } from "../../../capsules/assessment/errors.js";
import { parseAssessment } from "../../../capsules/assessment/parse-assessment.js";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleFile, files, mutate, validBytes, validNames } from "./helpers.js";
import { cases, DIRECT, HANDLE, PRIVATE, WALLET } from "./mutation-cases.js";

function rejection(bytes: Uint8Array): AssessmentError {
  try {
    parseAssessment(bytes);
  } catch (e) {
    if (e instanceof AssessmentError) return e;
    throw e;
  }
  throw new Error("expected the assessment to be rejected");
}

describeShared("parseAssessment: the reference examples", () => {
  it.each(validNames())("accepts valid/%s", (name) => {
    const { assessment, value } = parseAssessment(validBytes(name));
    expect(assessment.schema_version).toBe("scamshield-provenance/v1");
    expect(value.get("assessment_id")).toBe(assessment.assessment_id);
  });

  it("accepts exactly 1 048 576 bytes (J1) and rejects one more", () => {
    const base = validBytes("01-mule-account-rental-hinglish");
    const exact = Buffer.concat([base, Buffer.alloc(1_048_576 - base.length, 0x20)]);
    expect(parseAssessment(exact).assessment.assessment_id).toBe("8ca9a2154011c8199d87ec74");
    expect(rejection(Buffer.concat([exact, Buffer.from(" ")])).message).toBe("assessment exceeds 1 MiB");
  });

  // §9.2: the reference's reason, and what our message must contain (field and rule).
  const invalid: Record<string, string[]> = {
    "01-bad-enum-detector-tier.json": ["assessment.detector.tier: expected one of CLEAN, WATCH, LIKELY_SCAM, CONFIRMED_PATTERN", "'SUSPICIOUS'"],
    "11-oversize-1MiB-plus-1.json": ["assessment exceeds 1 MiB"],
    "12-duplicate-key-assessment-id.json": ["duplicate JSON key: 'assessment_id'"],
    "14-nan-market-rate.json": ["non-finite JSON number is forbidden: NaN"],
    "17-bad-hex-message-sha256-uppercase.json": ["assessment.message_sha256: expected 64 lowercase hex characters"],
    "24-unknown-ioc-kind.json": ["assessment.detector.iocs: unknown field(s): ips"],
    "28-float-detector-score.json": ["assessment.detector.score: expected integer", "(got float)"],
    "33-lone-surrogate.json": ["json.origin_answer: lone Unicode surrogate is forbidden"],
    "34-invalid-utf8.json": ["JSON is not UTF-8", "0xff at offset 4307"],
    "35-utf8-bom.json": ["invalid JSON: Unexpected UTF-8 BOM"],
    "38-empty-stdin.json": ["invalid JSON: Expecting value: line 1 column 1 (char 0)"],
    "45-nesting-depth-33.json": [`json.market_rate.debug${"[0]".repeat(31)}: JSON nesting exceeds 32`],
  };

  it("covers every file in invalid/", () => {
    expect(files("invalid")).toEqual(Object.keys(invalid).sort());
  });

  it.each(Object.entries(invalid))("rejects invalid/%s naming the path and rule", (file, parts) => {
    const e = rejection(exampleFile("invalid", file));
    for (const part of parts) expect(e.message).toContain(part);
    expect(e.message).not.toMatch(/[\r\n]/);
  });
});

describeShared("parseAssessment: hardened rules (one mutation each)", () => {
  it.each(cases)("rejects: %s", (_name, example, edit, parts) => {
    const e = rejection(mutate(validBytes(example), edit));
    for (const part of parts) expect(e.message).toContain(part);
    expect(e.path).toBe(e.message.slice(0, e.message.indexOf(": ")));
    for (const secret of PRIVATE) expect(e.message).not.toContain(secret);
  });

  it("re-serialising without a change still parses (the mutation harness is neutral)", () => {
    for (const name of validNames()) expect(() => parseAssessment(mutate(validBytes(name), () => {}))).not.toThrow();
  });

  it("rejects a root that is not an object", () => {
    expect(rejection(Buffer.from("[]")).message).toBe("assessment: expected a JSON object (got array)");
  });

  it("withholds odd keys in loader paths and duplicate-key messages", () => {
    const deep = `{"${WALLET}":${"[".repeat(33)}${"]".repeat(33)}}`;
    expect(rejection(Buffer.from(deep)).message).toBe(`json.<key>${"[0]".repeat(32)}: JSON nesting exceeds 32`);
    expect(rejection(Buffer.from(`{"${HANDLE}":1,"${HANDLE}":2}`)).message).toBe("duplicate JSON key (name withheld)");
  });

  it("returns floats as numbers and keeps IOC order", () => {
    const { assessment } = parseAssessment(validBytes(DIRECT));
    expect(assessment.market_rate.rate).toBe(91.97);
    expect(assessment.detector.iocs.wallets).toEqual([WALLET]);
  });
});

describeShared("parseAssessment: pack literals", () => {
  it("accepts a term hit with a zero-width joiner (allowed in pack terms, §3.1) but not in a label", () => {
    const withZwj = mutate(validBytes(DIRECT), (r) => {
      const hyp = (r.get("hypotheses") as JsonValue[])[1] as JsonObject;
      ((hyp.get("matched_indicators") as JsonValue[])[0] as JsonObject).set("term_hits", ["क्\u200dष"]);
    });
    expect(() => parseAssessment(withZwj)).not.toThrow();
    const labelled = mutate(validBytes(DIRECT), (r) => ((r.get("hypotheses") as JsonValue[])[1] as JsonObject).set("label", "क्\u200dष"));
    expect(rejection(labelled).message).toBe("assessment.hypotheses[1].label: control, format or bidi character U+200D is forbidden");
  });
});
