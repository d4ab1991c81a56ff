/**
 * The input side of a derivation (assessment-v1 §7.4 O1, W12): a capsule whose single `assessment` artifact is
 * inline base64 (§6.3), and whose content is EXACTLY what our adapter builds from that artifact's bytes under the
 * capsule's own producer block, with `content_sha256` the SHA-256 of that content's canonical bytes.
 *
 * Two inputs, one path: a loaded capsule (the store's opened value, or one this process built, whose content digest was
 * recomputed when it was opened and equals its declared `content_sha256`), or capsule file bytes, which are parsed
 * here once and whose content digest is recomputed here once. Either way the content is then compared with the
 * adapter's rebuild structurally (rebuilt-equals.ts): equal content has equal canonical bytes, so an envelope equal
 * to the rebuild whose declared digest is the recomputed one verifies too, and a capsule from another producer that
 * merely carries an `assessment` artifact (W12: different subject, claims or derivations) is refused. Attestations are
 * checked by the capsule rules (§7.10).
 *
 * Reasons name the failed check only: they never echo capsule values (the capsule is private: its claims hold
 * the message hash).
 */
import { Buffer } from "node:buffer";
import { CanonicalError, canonicalBytes } from "../../src/json/canonical.js";
import { sha256Hex } from "../../src/hash.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonObject } from "../../src/json/value.js";
import { assessmentContent } from "../assessment/adapter.js";
import type { Assessment } from "../assessment/types.js";
import { Base64Error, decodeBase64Strict } from "../capsule/base64.js";
import { CAPSULE_MAX_BYTES } from "../capsule/limits.js";
import { CapsuleSchemaError } from "../capsule/fields.js";
import { validateAttestations } from "../capsule/structure.js";
import { equalsRebuilt } from "../candidates/rebuilt-equals.js";

export const ASSESSMENT_ARTIFACT_ID = "assessment";

/**
 * What a derivation starts from: a capsule whose envelope this process already holds with its content digest
 * checked (the store's loaded capsule, or one this process built, pipeline/open.ts and build.ts), or capsule file
 * bytes.
 */
export type CapsuleInput = { readonly bytes: Uint8Array; readonly envelope: JsonObject } | Uint8Array;

export type CapsuleSource =
  | {
      ok: true;
      envelope: JsonObject;
      content: JsonObject;
      declaredSha256: string;
      /** SHA-256 of the canonical content, recomputed from these very bytes (by the store's opener or here). */
      recomputedSha256: string;
      /** The artifact's base64 text and its bytes. */
      assessmentData: string;
      assessmentBytes: Uint8Array;
    }
  | { ok: false; reason: string; envelope?: JsonObject };

const ENVELOPE_KEYS = ["attestations", "content", "content_sha256"];
const HEX64 = /^[0-9a-f]{64}$/;

function refuse(reason: string, envelope?: JsonObject): CapsuleSource {
  return { ok: false, reason: `capsule: ${reason}`, ...(envelope ? { envelope } : {}) };
}

/** Reads the envelope and the exact bytes of its inline `assessment` artifact (nothing but the digest is trusted yet). */
export function readCapsuleSource(input: CapsuleInput): CapsuleSource {
  if (input instanceof Uint8Array) return readBytes(input);
  const declared = input.envelope.get("content_sha256");
  // The store's opener recomputed the content digest and checked it against the declared one.
  return readEnvelope(input.envelope, typeof declared === "string" ? declared : "");
}

function readBytes(bytes: Uint8Array): CapsuleSource {
  if (bytes.length > CAPSULE_MAX_BYTES) return refuse("exceeds the v1 byte limit");
  let value;
  try {
    value = parseStrictJson(bytes);
  } catch (e) {
    return refuse(`not strict JSON (rule ${(e as { rule?: string }).rule ?? "syntax"})`);
  }
  if (!isJsonObject(value)) return refuse("the envelope is not an object");
  const content = value.get("content");
  if (!isJsonObject(content)) return refuse("content is not an object", value);
  let recomputed: string;
  try {
    recomputed = sha256Hex(canonicalBytes(content));
  } catch (e) {
    if (e instanceof CanonicalError) return refuse("content has no canonical form", value);
    throw e;
  }
  return readEnvelope(value, recomputed);
}

function readEnvelope(value: JsonObject, recomputedSha256: string): CapsuleSource {
  const keys = [...value.keys()].sort();
  if (keys.length !== ENVELOPE_KEYS.length || keys.some((k, i) => k !== ENVELOPE_KEYS[i])) {
    return refuse("the envelope must have exactly attestations, content and content_sha256", value);
  }
  const declared = value.get("content_sha256");
  if (typeof declared !== "string" || !HEX64.test(declared)) return refuse("content_sha256 is not 64 lowercase hex characters", value);
  try {
    validateAttestations(value.get("attestations"), declared);
  } catch (e) {
    if (e instanceof CapsuleSchemaError) return refuse("attestations do not verify (capsule-v1 §7.10)", value);
    throw e;
  }
  const content = value.get("content");
  if (!isJsonObject(content)) return refuse("content is not an object", value);
  const artifacts = content.get("artifacts");
  const found = Array.isArray(artifacts) ? artifacts.filter((a) => isJsonObject(a) && a.get("id") === ASSESSMENT_ARTIFACT_ID) : [];
  if (found.length !== 1) return refuse("content.artifacts has no single assessment artifact", value);
  const location = (found[0] as JsonObject).get("location");
  const data = isJsonObject(location) && location.get("type") === "inline" ? location.get("data") : undefined;
  if (typeof data !== "string") return refuse("the assessment artifact is not inline base64", value);
  try {
    return {
      ok: true,
      envelope: value,
      content,
      declaredSha256: declared,
      recomputedSha256,
      assessmentData: data,
      assessmentBytes: decodeBase64(data),
    };
  } catch (e) {
    if (e instanceof Base64Error) return refuse("the assessment artifact is not valid base64", value);
    throw e;
  }
}

/**
 * Strict base64 (capsule-v1 §8.4.1). A string that Node's decoder turns into bytes whose standard encoding is
 * the string itself is canonical (standard alphabet, exact padding, zero unused bits): exactly the strings the
 * strict decoder accepts, with the same bytes. Anything else goes to the strict decoder for its verdict.
 */
export function decodeBase64(data: string): Uint8Array {
  const bytes = Buffer.from(data, "base64");
  if (bytes.toString("base64") === data) return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length);
  return decodeBase64Strict(data);
}

/**
 * W12 + integrity: the content must equal the adapter's content for these bytes and this (schema-valid)
 * assessment under the capsule's producer block, and `content_sha256` must be the recomputed canonical digest.
 * Returns the reason of the first failure, or undefined.
 */
export function checkRebuiltContent(source: Extract<CapsuleSource, { ok: true }>, assessment: Assessment): string | undefined {
  const producer = source.content.get("producer");
  const name = isJsonObject(producer) ? producer.get("name") : undefined;
  const software = isJsonObject(producer) ? producer.get("software") : undefined;
  if (typeof name !== "string" || typeof software !== "string") return "capsule: content.producer is not a name/software pair";
  const content = assessmentContent(source.assessmentBytes, assessment, { name, software });
  if (!equalsRebuilt(source.content, content)) return "capsule: content differs from the capsule our adapter builds from its assessment artifact (W12)";
  if (source.recomputedSha256 !== source.declaredSha256) return "capsule: content_sha256 does not match canonical content";
  return undefined;
}
