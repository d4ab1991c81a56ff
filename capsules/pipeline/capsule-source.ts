/**
 * The input side of a candidate (assessment-v1 §7.4 O1, W12): a capsule whose single `assessment` artifact is
 * inline base64 (§6.3), and whose content is EXACTLY what our adapter builds from that artifact's bytes under the
 * capsule's own producer block, with `content_sha256` the SHA-256 of that content's canonical bytes.
 *
 * That comparison replaces a run of the full verifier: the rebuilt content passes the builder's validation (the
 * verifier's schema stage), its artifact digest and size are computed from the bytes, and its derivations' expected
 * values are read from the same parsed assessment, so an envelope whose content equals it and whose digest matches
 * verifies too — and a capsule from another producer that merely carries an `assessment`
 * artifact (W12: different subject, claims or derivations) is refused. Attestations are checked by the capsule
 * rules (§7.10).
 *
 * Reasons name the failed check only: they never echo capsule values (the capsule is private: its claims hold
 * the message hash).
 */
import { Buffer } from "node:buffer";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { assessmentContent } from "../assessment/adapter.js";
import type { Assessment } from "../assessment/types.js";
import { Base64Error, decodeBase64Strict } from "../capsule/base64.js";
import { buildCapsule, CapsuleBuildError, type Capsule } from "../capsule/build.js";
import { fromJs } from "../capsule/js-input.js";
import { CAPSULE_MAX_BYTES } from "../capsule/limits.js";
import { strictJsonEquals } from "../capsule/pointer.js";
import { CapsuleSchemaError } from "../capsule/fields.js";
import { validateAttestations } from "../capsule/structure.js";
import { equalsRebuilt } from "./rebuilt-equals.js";

export const ASSESSMENT_ARTIFACT_ID = "assessment";

/** A capsule as bytes (strictly parsed here), as the strict loader's value model, or as plain JS values. */
export type CapsuleInput = Uint8Array | JsonValue | Record<string, unknown>;

export type CapsuleSource =
  | { ok: true; content: JsonObject; declaredSha256: string; assessmentBytes: Uint8Array }
  | { ok: false; reason: string };

const ENVELOPE_KEYS = ["attestations", "content", "content_sha256"];
const HEX64 = /^[0-9a-f]{64}$/;

function refuse(reason: string): CapsuleSource {
  return { ok: false, reason: `capsule: ${reason}` };
}

/** Reads the envelope and the exact bytes of its inline `assessment` artifact (nothing is trusted yet). */
export function readCapsuleAssessment(capsule: CapsuleInput): CapsuleSource {
  let value: unknown = capsule;
  if (capsule instanceof Uint8Array) {
    if (capsule.length > CAPSULE_MAX_BYTES) return refuse("exceeds the v1 byte limit");
    try {
      value = parseStrictJson(capsule);
    } catch (e) {
      return refuse(`not strict JSON (rule ${(e as { rule?: string }).rule ?? "syntax"})`);
    }
  } else {
    value = fromJs(capsule);
  }
  return readEnvelope(value);
}

/**
 * {@link readCapsuleAssessment} for an envelope exactly as the strict loader returned it (`parseStrictJson`,
 * `loadCapsuleBytes`, the store's `openCapsule`): already in the value model, so it is read without the walk that
 * converts plain values. Never pass a value built or edited by hand: use {@link readCapsuleAssessment}.
 */
export function readLoadedCapsuleAssessment(envelope: JsonObject): CapsuleSource {
  return readEnvelope(envelope);
}

function readEnvelope(value: unknown): CapsuleSource {
  if (!isJsonObject(value)) return refuse("the envelope is not an object");
  const keys = [...value.keys()].sort();
  if (keys.length !== ENVELOPE_KEYS.length || keys.some((k, i) => k !== ENVELOPE_KEYS[i])) {
    return refuse("the envelope must have exactly attestations, content and content_sha256");
  }
  const declared = value.get("content_sha256");
  if (typeof declared !== "string" || !HEX64.test(declared)) return refuse("content_sha256 is not 64 lowercase hex characters");
  try {
    validateAttestations(value.get("attestations"), declared);
  } catch (e) {
    if (e instanceof CapsuleSchemaError) return refuse("attestations do not verify (capsule-v1 §7.10)");
    throw e;
  }
  const content = value.get("content");
  if (!isJsonObject(content)) return refuse("content is not an object");
  const artifacts = content.get("artifacts");
  const found = Array.isArray(artifacts) ? artifacts.filter((a) => isJsonObject(a) && a.get("id") === ASSESSMENT_ARTIFACT_ID) : [];
  if (found.length !== 1) return refuse("content.artifacts has no single assessment artifact");
  const location = (found[0] as JsonObject).get("location");
  const data = isJsonObject(location) && location.get("type") === "inline" ? location.get("data") : undefined;
  if (typeof data !== "string") return refuse("the assessment artifact is not inline base64");
  try {
    return { ok: true, content, declaredSha256: declared, assessmentBytes: decodeBase64(data) };
  } catch (e) {
    if (e instanceof Base64Error) return refuse("the assessment artifact is not valid base64");
    throw e;
  }
}

/**
 * Strict base64 (capsule-v1 §8.4.1). A string that Node's decoder turns into bytes whose standard encoding is
 * the string itself is canonical (standard alphabet, exact padding, zero unused bits): exactly the strings the
 * strict decoder accepts, with the same bytes. Anything else goes to the strict decoder for its verdict.
 */
function decodeBase64(data: string): Uint8Array {
  const bytes = Buffer.from(data, "base64");
  if (bytes.toString("base64") === data) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  return decodeBase64Strict(data);
}

/**
 * W12 + integrity: the content must equal the adapter's content for these bytes and this (schema-valid)
 * assessment under the capsule's producer block, and `content_sha256` must be its canonical digest. Returns the
 * reason of the first failure, or undefined.
 *
 * `recomputedSha256` is the digest a caller has already recomputed from this envelope's canonical content (the
 * sealed store does on every open): when it equals the declared digest, the content is compared with the rebuild
 * structurally and the second canonicalisation, validation and hash are skipped (equal content, equal digest).
 */
export function checkRebuiltContent(
  source: Extract<CapsuleSource, { ok: true }>,
  assessment: Assessment,
  recomputedSha256?: string,
): string | undefined {
  const producer = source.content.get("producer");
  const name = isJsonObject(producer) ? producer.get("name") : undefined;
  const software = isJsonObject(producer) ? producer.get("software") : undefined;
  if (typeof name !== "string" || typeof software !== "string") return "capsule: content.producer is not a name/software pair";
  const content = assessmentContent(source.assessmentBytes, assessment, { name, software });
  if (recomputedSha256 !== undefined && recomputedSha256 === source.declaredSha256) {
    return equalsRebuilt(source.content, content) ? undefined : DIFFERS;
  }
  let rebuilt: Capsule;
  try {
    // The builder validates the content exactly like the verifier's schema stage and computes its digest.
    rebuilt = buildCapsule(content);
  } catch (e) {
    if (e instanceof CapsuleBuildError) return "capsule: the content rebuilt from its assessment artifact does not validate";
    throw e;
  }
  if (!strictJsonEquals(source.content, rebuilt.content)) return DIFFERS;
  if (rebuilt.content_sha256 !== source.declaredSha256) return "capsule: content_sha256 does not match canonical content";
  return undefined;
}

const DIFFERS = "capsule: content differs from the capsule our adapter builds from its assessment artifact (W12)";
