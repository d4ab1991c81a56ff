/**
 * Recomputability stage (capsule-v1 §8.5): each `json-pointer-equals-v1` proof is re-run over the strictly parsed
 * bytes of its verified input artifact; `declared-nonrecomputable-v1` is an honest negative, never a failure.
 */
import { JsonLoadError } from "../../src/json/parse.js";
import { echoValue } from "./fields.js";
import type { Derivation } from "./model.js";
import { PointerError, resolvePointer, strictJsonEquals } from "./pointer.js";
import type { RecomputeItem, VerificationReport } from "./report.js";
import type { ResolvedArtifacts } from "./resolved.js";

export function recomputeDerivation(d: Derivation, resolved: ResolvedArtifacts): RecomputeItem {
  const proof = d.proof;
  if (proof.type === "declared-nonrecomputable-v1") {
    return { id: d.id, status: "not_recomputable", problems: [], reason: proof.reason };
  }
  const failed = (problem: string): RecomputeItem => ({ id: d.id, status: "failed", problems: [problem] });
  if (!resolved.has(proof.artifactRef)) return failed(`input artifact ${echoValue(proof.artifactRef)} did not verify`);
  let value;
  try {
    value = resolvePointer(resolved.json(proof.artifactRef), proof.pointer);
  } catch (e) {
    if (e instanceof JsonLoadError || e instanceof PointerError) return failed(e.message);
    throw e;
  }
  if (!strictJsonEquals(value, proof.expected)) return failed("JSON pointer value does not equal expected value");
  return { id: d.id, status: "verified", problems: [] };
}

export function recomputabilitySection(
  derivations: Derivation[],
  resolved: ResolvedArtifacts,
): VerificationReport["recomputability"] {
  const items = derivations.map((d) => recomputeDerivation(d, resolved));
  const has = (s: RecomputeItem["status"]) => items.some((x) => x.status === s);
  const status =
    items.length === 0
      ? "not_applicable"
      : has("failed")
        ? "failed"
        : !has("not_recomputable")
          ? "verified"
          : !has("verified")
            ? "not_recomputable"
            : "partial";
  return { status, items };
}
