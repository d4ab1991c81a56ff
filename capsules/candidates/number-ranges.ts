/**
 * Every number of an outward candidate is bounded to its documented range (docs/candidates.md, "Numbers"), so a
 * number can never carry an identifier: a detector score equal to a phone's digits is withheld here, and the
 * outward guard also reads every number as text (a number whose digits are an IOC's digits is that IOC).
 *
 * - `detector.score`: an integer 0–1000 (a sum of detector signal weights; the reference's largest is far below);
 * - `threat_assessment.score`: an integer 0–85 (assessment-v1 §2.4: finding scores are capped at 85);
 * - `ioc_counts.*`: an integer 0–10,000 (the reference's cap, render.ts);
 * - `hypotheses[].independent_backers`: an integer 0–1000.
 */
import type { Candidate } from "./types.js";
import { IOC_COUNT_CAP } from "./render.js";

export const DETECTOR_SCORE_MAX = 1000;
export const THREAT_SCORE_MAX = 85;
export const BACKERS_MAX = 1000;

function bad(path: string, v: unknown, max: number): string | undefined {
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && v <= max) return undefined;
  return `${path}: outside its documented range (an integer 0 to ${max}); numbers outside their range are not emitted`;
}

/** The first number of the candidate outside its range (path and rule, never the number), or undefined. */
export function numberOutOfRange(c: Candidate): string | undefined {
  const problems = [
    bad("candidate.detector.score", c.detector.score, DETECTOR_SCORE_MAX),
    bad("candidate.threat_assessment.score", c.threat_assessment.score, THREAT_SCORE_MAX),
    ...Object.entries(c.ioc_counts).map(([k, n]) => bad(`candidate.ioc_counts.${k}`, n, IOC_COUNT_CAP)),
    ...c.hypotheses.map((h, i) => bad(`candidate.hypotheses[${i}].independent_backers`, h.independent_backers, BACKERS_MAX)),
  ];
  return problems.find((p) => p !== undefined);
}
