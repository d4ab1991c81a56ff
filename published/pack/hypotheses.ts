/** Hypothesis construction and ordering (assessment-v1 §4.6, §4.8). */
import { compareCodePoints } from "../../src/json/value.js";
import type { TypologyEvaluation } from "./match.js";
import { independentBackers, supportLevel } from "./support.js";
import type { ExternalObservation, Hypothesis, IntelligencePack, PackTypology, TypologySource } from "./types.js";
import { SUPPORT_RANK } from "./vocabulary.js";

/** Sorted (by code point) unique strings. */
export function sortedUnique(items: Iterable<string>): string[] {
  return [...new Set(items)].sort(compareCodePoints);
}

/** The pack sources of a typology's `source_refs`, in order, as hypothesis entries. */
export function typologySources(pack: IntelligencePack, typology: PackTypology): TypologySource[] {
  return typology.source_refs.map((ref) => {
    const s = pack.sourceById.get(ref);
    if (s === undefined) throw new Error(`pack invariant: unknown source ${ref}`);
    return { id: s.id, publisher: s.publisher, title: s.title, published_at: s.published_at, url: s.url };
  });
}

function copyObservation(o: ExternalObservation): ExternalObservation {
  return {
    typology_id: o.typology_id,
    evidence_class: o.evidence_class,
    source_id: o.source_id,
    source_group: o.source_group,
    source_kind: o.source_kind,
    match_type: o.match_type,
    summary: o.summary,
    reliability: o.reliability,
    artifact_uri: o.artifact_uri,
    observed_at: o.observed_at,
    matched_ioc_kind: o.matched_ioc_kind,
    matched_ioc_value: o.matched_ioc_value,
  };
}

/** §4.8 comparator: support rank desc, backers desc, dimension asc, typology id asc. */
export function compareHypotheses(
  a: Pick<Hypothesis, "support_level" | "independent_backers" | "dimension" | "typology_id">,
  b: Pick<Hypothesis, "support_level" | "independent_backers" | "dimension" | "typology_id">,
): number {
  return (
    SUPPORT_RANK[b.support_level] - SUPPORT_RANK[a.support_level] ||
    b.independent_backers - a.independent_backers ||
    compareCodePoints(a.dimension, b.dimension) ||
    compareCodePoints(a.typology_id, b.typology_id)
  );
}

/**
 * §4.6: one hypothesis per typology (pack order) that matched the message or has observations, then §4.8 order.
 * `observations` must already be validated and bound (§4.5).
 */
export function buildHypotheses(
  pack: IntelligencePack,
  evaluations: readonly TypologyEvaluation[],
  observations: readonly ExternalObservation[],
): Hypothesis[] {
  const out: Hypothesis[] = [];
  for (const { typology, matched, messageMatch } of evaluations) {
    const obs = observations.filter((o) => o.typology_id === typology.id);
    if (!messageMatch && obs.length === 0) continue;
    out.push({
      typology_id: typology.id,
      dimension: typology.dimension,
      label: typology.label,
      support_level: supportLevel(obs),
      matched_indicators: messageMatch ? matched : [],
      external_observations: obs.map(copyObservation),
      independent_backers: independentBackers(obs, messageMatch),
      // Classes of every matched indicator, even below the threshold (a reference quirk parity requires).
      evidence_classes: sortedUnique([...matched.map((m) => m.evidence_class), ...obs.map((o) => o.evidence_class)]),
      typology_sources: typologySources(pack, typology),
      limitations: [...typology.limitations],
    });
  }
  return out.sort(compareHypotheses);
}
