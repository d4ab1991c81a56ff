import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { KEY_SHORT } from "../../../capsules/guard/index-tables.js";
import type { PrivateValue } from "../../../capsules/guard/private-values.js";
import { digitKeyHash, hexKeyHash, textHashes, textKeyHash, tokenHash, valuesProbe } from "../../../capsules/guard/probe.js";
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
});
