/**
 * The outward candidate of one capsule in the sealed store: open (authenticate, check the id against the
 * recomputed content digest), then derive from the envelope the store parsed (`deriveLoadedCandidate`: no second
 * parse or conversion) with that recomputed digest, so the content is not hashed twice. The plaintext capsule
 * lives only in memory, for the duration of the call.
 */
import { deriveLoadedCandidate } from "../candidates/derive.js";
import type { DeriveOptions, DeriveResult } from "../candidates/types.js";
import type { CapsuleOpener } from "../store/open-capsule.js";
import type { IntelligencePack } from "../../published/pack/types.js";

export type CandidateView = Pick<DeriveOptions, "includeTypologyMatches" | "includeClean">;

/**
 * Derives the candidate of stored capsule `id`. Store failures (missing, unauthenticated or mismatching sealed
 * file) throw the store's error; a capsule that yields no candidate is an `excluded` or `withheld` result.
 */
export function deriveStoredCandidate(store: CapsuleOpener, id: string, pack: IntelligencePack, view: CandidateView): DeriveResult {
  const { envelope } = store.openCapsule(id);
  return deriveLoadedCandidate(envelope, pack, {
    includeTypologyMatches: view.includeTypologyMatches,
    includeClean: view.includeClean,
    recomputedContentSha256: id,
  });
}
