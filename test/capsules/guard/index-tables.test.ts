import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { hexWindowKeys } from "../../../capsules/guard/forms.js";
import { WindowKeys } from "../../../capsules/guard/index-tables.js";

function randomKeys(n: number): number[] {
  const out: number[] = [];
  while (out.length < n) hexWindowKeys(randomBytes(32).toString("hex"), out);
  return out.slice(0, n);
}

describe("WindowKeys: hasAny and get agree with a plain set, with and without the low-bit filter", () => {
  for (const n of [1, 95, 1024, 1025, 5000]) {
    it(`${n} keys`, () => {
      const keys = randomKeys(n);
      const t = new WindowKeys();
      keys.forEach((k, i) => t.add(k, i % 12));
      const present = new Set(keys);
      expect(t.size).toBe(present.size);
      for (const k of keys) {
        expect(t.hasAny([k])).toBe(true);
        expect(t.get(k)).toBeGreaterThanOrEqual(0);
      }
      const absent = randomKeys(20_000).filter((k) => !present.has(k));
      expect(t.hasAny(absent)).toBe(false);
      for (const k of absent.slice(0, 500)) expect(t.get(k)).toBe(-1);
      // One present key among thousands of absent ones is found wherever it is.
      expect(t.hasAny([...absent, keys[n - 1]])).toBe(true);
      expect(t.hasAny([keys[0], ...absent])).toBe(true);
    });
  }
});
