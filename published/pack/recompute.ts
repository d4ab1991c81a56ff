/**
 * Bridge-side recomputation of an assessment's hypotheses against the loaded pack, without the message text
 * (assessment-v1 §4.10 R2–R8). Everything that depends only on the pack, the signal set `S`, the IOCs and the
 * hypotheses' own external observations is recomputed exactly; term matches (which need the text) are checked for
 * plausibility: hits must be pack terms in pack order satisfying the clauses, and claimed evidence classes must be
 * explainable by indicators that could have matched below the threshold.
 *
 * Throws {@link PackError} at the first violation, naming the JSON path and the rule. Never echoes term hits,
 * IOC values or observation text.
 */
import { PackError, unknownFieldError } from "./errors.js";
import { describeDifference, firstDifference } from "./first-difference.js";
import { compareHypotheses, sortedUnique, typologySources } from "./hypotheses.js";
import { matchSignalOnlyIndicator, meetsThreshold, signalClausesHold, signalHits } from "./match.js";
import { checkObservationBinding, checkObservationTypology, validateObservation } from "./observations.js";
import { independentBackers, supportLevel } from "./support.js";
import type { ExternalObservation, Hypothesis, IntelligencePack, IocSet, MatchedIndicator, PackIndicator, PackTypology } from "./types.js";
import { SPECIFICITY_RANK, SUPPORT_LEVELS, type Specificity } from "./vocabulary.js";
import { isRecord } from "../../src/json/value.js";

const HYPOTHESIS_FIELDS = [
  "typology_id",
  "dimension",
  "label",
  "support_level",
  "matched_indicators",
  "external_observations",
  "independent_backers",
  "evidence_classes",
  "typology_sources",
  "limitations",
] as const;

const INDICATOR_FIELDS = ["id", "label", "evidence_class", "specificity", "term_hits", "signal_hits"] as const;

function expectRecord(v: unknown, path: string, fields: readonly string[]): Record<string, unknown> {
  if (!isRecord(v)) throw new PackError(path, "type", "expected an object");
  for (const key of Object.keys(v)) if (!fields.includes(key)) throw unknownFieldError(path, key);
  for (const key of fields) if (!(key in v)) throw new PackError(`${path}.${key}`, "missing-field", "required field is missing");
  return v;
}

function expectStringArray(v: unknown, path: string): string[] {
  if (!Array.isArray(v)) throw new PackError(path, "type", "expected an array");
  v.forEach((x, i) => {
    if (typeof x !== "string") throw new PackError(`${path}[${i}]`, "type", "expected a string");
  });
  return v as string[];
}

function requireEqual(actual: unknown, expected: unknown, path: string, rule: string, what: string): void {
  const d = firstDifference(actual, expected, path);
  if (d) throw new PackError(d.path, rule, `${describeDifference(d.kind)}: ${what}`);
}

/** Signal-only indicators of a typology that match over `S` (exactly known without the message). */
export function signalOnlyMatches(typology: PackTypology, signals: ReadonlySet<string>): MatchedIndicator[] {
  return typology.indicators.map((ind) => matchSignalOnlyIndicator(ind, signals)).filter((m): m is MatchedIndicator => m !== undefined);
}

/** R3: one claimed matched indicator; returns its pack index. */
function checkMatchedIndicator(
  typology: PackTypology,
  raw: unknown,
  path: string,
  signals: ReadonlySet<string>,
  afterIndex: number,
): number {
  const m = expectRecord(raw, path, INDICATOR_FIELDS);
  const index = typology.indicators.findIndex((ind) => ind.id === m.id);
  if (index === -1) throw new PackError(`${path}.id`, "R3", `not an indicator of typology '${typology.id}'`);
  if (index <= afterIndex) throw new PackError(`${path}.id`, "R3", "matched indicators must be unique and in pack order");
  const ind = typology.indicators[index];
  for (const key of ["label", "evidence_class", "specificity"] as const) {
    if (m[key] !== ind[key]) throw new PackError(`${path}.${key}`, "R3", `differs from indicator '${ind.id}' of the pack`);
  }
  checkTermHits(ind, expectStringArray(m.term_hits, `${path}.term_hits`), `${path}.term_hits`);
  const signalHitList = expectStringArray(m.signal_hits, `${path}.signal_hits`);
  if (!signalClausesHold(ind, signals)) {
    throw new PackError(path, "R3", `the signal clauses of indicator '${ind.id}' do not hold over the assessment's signals`);
  }
  requireEqual(signalHitList, signalHits(ind, signals), `${path}.signal_hits`, "R3", "must be exactly the indicator's clause signals present in the assessment (any-clause first)");
  return index;
}

