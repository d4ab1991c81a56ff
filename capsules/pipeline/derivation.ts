/**
 * What the derive stage (derive.ts) produces, and its projections: the {@link Derivation} type, the policy version
 * that keys cached derivations, and {@link candidateView}. Kept apart from derive.ts so that readers of cached
 * derivations (a warm feed) load neither the derivation code nor the guard's tables.
 */
import type { JsonObject } from "../../src/json/value.js";
import type { Assessment } from "../assessment/types.js";
import type { CandidateView, DeriveResult } from "../candidates/types.js";
import type { PrivateValue } from "../guard/private-values.js";

/**
 * The version of the candidate rules (derive.ts, candidates/, guard/): part of the key of every cached derivation,
 * so a build whose rules differ never reads another build's rows. Raise it with any change that can change a
 * derivation (a candidate's bytes, a withheld reason, a private value).
 */
export const CANDIDATE_POLICY_VERSION = "evidence-bridge-candidate-policy/5";

/** One candidate view: the emitted candidate with its canonical bytes and digest, or why it is withheld. */
export type ViewOutcome = Extract<DeriveResult, { status: "emitted" | "withheld" }>;

export interface Derivation {
  /** The capsule's declared id (empty when the envelope has none that can be read). */
  readonly capsule_sha256: string;
  /** The digest of the pack the derivation used. */
  readonly pack_sha256: string;
  readonly outcome:
    | { readonly status: "withheld"; readonly reason: string }
    | {
        readonly status: "derived";
        /** The overall tier is CLEAN (rule 7: excluded unless the view includes CLEAN). */
        readonly clean: boolean;
        /**
         * The two views. The typology view shows every hardened hypothesis (§4.8 order), the default view the
         * non-TYPOLOGY_MATCH ones (feed policy), so all hypotheses are the typology view's when it is emitted.
         */
        readonly views: { readonly default: ViewOutcome; readonly typology: ViewOutcome };
      };
  /**
   * This capsule's private values with the pack (its literal terms are public), for notes and export lines; undefined
   * when the capsule holds no assessment that parses (then those checks fail closed).
   */
  readonly privateValues: readonly PrivateValue[] | undefined;
  /** Every inline document's private values without the pack (the guard over the whole store, stricter). */
  readonly storeValues: readonly PrivateValue[];
  /**
   * The probe (guard/probe.ts) of every value above, own and store, once computed: when the capsule is stored (its
   * forms are in the guard's cache then), or by the first command that narrows a guard (stored.ts). A note or an
   * export line whose keys it does not share can hold none of this capsule's values.
   */
  readonly probe?: Uint32Array;
}

/** An assessment the caller has just parsed from exactly these bytes (intake), so derivation need not parse it again. */
export interface KnownAssessment {
  bytes: Uint8Array;
  value: JsonObject;
  assessment: Assessment;
}

/** The projection of a derivation for one view (`--include-typology-matches`, `--include-clean`). */
export function candidateView(d: Pick<Derivation, "outcome">, view: CandidateView): DeriveResult {
  const o = d.outcome;
  if (o.status === "withheld") return { status: "withheld", reason: o.reason };
  if (o.clean && !view.includeClean) return { status: "excluded", reason: "overall tier is CLEAN (use --include-clean)" };
  return view.includeTypologyMatches ? o.views.typology : o.views.default;
}

