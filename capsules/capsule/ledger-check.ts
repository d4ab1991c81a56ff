/**
 * Ledger check per binding (capsule-v1 §8.6): payload hash, entry hash, inclusion-proof identity and Merkle
 * membership. The first failure is the only problem. The full hash chain is never verifiable from a capsule.
 */
import { canonicalBytes, CanonicalError } from "../../src/json/canonical.js";
import { legacyCanonicalBytes } from "../../src/json/legacy.js";
import { JsonLoadError } from "../../src/json/parse.js";
import { sha256Hex } from "../../src/hash.js";
import { echoValue } from "./fields.js";
import { FailureMemo } from "./memo.js";
import { foldInclusionProof, MerkleError } from "./merkle.js";
import type { Binding, LedgerEntry } from "./model.js";
import { LEDGER_MEANING, type LedgerItem, type VerificationReport } from "./report.js";
import type { ResolvedArtifacts } from "./resolved.js";

class LedgerProblem extends Error {}

/** Entry hash (§4.2.4b): the canonical bytes of the five hashed members equal their legacy bytes. */
export function ledgerEntryHash(e: LedgerEntry): string {
  const hashed = new Map<string, string | number>([
    ["seq", e.seq],
    ["ts", e.ts],
    ["source", e.source],
    ["payload_sha256", e.payloadSha256],
    ["prev_hash", e.prevHash],
  ]);
  return sha256Hex(canonicalBytes(hashed, "ledger_entry"));
}

/** Payload hashes (§4.2.4a) per artifact id: several bindings may bind one large artifact. */
type PayloadHashes = FailureMemo<string>;

const newPayloadHashes = (): PayloadHashes =>
  new FailureMemo<string>((e): e is Error => e instanceof JsonLoadError || e instanceof CanonicalError);

function payloadHash(artifactRef: string, resolved: ResolvedArtifacts, memo: PayloadHashes): string {
  try {
    return memo.get(artifactRef, () => sha256Hex(legacyCanonicalBytes(resolved.json(artifactRef))));
  } catch (e) {
    if (e instanceof JsonLoadError || e instanceof CanonicalError) throw new LedgerProblem(e.message);
    throw e;
  }
}

export function checkLedger(
  binding: Binding,
  index: number,
  resolved: ResolvedArtifacts,
  memo: PayloadHashes = newPayloadHashes(),
): LedgerItem {
  const problems: string[] = [];
  let entryIntegrity: LedgerItem["entry_integrity"] = "failed";
  let membership: LedgerItem["membership"] = "failed";
  try {
    if (!resolved.has(binding.artifactRef)) {
      throw new LedgerProblem(`bound artifact ${echoValue(binding.artifactRef)} did not verify`);
    }
    if (payloadHash(binding.artifactRef, resolved, memo) !== binding.entry.payloadSha256) {
      throw new LedgerProblem("artifact payload does not match ledger payload_sha256");
    }
    if (ledgerEntryHash(binding.entry) !== binding.entry.entryHash) {
      throw new LedgerProblem("full ledger entry hash does not recompute");
    }
    entryIntegrity = "verified";
    const q = binding.inclusion;
    if (q.seq !== binding.entry.seq || q.entryHash !== binding.entry.entryHash) {
      throw new LedgerProblem("inclusion proof is for a different ledger entry");
    }
    try {
      foldInclusionProof(q);
    } catch (e) {
      if (e instanceof MerkleError) throw new LedgerProblem(e.message);
      throw e;
    }
    membership = "verified";
  } catch (e) {
    if (!(e instanceof LedgerProblem)) throw e;
    problems.push(e.message);
  }
  const verified = membership === "verified";
  const item: LedgerItem = {
    id: binding.id,
    index,
    status: verified ? "entry_membership_verified" : "failed",
    problems,
    entry_integrity: entryIntegrity,
    membership,
    chain_integrity: "not_verifiable_from_capsule",
  };
  if (verified) {
    item.seq = binding.entry.seq;
    item.root = binding.inclusion.merkleRoot;
  }
  return item;
}

/** The ledger section over all bindings (§10.5 aggregate). */
export function ledgerSection(bindings: Binding[], resolved: ResolvedArtifacts): VerificationReport["ledger"] {
  const memo = newPayloadHashes();
  const items = bindings.map((b, i) => checkLedger(b, i, resolved, memo));
  const status =
    items.length === 0 ? "not_present" : items.every((x) => x.status === "entry_membership_verified") ? "entry_membership_verified" : "failed";
  return { status, items, meaning: LEDGER_MEANING };
}
