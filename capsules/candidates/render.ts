/**
 * Rendering of the non-hypothesis parts of a candidate (product.md §8 rules 1 and 4; assessment-v1 §7.1): only
 * closed-vocabulary values, counts and fixed sentences; nothing free-form is copied.
 */
import { ASSESSMENT_LIMITATIONS } from "../../published/pack/templates.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import type { Collection, Iocs } from "../assessment/types.js";
import { pseudonymAllowed } from "../guard/private-values.js";
import type { Candidate } from "./types.js";

/** The reference caps each IOC count at this value (§7.1). */
export const IOC_COUNT_CAP = 10_000;

const HEX24 = /^[0-9a-f]{24}$/;

/**
 * Rule 4: `source_pseudonym` only for `public_channel` + `public` (and only in its 24-hex form); the other members
 * are closed vocabularies.
 */
export function renderCollection(c: Collection): Candidate["collection"] {
  const out: Candidate["collection"] = { surface: c.surface, authorization: c.authorization, script_hints: [...c.script_hints] };
  if (pseudonymAllowed({ collection: c }) && HEX24.test(c.source_pseudonym)) out.source_pseudonym = c.source_pseudonym;
  return out;
}

/** Counts per kind only: all six kinds when the assessment carries IOCs, `{}` otherwise. */
export function renderIocCounts(iocs: Iocs): Candidate["ioc_counts"] {
  if (Object.keys(iocs).length === 0) return {};
  const out: Partial<Record<IocKind, number>> = {};
  for (const kind of IOC_KINDS) out[kind] = Math.min(iocs[kind]?.length ?? 0, IOC_COUNT_CAP);
  return out;
}

/**
 * Rule 1: each limitation is one of the fixed sentences of §2.9, re-emitted from our own constant; any other
 * string is dropped, as are repeats. Assessment order is kept.
 */
export function renderLimitations(limitations: readonly string[]): string[] {
  const out: string[] = [];
  for (const l of limitations) {
    const known = ASSESSMENT_LIMITATIONS.find((k) => k === l);
    if (known !== undefined && !out.includes(known)) out.push(known);
  }
  return out;
}
