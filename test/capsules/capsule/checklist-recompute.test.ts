/** capsule-v1 §14 items 52–55: json-pointer-equals-v1 proofs in the recomputability stage (N, rehashed). */
import { describe, expect, test } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonValue } from "../../../src/json/value.js";
import { resolvePointer, strictJsonEquals } from "../../../capsules/capsule/pointer.js";
import type { RecomputeItem } from "../../../capsules/capsule/report.js";
import { describeShared } from "../../helpers/shared.js";
import { c, j, rehash, replaceInline, setAt, vector, verify } from "./helpers.js";

/** Runs N's first derivation (over `selected-lead-extract`) with another pointer and expected value. */
function ranked(pointer: string, expected: JsonValue = "online censorship"): RecomputeItem {
  const cap = vector("N");
  setAt(cap, c("derivations", 0, "proof", "pointer"), pointer);
  setAt(cap, c("derivations", 0, "proof", "expected"), expected);
  return verify(rehash(cap)).recomputability.items[0];
}

/** Replaces `cdt-sample-1` with `doc` and runs derivation 5 (`extract-sample-1-artifact-title`) over it. */
function overDocument(doc: string | Uint8Array, pointer: string, expected: JsonValue): RecomputeItem {
  const cap = vector("N");
  replaceInline(cap, 1, doc);
  setAt(cap, c("derivations", 5, "proof", "pointer"), pointer);
  setAt(cap, c("derivations", 5, "proof", "expected"), expected);
  const r = verify(rehash(cap));
  expect(r.artifacts.items[1].status).toBe("verified");
  return r.recomputability.items[5];
}

const problem = (item: RecomputeItem) => (item.status === "failed" ? item.problems[0] : item.status);

describeShared("§14.52 pointer resolution failures", () => {
  test.each(["/selected_row/samples/٠/title", "/selected_row/samples/00/title", "/selected_row/samples/-/title", "/selected_row/samples/+0/title", "/selected_row/samples/ 0/title", "/selected_row/samples/²/title"])(
    "%s → not a canonical index",
    (pointer) => {
      expect(problem(ranked(pointer))).toBe("JSON pointer array token is not a canonical index");
    },
  );
  test("index 2 of a two-item array → out of range", () => {
    expect(problem(ranked("/selected_row/samples/2/title"))).toBe("JSON pointer array index is out of range");
    expect(problem(ranked("/selected_row/samples/99999999999999999999999/title"))).toBe("JSON pointer array index is out of range");
  });
  test("through a scalar", () => {
    expect(problem(ranked("/selected_row/term/x"))).toBe("JSON pointer descends through a scalar");
  });
  test.each(["/selected_row/~2", "/selected_row/te~rm", "/selected_row/~"])("%s → malformed escape", (pointer) => {
    expect(problem(ranked(pointer))).toBe("malformed JSON pointer escape");
  });
  test("the first failing token decides", () => {
    expect(problem(ranked("/ranked/٠/term"))).toBe("JSON pointer object key is absent");
  });
});

describeShared("§14.53 type-strict equality", () => {
  test("/selected_row/total: 4 verifies, \"4\" does not", () => {
    expect(ranked("/selected_row/total", 4).status).toBe("verified");
    expect(problem(ranked("/selected_row/total", "4"))).toBe("JSON pointer value does not equal expected value");
  });
  test("/selected_row/is_new: 1 does not equal true", () => {
    expect(problem(ranked("/selected_row/is_new", 1))).toBe("JSON pointer value does not equal expected value");
    expect(ranked("/selected_row/is_new", true).status).toBe("verified");
  });
  test("objects: exact key set in any order verifies, one extra key does not", () => {
    const sample = parseStrictJson(
      '{"url":"https://chinadigitaltimes.net/2026/06/cdts-404-deleted-content-archive-summary-for-may-2026/","title":"CDT\u2019s \u2018404 Deleted Content Archive\u2019 Summary for May 2026"}',
    );
    expect(ranked("/selected_row/samples/0", sample).status).toBe("verified");
    const extra = new Map(sample as Map<string, JsonValue>);
    extra.set("extra", null);
    expect(problem(ranked("/selected_row/samples/0", extra))).toBe("JSON pointer value does not equal expected value");
  });
});

