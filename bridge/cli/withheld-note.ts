/**
 * The stderr line `capsule build` and `capsule assess` add when the capsule they have just sealed has no outward
 * candidate because the candidate is withheld (docs/candidates.md): the capsule is kept, but it will not reach the
 * review queue, and without this line the user would only learn it from a later `feed`. The reason names the guard's
 * rule and the path of the field, never a value.
 */
import { candidateView, type Derivation } from "../../capsules/pipeline/derivation.js";

export function withheldNote(made: ReadonlyMap<string, Derivation>, capsuleId: string): string | undefined {
  const d = made.get(capsuleId);
  if (d === undefined) return undefined;
  const view = candidateView(d, { includeTypologyMatches: false, includeClean: false });
  if (view.status !== "withheld") return undefined;
  return `evidence-bridge: capsule ${capsuleId} is sealed, but its outward candidate is withheld (${view.reason}), so it will not reach review (a private value that is also a word of the candidate's public fields does this; docs/candidates.md "Withheld")\n`;
}
