/**
 * `deriveCandidate`: the outward candidate of one capsule (product.md §8; assessment-v1 §7.1, §7.2, §7.4).
 *
 * Order of checks: the capsule's `assessment` artifact is inline (O1); its bytes pass the strict parser, the
 * assessment schema and the `assessment_id` recomputation; the capsule content is exactly what our adapter builds
 * from those bytes under the capsule's own producer block and `content_sha256` is its digest (W12, and with it
 * capsule verification, see capsule-source.ts); then rule 7 (CLEAN excluded),
 * rules 2/3 (hypotheses), the feed policy with rule 5, rules 1/4/8 while rendering, the character rule (O7) and
 * finally the leak guard (rule 6) on the finished candidate. Every failure is a `withheld` result whose reason
 * names the path and the rule only.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { sha256Hex } from "../../src/hash.js";
import type { JsonObject } from "../../src/json/value.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import { checkAssessmentId } from "../assessment/assessment-id.js";
import { AssessmentError } from "../assessment/errors.js";
import { parseAssessment } from "../assessment/parse-assessment.js";
import { firstControlOrFormat } from "../assessment/text-rules.js";
import { TIERS, type Assessment, type Tier } from "../assessment/types.js";
import {
  checkRebuiltContent,
  readCapsuleAssessment,
  readLoadedCapsuleAssessment,
  type CapsuleInput,
  type CapsuleSource,
} from "./capsule-source.js";
import { applyFeedPolicy } from "./feed-policy.js";
import { hardenHypotheses } from "./hypotheses.js";
import { truncateToHour } from "./hour.js";
import { OutwardGuard } from "../guard/outward-guard.js";
import { assessmentPrivateValues } from "../guard/private-values.js";
import { numberOutOfRange } from "./number-ranges.js";
import { renderCollection, renderIocCounts, renderLimitations } from "./render.js";
import { PUBLIC_RECORD_SCHEMA, REVIEW_REQUIRED, type Candidate, type DeriveOptions, type DeriveResult } from "./types.js";

/** Overall tier: the higher of the detector tier and the threat tier (assessment-v1 §1.1). */
export function overallTier(a: Pick<Assessment, "detector" | "threat_assessment">): Tier {
  return TIERS[Math.max(TIERS.indexOf(a.detector.tier), TIERS.indexOf(a.threat_assessment.tier))];
}

function withheld(reason: string): DeriveResult {
  return { status: "withheld", reason };
}

/** Derives the outward candidate of a capsule against our loaded pack. Never throws for bad capsules. */
export function deriveCandidate(capsule: CapsuleInput, pack: IntelligencePack, opts: DeriveOptions): DeriveResult {
  return deriveFromSource(readCapsuleAssessment(capsule), pack, opts);
}

/**
 * {@link deriveCandidate} for an envelope exactly as the strict loader returned it (the store's `openCapsule`),
 * read without converting it first (capsule-source.ts). Same checks, same result.
 */
export function deriveLoadedCandidate(envelope: JsonObject, pack: IntelligencePack, opts: DeriveOptions): DeriveResult {
  return deriveFromSource(readLoadedCapsuleAssessment(envelope), pack, opts);
}

function deriveFromSource(source: CapsuleSource, pack: IntelligencePack, opts: DeriveOptions): DeriveResult {
  if (!source.ok) return withheld(source.reason);

  let assessment: Assessment;
  try {
    const parsed = parseAssessment(source.assessmentBytes);
    checkAssessmentId(parsed.value);
    assessment = parsed.assessment;
  } catch (e) {
    if (e instanceof AssessmentError) return withheld(`assessment artifact: ${redactEchoes(e.message)}`);
    throw e;
  }

  const rebuildProblem = checkRebuiltContent(source, assessment, opts.recomputedContentSha256);
  if (rebuildProblem !== undefined) return withheld(rebuildProblem);

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
    capsule_sha256: source.declaredSha256,
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

  const outOfRange = numberOutOfRange(candidate);
  if (outOfRange !== undefined) return withheld(outOfRange);

  const guard = new OutwardGuard(assessmentPrivateValues(assessment, pack)).check(candidate, "candidate");
  if (!guard.ok) return withheld(guard.reason);

  const bytes = canonicalBytes(candidate, "candidate");
  return { status: "emitted", candidate, bytes, digest: sha256Hex(bytes) };
}

/**
 * Intake messages may echo an identifier-shaped value in quotes (`(got 'x')`); a hostile producer can put an IOC
 * there, and reasons go to stderr. Every quoted echo is replaced; paths and rules stay.
 */
function redactEchoes(message: string): string {
  return message.replace(/'[^']*'/g, "'…'");
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
