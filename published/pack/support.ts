/** Support level and independent backers from external observations (assessment-v1 §4.6, §4.7). */
import type { ExternalObservation } from "./types.js";
import { QUALIFYING_RELIABILITIES, QUALIFYING_SOURCE_KINDS, type SupportLevel } from "./vocabulary.js";

type Obs = Pick<ExternalObservation, "source_kind" | "match_type" | "reliability" | "source_group" | "evidence_class">;

/** §4.7, computed only from the observations of one typology. */
export function supportLevel(observations: readonly Obs[]): SupportLevel {
  if (observations.some((o) => o.source_kind === "authoritative" && o.match_type === "exact_ioc" && o.reliability === "direct")) {
    return "DIRECT_LINK";
  }
  const qualifying = new Set<string>();
  for (const o of observations) {
    if (QUALIFYING_SOURCE_KINDS.has(o.source_kind) && QUALIFYING_RELIABILITIES.has(o.reliability)) qualifying.add(o.source_group);
  }
  if (qualifying.size >= 2) {
    // Classes of every observation whose group qualifies, including that group's non-qualifying rows.
    const classes = new Set(observations.filter((o) => qualifying.has(o.source_group)).map((o) => o.evidence_class));
    if (classes.size >= 2) return "CORROBORATED_LEAD";
  }
  return "TYPOLOGY_MATCH";
}

/** §4.6: distinct observation source groups, plus one for the message itself when it matched. */
export function independentBackers(observations: readonly Obs[], messageMatched: boolean): number {
  return new Set(observations.map((o) => o.source_group)).size + (messageMatched ? 1 : 0);
}
