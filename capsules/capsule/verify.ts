/**
 * The Evidence Capsule v1 verifier (capsule-v1 §8): schema, integrity, then the artifacts, recomputability,
 * ledger, anchor and claims stages, assembled into the §10 report. Total: any input yields a report, nothing
 * throws. Reads only the capsule and files beneath an explicitly supplied artifact root; never dereferences a URI.
 */
import { CanonicalError, canonicalBytes } from "../../src/json/canonical.js";
import { sha256Hex } from "../../src/hash.js";
import type { JsonValue } from "../../src/json/value.js";
import { anchorSection } from "./anchor-check.js";
import { artifactsStage } from "./artifacts.js";
import { claimsSection } from "./claims.js";
import { fromJs } from "./js-input.js";
import { ledgerSection } from "./ledger-check.js";
import { CONTENT_CANONICALIZATION, SPEC_VERSION, type CapsuleModel } from "./model.js";
import { recomputabilitySection } from "./recompute.js";
import {
  assembleReport,
  ATTESTATIONS_MEANING,
  fallbackSections,
  notEvaluatedSections,
  type ReportParts,
  type StageSections,
  type VerificationReport,
} from "./report.js";
import { validateEnvelope, type EnvelopeResult } from "./structure.js";

export interface VerifyOptions {
  /** Local directory that path artifacts are confined to; without it every path artifact fails. */
  artifactRoot?: string;
  /**
   * Documents the caller has already strictly parsed (`parseStrictJson`, v1 limits or stricter), keyed by the SHA-256
   * of the exact bytes they were parsed from: an artifact whose verified bytes have that digest is read as that value
   * instead of being parsed again (the build stage passes its intake's assessment). Never pass a value that was not
   * parsed from bytes with exactly that digest.
   */
  parsedDocuments?: ReadonlyMap<string, JsonValue>;
}

const STAGE_FAILURE = "bounded verification stage failed: ";

/**
 * Verifies a capsule given as the strict loader's value model (or as plain JS values, read like the builder does).
 * Never throws.
 */
export function verifyCapsule(value: unknown, opts: VerifyOptions = {}): VerificationReport {
  try {
    return verifyValue(fromJs(value), opts);
  } catch (e) {
    // Unreachable for conforming code: even an internal error yields a (failed) report.
    return assembleReport({
      schemaError: STAGE_FAILURE + detail(e),
      integrity: { status: "failed", expected: "", actual: null },
      sections: fallbackSections(),
      attestations: { status: "not_present", count: 0, meaning: ATTESTATIONS_MEANING },
    });
  }
}

function detail(e: unknown): string {
  const text = e instanceof Error ? e.message : String(e);
  return text.replace(/[\r\n]+/g, " ").slice(0, 500);
}

function verifyValue(value: unknown, opts: VerifyOptions): VerificationReport {
  const env = validateEnvelope(value);
  const parts: ReportParts = {
    schemaError: env.error,
    ...integrity(env),
    attestations: attestationsSection(env),
    sections: notEvaluatedSections(),
  };
  if (env.error === undefined) {
    try {
      parts.sections = runStages(env.contentResult!.model, opts);
    } catch (e) {
      parts.fallbackError = STAGE_FAILURE + detail(e);
      parts.sections = fallbackSections();
    }
  }
  return assembleReport(parts);
}

/** §8.2. */
function integrity(env: EnvelopeResult): Pick<ReportParts, "integrity" | "integrityError"> {
  const expected = env.declaredHash;
  const content = env.content;
  if (
    content === undefined ||
    content.get("spec_version") !== SPEC_VERSION ||
    content.get("canonicalization") !== CONTENT_CANONICALIZATION
  ) {
    return { integrity: { status: "unsupported", expected, actual: null } };
  }
  let bytes: Uint8Array;
  const cached = env.contentResult?.canonical;
  try {
    if (cached !== undefined && "error" in cached) throw cached.error;
    bytes = cached?.bytes ?? canonicalBytes(content, "content");
  } catch (e) {
    if (!(e instanceof CanonicalError)) throw e;
    return { integrity: { status: "failed", expected, actual: null }, integrityError: e.message };
  }
  const actual = sha256Hex(bytes);
  if (actual === expected) return { integrity: { status: "verified", expected, actual } };
  return {
    integrity: { status: "failed", expected, actual },
    integrityError: "content_sha256 does not match canonical content",
  };
}

/** §10.5 attestations. */
function attestationsSection(env: EnvelopeResult): VerificationReport["attestations"] {
  const list = env.hasAttestationList ? env.attestations : undefined;
  const count = Array.isArray(list) ? list.length : 0;
  const status = count === 0 ? "not_present" : env.error === undefined ? "bound_not_authenticated" : "failed";
  return { status, count, meaning: ATTESTATIONS_MEANING };
}

/** §8.3: artifacts, recomputability, ledger and anchor per binding, claims. */
function runStages(model: CapsuleModel, opts: VerifyOptions): StageSections {
  const { section: artifacts, resolved } = artifactsStage(model.artifacts, opts.artifactRoot, opts.parsedDocuments);
  const recomputability = recomputabilitySection(model.derivations, resolved);
  const ledger = ledgerSection(model.bindings, resolved);
  const anchor = anchorSection(model.bindings, resolved);
  const claims = claimsSection(model.claims, { artifacts, recomputability, ledger, anchor });
  return { artifacts, ledger, anchor, recomputability, claims };
}