/** R3 term hits: unique pack terms, `anyT` then `allT` in pack order, satisfying both term clauses. */
function checkTermHits(ind: PackIndicator, hits: readonly string[], path: string): void {
  const hitSet = new Set(hits);
  if (hitSet.size !== hits.length) throw new PackError(path, "R3", "term hits must be unique");
  hits.forEach((h, i) => {
    if (!ind.any_terms.includes(h) && !ind.all_terms.includes(h)) {
      throw new PackError(`${path}[${i}]`, "R3", `not a term of indicator '${ind.id}'`);
    }
  });
  if (ind.any_terms.length > 0 && !ind.any_terms.some((t) => hitSet.has(t))) {
    throw new PackError(path, "R3", `must contain at least one any_terms entry of indicator '${ind.id}'`);
  }
  if (!ind.all_terms.every((t) => hitSet.has(t))) {
    throw new PackError(path, "R3", `must contain every all_terms entry of indicator '${ind.id}'`);
  }
  const ordered = [...new Set([...ind.any_terms.filter((t) => hitSet.has(t)), ...ind.all_terms])];
  requireEqual(hits, ordered, path, "R3", "term hits must list any_terms hits then all_terms hits, in pack order");
}

/**
 * R7 for a hypothesis without a message match: the classes beyond the observations' must be explained by a set of
 * indicators that could have matched while staying below the threshold (§4.6 quirk: sub-threshold classes count).
 */
function checkSubThresholdClasses(
  typology: PackTypology,
  claimed: readonly string[],
  observations: readonly ExternalObservation[],
  signals: ReadonlySet<string>,
  path: string,
): void {
  const sure = signalOnlyMatches(typology, signals);
  const required = sortedUnique([...observations.map((o) => o.evidence_class), ...sure.map((m) => m.evidence_class)]);
  const claimedSet = new Set(claimed);
  for (const c of required) {
    if (!claimedSet.has(c)) {
      throw new PackError(path, "R7", "must include the class of every external observation and of every signal-only indicator matching the assessment's signals");
    }
  }
  const explained = new Set(required);
  const specificities: Specificity[] = sure.map((m) => m.specificity);
  for (const c of claimed) {
    if (explained.has(c)) continue;
    // Candidates: term indicators of this class whose signal clauses hold over S.
    const candidates = typology.indicators.filter(
      (ind) => ind.evidence_class === c && (ind.any_terms.length > 0 || ind.all_terms.length > 0) && signalClausesHold(ind, signals),
    );
    if (candidates.length === 0) {
      throw new PackError(path, "R7", `an extra class must belong to an indicator of typology '${typology.id}' that could have matched`);
    }
    const weakest = candidates.reduce((a, b) => (SPECIFICITY_RANK[b.specificity] < SPECIFICITY_RANK[a.specificity] ? b : a));
    specificities.push(weakest.specificity);
  }
  if (meetsThreshold(typology, specificities)) {
    throw new PackError(path, "R4", "these classes imply a message match, but matched_indicators is empty");
  }
}

