/** capsule-v1 §14 items 45–51: the artifacts stage (inline base64, path artifacts, byte budgets). */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { afterAll, expect, test } from "vitest";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { ArtifactProblem, readArtifactPath } from "../../../capsules/capsule/artifacts.js";
import { describeShared } from "../../helpers/shared.js";
import { c, getAt, inlineBytes, rehash, setAt, vector, verify } from "./helpers.js";

const SAMPLE_DERIVATIONS = [
  "extract-sample-1-artifact-title",
  "extract-sample-1-artifact-url",
  "extract-sample-2-artifact-title",
  "extract-sample-2-artifact-url",
];

describeShared("§14.45 size mismatch", () => {
  test("N artifacts[0].size + 1", () => {
    const cap = vector("N");
    setAt(cap, c("artifacts", 0, "size"), 831);
    const r = verify(rehash(cap));
    expect(r.artifacts.items[0]).toEqual({
      id: "selected-lead-extract",
      status: "failed",
      problems: ["size mismatch"],
      actual_sha256: "f9b5a91590f5bc467edc05153185a005ebc0f3e25751200cea491f91e05dcf5e",
    });
    const pointerItems = r.recomputability.items.filter((x) => x.id !== "ddti-ranking-context");
    for (const item of pointerItems) {
      if (SAMPLE_DERIVATIONS.includes(item.id)) expect(item.status, item.id).toBe("verified");
      else expect(item, item.id).toEqual({ id: item.id, status: "failed", problems: ["input artifact 'selected-lead-extract' did not verify"] });
    }
    expect(pointerItems.filter((x) => x.status === "failed")).toHaveLength(7);
    expect(r.claims.items.map((x) => x.status)).toEqual(["failed", "failed"]);
    expect(r.claims.items[0].problems[0]).toBe("artifact 'selected-lead-extract' did not verify");
    expect(r.errors).toEqual([
      "one or more artifacts failed exact-byte verification",
      "one or more derivation proofs failed",
      "one or more claims have failed evidence references",
    ]);
    expect(r.ok).toBe(false);
  });

  test("sha256 mismatch and size mismatch both appear, in that order", () => {
    const cap = vector("N");
    setAt(cap, c("artifacts", 1, "location", "data"), Buffer.from("{}").toString("base64"));
    const r = verify(rehash(cap));
    expect(r.artifacts.items[1].problems).toEqual(["sha256 mismatch", "size mismatch"]);
    expect(r.artifacts.items[1].actual_sha256).toBe("44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a");
  });
});

const BASE64_CASES: [string, string][] = [
  ["!!!!", "Only base64 data is allowed"],
  ["A B=", "Only base64 data is allowed"],
  ["QQ\n==", "Only base64 data is allowed"],
  ["QQ", "Incorrect padding"],
  ["QQ=", "Incorrect padding"],
  ["Q", "Invalid base64-encoded string: number of data characters (1) cannot be 1 more than a multiple of 4"],
  ["QQ==Q", "Excess data after padding"],
  ["QQ===", "Excess data after padding"],
  ["QQ==\n", "Excess data after padding"],
  ["QUJD=QUJD", "Discontinuous padding not allowed"],
  ["QQ=A", "Discontinuous padding not allowed"],
  ["=QQQ", "Leading padding not allowed"],
  ["é", "string argument should contain only ASCII characters"],
  ["QR==", "Non-zero padding bits"],
  ["QUJ=", "Non-zero padding bits"],
  ["QUJD=", "Excess padding after a complete quantum"],
  ["QUJD==", "Excess padding after a complete quantum"],
  ["QUJD===", "Excess padding after a complete quantum"],
];

