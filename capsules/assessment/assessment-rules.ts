/**
 * Cross-field rules of the assessment shape (assessment-v1 §2.3–§2.8 hardened columns, and the exact-IOC binding
 * M2 with the DIRECT_LINK requirement of §4.5/§4.7). Each takes an already shape-checked object and returns the
 * first issue (path relative to that object) or undefined. Pack-dependent recomputation (§4.10) is not here.
 */
import { SUBMITTED_MESSAGE_GROUP } from "../../published/pack/vocabulary.js";
import type { Issue } from "../../src/json/shape.js";
import type { Assessment, Collection, Detector, Hypothesis, ExternalObservation, ThreatAssessment, ThreatFinding } from "./types.js";
import {
  DETECTOR_TIER_MIN_SCORE,
  FINDING_SCORE_CAP,
  FINDING_SCORE_FLOOR,
  SUPPRESSOR_SIGNALS,
  THREAT_RULES,
  TIER_RANK,
  VETO_SIGNALS,
} from "./vocabulary.js";

function issue(path: readonly (string | number)[], message: string): Issue {
  return { path, message };
}

/** §2.3 tier ⇔ score: `CLEAN` ⇔ score < 15; other tiers need at least their floor (gates only demote). */
export function detectorTierMatchesScore(d: Detector): Issue | undefined {
  if (d.tier === "CLEAN") {
    return d.score < 15 ? undefined : issue(["tier"], `CLEAN requires score < 15 (score is ${d.score})`);
  }
  const min = DETECTOR_TIER_MIN_SCORE[d.tier];
  return d.score >= min ? undefined : issue(["tier"], `${d.tier} requires score >= ${min} (score is ${d.score})`);
}

/** §2.3 suppressors carry family `SUPPRESS` and vetoes `VETO`, and only they do; names are unique. */
export function signalFamiliesMatchNames(d: Detector): Issue | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < d.signals.length; i++) {
    const { name, family } = d.signals[i];
    if (seen.has(name)) return issue(["signals", i, "name"], `duplicate signal '${name}'`);
    seen.add(name);
    const expected = (SUPPRESSOR_SIGNALS as readonly string[]).includes(name)
      ? "SUPPRESS"
      : (VETO_SIGNALS as readonly string[]).includes(name)
        ? "VETO"
        : undefined;
    if (expected !== undefined && family !== expected) {
      return issue(["signals", i, "family"], `signal '${name}' must have family ${expected} (got ${family})`);
    }
    if (expected === undefined && (family === "SUPPRESS" || family === "VETO")) {
      return issue(["signals", i, "family"], `family ${family} is reserved for ${family === "SUPPRESS" ? "suppressor" : "veto"} signals (got '${name}')`);
    }
  }
  return undefined;
}

/** §2.4 a finding's family and label are fixed by its rule; † rules stop at `LIKELY_SCAM`; the score formula holds. */
export function findingMatchesRule(f: ThreatFinding): Issue | undefined {
  const r = THREAT_RULES[f.rule_id];
  if (f.family !== r.family) return issue(["family"], `rule ${f.rule_id} has family ${r.family} (got ${f.family})`);
  if (f.label !== r.label) return issue(["label"], `rule ${f.rule_id} has the fixed label '${r.label}'`);
  if (r.cappedAtLikelyScam && f.tier === "CONFIRMED_PATTERN") {
    return issue(["tier"], `rule ${f.rule_id} is capped at LIKELY_SCAM (got CONFIRMED_PATTERN)`);
  }
  const expected = Math.min(FINDING_SCORE_CAP, FINDING_SCORE_FLOOR[f.tier] + 5 * Math.max(0, f.evidence_classes.length - 2));
  if (f.score !== expected) {
    return issue(
      ["score"],
      `expected ${expected} = floor ${FINDING_SCORE_FLOOR[f.tier]} for ${f.tier} + 5 per evidence class beyond 2, capped at ${FINDING_SCORE_CAP} (got ${f.score})`,
    );
  }
  const listed: readonly string[] = f.evidence_classes;
  for (const cls of Object.keys(f.matched_terms)) {
    if (cls === "contact") return issue(["matched_terms", cls], "the contact class never carries matched terms");
    if (!listed.includes(cls)) {
      return issue(["matched_terms", cls], `evidence class ${cls} is not listed in evidence_classes`);
    }
  }
  return undefined;
}

function findingOrder(a: ThreatFinding, b: ThreatFinding): number {
  return TIER_RANK[b.tier] - TIER_RANK[a.tier] || b.score - a.score || (a.rule_id < b.rule_id ? -1 : a.rule_id > b.rule_id ? 1 : 0);
}

