/**
 * Bad input: thousands of capsules mutated from the golden vectors (flipped fields, removed/added members, wrong
 * kinds, truncated arrays, huge numbers, corrupted artifact bytes). `verifyCapsule` must always return a
 * well-formed report, never throw, and never reach the internal-failure fallback (capsule-v1 §1.6, §8.9).
 */
import fc from "fast-check";
import { expect, test } from "vitest";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { JsonFloat, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { sha256Hex } from "../../../src/hash.js";
import { serializeReport, type VerificationReport } from "../../../capsules/capsule/report.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { describeShared } from "../../helpers/shared.js";
import { clone, vector, type PathSeg } from "./helpers.js";

const TOP_KEYS = ["ok", "ok_scope", "schema", "integrity", "artifacts", "ledger", "anchor", "recomputability", "claims", "attestations", "errors"];

function assertWellFormed(r: VerificationReport): void {
  expect(Object.keys(r)).toEqual(TOP_KEYS);
  expect(typeof r.ok).toBe("boolean");
  expect(Array.isArray(r.errors)).toBe(true);
  expect(r.errors.every((e) => typeof e === "string" && e.length > 0)).toBe(true);
  // errors are empty exactly when every section allows ok
  expect(r.ok).toBe(r.errors.length === 0);
  expect(r.errors.some((e) => e.startsWith("bounded verification stage failed"))).toBe(false);
  expect(serializeReport(r).endsWith("}\n")).toBe(true);
  if (r.schema.status === "failed") expect(r.artifacts.status).toBe("not_evaluated");
}

/** Every path to a value in the tree (the root excluded). */
function paths(v: JsonValue, prefix: PathSeg[] = [], out: PathSeg[][] = []): PathSeg[][] {
  if (Array.isArray(v)) v.forEach((x, i) => (out.push([...prefix, i]), paths(x, [...prefix, i], out)));
  else if (v instanceof Map) for (const [k, x] of v) out.push([...prefix, k]), paths(x, [...prefix, k], out);
  return out;
}

function parentOf(root: JsonValue, path: PathSeg[]): JsonValue {
  let cur = root;
  for (const seg of path.slice(0, -1)) cur = typeof seg === "number" ? (cur as JsonValue[])[seg] : (cur as JsonObject).get(seg)!;
  return cur;
}

const WEIRD: JsonValue[] = [
  null,
  true,
  false,
  0,
  -1,
  9_007_199_254_740_991,
  2 ** 53,
  -(2 ** 60),
  new JsonFloat(1.5, "1.5"),
  new JsonFloat(1e308, "1e308"),
  new JsonFloat(-0, "-0.0"),
  "",
  "x",
  "A".repeat(16_385),
  "\u{1F600}",
  "palimpsest-evidence-capsule/v1",
  "0".repeat(64),
  "2026-02-30T00:00:00Z",
  "../../etc/passwd",
  "__proto__",
  [],
  new Map(),
  new Map([["__proto__", new Map()]]),
];

const jsonValue: fc.Arbitrary<JsonValue> = fc.letrec<{ v: JsonValue }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(...WEIRD),
    fc.string(),
    fc.integer(),
    fc.array(tie("v"), { maxLength: 4 }),
    fc.array(fc.tuple(fc.string({ maxLength: 8 }), tie("v")), { maxLength: 4 }).map((entries) => new Map(entries)),
  ),
})).v;

type Mutation =
  | { kind: "replace"; pick: number; value: JsonValue }
  | { kind: "delete"; pick: number }
  | { kind: "add"; pick: number; key: string; value: JsonValue }
  | { kind: "truncate"; pick: number; keep: number }
  | { kind: "duplicate"; pick: number }
  | { kind: "bytes"; artifact: number; at: number; xor: number; fix: boolean };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant("replace" as const), pick: fc.nat(), value: jsonValue }),
  fc.record({ kind: fc.constant("delete" as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant("add" as const),
    pick: fc.nat(),
    key: fc.constantFrom("x", "action", "type", "id", "constructor", "__proto__"),
    value: jsonValue,
  }),
  fc.record({ kind: fc.constant("truncate" as const), pick: fc.nat(), keep: fc.nat({ max: 3 }) }),
  fc.record({ kind: fc.constant("duplicate" as const), pick: fc.nat() }),
  fc.record({
    kind: fc.constant("bytes" as const),
    artifact: fc.nat({ max: 2 }),
    at: fc.nat(),
    xor: fc.integer({ min: 1, max: 255 }),
    fix: fc.boolean(),
  }),
);

