/** capsule-v1 §14 items 28–44: structure rules (§7), rehashed after each mutation unless stated. */
import { describe, expect, test } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import type { VerificationReport } from "../../../capsules/capsule/report.js";
import { describeShared } from "../../helpers/shared.js";
import { c, clone, getAt, j, rehash, schemaFailedSections, setAt, vector, verify, type PathSeg } from "./helpers.js";

/** Mutates a golden vector at `path` and verifies (rehashing unless told not to). */
function mutated(name: "P" | "N", path: PathSeg[], value: JsonValue | undefined, opts = { rehash: true }): VerificationReport {
  const cap = vector(name);
  setAt(cap, path, value);
  if (opts.rehash) rehash(cap);
  return verify(cap);
}

/** A rehashed schema failure: exactly one error, the given message, and the not-evaluated sections. */
function expectSchemaError(r: VerificationReport, message: string): void {
  expect(r.errors).toEqual([message]);
  expect(schemaFailedSections(r)).toBe(true);
}

describeShared("§14.28 versions", () => {
  test("spec_version v2 → unsupported version, integrity unsupported", () => {
    const r = mutated("N", c("spec_version"), "palimpsest-evidence-capsule/v2");
    expectSchemaError(r, "content.spec_version: unsupported version 'palimpsest-evidence-capsule/v2'");
    expect(r.integrity.status).toBe("unsupported");
    expect(r.integrity.actual).toBeNull();
  });
  test("canonicalization mystery-json-v9 → unsupported algorithm, integrity unsupported", () => {
    const r = mutated("N", c("canonicalization"), "mystery-json-v9");
    expectSchemaError(r, "content.canonicalization: unsupported algorithm 'mystery-json-v9'");
    expect(r.integrity.status).toBe("unsupported");
  });
});

describeShared("§14.29 proof type", () => {
  test("shell-proof-v1 → unknown proof", () => {
    expectSchemaError(
      mutated("N", c("derivations", 0, "proof", "type"), "shell-proof-v1"),
      "content.derivations[0].proof.type: unknown proof 'shell-proof-v1'",
    );
  });
  test("missing proof type → unknown proof None", () => {
    expectSchemaError(mutated("N", c("derivations", 0, "proof", "type"), undefined), "content.derivations[0].proof.type: unknown proof None");
  });
  test("proof not an object", () => {
    expectSchemaError(mutated("N", c("derivations", 0, "proof"), "x"), "content.derivations[0].proof: expected object");
  });
});

describeShared("§14.30 intents", () => {
  test("type execute", () => {
    expectSchemaError(mutated("N", c("intents", 0, "type"), "execute"), "content.intents[0].type: unknown/non-advisory action 'execute'");
  });
  test("type {} (no rehash)", () => {
    const r = mutated("N", c("intents", 0, "type"), new Map(), { rehash: false });
    expect(r.errors[0]).toBe("content.intents[0].type: unknown/non-advisory action {}");
    expect(r.errors[1]).toBe("content_sha256 does not match canonical content");
  });
  test("type null", () => {
    expectSchemaError(mutated("N", c("intents", 0, "type"), null), "content.intents[0].type: unknown/non-advisory action None");
  });
  test("extra action member", () => {
    expectSchemaError(mutated("N", c("intents", 0, "action"), "open-url"), "content.intents[0]: unknown field(s): action");
  });
  test.each([false, 1, "true"])("advisory %j", (v) => {
    expectSchemaError(mutated("N", c("intents", 0, "advisory"), v), "content.intents[0].advisory: v1 intents must be true");
  });
});

describeShared("§14.31 non-array collections (no rehash)", () => {
  for (const member of ["artifacts", "derivations", "bindings"]) {
    test.each([null, 1, true])(`content.${member} = %j`, (v) => {
      const r = mutated("N", c(member), v, { rehash: false });
      expect(r.errors).toEqual([`content.${member}: expected array`, "content_sha256 does not match canonical content"]);
      expect(r.integrity.status).toBe("failed");
      expect(schemaFailedSections(r)).toBe(true);
    });
  }
});

