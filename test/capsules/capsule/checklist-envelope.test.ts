/** capsule-v1 §14 items 14 and 18–27: envelope, integrity and attestations. */
import { expect, test } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import { JsonFloat, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { serializeReport } from "../../../capsules/capsule/report.js";
import { describeShared, readShared } from "../../helpers/shared.js";
import { c, contentHash, expectedReport, schemaFailedSections, setAt, vector, verify } from "./helpers.js";

const FLOAT_MSG = "content.derivations[0].proof.expected: floats are forbidden in hashed content; encode decimals as strings";

function attestation(target: string, extra: [string, JsonValue][] = []): JsonObject {
  return new Map<string, JsonValue>([
    ["type", "statement-v1"],
    ["content_sha256", target],
    ["actor", "reviewer@example"],
    ["issued_at", "2026-08-05T10:00:00Z"],
    ["statement", "I looked at this capsule."],
    ...extra,
  ]);
}

describeShared("§14.14 floats in content", () => {
  test.each(["1.0", "1e2"])("proof.expected %s (no rehash) fails schema and integrity with the same message", (token) => {
    const cap = vector("N");
    const declared = cap.get("content_sha256");
    setAt(cap, c("derivations", 0, "proof", "expected"), parseStrictJson(token));
    const r = verify(cap);
    expect(schemaFailedSections(r)).toBe(true);
    expect(r.integrity).toEqual({ status: "failed", expected: declared, actual: null });
    expect(r.errors).toEqual([FLOAT_MSG, FLOAT_MSG]);
  });

  test("N with size 5.0 (no rehash)", () => {
    const cap = vector("N");
    setAt(cap, c("artifacts", 0, "size"), new JsonFloat(5, "5.0"));
    const r = verify(cap);
    expect(r.errors).toEqual([
      "content.artifacts[0].size: expected integer in [0, 8388608]",
      "content.artifacts[0].size: floats are forbidden in hashed content; encode decimals as strings",
    ]);
    expect(r.integrity).toEqual({ status: "failed", expected: cap.get("content_sha256"), actual: null });
  });
});

describeShared("§14.18–21 envelope shape", () => {
  test("§14.18 capsule 5", () => {
    const r = verify(5);
    expect(r.errors).toEqual(["capsule: expected object"]);
    expect(r.integrity).toEqual({ status: "unsupported", expected: "", actual: null });
    expect(schemaFailedSections(r)).toBe(true);
  });

  test("§14.19 extra envelope member", () => {
    const cap = vector("N");
    cap.set("x", 1);
    const r = verify(cap);
    expect(r.errors).toEqual(["capsule: unknown field(s): x"]);
    expect(r.integrity.status).toBe("unsupported");
  });

  test("§14.20 content 5", () => {
    const cap = vector("N");
    cap.set("content", 5);
    const r = verify(cap);
    expect(r.errors).toEqual(["content: expected object"]);
    expect(r.integrity).toEqual({ status: "unsupported", expected: "", actual: null });
  });

  test("§14.21 the canonicalization vector is not a capsule", () => {
    const r = verify(parseStrictJson(readShared("data", "capsule-v1", "test-vectors", "canonicalization-v1.json")));
    expect(schemaFailedSections(r)).toBe(true);
    expect(r.integrity).toEqual({ status: "unsupported", expected: "", actual: null });
    expect(r.attestations).toEqual({
      status: "not_present",
      count: 0,
      meaning: "attestations target content_sha256 but v1 does not authenticate actors",
    });
    expect(r.errors).toEqual(["capsule: missing field(s): attestations, content, content_sha256"]);
  });
});

describeShared("§14.22–24 integrity", () => {
  test("§14.22 uppercase content_sha256", () => {
    const cap = vector("N");
    const real = cap.get("content_sha256") as string;
    cap.set("content_sha256", real.toUpperCase());
    const r = verify(cap);
    expect(r.errors).toEqual(["content_sha256: expected lowercase sha256 hex", "content_sha256 does not match canonical content"]);
    expect(r.integrity).toEqual({ status: "failed", expected: "", actual: real });
  });

  test("§14.23 all-zero content_sha256: stages run and pass, ok false", () => {
    const cap = vector("N");
    const real = cap.get("content_sha256");
    cap.set("content_sha256", "0".repeat(64));
    const r = verify(cap);
    expect(r.schema.status).toBe("verified");
    expect(r.integrity).toEqual({ status: "failed", expected: "0".repeat(64), actual: real });
    expect(r.artifacts.status).toBe("verified");
    expect(r.recomputability.status).toBe("partial");
    expect(r.claims.status).toBe("references_partially_recomputable");
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual(["content_sha256 does not match canonical content"]);
  });

  test("§14.24 P with a tampered statement (no rehash): only integrity differs from the golden report", () => {
    const cap = vector("P");
    setAt(cap, c("claims", 0, "statement"), "tampered");
    const r = verify(cap);
    expect(r.ok).toBe(false);
    expect(r.integrity.status).toBe("failed");
    expect(r.errors).toEqual(["content_sha256 does not match canonical content"]);
    const golden = JSON.parse(expectedReport("P"));
    for (const s of ["schema", "artifacts", "ledger", "anchor", "recomputability", "claims", "attestations"] as const) {
      expect(JSON.parse(serializeReport(r))[s], s).toEqual(golden[s]);
    }
  });
});

describeShared("§14.25–27 attestations", () => {
  test("§14.25 a valid statement-v1 attestation: ok, hash unchanged, bound_not_authenticated", () => {
    const cap = vector("N");
    const hash = cap.get("content_sha256") as string;
    cap.set("attestations", [attestation(hash)]);
    const r = verify(cap);
    expect(r.ok).toBe(true);
    expect(contentHash(cap)).toBe(hash);
    expect(r.integrity.actual).toBe(hash);
    expect(r.attestations).toMatchObject({ status: "bound_not_authenticated", count: 1 });
  });

  test("§14.26 attestation targeting another capsule", () => {
    const cap = vector("N");
    cap.set("attestations", [attestation("1".repeat(64))]);
    const r = verify(cap);
    expect(r.errors).toEqual(["attestations[0].content_sha256: does not target this capsule"]);
    expect(r.attestations).toMatchObject({ status: "failed", count: 1 });
    expect(schemaFailedSections(r)).toBe(true);
    expect(r.integrity.status).toBe("verified");
  });

  test("§14.26 attestation type signature-v1", () => {
    const cap = vector("N");
    const a = attestation(cap.get("content_sha256") as string);
    a.set("type", "signature-v1");
    cap.set("attestations", [a]);
    expect(verify(cap).errors).toEqual(["attestations[0].type: unknown attestation type 'signature-v1'"]);
  });

  test("§14.26 attestation with an extra member", () => {
    const cap = vector("N");
    cap.set("attestations", [attestation(cap.get("content_sha256") as string, [["signature", "x"]])]);
    expect(verify(cap).errors).toEqual(["attestations[0]: unknown field(s): signature"]);
  });

  test("§14.27 attestations {}", () => {
    const cap = vector("N");
    cap.set("attestations", new Map());
    const r = verify(cap);
    expect(r.errors).toEqual(["attestations: expected array"]);
    expect(r.attestations).toMatchObject({ status: "not_present", count: 0 });
  });

  test("§14.27 65 attestations", () => {
    const cap = vector("N");
    const hash = cap.get("content_sha256") as string;
    cap.set("attestations", Array.from({ length: 65 }, () => attestation(hash)));
    const r = verify(cap);
    expect(r.errors).toEqual(["attestations: exceeds 64 items"]);
    expect(r.attestations).toMatchObject({ status: "failed", count: 65 });
  });

  test("§14.27 invalid content + 1 attestation → failed, 1", () => {
    const cap = vector("N");
    cap.set("attestations", [attestation(cap.get("content_sha256") as string)]);
    setAt(cap, c("subject", "type"), "rumour");
    const r = verify(cap);
    expect(r.errors[0]).toBe("content.subject.type: unknown subject type 'rumour'");
    expect(r.attestations).toMatchObject({ status: "failed", count: 1 });
  });

  test("§14.27 uppercase hash + 1 attestation → not_present, 0", () => {
    const cap = vector("N");
    const hash = cap.get("content_sha256") as string;
    cap.set("attestations", [attestation(hash)]);
    cap.set("content_sha256", hash.toUpperCase());
    expect(verify(cap).attestations).toMatchObject({ status: "not_present", count: 0 });
  });
});
