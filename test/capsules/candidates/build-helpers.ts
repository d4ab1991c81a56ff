/**
 * Test helpers: mutate example assessments in the strict value model, serialise them like the producer (Python
 * canonical JSON, float lexemes kept), and wrap any bytes in a capsule with the project's adapter in
 * reference-producer mode. The capsule builder here bypasses the schema and the consistency check on purpose
 * (like the reference bridge, which accepted the lenient inputs): it reads the bytes with plain `JSON.parse`.
 */
import { canonicalText } from "../../../src/json/canonical.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { JsonFloat, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { assessmentContent, REFERENCE_PRODUCER, type Producer } from "../../../capsules/assessment/adapter.js";
import { computeAssessmentId } from "../../../capsules/assessment/assessment-id.js";
import { pythonJsonText } from "../../../capsules/assessment/json-text.js";
import type { Assessment } from "../../../capsules/assessment/types.js";
import { buildCapsule } from "../../../capsules/capsule/build.js";
import { readShared } from "../../helpers/shared.js";

export function exampleBytes(dir: "valid" | "lenient", name: string): Uint8Array {
  return readShared("data/bridge-examples", dir, name.endsWith(".json") ? name : `${name}.json`);
}

export function exampleValue(dir: "valid" | "lenient", name: string): JsonObject {
  return parseStrictJson(exampleBytes(dir, name)) as JsonObject;
}

/** Deep copy of a value-model document (keeps `JsonFloat`s and member order). */
export function cloneJson<T extends JsonValue>(v: T): T {
  return copy(v) as T;
}

function copy(v: JsonValue): JsonValue {
  if (Array.isArray(v)) return v.map(copy);
  if (v instanceof Map) {
    const out: JsonObject = new Map();
    for (const [k, x] of v) out.set(k, copy(x));
    return out;
  }
  if (v instanceof JsonFloat) return new JsonFloat(v.value, v.token);
  return v;
}

type Seg = string | number;

/** The value at a path of keys and indexes. */
export function at(doc: JsonValue, ...path: Seg[]): JsonValue {
  let v: JsonValue = doc;
  for (const s of path) v = typeof s === "number" ? (v as JsonValue[])[s] : (v as JsonObject).get(s)!;
  return v;
}

/** Sets the value at a path (the parent must exist). */
export function put(doc: JsonValue, path: Seg[], value: JsonValue): void {
  const parent = at(doc, ...path.slice(0, -1));
  const last = path[path.length - 1];
  if (typeof last === "number") (parent as JsonValue[])[last] = value;
  else (parent as JsonObject).set(last, value);
}

/** The producer's bytes for a document; with `fixId` the `assessment_id` is recomputed first (§5.3). */
export function assessmentBytes(doc: JsonObject, fixId = true): Uint8Array {
  if (fixId) doc.set("assessment_id", computeAssessmentId(doc));
  return new TextEncoder().encode(pythonJsonText(doc));
}

/**
 * The capsule the reference bridge would build from these bytes (or one with another producer block), as the
 * canonical envelope bytes + LF. No schema or consistency check.
 */
export function capsuleFor(bytes: Uint8Array, producer: Producer = REFERENCE_PRODUCER): Uint8Array {
  const a = JSON.parse(new TextDecoder().decode(bytes)) as Assessment;
  const c = buildCapsule(assessmentContent(bytes, a, producer));
  const text = canonicalText({ attestations: c.attestations, content: c.content, content_sha256: c.content_sha256 }, "capsule");
  return new TextEncoder().encode(`${text}\n`);
}

/** Mutates a copy of a valid example, re-hashes its id, and returns the capsule bytes. */
export function mutatedCapsule(name: string, mutate: (doc: JsonObject) => void, fixId = true): Uint8Array {
  const doc = cloneJson(exampleValue("valid", name));
  mutate(doc);
  return capsuleFor(assessmentBytes(doc, fixId));
}
