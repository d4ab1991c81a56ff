/**
 * The derive stage (issue 14 item 1; product.md §8; assessment-v1 §7.1, §7.2, §7.4): a loaded capsule (the store's
 * {@link OpenedCapsule}) or capsule file bytes → ONE {@link Derivation}: both candidate views (default and with
 * typology matches: every hardened hypothesis) with their canonical bytes and digests, whether the overall tier is
 * CLEAN, and the private values the outward guard needs (this capsule's, and every inline document's for the guard
 * over the whole store). What the feed, the review queue, approvals and exports show is a projection of it
 * ({@link candidateView}); nothing re-parses or re-derives.
 *
 * Order of checks: the capsule's `assessment` artifact is inline (O1); its bytes pass the strict parser, the
 * assessment schema and the `assessment_id` recomputation; the content is exactly what our adapter builds from
 * those bytes under the capsule's own producer block and `content_sha256` is its recomputed digest (W12,
 * capsule-source.ts); then rule 7 (CLEAN, applied by the projection), rules 2/3 (hypotheses), the feed policy with
 * rule 5 per view, rules 1/4/8 while rendering, the character rule (O7), the number ranges, and finally the outward
 * guard (rule 6) on each finished candidate. Every failure is a `withheld` result whose reason names the path and
 * the rule only.
 *
 * A derivation depends on the capsule bytes (immutable under their id), the pack (its digest) and this code; the
 * last is {@link CANDIDATE_POLICY_VERSION}, which the sealed derivation cache (capsules/store/derivation-cache.ts)
 * keys its rows by. Raise it whenever a change here, in candidates/ or in guard/ can change a derivation.
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
import { applyFeedPolicy } from "../candidates/feed-policy.js";
import { hardenHypotheses } from "../candidates/hypotheses.js";
import { truncateToHour } from "../candidates/hour.js";
import { numberOutOfRange } from "../candidates/number-ranges.js";
import { renderCollection, renderIocCounts, renderLimitations } from "../candidates/render.js";
import {
  PUBLIC_RECORD_SCHEMA,
  REVIEW_REQUIRED,
  type Candidate,
  type CandidateView,
  type DeriveResult,
} from "../candidates/types.js";
import { OutwardGuard } from "../guard/outward-guard.js";
import { assessmentPrivateValues, capsulePrivateValues, type PrivateValue } from "../guard/private-values.js";
import { checkRebuiltContent, readCapsuleSource, type CapsuleInput, type CapsuleSource } from "./capsule-source.js";
import type { Derivation, KnownAssessment, ViewOutcome } from "./derivation.js";

export type { CapsuleInput } from "./capsule-source.js";

export { CANDIDATE_POLICY_VERSION, candidateView, type Derivation, type KnownAssessment, type ViewOutcome } from "./derivation.js";

/** Overall tier: the higher of the detector tier and the threat tier (assessment-v1 §1.1). */
export function overallTier(a: Pick<Assessment, "detector" | "threat_assessment">): Tier {
  return TIERS[Math.max(TIERS.indexOf(a.detector.tier), TIERS.indexOf(a.threat_assessment.tier))];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

/**
 * What the first stage of a derivation reads from one capsule: its source, and either the assessment with the
 * private values, or why no candidate can come from it (then with whatever values could still be read).
 */
type ReadCapsule = { base: Pick<Derivation, "capsule_sha256" | "pack_sha256">; storeValues: PrivateValue[] } & (
  | { withheld: string; privateValues: PrivateValue[] | undefined }
  | { withheld: undefined; source: Extract<CapsuleSource, { ok: true }>; assessment: Assessment; privateValues: PrivateValue[] }
);

/**
 * The first stage: the capsule's source, its assessment parsed and its id recomputed, and the private values the
 * guard needs. The values do not depend on anything after this stage (the content rebuild check, the candidate
 * rules), so {@link deriveValues} stops here.
 */
function readCapsule(capsule: CapsuleInput, pack: IntelligencePack, known?: KnownAssessment): ReadCapsule {
  const source = readCapsuleSource(capsule);
  const envelope = source.envelope;
  const declared = envelope?.get("content_sha256");
  const base = { capsule_sha256: typeof declared === "string" ? declared : "", pack_sha256: pack.sha256 };
  if (!source.ok) return { base, withheld: source.reason, privateValues: undefined, storeValues: envelope === undefined ? [] : capsulePrivateValues(envelope) };

  let assessment: Assessment;
  let value: JsonObject;
  try {
    if (known !== undefined && sameBytes(known.bytes, source.assessmentBytes)) {
      ({ value, assessment } = known);
    } else {
      ({ value, assessment } = parseAssessment(source.assessmentBytes) as { value: JsonObject; assessment: Assessment });
    }
    checkAssessmentId(value);
  } catch (e) {
    if (e instanceof AssessmentError) {
      return { base, withheld: `assessment artifact: ${redactEchoes(e.message)}`, privateValues: undefined, storeValues: capsulePrivateValues(source.envelope) };
    }
    throw e;
  }
  const parsed = { data: source.assessmentData, doc: value };
  return {
    base,
    withheld: undefined,
    source,
    assessment,
    privateValues: assessmentPrivateValues(assessment, pack),
    storeValues: capsulePrivateValues(source.envelope, undefined, parsed),
  };
}

/**
 * Only the private values of one capsule (own and store, exactly as {@link deriveCapsule} gives them), without
 * rendering its candidates: for commands that need every stored capsule's values but only a few candidates (the
 * guard over the whole store of a note or an export). Never throws for bad capsules.
 */
export function deriveValues(capsule: CapsuleInput, pack: IntelligencePack): Pick<Derivation, "privateValues" | "storeValues"> {
  const r = readCapsule(capsule, pack);
  return { privateValues: r.privateValues, storeValues: r.storeValues };
}

/** Derives everything outward about one capsule against our loaded pack. Never throws for bad capsules. */
export function deriveCapsule(capsule: CapsuleInput, pack: IntelligencePack, known?: KnownAssessment): Derivation {
  const read = readCapsule(capsule, pack, known);
  const { base, privateValues: own, storeValues } = read;
  if (read.withheld !== undefined) return { ...base, outcome: { status: "withheld", reason: read.withheld }, privateValues: own, storeValues };
  const { source, assessment } = read;

  const rebuildProblem = checkRebuiltContent(source, assessment);
  if (rebuildProblem !== undefined) return { ...base, outcome: { status: "withheld", reason: rebuildProblem }, privateValues: own, storeValues };

  const clean = overallTier(assessment) === "CLEAN";
  const createdAt = truncateToHour(assessment.created_at);
  if (createdAt === undefined) {
    const w: ViewOutcome = { status: "withheld", reason: "assessment.created_at: not a UTC timestamp (assessment-v1 §2.2)" };
    return { ...base, outcome: { status: "derived", clean, views: { default: w, typology: w } }, privateValues: own, storeValues };
  }

  const hardened = hardenHypotheses(assessment, pack);
  const all = hardened.ok ? hardened.hypotheses : [];
  const guard = new OutwardGuard(own);
  /**
   * The capsule's id and the assessment id are digests this derivation verified (the content's SHA-256, and the id
   * recomputed from the assessment by checkAssessmentId): nobody can write a private value into them, so their
   * decodings are not searched (docs/guard.md). Every other string of the candidate is.
   */
  const verifiedDigest = (s: string): boolean => s === source.declaredSha256 || s === assessment.assessment_id;
  /**
   * `supersetPassed`: the typology view of this capsule passed the guard. The guard judges each string, member name
   * and number on its own, and the default view's are the typology view's (its hypotheses are a subset, the other
   * members equal) except `origin_answer`; so then only that member needs checking, and the full check runs only to
   * name the path when it hits.
   */
  const render = (includeTypologyMatches: boolean, supersetPassed = false): { view: ViewOutcome; guardPassed: boolean } => {
    const policy = applyFeedPolicy(all, { hadHypotheses: assessment.hypotheses.length > 0, includeTypologyMatches });
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
      feed_policy: { typology_match_visible: includeTypologyMatches, automatic_publication: false },
    };
    if (!hardened.ok) candidate.hypotheses_withheld = hardened.reason;

    const bad = firstBadCharacter(candidate, "candidate");
    if (bad !== undefined) return { view: { status: "withheld", reason: bad }, guardPassed: false };
    const outOfRange = numberOutOfRange(candidate);
    if (outOfRange !== undefined) return { view: { status: "withheld", reason: outOfRange }, guardPassed: false };
    const quick = supersetPassed && guard.check({ origin_answer: candidate.origin_answer }, "candidate").ok;
    const verdict = quick ? { ok: true as const } : guard.check(candidate, "candidate", { isPublic: verifiedDigest });
    if (!verdict.ok) return { view: { status: "withheld", reason: verdict.reason }, guardPassed: false };
    const bytes = canonicalBytes(candidate, "candidate");
    return { view: { status: "emitted", candidate, bytes, digest: sha256Hex(bytes) }, guardPassed: true };
  };
  const typology = render(true);
  const byDefault = render(false, typology.guardPassed);
  return {
    ...base,
    outcome: { status: "derived", clean, views: { default: byDefault.view, typology: typology.view } },
    privateValues: own,
    storeValues,
  };
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
