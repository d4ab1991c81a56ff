/**
 * `palimpsest-merkle-duplicate-last-v1` (capsule-v1 §8.6.1): leaves are entry-hash hex strings, a parent is the
 * SHA-256 of the two children's lowercase hex concatenated as ASCII, and an odd-width level duplicates its last node.
 */
import { sha256Hex } from "../../src/hash.js";
import type { InclusionProof } from "./model.js";

export class MerkleError extends Error {
  override readonly name = "MerkleError";
}

/** Parent of two hex nodes. */
export function merkleParent(left: string, right: string): string {
  return sha256Hex(left + right);
}

/** Folds an inclusion proof to its root and checks it; throws {@link MerkleError} on the first failure. */
export function foldInclusionProof(proof: InclusionProof): void {
  let width = proof.nEntries;
  if (proof.seq < 0 || proof.seq >= width) throw new MerkleError("inclusion proof seq is outside its claimed prefix");
  let idx = proof.seq;
  let cur = proof.entryHash;
  let k = 0;
  while (width > 1) {
    if (k >= proof.path.length) throw new MerkleError("inclusion proof path is too short");
    const step = proof.path[k];
    const even = idx % 2 === 0;
    const want = even ? "right" : "left";
    if (step.side !== want) throw new MerkleError("inclusion proof sibling side is inconsistent with seq");
    if (even && idx + 1 >= width && step.hash !== cur) {
      throw new MerkleError("odd-width duplicate-last sibling is not the current hash");
    }
    cur = even ? merkleParent(cur, step.hash) : merkleParent(step.hash, cur);
    width = Math.ceil(width / 2);
    idx = Math.floor(idx / 2);
    k += 1;
  }
  if (k !== proof.path.length) throw new MerkleError("inclusion proof path is too long");
  if (cur !== proof.merkleRoot) throw new MerkleError("inclusion proof does not fold to the claimed root");
}