describeShared("§14.32 collection sizes", () => {
  test("0 artifacts", () => {
    expectSchemaError(mutated("N", c("artifacts"), []), "content.artifacts: at least one exact artifact is required");
  });
  test("65 artifacts", () => {
    const cap = vector("N");
    const a = getAt(cap, c("artifacts", 0)) as JsonObject;
    setAt(cap, c("artifacts"), Array.from({ length: 65 }, () => clone(a)));
    expectSchemaError(verify(rehash(cap)), "content.artifacts: exceeds 64 items");
  });
  test("0 claims", () => {
    expectSchemaError(mutated("N", c("claims"), []), "content.claims: at least one typed claim is required");
  });
  test("three artifacts declaring 8,388,608 bytes each", () => {
    const cap = vector("N");
    for (const i of [0, 1, 2]) setAt(cap, c("artifacts", i, "size"), 8_388_608);
    expectSchemaError(verify(rehash(cap)), "content.artifacts: declared bytes exceed 16777216");
  });
  test("129 claims / 129 derivations / 33 intents / 33 bindings", () => {
    const cap = vector("N");
    const d = getAt(cap, c("derivations", 0));
    setAt(cap, c("derivations"), Array.from({ length: 129 }, () => clone(d)));
    expectSchemaError(verify(rehash(cap)), "content.derivations: exceeds 128 items");
    const cap2 = vector("N");
    setAt(cap2, c("claims"), Array.from({ length: 129 }, () => clone(getAt(cap2, c("claims", 0)))));
    expectSchemaError(verify(rehash(cap2)), "content.claims: exceeds 128 items");
    const cap3 = vector("N");
    setAt(cap3, c("intents"), Array.from({ length: 33 }, () => clone(getAt(cap3, c("intents", 0)))));
    expectSchemaError(verify(rehash(cap3)), "content.intents: exceeds 32 items");
    const cap4 = vector("P");
    setAt(cap4, c("bindings"), Array.from({ length: 33 }, () => clone(getAt(cap4, c("bindings", 0)))));
    expectSchemaError(verify(rehash(cap4)), "content.bindings: exceeds 32 items");
  });
});

describeShared("§14.33 artifact fields", () => {
  test.each([true, 8_388_609, -1, "5"])("size %j", (v) => {
    expectSchemaError(mutated("N", c("artifacts", 0, "size"), v), "content.artifacts[0].size: expected integer in [0, 8388608]");
  });
  test.each([1, 0, "true", null])("untrusted %j", (v) => {
    expectSchemaError(mutated("N", c("artifacts", 0, "untrusted"), v), "content.artifacts[0].untrusted: expected boolean");
  });
  test("media_type json", () => {
    expectSchemaError(mutated("N", c("artifacts", 0, "media_type"), "json"), "content.artifacts[0].media_type: invalid media type");
  });
  test("id Selected", () => {
    expectSchemaError(mutated("N", c("artifacts", 0, "id"), "Selected"), "content.artifacts[0].id: invalid identifier");
  });
  test("repeated id", () => {
    expectSchemaError(
      mutated("N", c("artifacts", 1, "id"), "selected-lead-extract"),
      "content.artifacts[1].id: duplicate artifact id 'selected-lead-extract'",
    );
  });
  test("uppercase sha256", () => {
    const cap = vector("N");
    const h = getAt(cap, c("artifacts", 0, "sha256")) as string;
    setAt(cap, c("artifacts", 0, "sha256"), h.toUpperCase());
    expectSchemaError(verify(rehash(cap)), "content.artifacts[0].sha256: expected lowercase sha256 hex");
  });
  test("missing and unknown fields are named, sorted by code point", () => {
    const cap = vector("N");
    const a = getAt(cap, c("artifacts", 0)) as JsonObject;
    a.delete("size");
    a.delete("media_type");
    expectSchemaError(verify(rehash(cap)), "content.artifacts[0]: missing field(s): media_type, size");
    const cap2 = vector("N");
    const b = getAt(cap2, c("artifacts", 0)) as JsonObject;
    b.set("zeta", 1);
    b.set("Alpha", 1);
    expectSchemaError(verify(rehash(cap2)), "content.artifacts[0]: unknown field(s): Alpha, zeta");
  });
  test("source.captured_at invalid", () => {
    expectSchemaError(
      mutated("N", c("artifacts", 0, "source", "captured_at"), "yesterday"),
      "content.artifacts[0].source.captured_at: invalid RFC 3339 timestamp",
    );
  });
});

