/**
 * Golden vectors and conformance data: exact reports (capsule-v1 §10.8, §14 item 73), golden capsule facts
 * (§13.2), capsule file round trip (§11.2) and the conformance manifest (§13.3, §14 item 17).
 */
import { expect, test } from "vitest";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { sha256Hex } from "../../../src/hash.js";
import { buildCapsule, serializeCapsule } from "../../../capsules/capsule/build.js";
import { serializeReport } from "../../../capsules/capsule/report.js";
import { describeShared, readShared, sharedPath } from "../../helpers/shared.js";
import { expectedReport, vector, vectorBytes, verify } from "./helpers.js";

describeShared("§10.8 exact reports for the golden capsules", () => {
  test("palimpsest-erasure-v1 (no artifact root needed: every artifact is inline)", () => {
    const report = verify(vector("P"));
    expect(serializeReport(report)).toBe(expectedReport("P"));
    expect(report.ok).toBe(true);
    expect(report.errors).toEqual([]);
  });

  test("palimpsest-erasure-v1 with the adapter fixture as artifact root gives the same bytes", () => {
    const root = sharedPath("data", "capsule-v1", "test-vectors", "palimpsest-adapter-v1");
    expect(serializeReport(verify(vector("P"), { artifactRoot: root }))).toBe(expectedReport("P"));
  });

  test("nemesis-ddti-v1", () => {
    const report = verify(vector("N"));
    expect(serializeReport(report)).toBe(expectedReport("N"));
    expect(report.ok).toBe(true);
  });

  test("member order is part of conformance: the same members in another order are not byte-identical", () => {
    const report = verify(vector("N"));
    const { ok, ok_scope, ...rest } = report;
    expect(serializeReport({ ok_scope, ok, ...rest } as typeof report)).not.toBe(expectedReport("N"));
  });

  test("§14.73 P report fields", () => {
    const r = verify(vector("P"));
    expect(r.ledger.items[0]).toMatchObject({
      entry_integrity: "verified",
      membership: "verified",
      chain_integrity: "not_verifiable_from_capsule",
      seq: 120,
      root: "e6deb2467dd47e1916e9dbaf307f21248329c74e71e9d3cacec25a739edc9d32",
    });
    expect(r.anchor.status).toBe("envelope_bound");
    expect(r.anchor.items[0].cryptographic_timestamp).toBe("not_verified");
    expect(r.anchor.items[0].structure).toEqual({ nodes: 31, attestations: 3 });
    expect(r.claims.items[0].binding_refs).toEqual(["reading-membership"]);
    expect(r.claims.items.every((x) => x.natural_language_truth === "not_evaluated")).toBe(true);
  });
});

describeShared("§13.2 golden capsules", () => {
  test.each([
    ["P", "c887abd3016e432359ab1d4b7d54896211ed5483ad2bc91434eb3cd74bbbe721", [3375, 579, 543]],
    ["N", "0c84a1cc37ff55952696e8dc68bf6c1eb9b22e3b47ba11fcd5bf790c540087e7", [830, 175]],
  ] as const)("%s content hash and artifact sizes", (name, hash, sizes) => {
    const cap = vector(name);
    expect(sha256Hex(canonicalBytes(cap.get("content")))).toBe(hash);
    expect(cap.get("content_sha256")).toBe(hash);
    const artifacts = (cap.get("content") as JsonObject).get("artifacts") as JsonObject[];
    sizes.forEach((size, i) => expect(artifacts[i].get("size")).toBe(size));
  });

  test.each(["P", "N"] as const)("§11.2 %s: rebuilding and serialising reproduces the file byte for byte", (name) => {
    const cap = vector(name);
    const built = buildCapsule(cap.get("content"), cap.get("attestations"));
    expect(built.content_sha256).toBe(cap.get("content_sha256"));
    const file = name === "P" ? "palimpsest-erasure-v1.json" : "nemesis-ddti-v1.json";
    expect(serializeCapsule(built)).toBe(vectorBytes(file).toString("utf8"));
    expect(Object.keys(built)).toEqual(["content", "content_sha256", "attestations"]);
  });
});

describeShared("§13.3 conformance manifest", () => {
  const manifest = () => parseStrictJson(readShared("data", "capsule-v1", "conformance-v1.json")) as JsonObject;
  const releaseId = (files: unknown) => `sha256:${sha256Hex(canonicalBytes(files, "files"))}`;
  const SHIPPED: Record<string, string[]> = {
    "protocol/evidence-capsule-v1.schema.json": ["evidence-capsule-v1.schema.json"],
  };
  const localPath = (logical: string): string[] | undefined =>
    SHIPPED[logical] ?? (logical.startsWith("test-vectors/") ? ["test-vectors", logical.slice("test-vectors/".length)] : undefined);

  test("member set and fixed values", () => {
    const m = manifest();
    expect([...m.keys()].sort()).toEqual(["conformance_release", "files", "hash_algorithm", "spec_version"]);
    expect(m.get("spec_version")).toBe("palimpsest-evidence-capsule/v1");
    expect(m.get("hash_algorithm")).toBe("sha256");
  });

  test("release id = sha256 of the canonical files object", () => {
    const m = manifest();
    expect(m.get("conformance_release")).toBe("sha256:1be9eb9a6390aa8427424f01cfc8a69c4614115b6bf5bb0120616c2351dbe1c3");
    expect(releaseId(m.get("files"))).toBe(m.get("conformance_release"));
  });

  test("the five shipped files hash as listed", () => {
    const files = manifest().get("files") as JsonObject;
    const checked: string[] = [];
    for (const [logical, hash] of files) {
      const rel = localPath(logical);
      if (rel === undefined) continue; // protocol/evidence-capsule-v1.md is not shipped; verifier/capsule.py below
      expect(sha256Hex(readShared("data", "capsule-v1", ...rel)), logical).toBe(hash);
      checked.push(logical);
    }
    expect(checked).toHaveLength(5);
  });

  test("verifier/capsule.py pins the reference verifier listed in verifier-v1.sha256", () => {
    const files = manifest().get("files") as JsonObject;
    const line = readShared("data", "capsule-v1", "test-vectors", "verifier-v1.sha256").toString("utf8");
    expect(line).toMatch(/^[0-9a-f]{64}\n$/);
    expect(files.get("verifier/capsule.py")).toBe(line.trim());
  });

  test("§14.17 any altered files hash changes the release id", () => {
    const m = manifest();
    const files = m.get("files") as JsonObject;
    for (const key of files.keys()) {
      const altered = new Map(files);
      const h = altered.get(key) as string;
      altered.set(key, (h[0] === "0" ? "1" : "0") + h.slice(1));
      expect(releaseId(altered), key).not.toBe(m.get("conformance_release"));
    }
  });
});
