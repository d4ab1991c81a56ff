/**
 * `deriveCandidate`: the outward candidate of one capsule (product.md §8; assessment-v1 §7.1, §7.2, §7.4).
 *
 * Order of checks: the capsule verifies and its `assessment` artifact is inline (O1); the artifact bytes pass the
 * strict parser, the assessment schema and the `assessment_id` recomputation; the capsule is exactly what our
 * adapter builds from those bytes under the capsule's own producer block (W12); then rule 7 (CLEAN excluded),
 * rules 2/3 (hypotheses), the feed policy with rule 5, rules 1/4/8 while rendering, the character rule (O7) and
 * finally the leak guard (rule 6) on the finished candidate. Every failure is a `withheld` result whose reason
 * names the path and the rule only.
 */
import { canonicalBytes, canonicalText } from "../../src/json/canonical.js";
import { sha256Hex } from "../../src/hash.js";
import type { IntelligencePack } from "../../src/pack/types.js";
import { assessmentContent } from "../assessment/adapter.js";
import { checkAssessmentId } from "../assessment/assessment-id.js";
import { AssessmentError } from "../assessment/errors.js";
import { parseAssessment } from "../assessment/parse-assessment.js";
import { firstControlOrFormat } from "../assessment/text-rules.js";
import { TIERS, type Assessment, type Tier } from "../assessment/types.js";
import { readCapsuleAssessment, type CapsuleInput } from "./capsule-source.js";
import { applyFeedPolicy } from "./feed-policy.js";
import { hardenHypotheses } from "./hypotheses.js";
import { truncateToHour } from "./hour.js";
import { collectPrivateValues, guardCandidate } from "./leak-guard.js";
import { renderCollection, renderIocCounts, renderLimitations } from "./render.js";
import { PUBLIC_RECORD_SCHEMA, REVIEW_REQUIRED, type Candidate, type DeriveOptions, type DeriveResult } from "./types.js";

/** Overall tier: the higher of the detector tier and the threat tier (assessment-v1 §1.1). */
export function overallTier(a: Pick<Assessment, "detector" | "threat_assessment">): Tier {
  return TIERS[Math.max(TIERS.indexOf(a.detector.tier), TIERS.indexOf(a.threat_assessment.tier))];
}

function withheld(reason: string): DeriveResult {
  return { status: "withheld", reason };
}

/** W12: the capsule content must be exactly what the adapter builds from the artifact bytes. */
function rebuiltDigest(bytes: Uint8Array, a: Assessment, producer: unknown): string | undefined {
  const name = producer instanceof Map ? producer.get("name") : undefined;
  const software = producer instanceof Map ? producer.get("software") : undefined;
  if (typeof name !== "string" || typeof software !== "string") return undefined;
  return sha256Hex(canonicalText(assessmentContent(bytes, a, { name, software }), "content"));
}

/** Derives the outward candidate of a capsule against our loaded pack. Never throws for bad capsules. */
export function deriveCandidate(capsule: CapsuleInput, pack: IntelligencePack, opts: DeriveOptions): DeriveResult {
  const source = readCapsuleAssessment(capsule);
  if (!source.ok) return withheld(source.reason);

  let assessment: Assessment;
  try {
    const parsed = parseAssessment(source.assessmentBytes);
    checkAssessmentId(parsed.value);
    assessment = parsed.assessment;
  } catch (e) {
    if (e instanceof AssessmentError) return withheld(`assessment artifact: ${e.message}`);
    throw e;
  }

  const content = source.envelope.get("content");
  const producer = content instanceof Map ? content.get("producer") : undefined;
  if (rebuiltDigest(source.assessmentBytes, assessment, producer) !== source.contentSha256) {
    return withheld("capsule: content differs from the capsule our adapter builds from its assessment artifact");
  }

  if (overallTier(assessment) === "CLEAN" && !opts.includeClean) {
    return { status: "excluded", reason: "overall tier is CLEAN (use --include-clean)" };
  }

  const createdAt = truncateToHour(assessment.created_at);
  if (createdAt === undefined) return withheld("assessment.created_at: not a UTC timestamp (assessment-v1 §2.2)");

  const hardened = hardenHypotheses(assessment, pack);
  const all = hardened.ok ? hardened.hypotheses : [];
  const policy = applyFeedPolicy(all, {
    hadHypotheses: assessment.hypotheses.length > 0,
    includeTypologyMatches: opts.includeTypologyMatches,
  });

  const candidate: Candidate = {
    schema_version: PUBLIC_RECORD_SCHEMA,
    capsule_sha256: source.contentSha256,
    assessment_id: assessment.assessment_id,
    created_at: createdAt,
    review_status: REVIEW_REQUIRED,
    detector: {
      tier: assessment.detector.tier,
      score: assessment.detector.score,
      families: assessment.detector.families.slice(0, 32),
    },
    threat_assessment: {
      tier: assessment.threat_assessment.tier,
      score: assessment.threat_assessment.score,
      families: assessment.threat_assessment.families.slice(0, 32),
    },
    collection: renderCollection(assessment.collection),
    ioc_counts: renderIocCounts(assessment.detector.iocs),
    hypotheses: policy.shown,
    origin_answer: policy.originAnswer,
    limitations: renderLimitations(assessment.limitations),
    feed_policy: { typology_match_visible: opts.includeTypologyMatches, automatic_publication: false },
  };
  if (!hardened.ok) candidate.hypotheses_withheld = hardened.reason;

  const bad = firstBadCharacter(candidate, "candidate");
  if (bad !== undefined) return withheld(bad);

  const guard = guardCandidate(candidate, collectPrivateValues(assessment, pack));
  if (!guard.ok) return withheld(guard.reason);

  const bytes = canonicalBytes(candidate, "candidate");
  return { status: "emitted", candidate, bytes, digest: sha256Hex(bytes) };
}

/** O7: no control, format (Cf) or bidi character in any string of the candidate. */
function firstBadCharacter(v: unknown, path: string): string | undefined {
  if (typeof v === "string") {
    const c = firstControlOrFormat(v);
    return c === undefined ? undefined : `${path}: contains ${c} (control, format and bidi characters are not emitted)`;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = firstBadCharacter(v[i], `${path}[${i}]`);
      if (r) return r;
    }
    return undefined;
  }
  if (v !== null && typeof v === "object") {
    for (const [k, x] of Object.entries(v)) {
      const r = firstBadCharacter(x, `${path}.${k}`);
      if (r) return r;
    }
  }
  return undefined;
}
