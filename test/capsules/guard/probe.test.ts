import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KEY_SHORT } from "../../../capsules/guard/index-tables.js";
import type { PrivateValue } from "../../../capsules/guard/private-values.js";
import { digitKeyHash, hexKeyHash, OutwardProbe, textHashes, textKeyHash, tokenHash, valuesProbe } from "../../../capsules/guard/probe.js";
import { valueForms } from "../../../capsules/guard/value-forms.js";

/** The probe the slow, obvious way: every key of every form hashed, as a set. */
function expectedProbe(values: readonly PrivateValue[]): Set<number> {
  const out = new Set<number>();
  for (const v of values) {
    const f = valueForms(v);
    for (const form of f.text) out.add(textKeyHash(form.slice(0, KEY_SHORT)));
    for (const t of f.tokens) out.add(tokenHash(t));
    for (const k of f.hexKeys) out.add(hexKeyHash(k));
    for (const k of f.digitKeys) out.add(digitKeyHash(k));
  }
  return out;
}

const hash = (i: number) => createHash("sha256").update(`probe ${i}`).digest("hex");

describe("probes", () => {
  for (const n of [0, 1, 17, 200]) {
    it(`hold each hash of ${n} values' keys exactly once (the working table grows past a few hundred)`, () => {
      const values: PrivateValue[] = [];
      for (let i = 0; i < n; i++) {
        values.push({ kind: "message_sha256", value: hash(i) });
        values.push({ kind: "ioc_value", ioc: "handles", value: `@probe_handle_${i}` });
        values.push({ kind: "monetary_value", value: `${i}.25` });
      }
      // A value given twice adds nothing.
      const probe = valuesProbe([...values, ...values.slice(0, 3)]);
      expect(new Set(probe).size).toBe(probe.length);
      expect(new Set(probe)).toEqual(expectedProbe(values));
      // Made again after a larger one: the shared working arrays carry nothing over.
      expect(new Set(valuesProbe(values.slice(0, 3)))).toEqual(expectedProbe(values.slice(0, 3)));
    });
  }

  it("a text's hashes are sorted and distinct", () => {
    const h = textHashes("abcdefgh\u0000abcdefgh", ["abc", "abc"], [1, 2, 2], [7]);
    expect([...h]).toEqual([...new Set(h)].sort((a, b) => a - b));
  });

  // Short lists sort by insertion, longer ones by radix: both sides of the boundary, with repeats.
  for (const n of [1, 2, 15, 16, 17, 64, 700]) {
    it(`${n} window keys (twice each) give sorted, distinct hashes`, () => {
      const keys = Array.from({ length: n }, (_, i) => (i * 2654435761) % 2 ** 40);
      const h = textHashes("", [], [...keys, ...keys.reverse()], []);
      expect(h.length).toBe(new Set(keys.map(hexKeyHash)).size);
      expect([...h]).toEqual([...new Set(h)].sort((a, b) => a - b));
    });
  }
});

describe("outward probes", () => {
  it("of several texts: shares a hash with a probe holding any hash of any text, and none with others", () => {
    const lists = [textHashes("first text\u0000", ["one"], [11, 12], []), textHashes("", ["two"], [], [3_000_000]), textHashes("xyzw", [], Array.from({ length: 300 }, (_, i) => i), [])];
    const outward = new OutwardProbe(lists);
    for (const list of lists) for (const x of list) expect(outward.sharesAny(Uint32Array.of(x))).toBe(true);
    const all = new Set(lists.flatMap((l) => [...l]));
    const others = Array.from({ length: 5000 }, (_, i) => hexKeyHash(10_000_000 + i)).filter((x) => !all.has(x));
    expect(outward.sharesAny(Uint32Array.from(others))).toBe(false);
    expect(new OutwardProbe([]).sharesAny(Uint32Array.from(others))).toBe(false);
  });
});
