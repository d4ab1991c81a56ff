/**
 * The input side of a candidate (assessment-v1 §7.1, §7.4 O1): a capsule that verifies completely, whose single
 * `assessment` artifact is inline base64 (§6.3). Returns the artifact's exact bytes and the capsule digest.
 *
 * Reasons name the failed check only: they never echo capsule values (the capsule is private: its claims hold
 * the message hash).
 */
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { decodeBase64Strict } from "../capsule/base64.js";
import { CAPSULE_MAX_BYTES } from "../capsule/limits.js";
import { verifyCapsule } from "../capsule/verify.js";

export const ASSESSMENT_ARTIFACT_ID = "assessment";
export const ASSESSMENT_MEDIA_TYPE = "application/vnd.scamshield.provenance+json";

export type CapsuleSource =
  | { ok: true; envelope: JsonObject; contentSha256: string; assessmentBytes: Uint8Array }
  | { ok: false; reason: string };

/** A capsule as bytes (strictly parsed here), as the strict loader's value model, or as plain JS values. */
export type CapsuleInput = Uint8Array | JsonValue | Record<string, unknown>;

function get(o: unknown, key: string): unknown {
  if (isJsonObject(o)) return o.get(key);
  if (o !== null && typeof o === "object" && !Array.isArray(o) && Object.hasOwn(o, key)) {
    return (o as Record<string, unknown>)[key];
  }
  return undefined;
}

/** Verifies the capsule and extracts the exact bytes of its inline `assessment` artifact. */
export function readCapsuleAssessment(capsule: CapsuleInput): CapsuleSource {
  let envelope: unknown = capsule;
  if (capsule instanceof Uint8Array) {
    if (capsule.length > CAPSULE_MAX_BYTES) return { ok: false, reason: "capsule: exceeds the v1 byte limit" };
    try {
      envelope = parseStrictJson(capsule);
    } catch (e) {
      return { ok: false, reason: `capsule: not strict JSON (${(e as { rule?: string }).rule ?? "syntax"})` };
    }
  }
  const report = verifyCapsule(envelope);
  if (!report.ok) {
    const failed = Object.entries(report)
      .filter(([, s]) => s !== null && typeof s === "object" && "status" in s)
      .filter(([name, s]) => name !== "attestations" && !ALLOWED.has((s as { status: string }).status))
      .map(([name, s]) => `${name} ${(s as { status: string }).status}`);
    return { ok: false, reason: `capsule: does not verify (${failed.join(", ")})` };
  }
  const content = get(envelope, "content");
  const artifacts = get(content, "artifacts");
  const list = Array.isArray(artifacts) ? artifacts : [];
  const matches = list.filter((a) => get(a, "id") === ASSESSMENT_ARTIFACT_ID);
  if (matches.length !== 1) return { ok: false, reason: "capsule: content.artifacts has no assessment artifact" };
  const artifact = matches[0];
  if (get(artifact, "media_type") !== ASSESSMENT_MEDIA_TYPE) {
    return { ok: false, reason: "capsule: the assessment artifact has an unexpected media_type" };
  }
  const location = get(artifact, "location");
  if (get(location, "type") !== "inline") {
    return { ok: false, reason: "capsule: the assessment artifact is not inline" };
  }
  // The verifier has already decoded these bytes and compared their digest and size.
  const bytes = decodeBase64Strict(get(location, "data") as string);
  return {
    ok: true,
    envelope: (isJsonObject(envelope) ? envelope : new Map(Object.entries(envelope as object))) as JsonObject,
    contentSha256: report.integrity.actual as string,
    assessmentBytes: bytes,
  };
}

/** Section statuses that allow `ok` (capsule-v1 §10.5). */
const ALLOWED = new Set([
  "verified",
  "entry_membership_verified",
  "envelope_bound",
  "not_present",
  "partial",
  "not_recomputable",
  "not_applicable",
  "references_verified",
  "references_partially_recomputable",
]);