describeShared("§14.34 locations", () => {
  test("encoding hex", () => {
    expectSchemaError(
      mutated("N", c("artifacts", 0, "location", "encoding"), "hex"),
      "content.artifacts[0].location.encoding: only base64 is supported",
    );
  });
  test("type url", () => {
    expectSchemaError(mutated("N", c("artifacts", 0, "location", "type"), "url"), "content.artifacts[0].location.type: unknown location 'url'");
  });
  test("no type", () => {
    expectSchemaError(mutated("N", c("artifacts", 0, "location", "type"), undefined), "content.artifacts[0].location.type: unknown location None");
  });
  test("inline plus path member", () => {
    expectSchemaError(mutated("N", c("artifacts", 0, "location", "path"), "x.json"), "content.artifacts[0].location: unknown field(s): path");
  });
  test("location not an object", () => {
    expectSchemaError(mutated("N", c("artifacts", 0, "location"), []), "content.artifacts[0].location: expected object");
  });
  test("path location: empty path, 4,097 characters", () => {
    const loc = (p: string) => new Map<string, JsonValue>([["type", "path"], ["path", p]]);
    expectSchemaError(mutated("N", c("artifacts", 0, "location"), loc("")), "content.artifacts[0].location.path: expected non-empty string");
    expectSchemaError(
      mutated("N", c("artifacts", 0, "location"), loc("a".repeat(4097))),
      "content.artifacts[0].location.path: exceeds 4096 characters",
    );
  });
});

describeShared("§14.35–36 text limits", () => {
  test("a 16,385-character statement", () => {
    expectSchemaError(mutated("N", c("claims", 0, "statement"), "x".repeat(16_385)), "content.claims[0].statement: exceeds 16384 characters");
  });
  test("16,384 astral characters (32,768 UTF-16 units) are accepted", () => {
    const r = mutated("N", c("claims", 0, "statement"), "\u{1F600}".repeat(16_384));
    expect(r.schema.status).toBe("verified");
    expect(r.ok).toBe(true);
  });
  test("an empty limitation", () => {
    expectSchemaError(mutated("N", c("claims", 0, "limitations", 0), ""), "content.claims[0].limitations[0]: expected non-empty string");
  });
  test("an empty limitations array is accepted", () => {
    expect(mutated("N", c("claims", 0, "limitations"), []).ok).toBe(true);
  });
  test("a lone surrogate in text (in memory): schema and integrity both name it", () => {
    const r = mutated("N", c("claims", 0, "statement"), "a\ud800", { rehash: false });
    const message = "content.claims[0].statement: lone Unicode surrogate is forbidden";
    expect(r.errors).toEqual([message, message]);
    expect(schemaFailedSections(r)).toBe(true);
  });
});