describeShared("§14.46 inline base64 in the artifacts stage", () => {
  test.each(BASE64_CASES)("data %j → invalid base64: %s", (data, detail) => {
    const cap = vector("N");
    setAt(cap, c("artifacts", 1, "location", "data"), data);
    const r = verify(rehash(cap));
    expect(r.artifacts.items[1]).toEqual({ id: "cdt-sample-1", status: "failed", problems: [`invalid base64: ${detail}`] });
    expect(r.artifacts.items[0].status).toBe("verified");
    expect(r.artifacts.items[2].status).toBe("verified");
  });

  test('"" is 0 bytes', () => {
    const cap = vector("N");
    setAt(cap, c("artifacts", 1, "location", "data"), "");
    setAt(cap, c("artifacts", 1, "size"), 0);
    setAt(cap, c("artifacts", 1, "sha256"), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    const r = verify(rehash(cap));
    expect(r.artifacts.items[1]).toMatchObject({ status: "verified", problems: [] });
    expect(r.recomputability.items.find((x) => x.id === "extract-sample-1-artifact-title")!.problems[0]).toMatch(/^invalid JSON: /);
  });
});

describeShared("§14.47 total byte budget", () => {
  test("two 8 MiB artifacts exhaust the budget: the third fails, nothing resolves", () => {
    const cap = vector("N");
    const eight = Buffer.alloc(8_388_608, 0x20).toString("base64");
    setAt(cap, c("artifacts", 0, "location", "data"), eight);
    setAt(cap, c("artifacts", 1, "location", "data"), eight);
    const r = verify(rehash(cap));
    expect(r.artifacts.items).toHaveLength(3);
    expect(r.artifacts.items[0].problems).toEqual(["sha256 mismatch", "size mismatch"]);
    expect(r.artifacts.items[1].problems).toEqual(["sha256 mismatch", "size mismatch"]);
    expect(r.artifacts.items[2]).toEqual({ id: "cdt-sample-2", status: "failed", problems: ["total verified artifact bytes exceed the v1 limit"] });
    for (const item of r.recomputability.items) {
      if (item.id === "ddti-ranking-context") continue;
      expect(item.problems[0]).toMatch(/^input artifact '[a-z0-9-]+' did not verify$/);
    }
    expect(r.artifacts.status).toBe("failed");
  });

  test("the loop stops at the failing artifact: later artifacts get no item", () => {
    const cap = vector("N");
    const eight = Buffer.alloc(8_388_608, 0x20).toString("base64");
    for (const i of [0, 1]) {
      setAt(cap, c("artifacts", i, "location", "data"), eight);
      setAt(cap, c("artifacts", i, "size"), 8_388_607); // declared total stays within the schema limit
    }
    setAt(cap, c("artifacts", 2, "size"), 0);
    setAt(cap, c("artifacts", 2, "location", "data"), "");
    const artifacts = getAt(cap, c("artifacts")) as JsonValue[];
    // A fourth artifact that never gets an item: move sample 2 behind a one-byte artifact.
    const extra = new Map(artifacts[2] as JsonObject);
    extra.set("id", "one-byte");
    extra.set("size", 1);
    extra.set("location", new Map<string, JsonValue>([["type", "inline"], ["encoding", "base64"], ["data", "QQ=="]]));
    artifacts.splice(2, 0, extra);
    const r = verify(rehash(cap));
    expect(r.artifacts.items.map((x) => x.id)).toEqual(["selected-lead-extract", "cdt-sample-1", "one-byte"]);
    expect(r.artifacts.items[0].problems).toEqual(["sha256 mismatch", "size mismatch"]);
    expect(r.artifacts.items[2].problems).toEqual(["total verified artifact bytes exceed the v1 limit"]);
  });
});

/** N with `cdt-sample-1` turned into a path artifact. */
function pathCapsule(path: string): JsonObject {
  const cap = vector("N");
  setAt(cap, c("artifacts", 1, "location"), new Map<string, JsonValue>([["type", "path"], ["path", path]]));
  return rehash(cap);
}

describeShared("§14.48–51 path artifacts", () => {
  const tmp = mkdtempSync(join(tmpdir(), "capsule-paths-"));
  const root = join(tmp, "root");
  mkdirSync(join(root, "nested", "deeper"), { recursive: true });
  mkdirSync(join(tmp, "root2"));
  const sample = inlineBytes(vector("N"), 1);
  writeFileSync(join(root, "payload.txt"), sample);
  writeFileSync(join(root, "nested", "file"), sample);
  writeFileSync(join(tmp, "outside"), sample);
  writeFileSync(join(tmp, "root2", "x"), sample);
  symlinkSync(join(tmp, "outside"), join(root, "escape"));
  symlinkSync("../root2/x", join(root, "sibling"));
  symlinkSync("self", join(root, "self"));
  symlinkSync("nested/file", join(root, "inside-link"));
  symlinkSync(".", join(root, "dot-link"));
  writeFileSync(join(root, "big.bin"), Buffer.alloc(8_388_609));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  const problemsOf = (path: string, artifactRoot: string | null = root) =>
    verify(pathCapsule(path), { artifactRoot: artifactRoot ?? undefined }).artifacts.items[1].problems;

  test("§14.48 no artifact root", () => {
    expect(problemsOf("payload.txt", null)).toEqual(["path artifact requires an explicit artifact root"]);
  });

  test("§14.49 a matching file verifies; a changed file fails", () => {
    const r = verify(pathCapsule("payload.txt"), { artifactRoot: root });
    expect(r.artifacts.items[1]).toMatchObject({ status: "verified", problems: [] });
    expect(r.ok).toBe(true);
    const changed = join(root, "changed.txt");
    writeFileSync(changed, sample);
    expect(verify(pathCapsule("changed.txt"), { artifactRoot: root }).ok).toBe(true);
    writeFileSync(changed, Buffer.concat([sample.subarray(0, -1), Buffer.from("X")]));
    const after = verify(pathCapsule("changed.txt"), { artifactRoot: root });
    expect(after.artifacts.items[1].problems).toEqual(["sha256 mismatch"]);
    expect(after.ok).toBe(false);
  });

  test("nested paths verify", () => {
    expect(verify(pathCapsule("nested/file"), { artifactRoot: root }).ok).toBe(true);
  });

  test.each(["../outside", "/outside", "//x", "nested//file", "./a", "a/", "a/./b", "a/../a", ".", "..", "nested/deeper/.."])(
    "§14.50 %j is not a clean relative path",
    (path) => {
      expect(problemsOf(path)).toEqual(["artifact path must be a clean relative path inside the artifact root"]);
    },
  );

  test("§14.50 backslash separators", () => {
    expect(problemsOf("a\\b")).toEqual(["artifact path must use portable '/' separators"]);
  });

  test("§14.50 U+0000 fails only that artifact (D4)", () => {
    const r = verify(pathCapsule("pay\u0000load.txt"), { artifactRoot: root });
    expect(r.artifacts.items[1].problems).toEqual(["artifact path must be a clean relative path inside the artifact root"]);
    expect(r.artifacts.items[0].status).toBe("verified");
    expect(r.artifacts.items[2].status).toBe("verified");
    expect(r.recomputability.items.find((x) => x.id === "extract-ranked-term")!.status).toBe("verified");
    expect(r.errors).not.toContain(expect.stringMatching(/bounded verification stage failed/));
  });

  test("§14.51 a symlink pointing outside escapes", () => {
    expect(problemsOf("escape")).toEqual(["artifact path escapes the artifact root"]);
    expect(problemsOf("sibling")).toEqual(["artifact path escapes the artifact root"]);
  });

  test("§14.51 self-referencing symlink and missing file", () => {
    expect(problemsOf("self")[0]).toMatch(/^artifact path cannot be resolved safely: /);
    expect(problemsOf("missing.txt")[0]).toMatch(/^artifact path cannot be resolved safely: /);
  });

  test("§14.51 a missing artifact root", () => {
    expect(problemsOf("payload.txt", join(tmp, "no-such-root"))[0]).toMatch(/^artifact path cannot be resolved safely: /);
  });

  test("§14.51 directories, including the root itself through a symlink", () => {
    expect(problemsOf("nested")).toEqual(["artifact path is not a regular file"]);
    expect(problemsOf("dot-link")).toEqual(["artifact path is not a regular file"]);
  });

  test("§14.51 an in-root symlink to an in-root file verifies", () => {
    expect(verify(pathCapsule("inside-link"), { artifactRoot: root }).ok).toBe(true);
  });

  test("§14.51 a file over 8 MiB", () => {
    expect(problemsOf("big.bin")).toEqual(["path artifact exceeds the v1 byte limit"]);
  });

  test("readArtifactPath applies the same rules for builders", () => {
    expect(Buffer.from(readArtifactPath(root, "nested/file")).equals(sample)).toBe(true);
    expect(() => readArtifactPath(root, "../outside")).toThrow(ArtifactProblem);
    expect(() => readArtifactPath(root, "escape")).toThrow("artifact path escapes the artifact root");
  });

  test("a relative artifact root is resolved against the working directory", () => {
    const rel = relative(process.cwd(), root);
    expect(rel.startsWith("/")).toBe(false);
    expect(verify(pathCapsule("payload.txt"), { artifactRoot: rel }).artifacts.items[1].status).toBe("verified");
  });
});
