/**
 * The verification report (capsule-v1 §10): shapes, fixed strings, the `ok` rule and the `errors` order. Every
 * object is created with its members in the normative order, so `JSON.stringify` keeps that order.
 */

export const OK_SCOPE =
  "well-formed content identity, exact artifact bytes, and declared reference/proof relationships only; not natural-language truth, producer authentication, full ledger-chain integrity, or a cryptographic timestamp";
export const LEDGER_MEANING =
  "each bound artifact matches a recomputed entry and Merkle membership proof; the capsule does not carry enough entries to verify the ledger hash chain";
export const ANCHOR_MEANING =
  "exact anchor inputs are digest-bound to structurally complete detached OpenTimestamps envelopes; calendar acceptance, attestation authenticity, block headers, consensus, and time are not verified";
export const CLAIMS_MEANING =
  "referenced bytes and declared machine proofs are checked per claim; free-text claim truth, source truth, and producer identity are not evaluated";
export const ATTESTATIONS_MEANING = "attestations target content_sha256 but v1 does not authenticate actors";
export const NOT_EVALUATED_MEANING = "schema validation failed; dependent checks were not run";

export interface ArtifactItem {
  id: string;
  status: "verified" | "failed";
  problems: string[];
  actual_sha256?: string;
}

export interface RecomputeItem {
  id: string;
  status: "verified" | "not_recomputable" | "failed";
  problems: string[];
  reason?: string;
}

export interface LedgerItem {
  id: string;
  index: number;
  status: "entry_membership_verified" | "failed";
  problems: string[];
  entry_integrity: "verified" | "failed";
  membership: "verified" | "failed";
  chain_integrity: "not_verifiable_from_capsule";
  seq?: number;
  root?: string;
}

export interface AnchorItem {
  id: string;
  index: number;
  status: "envelope_bound" | "failed";
  problems: string[];
  cryptographic_timestamp: "not_verified";
  structure?: { nodes: number; attestations: number };
  prefix_entries?: number;
  root?: string;
}

export interface ClaimItem {
  id: string;
  status: "references_verified" | "references_partially_recomputable" | "failed";
  artifact_refs: string[];
  derivation_refs: string[];
  binding_refs: string[];
  natural_language_truth: "not_evaluated";
  problems: string[];
}

export interface Section<S extends string, I> {
  status: S | "not_evaluated" | "failed";
  items: I[];
  meaning?: string;
}

export interface VerificationReport {
  ok: boolean;
  ok_scope: string;
  schema: { status: "verified" | "failed" };
  integrity: { status: "verified" | "failed" | "unsupported"; expected: string; actual: string | null };
  artifacts: Section<"verified", ArtifactItem>;
  ledger: Section<"entry_membership_verified" | "not_present", LedgerItem>;
  anchor: Section<"envelope_bound" | "not_present", AnchorItem>;
  recomputability: Section<"verified" | "partial" | "not_recomputable" | "not_applicable", RecomputeItem>;
  claims: Section<"references_verified" | "references_partially_recomputable", ClaimItem>;
  attestations: { status: "not_present" | "bound_not_authenticated" | "failed"; count: number; meaning: string };
  errors: string[];
}

/** The five stage sections, as computed by the stages (or in one of the two degenerate forms). */
export interface StageSections {
  artifacts: VerificationReport["artifacts"];
  ledger: VerificationReport["ledger"];
  anchor: VerificationReport["anchor"];
  recomputability: VerificationReport["recomputability"];
  claims: VerificationReport["claims"];
}

/** §10.3 "schema failed" column. */
export function notEvaluatedSections(): StageSections {
  const form = () => ({ status: "not_evaluated" as const, items: [], meaning: NOT_EVALUATED_MEANING });
  return { artifacts: form(), ledger: form(), anchor: form(), recomputability: form(), claims: form() };
}

/** §10.3 "fallback" column (§8.9): no `meaning`. */
export function fallbackSections(): StageSections {
  const form = () => ({ status: "failed" as const, items: [] });
  return { artifacts: form(), ledger: form(), anchor: form(), recomputability: form(), claims: form() };
}

const OK_STATUSES: Record<keyof StageSections, readonly string[]> = {
  artifacts: ["verified"],
  ledger: ["entry_membership_verified", "not_present"],
  anchor: ["envelope_bound", "not_present"],
  recomputability: ["verified", "partial", "not_recomputable", "not_applicable"],
  claims: ["references_verified", "references_partially_recomputable"],
};

const SECTION_FAILURES: [keyof StageSections, string][] = [
  ["artifacts", "one or more artifacts failed exact-byte verification"],
  ["ledger", "one or more ledger bindings failed"],
  ["anchor", "one or more anchor bindings failed"],
  ["recomputability", "one or more derivation proofs failed"],
  ["claims", "one or more claims have failed evidence references"],
];

export interface ReportParts {
  schemaError?: string;
  integrity: VerificationReport["integrity"];
  integrityError?: string;
  fallbackError?: string;
  sections: StageSections;
  attestations: VerificationReport["attestations"];
}

/** Assembles the report: member order of §10.1, `ok` of §10.5, `errors` of §10.6. */
export function assembleReport(parts: ReportParts): VerificationReport {
  const { sections } = parts;
  const errors: string[] = [];
  if (parts.schemaError !== undefined) errors.push(parts.schemaError);
  if (parts.integrityError !== undefined) errors.push(parts.integrityError);
  if (parts.fallbackError !== undefined) errors.push(parts.fallbackError);
  for (const [name, message] of SECTION_FAILURES) if (sections[name].status === "failed") errors.push(message);
  const ok =
    parts.schemaError === undefined &&
    parts.integrity.status === "verified" &&
    (Object.keys(OK_STATUSES) as (keyof StageSections)[]).every((k) => OK_STATUSES[k].includes(sections[k].status));
  return {
    ok,
    ok_scope: OK_SCOPE,
    schema: { status: parts.schemaError === undefined ? "verified" : "failed" },
    integrity: parts.integrity,
    artifacts: sections.artifacts,
    ledger: sections.ledger,
    anchor: sections.anchor,
    recomputability: sections.recomputability,
    claims: sections.claims,
    attestations: parts.attestations,
    errors,
  };
}

/** §10.7: 2-space indentation, non-ASCII literal, trailing LF (also for an array of reports). */
export function serializeReport(report: VerificationReport | VerificationReport[]): string {
  return JSON.stringify(report, null, 2) + "\n";
}