describeShared("§14.37 references", () => {
  const cid = "content.claims[0]";
  test("repeated artifact ref", () => {
    const cap = vector("N");
    const refs = getAt(cap, c("claims", 0, "artifact_refs")) as string[];
    refs.push(refs[0]);
    expectSchemaError(verify(rehash(cap)), `${cid}.artifact_refs: duplicate reference`);
  });
  test("unknown artifact ref", () => {
    const cap = vector("N");
    (getAt(cap, c("claims", 0, "artifact_refs")) as string[]).push("x");
    expectSchemaError(verify(rehash(cap)), `${cid}.artifact_refs: unknown artifact 'x'`);
  });
  test("invalid identifier in refs", () => {
    const cap = vector("N");
    (getAt(cap, c("claims", 0, "artifact_refs")) as JsonValue[]).push(7);
    expectSchemaError(verify(rehash(cap)), `${cid}.artifact_refs[3]: expected non-empty string`);
  });
  test("empty artifact_refs", () => {
    expectSchemaError(mutated("N", c("claims", 0, "artifact_refs"), []), `${cid}.artifact_refs: at least one artifact is required`);
  });
  test("empty supports_claim_refs", () => {
    expectSchemaError(
      mutated("N", c("derivations", 0, "supports_claim_refs"), []),
      "content.derivations[0].supports_claim_refs: at least one claim is required",
    );
  });
  test("empty input_artifact_refs", () => {
    expectSchemaError(
      mutated("N", c("derivations", 0, "input_artifact_refs"), []),
      "content.derivations[0].input_artifact_refs: at least one input is required",
    );
  });
  test("unknown input artifact / supported claim", () => {
    expectSchemaError(
      mutated("N", c("derivations", 0, "input_artifact_refs"), ["nope"]),
      "content.derivations[0]: unknown input artifact 'nope'",
    );
    expectSchemaError(
      mutated("N", c("derivations", 0, "supports_claim_refs"), ["nope"]),
      "content.derivations[0]: unknown supported claim 'nope'",
    );
  });
  test("unknown derivation referenced by a claim", () => {
    const cap = vector("N");
    (getAt(cap, c("claims", 0, "derivation_refs")) as string[]).push("nope");
    expectSchemaError(verify(rehash(cap)), "claim 'ddti-lead': unknown derivation 'nope'");
  });
  test("unknown binding referenced by a claim", () => {
    expectSchemaError(mutated("N", c("claims", 0, "binding_refs"), ["nope"]), "claim 'ddti-lead': unknown binding 'nope'");
  });
});

describeShared("§14.38 vocabularies", () => {
  test("claim type", () => {
    expectSchemaError(mutated("N", c("claims", 0, "type"), "rumour"), "content.claims[0].type: unknown claim type 'rumour'");
  });
  test("evidence level", () => {
    expectSchemaError(mutated("N", c("claims", 0, "evidence_level"), "hearsay"), "content.claims[0].evidence_level: unknown level 'hearsay'");
  });
  test("subject type", () => {
    expectSchemaError(mutated("N", c("subject", "type"), "person"), "content.subject.type: unknown subject type 'person'");
  });
  test("derivation type", () => {
    expectSchemaError(mutated("N", c("derivations", 0, "type"), "guess"), "content.derivations[0].type: unknown derivation type 'guess'");
  });
  test("derived without derivations", () => {
    expectSchemaError(mutated("P", c("claims", 1, "derivation_refs"), []), "content.claims[1]: derived evidence requires a derivation reference");
  });
});

describeShared("§14.39 claim ↔ derivation", () => {
  test("claim-first one-sided reference", () => {
    expectSchemaError(
      mutated("N", c("derivations", 0, "supports_claim_refs"), ["cdt-provenance"]),
      "claim 'ddti-lead' and derivation 'extract-ranked-term' do not reference each other",
    );
  });
  test("derivation-first one-sided reference", () => {
    const cap = vector("N");
    const refs = getAt(cap, c("claims", 0, "derivation_refs")) as string[];
    refs.splice(refs.indexOf("extract-ranked-term"), 1);
    expectSchemaError(verify(rehash(cap)), "derivation 'extract-ranked-term' and claim 'ddti-lead' do not reference each other");
  });
  test("derivation input not cited by the claim (missing ids sorted)", () => {
    expectSchemaError(
      mutated("P", c("derivations", 0, "input_artifact_refs"), ["reading", "anchor-input"]),
      "claim 'capture-time': derivation 'extract-capture-time' uses artifact(s) not cited by the claim: anchor-input",
    );
    expectSchemaError(
      mutated("P", c("derivations", 0, "input_artifact_refs"), ["reading", "anchor-proof", "anchor-input"]),
      "claim 'capture-time': derivation 'extract-capture-time' uses artifact(s) not cited by the claim: anchor-input, anchor-proof",
    );
  });
});