/** R2–R7 for one hypothesis. */
function checkHypothesis(
  pack: IntelligencePack,
  raw: unknown,
  path: string,
  signals: ReadonlySet<string>,
  iocs: IocSet,
): Hypothesis {
  const h = expectRecord(raw, path, HYPOTHESIS_FIELDS);
  const typology = typeof h.typology_id === "string" ? pack.typologyById.get(h.typology_id) : undefined;
  if (typology === undefined) throw new PackError(`${path}.typology_id`, "R2", "not a typology of the loaded pack");
  if (h.dimension !== typology.dimension) throw new PackError(`${path}.dimension`, "R2", `differs from the pack's dimension of '${typology.id}'`);
  if (h.label !== typology.label) throw new PackError(`${path}.label`, "R2", `differs from the pack's label of '${typology.id}'`);
  requireEqual(h.limitations, [...typology.limitations], `${path}.limitations`, "R2", `must equal the pack's limitations of '${typology.id}'`);
  requireEqual(h.typology_sources, typologySources(pack, typology), `${path}.typology_sources`, "R2", `must equal the pack sources of '${typology.id}'`);

  // R5: observations valid, filed under this typology, bound to the assessment's IOCs.
  if (!Array.isArray(h.external_observations)) throw new PackError(`${path}.external_observations`, "type", "expected an array");
  const observations = h.external_observations.map((o, j) => {
    const op = `${path}.external_observations[${j}]`;
    validateObservation(o, op);
    checkObservationTypology(pack, o, op);
    if (o.typology_id !== typology.id) throw new PackError(`${op}.typology_id`, "R5", "an observation must be filed under the hypothesis of its typology");
    checkObservationBinding(o, iocs, op);
    return o;
  });

  // R3, R4: matched indicators.
  if (!Array.isArray(h.matched_indicators)) throw new PackError(`${path}.matched_indicators`, "type", "expected an array");
  const matched = h.matched_indicators as unknown[];
  let last = -1;
  const indices = matched.map((m, k) => (last = checkMatchedIndicator(typology, m, `${path}.matched_indicators[${k}]`, signals, last)));
  const messageMatch = matched.length > 0;
  if (messageMatch) {
    const present = new Set(indices.map((i) => typology.indicators[i].id));
    for (const sure of signalOnlyMatches(typology, signals)) {
      if (!present.has(sure.id)) {
        throw new PackError(`${path}.matched_indicators`, "R3", `indicator '${sure.id}' matches the assessment's signals but is missing`);
      }
    }
    if (!meetsThreshold(typology, indices.map((i) => typology.indicators[i].specificity))) {
      throw new PackError(`${path}.matched_indicators`, "R4", `do not reach the threshold of '${typology.id}' (§4.4)`);
    }
  } else if (observations.length === 0) {
    throw new PackError(`${path}.matched_indicators`, "R4", "a hypothesis needs a message match or an external observation (§4.6)");
  }

  // R6: support level and backers from the hypothesis' own observations.
  if (!(SUPPORT_LEVELS as readonly unknown[]).includes(h.support_level)) throw new PackError(`${path}.support_level`, "enum", `must be one of ${SUPPORT_LEVELS.join(", ")}`);
  const level = supportLevel(observations);
  if (h.support_level !== level) {
    throw new PackError(
      `${path}.support_level`,
      "R6",
      `claims ${h.support_level as string} but the pack rules over its ${observations.length} external observation(s) give ${level}`,
    );
  }
  const backers = independentBackers(observations, messageMatch);
  if (h.independent_backers !== backers) {
    throw new PackError(`${path}.independent_backers`, "R6", `must be ${backers} (distinct observation groups plus the message when it matched)`);
  }

  // R7: evidence classes.
  const classes = expectStringArray(h.evidence_classes, `${path}.evidence_classes`);
  requireEqual(classes, sortedUnique(classes), `${path}.evidence_classes`, "R7", "must be sorted and unique");
  if (messageMatch) {
    const expected = sortedUnique([
      ...indices.map((i) => typology.indicators[i].evidence_class),
      ...observations.map((o) => o.evidence_class),
    ]);
    requireEqual(classes, expected, `${path}.evidence_classes`, "R7", "must be exactly the classes of the matched indicators and the observations");
  } else {
    checkSubThresholdClasses(typology, classes, observations, signals, `${path}.evidence_classes`);
  }
  return h as unknown as Hypothesis;
}

/**
 * R2–R8 over an assessment's hypotheses: each one recomputed against the pack, `S` and its own observations; no
 * typology twice; §4.8 order; and every typology whose signal-only indicators already reach the threshold over `S`
 * has a hypothesis. `path` is the JSON path of the hypotheses array.
 */
export function recomputeHypotheses(
  pack: IntelligencePack,
  hypotheses: unknown,
  signals: ReadonlySet<string>,
  iocs: IocSet,
  path: string,
): Hypothesis[] {
  if (!Array.isArray(hypotheses)) throw new PackError(path, "type", "expected an array");
  const seen = new Set<string>();
  const checked = hypotheses.map((raw, i) => {
    const h = checkHypothesis(pack, raw, `${path}[${i}]`, signals, iocs);
    if (seen.has(h.typology_id)) throw new PackError(`${path}[${i}].typology_id`, "R8", `typology '${h.typology_id}' appears twice`);
    seen.add(h.typology_id);
    return h;
  });
  for (let i = 1; i < checked.length; i++) {
    if (compareHypotheses(checked[i - 1], checked[i]) > 0) {
      throw new PackError(`${path}[${i}]`, "R8", "hypotheses are not in §4.8 order (support, backers, dimension, typology id)");
    }
  }
  for (const typology of pack.typologies) {
    if (seen.has(typology.id)) continue;
    const sure = signalOnlyMatches(typology, signals);
    if (meetsThreshold(typology, sure.map((m) => m.specificity))) {
      throw new PackError(path, "R4", `typology '${typology.id}' matches over the assessment's signals (§4.4) but has no hypothesis`);
    }
  }
  return checked;
}