/** §2.4 findings: one per rule, sorted; tier/score from the first finding; families derived in finding order. */
export function threatSummaryMatchesFindings(t: ThreatAssessment): Issue | undefined {
  const rules = new Set<string>();
  for (let i = 0; i < t.findings.length; i++) {
    if (rules.has(t.findings[i].rule_id)) return issue(["findings", i, "rule_id"], `duplicate rule ${t.findings[i].rule_id} (one finding per rule)`);
    rules.add(t.findings[i].rule_id);
    if (i > 0 && findingOrder(t.findings[i - 1], t.findings[i]) > 0) {
      return issue(["findings", i], "findings must be sorted by tier descending, score descending, rule_id ascending");
    }
  }
  const first = t.findings[0];
  const tier = first ? first.tier : "CLEAN";
  const score = first ? first.score : 0;
  if (t.tier !== tier) return issue(["tier"], `expected ${tier} (${first ? "tier of findings[0]" : "no findings"}; got ${t.tier})`);
  if (t.score !== score) return issue(["score"], `expected ${score} (${first ? "score of findings[0]" : "no findings"}; got ${t.score})`);
  const families = [...new Set(t.findings.map((f) => f.family))];
  if (families.length !== t.families.length || families.some((f, i) => t.families[i] !== f)) {
    return issue(["families"], `expected the unique finding families in finding order: [${families.join(", ")}]`);
  }
  return undefined;
}

/** §2.5 surface/authorization pairing and a pseudonym on public channels (SHOULD rules, enforced). */
export function collectionIsCoherent(c: Collection): Issue | undefined {
  if (c.surface === "public_channel" && c.authorization !== "public") {
    return issue(["authorization"], `surface public_channel requires authorization public (got ${c.authorization})`);
  }
  if (c.surface === "private_submission" && c.authorization !== "user_submitted") {
    return issue(["authorization"], `surface private_submission requires authorization user_submitted (got ${c.authorization})`);
  }
  if (c.surface === "public_channel" && c.source_pseudonym === "") {
    return issue(["source_pseudonym"], "surface public_channel requires a non-empty pseudonym");
  }
  if (c.script_hints.includes("undetermined") && c.script_hints.length !== 1) {
    return issue(["script_hints"], "'undetermined' must be the only script hint");
  }
  return undefined;
}

/** §4.5 IOC fields: `exact_ioc` needs both, other match types neither; the pseudo-group name is reserved. */
export function observationIocFields(o: ExternalObservation): Issue | undefined {
  if (o.source_group === SUBMITTED_MESSAGE_GROUP) {
    return issue(["source_group"], `'${SUBMITTED_MESSAGE_GROUP}' is reserved for the message itself`);
  }
  if (o.match_type === "exact_ioc") {
    if (o.matched_ioc_kind === "") return issue(["matched_ioc_kind"], "exact_ioc requires an IOC kind");
    if (o.matched_ioc_value === "") return issue(["matched_ioc_value"], "exact_ioc requires an IOC value");
  } else {
    if (o.matched_ioc_kind !== "") return issue(["matched_ioc_kind"], `must be "" for match_type ${o.match_type}`);
    if (o.matched_ioc_value !== "") return issue(["matched_ioc_value"], `must be "" for match_type ${o.match_type}`);
  }
  return undefined;
}

/** §4.6 a hypothesis holds only observations of its own typology. */
export function hypothesisObservationsBelong(h: Hypothesis): Issue | undefined {
  for (let i = 0; i < h.external_observations.length; i++) {
    if (h.external_observations[i].typology_id !== h.typology_id) {
      return issue(["external_observations", i, "typology_id"], "must equal the hypothesis typology_id");
    }
  }
  return undefined;
}

/** True for an observation that could make a `DIRECT_LINK` (§4.7 step 1). */
export function isDirectLinkObservation(o: ExternalObservation): boolean {
  return o.source_kind === "authoritative" && o.match_type === "exact_ioc" && o.reliability === "direct";
}

/**
 * §4.5 M2: every `exact_ioc` observation binds, by exact string equality, an IOC of `detector.iocs`; §4.7: a
 * claimed `DIRECT_LINK` needs an authoritative, direct, exact-IOC observation (which then binds). Also R8's
 * "no typology twice".
 */
export function hypothesesBindToMessage(a: Assessment): Issue | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < a.hypotheses.length; i++) {
    const h = a.hypotheses[i];
    if (seen.has(h.typology_id)) return issue(["hypotheses", i, "typology_id"], "duplicate typology (one hypothesis per typology)");
    seen.add(h.typology_id);
    for (let j = 0; j < h.external_observations.length; j++) {
      const o = h.external_observations[j];
      if (o.match_type !== "exact_ioc" || o.matched_ioc_kind === "") continue;
      const values = a.detector.iocs[o.matched_ioc_kind];
      if (!values || !values.includes(o.matched_ioc_value)) {
        return issue(
          ["hypotheses", i, "external_observations", j, "matched_ioc_value"],
          `exact_ioc observation does not bind an IOC extracted from this message (detector.iocs.${o.matched_ioc_kind})`,
        );
      }
    }
    if (h.support_level === "DIRECT_LINK" && !h.external_observations.some(isDirectLinkObservation)) {
      return issue(
        ["hypotheses", i, "support_level"],
        "DIRECT_LINK requires an authoritative exact_ioc observation with direct reliability that binds an IOC of this assessment",
      );
    }
  }
  return undefined;
}