describeShared("§14.40 proofs", () => {
  const p = "content.derivations[0].proof";
  test("artifact_ref not declared as an input", () => {
    expectSchemaError(mutated("N", c("derivations", 0, "proof", "artifact_ref"), "cdt-sample-1"), `${p}.artifact_ref: not declared as an input`);
  });
  test.each([new Map(), [], 5, "nope", null])("artifact_ref %j → unknown artifact (D5)", (v) => {
    expectSchemaError(mutated("N", c("derivations", 0, "proof", "artifact_ref"), v as JsonValue), `${p}.artifact_ref: unknown artifact`);
  });
  test("pointer selected_row", () => {
    expectSchemaError(mutated("N", c("derivations", 0, "proof", "pointer"), "selected_row"), `${p}.pointer: must be empty or start with /`);
  });
  test("pointer 7", () => {
    expectSchemaError(mutated("N", c("derivations", 0, "proof", "pointer"), 7), `${p}.pointer: expected string`);
  });
  test("empty pointer is allowed (then compares the whole document)", () => {
    const r = mutated("N", c("derivations", 0, "proof", "pointer"), "");
    expect(r.schema.status).toBe("verified");
    expect(r.recomputability.items[0].problems).toEqual(["JSON pointer value does not equal expected value"]);
  });
  test("nonrecomputable with an empty reason or an extra member", () => {
    expectSchemaError(mutated("N", c("derivations", 3, "proof", "reason"), ""), "content.derivations[3].proof.reason: expected non-empty string");
    expectSchemaError(mutated("N", c("derivations", 3, "proof", "pointer"), "/x"), "content.derivations[3].proof: unknown field(s): pointer");
  });
  test("expected with a lone surrogate / an over-deep value", () => {
    const surrogate = mutated("N", c("derivations", 0, "proof", "expected"), ["\udc00"], { rehash: false });
    expect(surrogate.errors).toEqual([0, 1].map(() => `${p}.expected[0]: lone Unicode surrogate is forbidden`));
    let deep: JsonValue = 0;
    for (let i = 0; i < 33; i++) deep = [deep];
    const r = mutated("N", c("derivations", 0, "proof", "expected"), deep, { rehash: false });
    expect(r.errors[0]).toBe(`${p}.expected${"[0]".repeat(33)}: JSON nesting exceeds 32`);
  });
});

const REJECTED_TIMESTAMPS = [
  "2026-01-01T00:00:00+00:99",
  "2026-01-01T00:00:00+05:60",
  "2026-01-01t00:00:00Z",
  "2026-01-01T00:00:00z",
  "2026-01-01 00:00:00Z",
  "2026-01-01T00:00Z",
  "2026-01-01T00:00:00.Z",
  "2026-01-01T00:00:00",
  "2026-01-01T00:00:00+0000",
  "2026-01-01T00:00:00+00:00:00",
  "0000-01-01T00:00:00Z",
  "2100-02-29T00:00:00Z",
  "2026-04-31T00:00:00Z",
  "2026-01-01T24:00:00Z",
  "2026-01-01T00:00:60Z",
  "2026-01-01T00:00:00+24:00",
  "2026-01-01T00:00:00+23:60",
  "٢٠٢٦-01-01T00:00:00Z",
  "２０２６-01-01T00:00:00Z",
];
const ACCEPTED_TIMESTAMPS = [
  "2026-01-01T00:00:00Z",
  "2024-02-29T00:00:00Z",
  "0001-01-01T00:00:00Z",
  "2026-01-01T00:00:00.123456789012345678901Z",
  "2026-01-01T00:00:00.1+05:30",
  "2026-01-01T00:00:00-00:00",
  "2026-01-01T00:00:00+23:59",
];

describeShared("§14.41 created_at grammar", () => {
  test.each(REJECTED_TIMESTAMPS)("%s is rejected", (ts) => {
    expectSchemaError(mutated("N", c("created_at"), ts), "content.created_at: invalid RFC 3339 timestamp");
  });
  test.each(ACCEPTED_TIMESTAMPS)("%s is accepted", (ts) => {
    const r = mutated("N", c("created_at"), ts);
    expect(r.schema.status).toBe("verified");
    expect(r.ok).toBe(true);
  });
  test("created_at must be a non-empty string first", () => {
    expectSchemaError(mutated("N", c("created_at"), 5), "content.created_at: expected non-empty string");
  });
});

