/** capsule-v1 §14 items 56–64: ledger and anchor checks per binding (P, rehashed). */
import { describe, expect, test } from "vitest";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { splitLines } from "../../../capsules/capsule/anchor-check.js";
import type { VerificationReport } from "../../../capsules/capsule/report.js";
import { describeShared } from "../../helpers/shared.js";
import { c, clone, getAt, inlineBytes, rehash, replaceInline, setAt, vector, verify, type PathSeg } from "./helpers.js";

const B = (...path: PathSeg[]) => c("bindings", 0, ...path);
const ZERO = "0".repeat(64);

function mutatedP(...changes: [PathSeg[], JsonValue][]): VerificationReport {
  const cap = vector("P");
  for (const [path, value] of changes) setAt(cap, path, value);
  return verify(rehash(cap));
}

const ledgerProblem = (r: VerificationReport) => r.ledger.items[0].problems;
const anchorProblem = (r: VerificationReport) => r.anchor.items[0].problems;

describeShared("§14.56–57 payload and entry hashes", () => {
  test("§14.56 reading replaced by {}", () => {
    const cap = vector("P");
    replaceInline(cap, 0, "{}");
    const r = verify(rehash(cap));
    expect(r.artifacts.status).toBe("verified");
    expect(r.ledger.items[0]).toEqual({
      id: "reading-membership",
      index: 0,
      status: "failed",
      problems: ["artifact payload does not match ledger payload_sha256"],
      entry_integrity: "failed",
      membership: "failed",
      chain_integrity: "not_verifiable_from_capsule",
    });
    expect(r.recomputability.items[0].problems).toEqual(["JSON pointer object key is absent"]);
    expect(r.recomputability.status).toBe("failed");
    expect(r.anchor.status).toBe("envelope_bound");
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual([
      "one or more ledger bindings failed",
      "one or more derivation proofs failed",
      "one or more claims have failed evidence references",
    ]);
    expect(r.claims.items[0].problems).toEqual(["binding 'reading-membership' entry/membership did not verify"]);
  });

  test("the payload hash ignores whitespace and key order of the artifact bytes", () => {
    const cap = vector("P");
    const reading = JSON.parse(inlineBytes(cap, 0).toString("utf8")) as Record<string, unknown>;
    const reordered = Object.fromEntries(Object.entries(reading).reverse());
    replaceInline(cap, 0, JSON.stringify(reordered));
    const r = verify(rehash(cap));
    expect(r.ledger.status).toBe("entry_membership_verified");
  });

  test("a reading that is not JSON fails with the loader message", () => {
    const cap = vector("P");
    replaceInline(cap, 0, "{,}");
    expect(ledgerProblem(verify(rehash(cap)))[0]).toMatch(/^invalid JSON: /);
  });

  test("§14.57 entry.ts changed", () => {
    const r = mutatedP([B("entry", "ts"), "2026-08-04T09:09:23.647217+00:00"]);
    expect(ledgerProblem(r)).toEqual(["full ledger entry hash does not recompute"]);
    expect(r.ledger.items[0].entry_integrity).toBe("failed");
  });

  test("§14.57 entry.payload_sha256 changed", () => {
    expect(ledgerProblem(mutatedP([B("entry", "payload_sha256"), ZERO]))).toEqual([
      "artifact payload does not match ledger payload_sha256",
    ]);
  });

  test("an unverified bound artifact", () => {
    const cap = vector("P");
    setAt(cap, c("artifacts", 0, "size"), 1);
    expect(ledgerProblem(verify(rehash(cap)))).toEqual(["bound artifact 'reading' did not verify"]);
  });
});

