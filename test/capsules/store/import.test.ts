/** `capsule import` library side (capsules/store/import-capsules.ts): verify everything first, then seal. */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { ImportError, importCandidates, readImportCandidate } from "../../../capsules/store/import-capsules.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { buildCapsule, serializeCapsule } from "../../../capsules/capsule/build.js";
import { sha256Hex } from "../../../src/hash.js";
import { snapshot, syntheticCapsule, tempHome } from "./synthetic.js";
import { storable } from "../../helpers/storable.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});
function dir(tag: string): string {
  const h = tempHome(tag);
  homes.push(h);
  mkdirSync(h, { recursive: true });
  return h;
}

function importError(fn: () => unknown): ImportError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError);
    return e as ImportError;
  }
  throw new Error("expected an ImportError");
}

describe("readImportCandidate", () => {
  test("reads, loads and verifies; names the file in every refusal", () => {
    const d = dir("cand");
    const c = syntheticCapsule(1);
    writeFileSync(join(d, "good.json"), c.bytes);
    expect(readImportCandidate(join(d, "good.json")).capsule.id).toBe(c.id);
    writeFileSync(join(d, "text.json"), "hello");
    expect(importError(() => readImportCandidate(join(d, "text.json"))).message).toMatch(
      new RegExp(`^${join(d, "text.json")}: not a capsule file: invalid JSON: `),
    );
    writeFileSync(join(d, "array.json"), "[]");
    expect(importError(() => readImportCandidate(join(d, "array.json"))).message).toBe(
      `${join(d, "array.json")}: not a capsule file: capsule envelope must be a JSON object`,
    );
    const tampered = Buffer.from(c.bytes).toString().replace("Synthetic lead", "Synthetic LEAD");
    writeFileSync(join(d, "tampered.json"), tampered);
    expect(importError(() => readImportCandidate(join(d, "tampered.json"))).message).toBe(
      `${join(d, "tampered.json")}: capsule does not verify: content_sha256 does not match canonical content`,
    );
    expect(importError(() => readImportCandidate(join(d, "absent.json"))).message).toBe(`${join(d, "absent.json")}: capsule cannot be read: ENOENT`);
  });
});

describe("path artifacts", () => {
  test("a capsule with a path artifact verifies, and imports, only with an artifact root", () => {
    const d = dir("path");
    const root = join(d, "root");
    mkdirSync(root);
    const artifact = Buffer.from('{"observed":"bytes"}');
    writeFileSync(join(root, "artifact.json"), artifact);
    const content = {
      spec_version: "palimpsest-evidence-capsule/v1",
      canonicalization: "palimpsest-json-sorted-utf8-v1",
      created_at: "2026-08-20T09:00:00Z",
      producer: { name: "store-test", software: "synthetic/v1" },
      subject: { type: "evidence-set", id: "path-artifact", title: "Path artifact" },
      artifacts: [
        {
          id: "a",
          sha256: sha256Hex(artifact),
          size: artifact.length,
          media_type: "application/json",
          source: { uri: "urn:test:a", captured_at: "2026-08-20T09:00:00Z", collector: "test" },
          untrusted: true,
          location: { type: "path", path: "artifact.json" },
        },
      ],
      claims: [
        { id: "c", type: "observation", statement: "S.", artifact_refs: ["a"], derivation_refs: [], binding_refs: [], evidence_level: "direct", limitations: [] },
      ],
      derivations: [],
      intents: [],
      bindings: [],
    };
    const capsule = buildCapsule(content);
    writeFileSync(join(d, "path.json"), serializeCapsule(capsule));
    expect(importError(() => readImportCandidate(join(d, "path.json"))).message).toMatch(/capsule does not verify: .*artifacts failed/);
    expect(readImportCandidate(join(d, "path.json"), { artifactRoot: root }).capsule.id).toBe(capsule.content_sha256);
  });
});

describe("importCandidates", () => {
  test("duplicates with equal bytes are stored once; conflicts are refused before anything is written", async () => {
    const d = dir("imp");
    const home = join(d, "home");
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const [a, b] = [1, 2].map((i) => syntheticCapsule(i));
    const ca = { file: "a.json", capsule: storable(a.bytes, a.id) };
    const cb = { file: "b.json", capsule: storable(b.bytes, b.id) };
    const progress: string[] = [];
    const results = importCandidates(store, [ca, cb, { ...ca, file: "a-copy.json" }], (done, total) => progress.push(`${done}/${total}`));
    expect(results.map((r) => [r.id, r.stored, r.file])).toEqual([
      [a.id, "new", "a.json"],
      [b.id, "new", "b.json"],
    ]);
    expect(progress).toEqual(["2/2"]);
    const c = syntheticCapsule(3);
    const before = snapshot(home);
    const prettyA = { file: "a-pretty.json", capsule: storable(a.prettyBytes, a.id) };
    expect(importError(() => importCandidates(store, [{ file: "c.json", capsule: storable(c.bytes, c.id) }, prettyA])).message).toBe(
      `a-pretty.json: capsule ${a.id} is already stored with different bytes; the stored copy is kept`,
    );
    const prettyC = { file: "c-pretty.json", capsule: storable(c.prettyBytes, c.id) };
    expect(importError(() => importCandidates(store, [{ file: "c.json", capsule: storable(c.bytes, c.id) }, prettyC])).message).toBe(
      `c-pretty.json: capsule ${c.id} has different bytes than c.json (same content_sha256)`,
    );
    expect(snapshot(home)).toEqual(before);
  });
});