describeShared("§14.42 bindings", () => {
  const b = "content.bindings[0]";
  test("binding type", () => {
    expectSchemaError(mutated("P", c("bindings", 0, "type"), "other-binding-v1"), `${b}.type: unknown binding 'other-binding-v1'`);
  });
  test("payload canonicalization", () => {
    expectSchemaError(mutated("P", c("bindings", 0, "payload_canonicalization"), "x"), `${b}.payload_canonicalization: unsupported algorithm`);
  });
  test("inclusion proof type", () => {
    expectSchemaError(
      mutated("P", c("bindings", 0, "inclusion_proof", "type"), "unknown-tree-v9"),
      `${b}.inclusion_proof.type: unknown proof 'unknown-tree-v9'`,
    );
  });
  test("anchor type and proof type", () => {
    expectSchemaError(mutated("P", c("bindings", 0, "anchor", "type"), "x"), `${b}.anchor.type: unknown anchor type 'x'`);
    expectSchemaError(mutated("P", c("bindings", 0, "anchor", "proof_type"), "rfc3161-v1"), `${b}.anchor.proof_type: unknown proof 'rfc3161-v1'`);
  });
  test("ledger era.sure", () => {
    expectSchemaError(mutated("P", c("bindings", 0, "anchor", "ledger"), "era.sure"), `${b}.anchor.ledger: must be usable as an anchor-input key`);
  });
  test("duplicated binding", () => {
    const cap = vector("P");
    const bindings = getAt(cap, c("bindings")) as JsonValue[];
    bindings.push(clone(bindings[0]));
    expectSchemaError(verify(rehash(cap)), "content.bindings[1].id: duplicate binding id");
  });
  test("a duplicated binding id is reported only after the rest of that binding is valid", () => {
    const cap = vector("P");
    const bindings = getAt(cap, c("bindings")) as JsonValue[];
    const copy = clone(bindings[0]) as JsonObject;
    (copy.get("anchor") as JsonObject).set("ledger", "Bad");
    bindings.push(copy);
    expectSchemaError(verify(rehash(cap)), "content.bindings[1].anchor.ledger: invalid identifier");
  });
  test("artifact refs of the binding and its anchor", () => {
    expectSchemaError(mutated("P", c("bindings", 0, "artifact_ref"), "nope"), `${b}.artifact_ref: unknown artifact`);
    expectSchemaError(mutated("P", c("bindings", 0, "artifact_ref"), j("[]")), `${b}.artifact_ref: unknown artifact`);
    expectSchemaError(mutated("P", c("bindings", 0, "anchor", "input_artifact_ref"), j("{}")), `${b}.anchor.input_artifact_ref: unknown artifact`);
    expectSchemaError(mutated("P", c("bindings", 0, "anchor", "proof_artifact_ref"), "nope"), `${b}.anchor.proof_artifact_ref: unknown artifact`);
  });
  test("inclusion path step side and hash", () => {
    expectSchemaError(mutated("P", c("bindings", 0, "inclusion_proof", "path", 2, "side"), "up"), `${b}.inclusion_proof.path[2].side: unknown side`);
    expectSchemaError(
      mutated("P", c("bindings", 0, "inclusion_proof", "path", 2, "hash"), "00"),
      `${b}.inclusion_proof.path[2].hash: expected lowercase sha256 hex`,
    );
  });
  test("integer members", () => {
    expectSchemaError(mutated("P", c("bindings", 0, "entry", "seq"), -1), `${b}.entry.seq: expected integer in [0, 9007199254740991]`);
    expectSchemaError(mutated("P", c("bindings", 0, "inclusion_proof", "n_entries"), 0), `${b}.inclusion_proof.n_entries: expected integer in [1, 9007199254740991]`);
    expectSchemaError(mutated("P", c("bindings", 0, "anchor", "prefix_entries"), true), `${b}.anchor.prefix_entries: expected integer in [1, 9007199254740991]`);
  });
  test("65 inclusion path steps", () => {
    const cap = vector("P");
    const path = getAt(cap, c("bindings", 0, "inclusion_proof", "path")) as JsonValue[];
    while (path.length < 65) path.push(clone(path[0]));
    expectSchemaError(verify(rehash(cap)), `${b}.inclusion_proof.path: exceeds 64 items`);
  });
});

