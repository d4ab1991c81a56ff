/**
 * The Evidence Capsule v1 builder (capsule-v1 §11.1) and capsule file serialisation (§11.2).
 *
 * `buildCapsule` validates content exactly as the verifier does (same order, same first message), computes
 * `content_sha256`, validates attestations against it and returns the envelope. It does not read artifact bytes:
 * producers should run `verifyCapsule` on the result and refuse to emit when `ok` is false.
 */
import { pythonFloatRepr } from "../../src/json/legacy.js";
import { JsonFloat, type JsonArray, type JsonObject } from "../../src/json/value.js";
import { sha256Hex } from "../../src/hash.js";
import { CapsuleSchemaError, objectAt } from "./fields.js";
import { fromJs } from "./js-input.js";
import { CAPSULE_MAX_BYTES, MAX_NESTING } from "./limits.js";
import { validateAttestations, validateContent } from "./structure.js";

/** A build failure; `message` is the verifier's exact schema or canonicalization message. */
export class CapsuleBuildError extends Error {
  override readonly name = "CapsuleBuildError";
}

/** The capsule envelope, members in file order. */
export interface Capsule {
  content: JsonObject;
  content_sha256: string;
  attestations: JsonArray;
}

/**
 * Builds the envelope `{content, content_sha256, attestations}` from content given in the value model or as plain
 * JS values (non-integral numbers are floats and are rejected). Throws {@link CapsuleBuildError}.
 */
export function buildCapsule(content: unknown, attestations: unknown = []): Capsule {
  return buildCapsuleParts(content, attestations).capsule;
}

/**
 * {@link buildCapsule}, also returning the canonical bytes of the content it hashed (so a caller writing the capsule
 * file does not canonicalise the content a second time).
 */
export function buildCapsuleParts(content: unknown, attestations: unknown = []): { capsule: Capsule; contentBytes: Uint8Array } {
  try {
    const c = objectAt(fromJs(content), "content");
    const { canonical } = validateContent(c);
    if ("error" in canonical) throw new CapsuleBuildError(canonical.error.message);
    const contentSha256 = sha256Hex(canonical.bytes);
    const a = fromJs(attestations);
    validateAttestations(a, contentSha256);
    checkEnvelopeNesting(c);
    return { capsule: { content: c, content_sha256: contentSha256, attestations: a as JsonArray }, contentBytes: canonical.bytes };
  } catch (e) {
    if (e instanceof CapsuleSchemaError) throw new CapsuleBuildError(e.message);
    throw e;
  }
}

/**
 * The envelope adds one container around `content`, so a content value with 32 enclosing containers inside
 * `content` would not load back from the capsule file (capsule-v1 §11.1).
 */
function checkEnvelopeNesting(content: JsonObject): void {
  const walk = (v: unknown, p: string, depth: number): void => {
    if (depth > MAX_NESTING) throw new CapsuleBuildError(`${p}: JSON nesting exceeds ${MAX_NESTING}`);
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${p}[${i}]`, depth + 1));
    else if (v instanceof Map) for (const [k, x] of v) walk(x, `${p}.${k}`, depth + 1);
  };
  walk(content, "content", 1);
}

/**
 * A capsule file's text (capsule-v1 §11.2): 2-space indentation, members in insertion order (`Map`s keep
 * integer-like keys where they are), non-ASCII literal, trailing LF. Throws {@link CapsuleBuildError} when the
 * value is not JSON or the file would exceed the 32 MiB loader limit.
 */
export function serializeCapsule(capsule: Capsule | JsonObject): string {
  const parts: string[] = [];
  writePretty(capsule, "", parts, 0);
  parts.push("\n");
  const text = parts.join("");
  if (Buffer.byteLength(text, "utf8") > CAPSULE_MAX_BYTES) throw new CapsuleBuildError("capsule exceeds the v1 byte limit");
  return text;
}

function entriesOf(v: object): [string, unknown][] | undefined {
  if (v instanceof Map) return [...v.entries()];
  const proto = Object.getPrototypeOf(v);
  if (proto === Object.prototype || proto === null) return Object.entries(v);
  return undefined;
}

function writePretty(v: unknown, indent: string, out: string[], depth: number): void {
  if (depth > MAX_NESTING + 1) throw new CapsuleBuildError(`capsule nesting exceeds ${MAX_NESTING}`);
  if (v === null || typeof v === "boolean") out.push(String(v));
  else if (typeof v === "string") out.push(JSON.stringify(v));
  else if (typeof v === "number" && Number.isSafeInteger(v)) out.push(String(v === 0 ? 0 : v));
  else if (v instanceof JsonFloat && Number.isFinite(v.value)) out.push(pythonFloatRepr(v.value));
  else if (Array.isArray(v)) {
    if (v.length === 0) return void out.push("[]");
    const inner = indent + "  ";
    out.push("[");
    v.forEach((x, i) => {
      out.push(i ? ",\n" : "\n", inner);
      writePretty(x, inner, out, depth + 1);
    });
    out.push("\n", indent, "]");
  } else {
    const entries = typeof v === "object" && v !== null ? entriesOf(v) : undefined;
    if (entries === undefined) throw new CapsuleBuildError(`unsupported JSON value ${typeof v}`);
    if (entries.length === 0) return void out.push("{}");
    const inner = indent + "  ";
    out.push("{");
    entries.forEach(([k, x], i) => {
      out.push(i ? ",\n" : "\n", inner, JSON.stringify(k), ": ");
      writePretty(x, inner, out, depth + 1);
    });
    out.push("\n", indent, "}");
  }
}
