/**
 * Claims stage (capsule-v1 §8.8): per claim, whether every referenced artifact, derivation and binding passed.
 * Free-text truth is never evaluated.
 */
import { echoValue } from "./fields.js";
import type { Claim } from "./model.js";
import { CLAIMS_MEANING, type ClaimItem, type StageSections, type VerificationReport } from "./report.js";

type Done = Pick<StageSections, "artifacts" | "recomputability" | "ledger" | "anchor">;

export function claimsSection(claims: Claim[], done: Done): VerificationReport["claims"] {
  const statusById = <T extends { id: string; status: string }>(items: T[]) => new Map(items.map((x) => [x.id, x.status]));
  const artifacts = statusById(done.artifacts.items);
  const derivations = statusById(done.recomputability.items);
  const ledger = statusById(done.ledger.items);
  const anchor = statusById(done.anchor.items);
  const items = claims.map((claim): ClaimItem => {
    const problems: string[] = [];
    let partial = false;
    for (const ref of claim.artifactRefs) {
      if (artifacts.get(ref) !== "verified") problems.push(`artifact ${echoValue(ref)} did not verify`);
    }
    for (const ref of claim.derivationRefs) {
      const status = derivations.get(ref);
      if (status === "not_recomputable") partial = true;
      else if (status !== "verified") problems.push(`derivation ${echoValue(ref)} did not verify`);
    }
    for (const ref of claim.bindingRefs) {
      if (ledger.get(ref) !== "entry_membership_verified") problems.push(`binding ${echoValue(ref)} entry/membership did not verify`);
      if (anchor.get(ref) !== "envelope_bound") problems.push(`binding ${echoValue(ref)} anchor envelope did not bind`);
    }
    return {
      id: claim.id,
      status: problems.length > 0 ? "failed" : partial ? "references_partially_recomputable" : "references_verified",
      artifact_refs: [...claim.artifactRefs],
      derivation_refs: [...claim.derivationRefs],
      binding_refs: [...claim.bindingRefs],
      natural_language_truth: "not_evaluated",
      problems,
    };
  });
  const status = items.some((x) => x.status === "failed")
    ? "failed"
    : items.some((x) => x.status === "references_partially_recomputable")
      ? "references_partially_recomputable"
      : "references_verified";
  return { status, items, meaning: CLAIMS_MEANING };
}