describeShared("§14.43–44 binding artifacts", () => {
  test("§14.43 anchor proof with untrusted false", () => {
    expectSchemaError(
      mutated("P", c("artifacts", 2, "untrusted"), false),
      "content.bindings[0].anchor.proof_artifact_ref: detached proof artifact must declare untrusted true",
    );
  });
  test("§14.44 claim that does not cite the bound artifact", () => {
    expectSchemaError(
      mutated("P", c("claims", 0, "artifact_refs"), ["anchor-input", "anchor-proof"]),
      "claim 'entry-membership': binding 'reading-membership' binds artifact 'reading', which the claim does not cite",
    );
  });
  test("§14.44 the anchor input and proof need not be cited", () => {
    expect(mutated("P", c("claims", 0, "artifact_refs"), ["reading"]).ok).toBe(true);
  });
});

describeShared("§7 normative order: the first failure wins", () => {
  test("missing fields are reported before the version", () => {
    const cap = vector("N");
    setAt(cap, c("spec_version"), "v2");
    setAt(cap, c("bindings"), undefined);
    expectSchemaError(verify(cap), "content: missing field(s): bindings");
  });
  test("artifacts before claims before derivations before intents before bindings", () => {
    const cap = vector("P");
    setAt(cap, c("intents", 0, "type"), "execute");
    setAt(cap, c("bindings", 0, "type"), "x");
    setAt(cap, c("derivations", 0, "type"), "guess");
    setAt(cap, c("claims", 0, "type"), "rumour");
    setAt(cap, c("artifacts", 2, "media_type"), "json");
    const order = [
      "content.artifacts[2].media_type: invalid media type",
      "content.claims[0].type: unknown claim type 'rumour'",
      "content.derivations[0].type: unknown derivation type 'guess'",
      "content.intents[0].type: unknown/non-advisory action 'execute'",
      "content.bindings[0].type: unknown binding 'x'",
    ];
    const fixes: [PathSeg[], JsonValue][] = [
      [c("artifacts", 2, "media_type"), "application/vnd.opentimestamps.ots"],
      [c("claims", 0, "type"), "integrity"],
      [c("derivations", 0, "type"), "extraction"],
      [c("intents", 0, "type"), "human-review"],
      [c("bindings", 0, "type"), "palimpsest-ledger-anchor-v1"],
    ];
    order.forEach((message, i) => {
      expect(verify(rehash(cap)).errors).toEqual([message]);
      setAt(cap, fixes[i][0], fixes[i][1]);
    });
    expect(verify(rehash(cap)).ok).toBe(true);
  });
  test("content rules come before attestation rules", () => {
    const cap = vector("N");
    cap.set("attestations", 5);
    setAt(cap, c("created_at"), "now");
    expectSchemaError(verify(rehash(cap)), "content.created_at: invalid RFC 3339 timestamp");
  });
});

describe("§6.2 echoes in schema messages", () => {
  test("strings with quotes and non-printables are echoed like Python repr", () => {
    const cap = parseStrictJson(
      '{"content":{"spec_version":"it\'s \\"x\\"\\n\\u00e9\\u2028","canonicalization":"","created_at":"","producer":{},"subject":{},"artifacts":[],"claims":[],"derivations":[],"intents":[],"bindings":[]},"content_sha256":"' +
        "0".repeat(64) +
        '","attestations":[]}',
    );
    expect(verify(cap).errors[0]).toBe("content.spec_version: unsupported version 'it\\'s \"x\"\\né\\u2028'");
  });
});
