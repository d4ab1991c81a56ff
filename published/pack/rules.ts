/**
 * Cross-field rules of the intelligence pack (assessment-v1 §3.1) checked after the field-level shape
 * (`pack-shape.ts`): unique source and typology ids, source references that exist, `minimum_indicators` ≤ number
 * of indicators, unique indicator ids per typology, at least one non-empty clause per indicator, ≤ 256 indicators
 * in the pack, the method's support-level set. Also collects the dead-signal warnings of §3.2 P4.
 */
import { PackError } from "./errors.js";
import type { RawPack } from "./pack-shape.js";
import { KNOWN_SIGNALS, SUPPORT_LEVELS } from "./vocabulary.js";

const MAX_INDICATORS_PER_PACK = 256;

/** Throws {@link PackError} on the first violation (document order); returns P4 warnings otherwise. */
export function checkPackRules(pack: RawPack): string[] {
  const levels = new Set(pack.method.support_levels);
  if (levels.size !== SUPPORT_LEVELS.length || !SUPPORT_LEVELS.every((l) => levels.has(l))) {
    throw new PackError(
      "pack.method.support_levels",
      "support-levels",
      `the set of support levels must be exactly ${SUPPORT_LEVELS.join(", ")}`,
    );
  }

  const sourceIds = new Set<string>();
  pack.sources.forEach((s, i) => {
    if (sourceIds.has(s.id)) throw new PackError(`pack.sources[${i}].id`, "unique", `duplicate source id '${s.id}'`);
    sourceIds.add(s.id);
  });

  const typologyIds = new Set<string>();
  const warnings: string[] = [];
  let indicatorCount = 0;
  pack.typologies.forEach((t, ti) => {
    const tp = `pack.typologies[${ti}]`;
    if (typologyIds.has(t.id)) throw new PackError(`${tp}.id`, "unique", `duplicate typology id '${t.id}'`);
    typologyIds.add(t.id);
    t.source_refs.forEach((ref, ri) => {
      if (!sourceIds.has(ref)) {
        throw new PackError(`${tp}.source_refs[${ri}]`, "unknown-source", `'${ref}' is not the id of a pack source`);
      }
    });
    if (t.minimum_indicators > t.indicators.length) {
      throw new PackError(
        `${tp}.minimum_indicators`,
        "minimum-indicators",
        `${t.minimum_indicators} exceeds the number of indicators (${t.indicators.length})`,
      );
    }
    const indicatorIds = new Set<string>();
    t.indicators.forEach((ind, ii) => {
      const ip = `${tp}.indicators[${ii}]`;
      if (indicatorIds.has(ind.id)) throw new PackError(`${ip}.id`, "unique", `duplicate indicator id '${ind.id}' in this typology`);
      indicatorIds.add(ind.id);
      const clauses = [ind.any_terms, ind.all_terms, ind.any_signals, ind.all_signals];
      if (!clauses.some((c) => c !== undefined && c.length > 0)) {
        throw new PackError(ip, "empty-indicator", "an indicator needs at least one non-empty clause (any_terms, all_terms, any_signals, all_signals)");
      }
      for (const clause of ["any_signals", "all_signals"] as const) {
        (ind[clause] ?? []).forEach((name, si) => {
          if (!KNOWN_SIGNALS.has(name)) {
            warnings.push(`${ip}.${clause}[${si}]: signal '${name}' is emitted by no known producer component (dead reference, P4)`);
          }
        });
      }
    });
    indicatorCount += t.indicators.length;
    if (indicatorCount > MAX_INDICATORS_PER_PACK) {
      throw new PackError(`${tp}.indicators`, "max-indicators", `the pack has more than ${MAX_INDICATORS_PER_PACK} indicators`);
    }
  });
  return warnings;
}