describeShared("§14.58–61 inclusion proofs", () => {
  test.each([119, 121])("§14.58 inclusion seq %i", (seq) => {
    const r = mutatedP([B("inclusion_proof", "seq"), seq]);
    expect(ledgerProblem(r)).toEqual(["inclusion proof is for a different ledger entry"]);
    expect(r.ledger.items[0].entry_integrity).toBe("verified");
    expect(r.ledger.items[0].membership).toBe("failed");
  });

  test("§14.58 inclusion entry hash of another entry", () => {
    expect(ledgerProblem(mutatedP([B("inclusion_proof", "entry_hash"), ZERO]))).toEqual([
      "inclusion proof is for a different ledger entry",
    ]);
  });

  test("§14.59 first step side flipped", () => {
    expect(ledgerProblem(mutatedP([B("inclusion_proof", "path", 0, "side"), "left"]))).toEqual([
      "inclusion proof sibling side is inconsistent with seq",
    ]);
  });

  test("§14.59 the duplicate-last sibling changed", () => {
    expect(ledgerProblem(mutatedP([B("inclusion_proof", "path", 0, "hash"), ZERO]))).toEqual([
      "odd-width duplicate-last sibling is not the current hash",
    ]);
  });

  test("§14.59 an extra step / a dropped last step", () => {
    const extra = vector("P");
    const path = getAt(extra, B("inclusion_proof", "path")) as JsonValue[];
    path.push(clone(path[6]));
    expect(ledgerProblem(verify(rehash(extra)))).toEqual(["inclusion proof path is too long"]);
    const short = vector("P");
    (getAt(short, B("inclusion_proof", "path")) as JsonValue[]).pop();
    expect(ledgerProblem(verify(rehash(short)))).toEqual(["inclusion proof path is too short"]);
  });

  test("§14.59 a sibling hash changed higher up does not fold to the root", () => {
    expect(ledgerProblem(mutatedP([B("inclusion_proof", "path", 3, "hash"), ZERO]))).toEqual([
      "inclusion proof does not fold to the claimed root",
    ]);
  });

  test("§14.59 n_entries 120 with seq 120", () => {
    const r = mutatedP([B("inclusion_proof", "n_entries"), 120]);
    expect(ledgerProblem(r)).toEqual(["inclusion proof seq is outside its claimed prefix"]);
    expect(anchorProblem(r)).toEqual(["anchor prefix length and inclusion prefix differ"]);
  });

  test("§14.60 inclusion root zeroed", () => {
    const r = mutatedP([B("inclusion_proof", "merkle_root"), ZERO]);
    expect(ledgerProblem(r)).toEqual(["inclusion proof does not fold to the claimed root"]);
    expect(anchorProblem(r)).toEqual(["anchor root and inclusion root differ"]);
  });

  test("§14.60 inclusion and anchor roots zeroed", () => {
    const r = mutatedP([B("inclusion_proof", "merkle_root"), ZERO], [B("anchor", "merkle_root"), ZERO]);
    expect(ledgerProblem(r)).toEqual(["inclusion proof does not fold to the claimed root"]);
    expect(anchorProblem(r)).toEqual(["anchor input field 'erasure_root' does not match binding"]);
  });

  test("§14.60 anchor root only", () => {
    const r = mutatedP([B("anchor", "merkle_root"), ZERO]);
    expect(r.ledger.status).toBe("entry_membership_verified");
    expect(anchorProblem(r)).toEqual(["anchor root and inclusion root differ"]);
    expect(r.errors).toEqual(["one or more anchor bindings failed", "one or more claims have failed evidence references"]);
    expect(r.claims.items[0].problems).toEqual(["binding 'reading-membership' anchor envelope did not bind"]);
  });

  test("§14.61 prefix_entries 122 only", () => {
    expect(anchorProblem(mutatedP([B("anchor", "prefix_entries"), 122]))).toEqual(["anchor prefix length and inclusion prefix differ"]);
  });

  test("§14.61 prefix_entries and n_entries both 122: the fold does not pin the width, the anchor input does", () => {
    const r = mutatedP([B("anchor", "prefix_entries"), 122], [B("inclusion_proof", "n_entries"), 122]);
    expect(r.ledger.status).toBe("entry_membership_verified");
    expect(anchorProblem(r)).toEqual(["anchor input field 'erasure_entries' does not match binding"]);
  });
});

