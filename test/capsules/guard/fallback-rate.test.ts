/**
 * A FALLBACK market rate is the producer's documented constant (assessment-v1 §2.6: 90.0 when there is no live
 * quote), the same in every assessment `assess` derives: not a private value. A rate read from providers is.
 * Before, every note that said "90" ("wait 90 days") was refused in any store holding an assessed capsule.
 */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { deriveAssessment } from "../../../capsules/assess/derive.js";
import { checkJudgement } from "../../../capsules/assess/judgement.js";
import { fromJs } from "../../../capsules/capsule/js-input.js";
import { OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import { assessmentPrivateValues } from "../../../capsules/guard/private-values.js";
import { loadPackFile } from "../../../published/pack/file.js";
import type { JsonValue } from "../../../src/json/value.js";

const EXAMPLE = new URL("../../../examples/synthetic/", import.meta.url);

test("the FALLBACK rate is public; a provider's rate stays private", () => {
  const pack = loadPackFile(new URL("intelligence-pack.json", EXAMPLE).pathname);
  const judgement = checkJudgement(
    fromJs({ signals: ["account_rental_offer", "commission_share_terms"], findings: [], surface: "private_submission", authorization: "user_submitted" }) as JsonValue,
  );
  const { assessment } = deriveAssessment({ message: readFileSync(new URL("message.txt", EXAMPLE), "utf8"), judgement, pack, pseudonymKey: "0".repeat(64) });
  expect(assessment.market_rate).toMatchObject({ status: "FALLBACK" });
  const assessed = assessmentPrivateValues(assessment, pack);
  expect(assessed.filter((v) => v.kind === "monetary_value")).toEqual([]);
  expect(new OutwardGuard(assessed).checkText("Wait 90 days, rate 90.0 quoted")).toBeUndefined();

  // The shipped producer example reads its rate from two providers (CORROBORATED 90.5): private, found as a token.
  const produced = JSON.parse(readFileSync(new URL("assessment.json", EXAMPLE), "utf8"));
  const values = assessmentPrivateValues(produced, pack);
  expect(values.filter((v) => v.kind === "monetary_value").map((v) => v.value)).toContain("90.5");
  expect(new OutwardGuard(values).checkText("the rate was 90.5 that day")).toEqual({ kind: "monetary_value" });
  // A FALLBACK status with another rate is not the constant: still private.
  const odd = { ...produced, market_rate: { ...produced.market_rate, status: "FALLBACK" } };
  expect(assessmentPrivateValues(odd, pack).filter((v) => v.kind === "monetary_value").map((v) => v.value)).toContain("90.5");
});
