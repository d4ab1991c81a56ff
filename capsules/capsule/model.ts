/**
 * The typed view of a capsule's content after structure validation (capsule-v1 §7). The verification stages read
 * only this view; it is built by `structure.ts` and never from unvalidated input.
 */
import type { JsonValue } from "../../src/json/value.js";

export const SPEC_VERSION = "palimpsest-evidence-capsule/v1";
export const CONTENT_CANONICALIZATION = "palimpsest-json-sorted-utf8-v1";

export type ArtifactLocation = { type: "inline"; data: string } | { type: "path"; path: string };

export interface Artifact {
  id: string;
  sha256: string;
  size: number;
  untrusted: boolean;
  location: ArtifactLocation;
}

export interface Claim {
  id: string;
  artifactRefs: string[];
  derivationRefs: string[];
  bindingRefs: string[];
}

export type DerivationProof =
  | { type: "json-pointer-equals-v1"; artifactRef: string; pointer: string; expected: JsonValue }
  | { type: "declared-nonrecomputable-v1"; reason: string };

export interface Derivation {
  id: string;
  inputArtifactRefs: string[];
  supportsClaimRefs: string[];
  proof: DerivationProof;
}

export interface LedgerEntry {
  seq: number;
  ts: string;
  source: string;
  payloadSha256: string;
  prevHash: string;
  entryHash: string;
}

export interface MerkleStep {
  side: "left" | "right";
  hash: string;
}

export interface InclusionProof {
  seq: number;
  entryHash: string;
  nEntries: number;
  path: MerkleStep[];
  merkleRoot: string;
}

export interface PrefixAnchor {
  ledger: string;
  prefixEntries: number;
  headHash: string;
  merkleRoot: string;
  anchoredAt: string;
  inputArtifactRef: string;
  proofArtifactRef: string;
}

export interface Binding {
  id: string;
  artifactRef: string;
  entry: LedgerEntry;
  inclusion: InclusionProof;
  anchor: PrefixAnchor;
}

export interface CapsuleModel {
  artifacts: Artifact[];
  claims: Claim[];
  derivations: Derivation[];
  bindings: Binding[];
}
