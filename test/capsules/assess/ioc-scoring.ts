/**
 * Scoring of the IOC extraction against labelled messages: per kind, true positives (a value found that the labels
 * name, by exact string equality), false positives (found, not named) and false negatives (named, not found), and
 * the precision and recall they give. Used by the corpus test on our own corpus and on the reference examples.
 */
import { IOC_KINDS, type IocKind } from "../../../published/pack/vocabulary.js";

export interface Labelled {
  id: string;
  text: string;
  iocs: Partial<Record<IocKind, string[]>>;
}

export interface Tally {
  tp: number;
  fp: number;
  fn: number;
}

export interface Miss {
  id: string;
  kind: IocKind;
  /** `fp`: found but not labelled; `fn`: labelled but not found. */
  what: "fp" | "fn";
  value: string;
}

export interface Score {
  perKind: Record<IocKind, Tally>;
  overall: Tally;
  misses: Miss[];
}

export function score(messages: readonly Labelled[], extract: (m: Labelled) => Partial<Record<IocKind, readonly string[]>>): Score {
  const perKind = Object.fromEntries(IOC_KINDS.map((k) => [k, { tp: 0, fp: 0, fn: 0 }])) as Record<IocKind, Tally>;
  const misses: Miss[] = [];
  for (const m of messages) {
    const got = extract(m);
    for (const kind of IOC_KINDS) {
      const want = new Set(m.iocs[kind] ?? []);
      const found = new Set(got[kind] ?? []);
      for (const v of found) {
        if (want.has(v)) perKind[kind].tp++;
        else {
          perKind[kind].fp++;
          misses.push({ id: m.id, kind, what: "fp", value: v });
        }
      }
      for (const v of want) {
        if (found.has(v)) continue;
        perKind[kind].fn++;
        misses.push({ id: m.id, kind, what: "fn", value: v });
      }
    }
  }
  const overall = { tp: 0, fp: 0, fn: 0 };
  for (const t of Object.values(perKind)) {
    overall.tp += t.tp;
    overall.fp += t.fp;
    overall.fn += t.fn;
  }
  return { perKind, overall, misses };
}

/** Precision of a tally; 1 when nothing was found (no false alarm). */
export const precision = (t: Tally): number => (t.tp + t.fp === 0 ? 1 : t.tp / (t.tp + t.fp));
/** Recall of a tally; 1 when nothing was labelled. */
export const recall = (t: Tally): number => (t.tp + t.fn === 0 ? 1 : t.tp / (t.tp + t.fn));

/** The table the corpus test prints: one row per kind and one overall, counts and the two rates. */
export function scoreTable(title: string, s: Score): string {
  const row = (name: string, t: Tally) =>
    `${name.padEnd(9)} ${String(t.tp).padStart(4)} ${String(t.fp).padStart(4)} ${String(t.fn).padStart(4)}   ${precision(t).toFixed(3)}  ${recall(t).toFixed(3)}`;
  return [
    title,
    `${"kind".padEnd(9)} ${"tp".padStart(4)} ${"fp".padStart(4)} ${"fn".padStart(4)}   prec.  recall`,
    ...IOC_KINDS.map((k) => row(k, s.perKind[k])),
    row("overall", s.overall),
  ].join("\n");
}
