/** capsule-v1 §14 items 72 and 74, and the builder API (§11.1, §11.2). */
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test, vi } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import { sha256Hex } from "../../../src/hash.js";
import { JsonFloat, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { buildCapsule, CapsuleBuildError, serializeCapsule } from "../../../capsules/capsule/build.js";
import { loadCapsuleBytes } from "../../../capsules/capsule/load.js";
import { describeShared } from "../../helpers/shared.js";
import { c, clone, getAt, setAt, vector, verify } from "./helpers.js";

/** Loose shape of test content: arrays whose items the tests edit freely. */
type Item = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
interface TestContent {
  artifacts: Item[];
  claims: Item[];
  derivations: Item[];
  [key: string]: unknown;
}

/** A minimal valid content with one inline artifact, as plain JS values. */
function plainContent(bytes: Buffer, extra: Record<string, unknown> = {}): TestContent {
  return {
    spec_version: "palimpsest-evidence-capsule/v1",
    canonicalization: "palimpsest-json-sorted-utf8-v1",
    created_at: "2026-08-05T10:00:00Z",
    producer: { name: "evidence-bridge tests", software: "evidence-bridge/test" },
    subject: { type: "evidence-set", id: "test:1", title: "Builder test" },
    artifacts: [
      {
        id: "payload",
        sha256: sha256Hex(bytes),
        size: bytes.length,
        media_type: "text/plain",
        source: { uri: "https://example.invalid/payload", captured_at: "2026-08-05T09:00:00Z", collector: "test" },
        untrusted: true,
        location: { type: "inline", encoding: "base64", data: bytes.toString("base64") },
      },
    ],
    claims: [
      {
        id: "seen",
        type: "observation",
        statement: "The payload was observed.",
        artifact_refs: ["payload"],
        derivation_refs: [],
        binding_refs: [],
        evidence_level: "direct",
        limitations: [],
      },
    ],
    derivations: [],
    intents: [{ type: "preserve", summary: "Keep the bytes.", advisory: true }],
    bindings: [],
    ...extra,
  };
}


describe("§14.72 inert data", () => {
  const dir = mkdtempSync(join(tmpdir(), "capsule-inert-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a shell command and a URL in an artifact are bytes: ok, no network, no process, no marker", () => {
    const marker = join(dir, "marker");
    const payload = Buffer.from(`touch ${marker}\nhttps://example.invalid/payload`);
    const connect = vi.spyOn(net.Socket.prototype, "connect");
    const fetchSpy = vi.fn();
    const realFetch = globalThis.fetch;
    globalThis.fetch = fetchSpy as unknown as typeof fetch;
    try {
      const capsule = buildCapsule(plainContent(payload));
      const report = verify(loadCapsuleBytes(Buffer.from(serializeCapsule(capsule))));
      expect(report.ok).toBe(true);
      expect(report.artifacts.items[0].actual_sha256).toBe(sha256Hex(payload));
    } finally {
      globalThis.fetch = realFetch;
    }
    expect(connect).not.toHaveBeenCalled();
    expect(fetchSpy).not.toHaveBeenCalled();
    connect.mockRestore();
    expect(existsSync(marker)).toBe(false);
  });
});

describe("§14.74 builder", () => {
  test("65 artifacts → content.artifacts: exceeds 64 items", () => {
    const content = plainContent(Buffer.from("x"));
    content.artifacts = Array.from({ length: 65 }, (_, i) => ({ ...content.artifacts[0], id: `a${i}` }));
    expect(() => buildCapsule(content)).toThrow(new CapsuleBuildError("content.artifacts: exceeds 64 items"));
  });

  test("a float 1.5 as proof.expected → the float message", () => {
    const content = plainContent(Buffer.from('{"a":1.5}'), {
      derivations: [
        {
          id: "read-a",
          type: "extraction",
          description: "Read /a.",
          input_artifact_refs: ["payload"],
          supports_claim_refs: ["seen"],
          proof: { type: "json-pointer-equals-v1", artifact_ref: "payload", pointer: "/a", expected: 1.5 },
        },
      ],
    });
    content.claims[0].derivation_refs = ["read-a"];
    expect(() => buildCapsule(content)).toThrow(
      new CapsuleBuildError(
        "content.derivations[0].proof.expected: floats are forbidden in hashed content; encode decimals as strings",
      ),
    );
    for (const bad of [Number.NaN, Infinity, -Infinity]) {
      (content.derivations[0].proof as { expected: unknown }).expected = bad;
      expect(() => buildCapsule(content)).toThrow("content.derivations[0].proof.expected: floats are forbidden");
    }
    (content.derivations[0].proof as { expected: unknown }).expected = 2 ** 53;
    expect(() => buildCapsule(content)).toThrow(
      "content.derivations[0].proof.expected: integer exceeds the I-JSON interoperable range",
    );
    (content.derivations[0].proof as { expected: unknown }).expected = "1.5";
    expect(verify(buildCapsule(content)).recomputability.items[0].problems).toEqual([
      "JSON pointer value does not equal expected value",
    ]);
  });

  test("the output of a valid build verifies with ok true", () => {
    const built = buildCapsule(plainContent(Buffer.from("hello")));
    expect(verify(built).ok).toBe(true);
    expect(Object.keys(built)).toEqual(["content", "content_sha256", "attestations"]);
    expect(built.attestations).toEqual([]);
  });
});

describe("builder API", () => {
  test("plain JS content and value-model content hash the same", () => {
    const plain = plainContent(Buffer.from("same"));
    const model = parseStrictJson(JSON.stringify(plain));
    expect(buildCapsule(plain).content_sha256).toBe(buildCapsule(model).content_sha256);
  });

  test("the first failure is thrown with the verifier's message", () => {
    const content = plainContent(Buffer.from("x"));
    (content as Record<string, unknown>).spec_version = "palimpsest-evidence-capsule/v2";
    content.claims[0].type = "rumour";
    expect(() => buildCapsule(content)).toThrow("content.spec_version: unsupported version 'palimpsest-evidence-capsule/v2'");
    expect(() => buildCapsule(5)).toThrow(new CapsuleBuildError("content: expected object"));
    expect(() => buildCapsule(null)).toThrow(new CapsuleBuildError("content: expected object"));
  });

  test("values outside JSON are named", () => {
    const content = plainContent(Buffer.from("{}"), {
      derivations: [
        {
          id: "read",
          type: "extraction",
          description: "Read.",
          input_artifact_refs: ["payload"],
          supports_claim_refs: ["seen"],
          proof: { type: "json-pointer-equals-v1", artifact_ref: "payload", pointer: "", expected: undefined },
        },
      ],
    });
    content.claims[0].derivation_refs = ["read"];
    expect(() => buildCapsule(content)).toThrow("content.derivations[0].proof.expected: unsupported JSON value undefined");
    (content.derivations[0].proof as { expected: unknown }).expected = new Date(0);
    expect(() => buildCapsule(content)).toThrow("content.derivations[0].proof.expected: unsupported JSON value Date");
  });

  test("attestations are validated against the computed hash", () => {
    const content = plainContent(Buffer.from("x"));
    const hash = buildCapsule(content).content_sha256;
    const att = { type: "statement-v1", content_sha256: hash, actor: "me", issued_at: "2026-08-05T10:00:00Z", statement: "seen" };
    const built = buildCapsule(content, [att]);
    expect(verify(built).attestations).toMatchObject({ status: "bound_not_authenticated", count: 1 });
    expect(() => buildCapsule(content, [{ ...att, content_sha256: "0".repeat(64) }])).toThrow(
      "attestations[0].content_sha256: does not target this capsule",
    );
    expect(() => buildCapsule(content, {})).toThrow("attestations: expected array");
  });

  test("content nested 32 deep inside content would not load back from the file, so the builder refuses it", () => {
    const nested = (n: number) => {
      let v: unknown = "x";
      for (let i = 0; i < n; i++) v = [v];
      return v;
    };
    const withExpected = (value: unknown) => {
      const content = plainContent(Buffer.from("{}"), {
        derivations: [
          {
            id: "read",
            type: "extraction",
            description: "Read.",
            input_artifact_refs: ["payload"],
            supports_claim_refs: ["seen"],
            proof: { type: "json-pointer-equals-v1", artifact_ref: "payload", pointer: "", expected: value },
          },
        ],
      });
      content.claims[0].derivation_refs = ["read"];
      return content;
    };
    // content, derivations, derivations[0] and proof enclose `expected`: 4 + 28 arrays = 32 containers in content.
    expect(() => buildCapsule(withExpected(nested(28)))).toThrow(
      new CapsuleBuildError(`content.derivations[0].proof.expected${"[0]".repeat(28)}: JSON nesting exceeds 32`),
    );
    const fits = buildCapsule(withExpected(nested(27)));
    expect(loadCapsuleBytes(Buffer.from(serializeCapsule(fits))).get("content_sha256")).toBe(fits.content_sha256);
  });

  test("serializeCapsule keeps Map order, integer-like keys included, with 2-space indentation and LF", () => {
    const content = parseStrictJson(JSON.stringify(plainContent(Buffer.from("x")))) as JsonObject;
    const built = buildCapsule(content);
    const text = serializeCapsule(built);
    expect(text.endsWith("}\n")).toBe(true);
    expect(text.startsWith('{\n  "content": {\n    "spec_version": ')).toBe(true);
    expect(loadCapsuleBytes(Buffer.from(text)).get("content_sha256")).toBe(built.content_sha256);
    const ordered = new Map<string, JsonValue>([
      ["b", 1],
      ["10", 2],
      ["2", [true, null, new Map(), []]],
    ]);
    expect(serializeCapsule(ordered)).toBe('{\n  "b": 1,\n  "10": 2,\n  "2": [\n    true,\n    null,\n    {},\n    []\n  ]\n}\n');
    expect(serializeCapsule(new Map([["f", new JsonFloat(1e16)]]))).toBe('{\n  "f": 1e+16\n}\n');
    expect(() => serializeCapsule(new Map([["u", undefined as unknown as JsonValue]]))).toThrow(CapsuleBuildError);
  });
});

describeShared("builder over the golden vectors", () => {
  test("mutating a golden capsule's content and rebuilding yields a capsule that verifies", () => {
    const cap = vector("N");
    setAt(cap, c("subject", "title"), "Another title, non-ASCII: é 😀");
    const built = buildCapsule(clone(getAt(cap, ["content"])));
    expect(verify(loadCapsuleBytes(Buffer.from(serializeCapsule(built)))).ok).toBe(true);
  });
});