function apply(cap: JsonObject, m: Mutation): void {
  if (m.kind === "bytes") {
    const content = cap.get("content");
    const artifacts = content instanceof Map ? content.get("artifacts") : undefined;
    const a = Array.isArray(artifacts) ? artifacts[m.artifact % Math.max(artifacts.length, 1)] : undefined;
    const loc = a instanceof Map ? a.get("location") : undefined;
    const data = loc instanceof Map ? loc.get("data") : undefined;
    if (typeof data !== "string" || !(a instanceof Map) || !(loc instanceof Map)) return;
    const bytes = Buffer.from(data, "base64");
    if (bytes.length > 0) bytes[m.at % bytes.length] ^= m.xor;
    loc.set("data", bytes.toString("base64"));
    if (m.fix) {
      a.set("sha256", sha256Hex(bytes));
      a.set("size", bytes.length);
    }
    return;
  }
  const all = paths(cap);
  if (all.length === 0) return;
  const path = all[m.pick % all.length];
  const parent = parentOf(cap, path);
  const last = path[path.length - 1];
  const target = typeof last === "number" ? (parent as JsonValue[])[last] : (parent as JsonObject).get(last)!;
  switch (m.kind) {
    case "replace":
      if (typeof last === "number") (parent as JsonValue[])[last] = m.value;
      else (parent as JsonObject).set(last, m.value);
      break;
    case "delete":
      if (typeof last === "number") (parent as JsonValue[]).splice(last, 1);
      else (parent as JsonObject).delete(last);
      break;
    case "add":
      if (target instanceof Map) target.set(m.key, m.value);
      else if (Array.isArray(target)) target.push(m.value);
      break;
    case "truncate":
      if (Array.isArray(target)) target.length = Math.min(target.length, m.keep);
      break;
    case "duplicate":
      if (Array.isArray(target) && target.length > 0) target.push(clone(target[0]));
      break;
  }
}

/** Recomputes content_sha256 when the content still canonicalizes, so mutations reach the stages. */
function tryRehash(cap: JsonObject): void {
  try {
    cap.set("content_sha256", sha256Hex(canonicalBytes(cap.get("content"), "content")));
  } catch {
    // not canonicalizable: leave the declared hash as it is
  }
}

describeShared("verifyCapsule on mutated golden capsules", () => {
  const golden = { P: vector("P"), N: vector("N") };

  test.each(["P", "N"] as const)("%s: 2,500 mutated capsules always yield a well-formed report", (name) => {
    let okCount = 0;
    let stagesRan = 0;
    fc.assert(
      fc.property(fc.array(mutation, { minLength: 1, maxLength: 4 }), fc.boolean(), (mutations, rehash) => {
        const cap = clone(golden[name]);
        for (const m of mutations) apply(cap, m);
        if (rehash) tryRehash(cap);
        const r = verifyCapsule(cap);
        assertWellFormed(r);
        if (r.ok) okCount++;
        if (r.schema.status === "verified") stagesRan++;
      }),
      { numRuns: 2_500, seed: name === "P" ? 20260804 : 20260805 },
    );
    // Sanity: the mutations are not all harmless, and many reach the verification stages.
    expect(stagesRan).toBeGreaterThan(500);
    expect(okCount).toBeLessThan(stagesRan);
  });

  test("arbitrary values and plain JS values yield reports", () => {
    fc.assert(
      fc.property(fc.oneof(jsonValue, fc.anything()), (value) => {
        assertWellFormed(verifyCapsule(value));
      }),
      { numRuns: 1_000, seed: 7 },
    );
  });

  test("hostile JS values: cycles, getters that throw, deep nesting", () => {
    const cyclic: Record<string, unknown> = { content: {}, content_sha256: "0".repeat(64), attestations: [] };
    (cyclic.content as Record<string, unknown>).self = cyclic;
    const cyclicMap = new Map<string, unknown>([["spec_version", null]]);
    cyclicMap.set("spec_version", cyclicMap);
    const throwing = {
      get content(): unknown {
        throw new Error("boom");
      },
    };
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    for (const value of [cyclic, throwing, deep, new Map([["content", cyclicMap]]), undefined, Symbol("s"), () => 1, 10n]) {
      const r = verifyCapsule(value);
      expect(r.ok).toBe(false);
      expect(r.errors.length).toBeGreaterThan(0);
    }
  });

  test("the golden vectors themselves still verify after the fuzzing (no shared state)", () => {
    expect(verifyCapsule(golden.P).ok).toBe(true);
    expect(verifyCapsule(golden.N).ok).toBe(true);
  });
});
