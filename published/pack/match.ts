/**
 * Message-level typology matching (assessment-v1 §4.2–§4.4): indicator clauses over the match form of the message
 * and the signal set, typology thresholds, and `matchMessage` for message-only hypotheses.
 */
import { containsTerm } from "./contains.js";
import { PackError } from "./errors.js";
import { buildHypotheses } from "./hypotheses.js";
import { matchForm } from "./normalize.js";
import type { Hypothesis, IntelligencePack, MatchedIndicator, PackIndicator, PackTypology } from "./types.js";
import { IDENTIFIER_LOWER, SPECIFICITY_RANK, type Specificity } from "./vocabulary.js";

/** The outcome of §4.3/§4.4 for one typology. */
export interface TypologyEvaluation {
  typology: PackTypology;
  /** `M(τ)`: every matched indicator in pack order, also when the threshold is not reached. */
  matched: MatchedIndicator[];
  /** §4.4 message match. */
  messageMatch: boolean;
}

interface TermForms {
  any: readonly string[];
  all: readonly string[];
}

/** Match forms of pack terms, computed once per loaded pack. */
const termFormCache = new WeakMap<PackIndicator, TermForms>();

function termForms(ind: PackIndicator): TermForms {
  let forms = termFormCache.get(ind);
  if (forms === undefined) {
    forms = { any: ind.any_terms.map(matchForm), all: ind.all_terms.map(matchForm) };
    termFormCache.set(ind, forms);
  }
  return forms;
}

function dedupe(items: readonly string[]): string[] {
  return [...new Set(items)];
}

/** `anyS` then `allS`: the indicator's clause signals present in `S`, any-clause first, without duplicates. */
export function signalHits(ind: PackIndicator, signals: ReadonlySet<string>): string[] {
  return dedupe([...ind.any_signals.filter((s) => signals.has(s)), ...ind.all_signals.filter((s) => signals.has(s))]);
}

/** True when both signal clauses (where non-empty) hold over `S`. */
export function signalClausesHold(ind: PackIndicator, signals: ReadonlySet<string>): boolean {
  if (ind.any_signals.length > 0 && !ind.any_signals.some((s) => signals.has(s))) return false;
  if (ind.all_signals.length > 0 && !ind.all_signals.every((s) => signals.has(s))) return false;
  return true;
}

/** True when the indicator has no term clause (its match depends on `S` only). */
export function isSignalOnly(ind: PackIndicator): boolean {
  return ind.any_terms.length === 0 && ind.all_terms.length === 0;
}

function matchedIndicator(ind: PackIndicator, termHits: string[], signals: ReadonlySet<string>): MatchedIndicator {
  return {
    id: ind.id,
    label: ind.label,
    evidence_class: ind.evidence_class,
    specificity: ind.specificity,
    term_hits: termHits,
    signal_hits: signalHits(ind, signals),
  };
}

/** §4.3 for one indicator over `H = F(T)` and `S`; undefined when it does not match. */
export function matchIndicator(ind: PackIndicator, haystack: string, signals: ReadonlySet<string>): MatchedIndicator | undefined {
  const forms = termForms(ind);
  const anyT = ind.any_terms.filter((_, i) => containsTerm(haystack, forms.any[i]));
  if (ind.any_terms.length > 0 && anyT.length === 0) return undefined;
  const allT = ind.all_terms.filter((_, i) => containsTerm(haystack, forms.all[i]));
  if (allT.length !== ind.all_terms.length) return undefined;
  if (!signalClausesHold(ind, signals)) return undefined;
  return matchedIndicator(ind, dedupe([...anyT, ...allT]), signals);
}

/** §4.3 for a signal-only indicator (no message needed); undefined when it does not match or has term clauses. */
export function matchSignalOnlyIndicator(ind: PackIndicator, signals: ReadonlySet<string>): MatchedIndicator | undefined {
  if (!isSignalOnly(ind) || !signalClausesHold(ind, signals)) return undefined;
  return matchedIndicator(ind, [], signals);
}

/** §4.4: enough indicators, and the strongest one reaches the typology's minimum specificity. */
export function meetsThreshold(typology: PackTypology, specificities: readonly Specificity[]): boolean {
  if (specificities.length < typology.minimum_indicators) return false;
  const best = Math.max(0, ...specificities.map((s) => SPECIFICITY_RANK[s]));
  return best >= SPECIFICITY_RANK[typology.minimum_specificity];
}

/** §4.3–§4.4 for one typology. */
export function evaluateTypology(typology: PackTypology, haystack: string, signals: ReadonlySet<string>): TypologyEvaluation {
  const matched: MatchedIndicator[] = [];
  for (const ind of typology.indicators) {
    const m = matchIndicator(ind, haystack, signals);
    if (m !== undefined) matched.push(m);
  }
  return { typology, matched, messageMatch: meetsThreshold(typology, matched.map((m) => m.specificity)) };
}

/** §4.3–§4.4 for every typology of the pack, in pack order. */
export function evaluateMessage(pack: IntelligencePack, text: string, signals: ReadonlySet<string>): TypologyEvaluation[] {
  const haystack = matchForm(text);
  return pack.typologies.map((t) => evaluateTypology(t, haystack, signals));
}

/**
 * The signal set `S` from names: every name must be an identifier (lower) (§4); duplicates collapse.
 * `path` names the list in errors.
 */
export function signalSet(names: Iterable<string>, path = "signals"): Set<string> {
  const out = new Set<string>();
  let i = 0;
  for (const name of names) {
    if (typeof name !== "string" || !IDENTIFIER_LOWER.test(name)) {
      throw new PackError(`${path}[${i}]`, "identifier", "a signal name must match ^[a-z][a-z0-9._-]{0,127}$");
    }
    out.add(name);
    i++;
  }
  return out;
}

/** Message-level hypotheses (§4.6 with no external observations), in §4.8 order. */
export function matchMessage(pack: IntelligencePack, text: string, signals: Iterable<string>): Hypothesis[] {
  return buildHypotheses(pack, evaluateMessage(pack, text, signalSet(signals)), []);
}
