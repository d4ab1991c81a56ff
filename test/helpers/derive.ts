/**
 * Tests' shorthand for the derive stage: the candidate of one capsule in one view, as the projection of its one
 * derivation (capsules/pipeline/derive.ts). Inputs other than bytes (an envelope in the value model or plain JS,
 * as tests build them) are serialised first, since the pipeline takes capsule bytes or the store's opened value.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import type { CandidateView, DeriveResult } from "../../capsules/candidates/types.js";
import { candidateView, deriveCapsule } from "../../capsules/pipeline/derive.js";
import type { IntelligencePack } from "../../published/pack/types.js";

export function asCapsuleBytes(capsule: unknown): Uint8Array {
  return capsule instanceof Uint8Array ? capsule : canonicalBytes(capsule, "capsule");
}

export function deriveCandidate(capsule: unknown, pack: IntelligencePack, view: CandidateView): DeriveResult {
  return candidateView(deriveCapsule(asCapsuleBytes(capsule), pack), view);
}