describeShared("§14.54 documents", () => {
  test.each([
    ['{"a":1.0}', 1],
    ['{"a":1e2}', 100],
  ])("%s does not equal %j", (doc, expected) => {
    expect(problem(overDocument(doc, "/a", expected))).toBe("JSON pointer value does not equal expected value");
  });
  test('{"a":-0} equals 0', () => {
    expect(overDocument('{"a":-0}', "/a", 0).status).toBe("verified");
  });
  test.each([
    ['{"a/b":1}', "/a~1b", 1],
    ['{"~":2}', "/~0", 2],
    ['{"":3}', "/", 3],
    ["[0,4]", "/1", 4],
    ['{"~1":5}', "/~01", 5],
  ])("%s %s → verified", (doc, pointer, expected) => {
    expect(overDocument(doc, pointer, expected).status).toBe("verified");
  });
  test("a document with duplicate keys", () => {
    expect(problem(overDocument('{"a":1,"a":2}', "/a", 1))).toBe("duplicate JSON key: 'a'");
  });
  test("a non-JSON document", () => {
    expect(problem(overDocument("not json", "/a", 1))).toMatch(/^invalid JSON: /);
  });
  test("a document nested too deeply names the loader path", () => {
    expect(problem(overDocument("[".repeat(33) + "0" + "]".repeat(33), "", 0))).toMatch(/^json(\[0\])+: JSON nesting exceeds 32$/);
  });
  test("the empty pointer compares the whole document", () => {
    expect(overDocument('{"b":[1,"x",null]}', "", j('{"b":[1,"x",null]}')).status).toBe("verified");
  });
});

describeShared("§14.55 section statuses", () => {
  test("no derivations → not_applicable, claims references_verified, ok", () => {
    const cap = vector("N");
    setAt(cap, c("derivations"), []);
    setAt(cap, c("claims", 0, "derivation_refs"), []);
    setAt(cap, c("claims", 1, "derivation_refs"), []);
    const r = verify(rehash(cap));
    expect(r.recomputability).toEqual({ status: "not_applicable", items: [] });
    expect(r.claims.status).toBe("references_verified");
    expect(r.ok).toBe(true);
  });
  test("only non-recomputable derivations → not_recomputable, partially recomputable claims, ok", () => {
    const cap = vector("N");
    const content = cap.get("content") as Map<string, JsonValue>;
    const derivations = content.get("derivations") as JsonValue[];
    setAt(cap, c("derivations"), [derivations[3]]);
    setAt(cap, c("claims", 0, "derivation_refs"), ["ddti-ranking-context"]);
    setAt(cap, c("claims", 1, "derivation_refs"), []);
    const r = verify(rehash(cap));
    expect(r.recomputability.status).toBe("not_recomputable");
    expect(r.recomputability.items[0]).toMatchObject({ status: "not_recomputable", problems: [] });
    expect(Object.keys(r.recomputability.items[0])).toEqual(["id", "status", "problems", "reason"]);
    expect(r.claims.items.map((x) => x.status)).toEqual(["references_partially_recomputable", "references_verified"]);
    expect(r.claims.status).toBe("references_partially_recomputable");
    expect(r.ok).toBe(true);
  });
  test("a failing proof makes the section failed and the claim failed", () => {
    const cap = vector("N");
    setAt(cap, c("derivations", 0, "proof", "expected"), "offline censorship");
    const r = verify(rehash(cap));
    expect(r.recomputability.status).toBe("failed");
    expect(r.claims.items[0].problems).toEqual(["derivation 'extract-ranked-term' did not verify"]);
    expect(r.errors).toEqual(["one or more derivation proofs failed", "one or more claims have failed evidence references"]);
  });
});

describe("pointer.ts units", () => {
  const doc = j('{"a":[{"b":true}],"":{"x":null},"c d":1}');
  test("resolution", () => {
    expect(resolvePointer(doc, "")).toBe(doc);
    expect(resolvePointer(doc, "/a/0/b")).toBe(true);
    expect(resolvePointer(doc, "//x")).toBeNull();
    expect(resolvePointer(doc, "/c d")).toBe(1);
    expect(() => resolvePointer(doc, "/a/0/b/c")).toThrow("JSON pointer descends through a scalar");
    expect(() => resolvePointer(doc, "/a/1")).toThrow("JSON pointer array index is out of range");
  });
  test("strict equality", () => {
    expect(strictJsonEquals(j("[1,2]"), j("[1,2]"))).toBe(true);
    expect(strictJsonEquals(j("[1,2]"), j("[2,1]"))).toBe(false);
    expect(strictJsonEquals(j('{"a":1,"b":2}'), j('{"b":2,"a":1}'))).toBe(true);
    expect(strictJsonEquals(j("[]"), j("{}"))).toBe(false);
    expect(strictJsonEquals(j("null"), j("false"))).toBe(false);
    expect(strictJsonEquals(j("0"), j("false"))).toBe(false);
    expect(strictJsonEquals(j('"e\u0301"'), j('"\u00e9"'))).toBe(false);
    expect(strictJsonEquals(j("1.5"), j("1.5"))).toBe(true);
    expect(strictJsonEquals(j("1.0"), j("1"))).toBe(false);
  });
});