describeShared("§14.62–63 anchor fields and the anchor input", () => {
  test("§14.62 head_hash zeroed", () => {
    expect(anchorProblem(mutatedP([B("anchor", "head_hash"), ZERO]))).toEqual(["anchor head differs from the final included entry"]);
  });
  test("§14.62 anchored_at with Z", () => {
    expect(anchorProblem(mutatedP([B("anchor", "anchored_at"), "2026-08-04T09:26:52.865414Z"]))).toEqual([
      "anchor input field 'anchored_at' does not match binding",
    ]);
  });
  test("§14.62 ledger readings", () => {
    expect(anchorProblem(mutatedP([B("anchor", "ledger"), "readings"]))).toEqual([
      "anchor input field 'readings_entries' does not match binding",
    ]);
  });

  /** P with the anchor input artifact's bytes transformed (sha/size fixed, rehashed). */
  const withInput = (f: (text: Buffer) => Buffer | string) => {
    const cap = vector("P");
    replaceInline(cap, 1, f(inlineBytes(cap, 1)));
    return verify(rehash(cap));
  };

  test("§14.63 an extra line changes the committed digest", () => {
    expect(anchorProblem(withInput((b) => Buffer.concat([b, Buffer.from("extra line\n")])))).toEqual([
      "detached OpenTimestamps envelope commits to a different anchor input",
    ]);
  });
  test("§14.63 an empty line 11", () => {
    expect(anchorProblem(withInput((b) => Buffer.concat([b, Buffer.from("\n")])))).toEqual(["anchor input line 11 is malformed"]);
  });
  test("§14.63 a duplicate key", () => {
    expect(anchorProblem(withInput((b) => Buffer.concat([b, Buffer.from("anchored_at x\n")])))).toEqual([
      "anchor input line 11 is malformed/duplicate",
    ]);
  });
  test("§14.63 a bad key and an empty value", () => {
    expect(anchorProblem(withInput((b) => Buffer.concat([b, Buffer.from("Bad key\n")])))).toEqual(["anchor input line 11 is malformed/duplicate"]);
    expect(anchorProblem(withInput((b) => Buffer.concat([b, Buffer.from("key \n")])))).toEqual(["anchor input line 11 is malformed/duplicate"]);
  });
  test("§14.63 invalid UTF-8", () => {
    expect(anchorProblem(withInput((b) => Buffer.concat([b, Buffer.from([0xff, 0x0a])])))).toEqual(["anchor input is not UTF-8"]);
  });
  test.each(["\u0085", "\u2028", "\u000b", "\u001e"])("§14.63 a value containing %j is split there", (sep) => {
    const r = withInput((b) => b.toString("utf8").replace("readings_entries 169", `readings_entries 1${sep}69`));
    expect(anchorProblem(r)).toEqual(["anchor input line 5 is malformed"]);
  });
  test("a value may contain and start with spaces; TAB is not a separator", () => {
    const r = withInput((b) => b.toString("utf8").replace("readings_entries 169", "readings_entries  1\t6 9"));
    expect(anchorProblem(r)).toEqual(["detached OpenTimestamps envelope commits to a different anchor input"]);
  });
  test("CR LF line ends are one boundary", () => {
    const r = withInput((b) => b.toString("utf8").replaceAll("\n", "\r\n"));
    expect(anchorProblem(r)).toEqual(["detached OpenTimestamps envelope commits to a different anchor input"]);
  });
});

describeShared("§14.64 a failing binding that no claim references", () => {
  test("ledger failed, claims verified, ok false", () => {
    const cap = vector("P");
    const bindings = getAt(cap, c("bindings")) as JsonObject[];
    const other = clone(bindings[0]);
    other.set("id", "other");
    ((other.get("inclusion_proof") as JsonObject).get("path") as JsonValue[]).pop();
    bindings.push(other);
    const r = verify(rehash(cap));
    expect(r.schema.status).toBe("verified");
    expect(r.ledger.status).toBe("failed");
    expect(r.ledger.items.map((x) => [x.id, x.index, x.status])).toEqual([
      ["reading-membership", 0, "entry_membership_verified"],
      ["other", 1, "failed"],
    ]);
    expect(r.anchor.status).toBe("envelope_bound");
    expect(r.claims.status).toBe("references_verified");
    expect(r.ok).toBe(false);
    expect(r.errors).toEqual(["one or more ledger bindings failed"]);
  });
});

describeShared("many bindings over the same artifacts", () => {
  test("32 bindings sharing one reading, anchor input and proof all verify; a differing anchor field fails alone", () => {
    const cap = vector("P");
    const bindings = getAt(cap, c("bindings")) as JsonObject[];
    for (let i = 1; i < 32; i++) {
      const copy = clone(bindings[0]);
      copy.set("id", `copy-${i}`);
      bindings.push(copy);
    }
    ((bindings[7].get("anchor") as JsonObject)).set("anchored_at", "2026-08-04T09:26:52.865414Z");
    const r = verify(rehash(cap));
    expect(r.ledger.status).toBe("entry_membership_verified");
    expect(r.ledger.items).toHaveLength(32);
    expect(r.anchor.items.filter((x) => x.status === "envelope_bound")).toHaveLength(31);
    expect(r.anchor.items[7].problems).toEqual(["anchor input field 'anchored_at' does not match binding"]);
    expect(r.anchor.items[8].structure).toEqual({ nodes: 31, attestations: 3 });
  });
});

describe("splitLines follows Python str.splitlines()", () => {
  test.each([
    ["", []],
    ["a", ["a"]],
    ["a\n", ["a"]],
    ["a\n\n", ["a", ""]],
    ["a\r\nb", ["a", "b"]],
    ["a\rb\n", ["a", "b"]],
    ["a\r\rb", ["a", "", "b"]],
    ["a\u000bb\u000cc\u001cd\u001de\u001ef\u0085g\u2028h\u2029i", ["a", "b", "c", "d", "e", "f", "g", "h", "i"]],
    ["a\tb", ["a\tb"]],
    ["\n", [""]],
  ])("%j", (text, lines) => {
    expect(splitLines(text)).toEqual(lines);
  });
});
