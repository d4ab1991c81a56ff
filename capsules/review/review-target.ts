/**
 * A stored capsule as the object of a review: its candidate in a given view, and (on demand) the outward guard
 * over the private values of its assessment, both projections of the capsule's one derivation
 * (capsules/pipeline/stored.ts: the sealed cache, or one derivation in this command). Notes and export lines are
 * checked against it and against the guard over the whole store (capsules/guard). Plaintext stays in memory.
 */
import type { CandidateView, DeriveResult } from "../candidates/types.js";
import { OutwardGuard, type CheckOptions, type OutwardTexts } from "../guard/outward-guard.js";
import type { StoredDerivations } from "../pipeline/stored.js";

export interface ReviewTarget {
  capsule_sha256: string;
  result: DeriveResult;
  /**
   * The guard over the assessment's private values, narrowed to what may occur in `outward` (checked with `opts`):
   * through the capsule's probe, so a note or a line that shares no key with its values costs no value's forms.
   * Undefined when the capsule holds no readable assessment. `outward` may be {@link OutwardTexts} of several
   * outward values (made once for all the decisions of an export): the guard then holds what may occur in any.
   */
  secretsFor(outward: unknown, opts?: CheckOptions): OutwardGuard | undefined;
}

/** Stored capsule `id` (a full id) with its candidate in `view`. Store failures throw. */
export function openReviewTarget(derivations: StoredDerivations, id: string, view: CandidateView): ReviewTarget {
  const result = derivations.candidate(id, view);
  return {
    capsule_sha256: id,
    result,
    secretsFor(outward, opts = {}) {
      const v = derivations.probedValues(id);
      // The probe covers own and store values together: a superset, so it never passes over an own value.
      return v.privateValues === undefined ? undefined : OutwardGuard.narrowed([{ values: v.privateValues, probe: v.probe }], outward, opts);
    },
  };
}

/**
 * The guard's verdict on an outward object (a note, an export line): undefined when clean, else the reason (kinds
 * and paths only). Checked against this capsule's values (with the pack: its literal terms are public) and, when
 * given, against the guard over every capsule of the store. Fails closed when the capsule's values cannot be read.
 * `among`: the prepared texts of a set of outward values that holds `value`, collected with the same `opts`
 * (see {@link ReviewTarget.secretsFor}).
 */
export function guardOutward(target: ReviewTarget, value: unknown, what: string, store?: OutwardGuard, opts: CheckOptions = {}, among?: OutwardTexts): string | undefined {
  const secrets = target.secretsFor(among ?? value, opts);
  if (secrets === undefined) return `leak guard: the capsule's assessment cannot be read, so ${what} cannot be checked`;
  for (const guard of store === undefined ? [secrets] : [secrets, store]) {
    const verdict = guard.check(value, what, opts);
    if (!verdict.ok) return verdict.reason;
  }
  return undefined;
}
