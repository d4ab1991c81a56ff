/** Helpers for capsule tests: golden vectors read in place from ../shared, mutation by path, rehashing. */
import { canonicalBytes } from "../../../src/json/canonical.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { sha256Hex } from "../../../src/hash.js";
import { loadCapsuleBytes } from "../../../capsules/capsule/load.js";
import { verifyCapsule, type VerifyOptions } from "../../../capsules/capsule/verify.js";
import type { VerificationReport } from "../../../capsules/capsule/report.js";
import { readShared } from "../../helpers/shared.js";

const cache = new Map<string, Buffer>();

export function vectorBytes(name: string): Buffer {
  let b = cache.get(name);
  if (!b) {
    b = readShared("data", "capsule-v1", "test-vectors", name);
    cache.set(name, b);
  }
  return b;
}

/** A fresh, mutable copy of a golden capsule. */
export function vector(name: "P" | "N"): JsonObject {
  return loadCapsuleBytes(vectorBytes(name === "P" ? "palimpsest-erasure-v1.json" : "nemesis-ddti-v1.json"));
}

export function expectedReport(name: "P" | "N"): string {
  const file = name === "P" ? "palimpsest-erasure-v1.report.json" : "nemesis-ddti-v1.report.json";
  return readShared("data", "capsule-v1", "expected-reports", file).toString("utf8");
}

/** Parses JSON text into the value model. */
export function j(text: string): JsonValue {
  return parseStrictJson(text);
}

export type PathSeg = string | number;

export function getAt(root: JsonValue, path: PathSeg[]): JsonValue {
  let cur = root;
  for (const seg of path) {
    if (typeof seg === "number") cur = (cur as JsonValue[])[seg];
    else cur = (cur as JsonObject).get(seg) as JsonValue;
    if (cur === undefined) throw new Error(`no value at ${path.join("/")}`);
  }
  return cur;
}

/** Sets (or with `undefined`, deletes) the member/item at `path`. */
export function setAt(root: JsonValue, path: PathSeg[], value: JsonValue | undefined): void {
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1];
  if (typeof last === "number") {
    if (value === undefined) (parent as JsonValue[]).splice(last, 1);
    else (parent as JsonValue[])[last] = value;
  } else if (value === undefined) (parent as JsonObject).delete(last);
  else (parent as JsonObject).set(last, value);
}

/** Path inside `content`. */
export function c(...path: PathSeg[]): PathSeg[] {
  return ["content", ...path];
}

export function contentHash(cap: JsonObject): string {
  return sha256Hex(canonicalBytes(cap.get("content"), "content"));
}

/** Recomputes `content_sha256` so integrity stays verified after a content mutation. */
export function rehash(cap: JsonObject): JsonObject {
  cap.set("content_sha256", contentHash(cap));
  return cap;
}

/** Replaces an inline artifact's bytes and fixes its `sha256` and `size`. */
export function replaceInline(cap: JsonObject, index: number, bytes: Uint8Array | string): void {
  const b = typeof bytes === "string" ? Buffer.from(bytes, "utf8") : Buffer.from(bytes);
  const a = getAt(cap, c("artifacts", index)) as JsonObject;
  a.set("sha256", sha256Hex(b));
  a.set("size", b.length);
  (a.get("location") as JsonObject).set("data", b.toString("base64"));
}

export function inlineBytes(cap: JsonObject, index: number): Buffer {
  const loc = getAt(cap, c("artifacts", index, "location")) as JsonObject;
  return Buffer.from(loc.get("data") as string, "base64");
}

export function verify(cap: unknown, opts?: VerifyOptions): VerificationReport {
  return verifyCapsule(cap, opts);
}

/** Checks the "schema failed" shape of capsule-v1 §14 (five sections not_evaluated, ok false). */
export function schemaFailedSections(r: VerificationReport): boolean {
  const names = ["artifacts", "ledger", "anchor", "recomputability", "claims"] as const;
  return (
    !r.ok &&
    r.schema.status === "failed" &&
    names.every(
      (n) =>
        r[n].status === "not_evaluated" &&
        r[n].items.length === 0 &&
        r[n].meaning === "schema validation failed; dependent checks were not run",
    )
  );
}

/** Deep copy of a value-model value (Maps and arrays are copied, scalars shared). */
export function clone<T extends JsonValue>(v: T): T {
  if (Array.isArray(v)) return v.map((x) => clone(x)) as T;
  if (v instanceof Map) {
    const m = v as Map<string, JsonValue>;
    return new Map([...m].map(([k, x]) => [k, clone(x)])) as unknown as T;
  }
  return v;
}
