/**
 * The full intake (shape → message → pack consistency → assessment id): valid examples pass with and without
 * their message; the lenient examples and other hashed-then-edited inputs are refused with a reason.
 */
import { expect, it } from "vitest";
import { checkAssessmentConsistency } from "../../../capsules/assessment/consistency.js";
import { AssessmentError } from "../../../capsules/assessment/errors.js";
import { intakeAssessment } from "../../../capsules/pipeline/intake.js";
import type { Assessment } from "../../../capsules/assessment/types.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { toPlain } from "../../../src/json/plain.js";
import { loadPackFile } from "../../../published/pack/file.js";
import { describeShared, readShared } from "../../helpers/shared.js";
import { EXAMPLES, exampleFile, mutate, PACK_PATH, validBytes, validNames } from "./helpers.js";

function refusal(bytes: Uint8Array, messageText?: string): AssessmentError {
  try {
    intakeAssessment(bytes, loadPackFile(PACK_PATH), { messageText });
  } catch (e) {
    if (e instanceof AssessmentError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describeShared("intakeAssessment", () => {
  it.each(validNames())("accepts valid/%s, also with its message", (name) => {
    const pack = loadPackFile(PACK_PATH);
    const text = readShared(EXAMPLES, "valid", `${name}.txt`).toString("utf8");
    expect(intakeAssessment(validBytes(name), pack).assessment.assessment_id).toMatch(/^[0-9a-f]{24}$/);
    expect(intakeAssessment(validBytes(name), pack, { messageText: text }).assessment.message_sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses lenient/02 (IOC planted in origin_answer) with the consistency reason", () => {
    const e = refusal(exampleFile("lenient", "02-origin-answer-carries-ioc.json"));
    expect(e.rule).toBe("consistency");
    expect(e.message).toMatch(/^assessment\.(hypotheses|origin_answer|abstentions)/);
    expect(e.message).not.toContain("@leaky_handle");
    expect(e.message).not.toContain("90000 11111");
  });

  it("refuses lenient/05 (unsupported DIRECT_LINK) naming the support level", () => {
    const e = refusal(exampleFile("lenient", "05-unsupported-direct-link.json"));
    expect(e.message).toMatch(/^assessment\.hypotheses\[0\]\.support_level: DIRECT_LINK requires/);
  });

  it.each(["02-origin-answer-carries-ioc.json", "05-unsupported-direct-link.json"])(
    "the pack consistency check alone also refuses lenient/%s",
    (file) => {
      const plain = toPlain(parseStrictJson(exampleFile("lenient", file))) as unknown as Assessment;
      const result = checkAssessmentConsistency(plain, loadPackFile(PACK_PATH));
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error).toMatch(/^assessment\.(hypotheses|origin_answer|abstentions)[^:]*: .+\((R\d+|M\d)\)$/);
    },
  );

  it("refuses a message that does not hash to message_sha256, without echoing either", () => {
    const name = "01-mule-account-rental-hinglish";
    const text = readShared(EXAMPLES, "valid", `${name}.txt`).toString("utf8");
    const e = refusal(validBytes(name), `${text}\n`);
    expect(e.message).toMatch(/^assessment\.message_sha256: the SHA-256 of the given message does not equal message_sha256/);
    expect(e.message).not.toContain(text.slice(0, 20));
    expect(e.message).not.toMatch(/[0-9a-f]{24}/);
  });

  it("refuses an assessment edited after hashing even when it stays consistent (§5.3)", () => {
    const e = refusal(mutate(validBytes("22-clean-mandi-prices"), (r) => r.set("created_at", "2026-08-20T11:34:25Z")));
    expect(e.rule).toBe("assessment-id");
    expect(e.message).toMatch(/^assessment\.assessment_id: does not match/);
  });

  it("refuses an assessment made with another pack (A2)", () => {
    const e = refusal(
      mutate(validBytes("22-clean-mandi-prices"), (r) => {
        (r.get("intelligence_pack") as Map<string, unknown>).set("sha256", "0".repeat(64));
      }),
    );
    expect(e.rule).toBe("consistency");
    expect(e.message).toMatch(/^assessment\.intelligence_pack\.sha256: /);
  });
});
