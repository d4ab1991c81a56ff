/**
 * Assessment → capsule (assessment-v1 §6): byte parity with the reference bridge for every valid example, the
 * default producer block, self-verification by our own verifier, and the claim/derivation layout.
 */
import { expect, it } from "vitest";
import { assessmentContent, projectProducer, REFERENCE_PRODUCER } from "../../../capsules/assessment/adapter.js";
import { assembleCapsule } from "../../../capsules/pipeline/build.js";
import { parseAssessment } from "../../../capsules/assessment/parse-assessment.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { sha256Hex } from "../../../src/hash.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { describeShared, readShared } from "../../helpers/shared.js";
import { EXAMPLES, validBytes, validNames } from "./helpers.js";

/** The build with its file text, as these tests compare texts. */
function built(...args: Parameters<typeof assembleCapsule>) {
  const r = assembleCapsule(...args);
  return { ...r, text: new TextDecoder().decode(r.bytes) };
}

function build(name: string, producer = REFERENCE_PRODUCER) {
  const bytes = validBytes(name);
  return built(bytes, parseAssessment(bytes).assessment, producer);
}

function ids(list: JsonValue): string[] {
  return (list as JsonObject[]).map((x) => x.get("id") as string);
}

describeShared("buildAssessmentCapsule", () => {
  it.each(validNames())("reproduces valid/%s.capsule.json byte for byte with the reference producer", (name) => {
    const expected = readShared(EXAMPLES, "valid", `${name}.capsule.json`).toString("utf8");
    expect(build(name).text).toBe(expected);
  });

  it.each(validNames())("builds a capsule for valid/%s that our verifier accepts, deterministically", (name) => {
    const a = build(name, projectProducer("9.9.9"));
    const b = build(name, projectProducer("9.9.9"));
    expect(a.text).toBe(b.text);
    const report = verifyCapsule(parseStrictJson(a.text));
    expect(report.errors).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.recomputability.status).toBe("verified");
  });

  it("names this project by default and embeds the exact input bytes", () => {
    const name = "34-ext-direct-link-wallet";
    const bytes = validBytes(name);
    const content = parseStrictJson(build(name, projectProducer("1.2.3")).text) as JsonObject;
    const c = content.get("content") as JsonObject;
    expect(Object.fromEntries(c.get("producer") as JsonObject)).toEqual({ name: "evidence-bridge", software: "evidence-bridge/1.2.3" });
    const artifact = (c.get("artifacts") as JsonObject[])[0];
    const location = artifact.get("location") as JsonObject;
    expect(Buffer.from(location.get("data") as string, "base64").equals(bytes)).toBe(true);
    expect(artifact.get("sha256")).toBe(sha256Hex(bytes));
    expect(artifact.get("size")).toBe(bytes.length);
    expect(artifact.get("untrusted")).toBe(true);
    const reference = parseStrictJson(build(name).text) as JsonObject;
    expect(content.get("content_sha256")).not.toBe(reference.get("content_sha256"));
  });

  it("orders claims and derivations as §6.4/§6.5 (hypotheses)", () => {
    const bytes = validBytes("05-feiqian-zh-simplified-plus-mule");
    const content = assessmentContent(bytes, parseAssessment(bytes).assessment, REFERENCE_PRODUCER) as { claims: { id: string }[]; derivations: { id: string }[] };
    expect(content.claims.map((c) => c.id)).toEqual(["assessment-identity", "threat-assessment", "hypothesis-0", "hypothesis-1"]);
    expect(content.derivations.map((d) => d.id)).toEqual([
      "extract-assessment-id",
      "extract-message-hash",
      "extract-detector-tier",
      "extract-threat-tier",
      "extract-threat-score",
      "extract-threat-families",
      "extract-hypothesis-0",
      "extract-hypothesis-1",
    ]);
  });

  it("records the abstention claim when there is no hypothesis (example 22)", () => {
    const c = (parseStrictJson(build("22-clean-mandi-prices").text) as JsonObject).get("content") as JsonObject;
    expect(ids(c.get("claims")!)).toEqual(["assessment-identity", "threat-assessment", "provenance-abstention"]);
    expect(ids(c.get("derivations")!).at(-1)).toBe("extract-empty-hypotheses");
  });

  it("refuses to emit when the content would not verify (C1)", () => {
    const bytes = validBytes("01-mule-account-rental-hinglish");
    const { assessment } = parseAssessment(bytes);
    // A producer block the capsule format rejects (empty text) never reaches stdout.
    expect(() => built(bytes, assessment, { name: "", software: "x" })).toThrow(
      /^adapter produced an invalid capsule: content\.producer\.name: expected non-empty string$/,
    );
    // Bytes that are not the assessment the claims were read from: the derivations do not recompute.
    const other = validBytes("22-clean-mandi-prices");
    expect(() => built(other, assessment, REFERENCE_PRODUCER)).toThrow(/^adapter produced an invalid capsule: /);
  });
});
