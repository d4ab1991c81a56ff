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

describe("WindowKeys: keys added as lists (a guard over one capsule) answer as a filed table does", () => {
  for (const [lists, per] of [
    [1, 95],
    [3, 53],
    [6, 100], // 600 keys: past the list limit, filed as they arrive
  ] as const) {
    it(`${lists} lists of ${per} keys`, () => {
      const parts = Array.from({ length: lists }, () => randomKeys(per));
      const listed = new WindowKeys();
      const filed = new WindowKeys();
      parts.forEach((keys, kind) => {
        listed.addAll(keys, kind);
        keys.forEach((k) => filed.add(k, kind));
      });
      const all = parts.flat();
      const absent = randomKeys(5_000).filter((k) => !all.includes(k));
      for (const text of [absent, [...absent.slice(0, 900), all[all.length - 1]], [all[0]], absent.slice(0, 3), []]) {
        const table = WindowKeys.of(text);
        const expected = filed.hasAny(text);
        // Asked through the text's table (a small set) or by each of the text's keys (a filed one).
        expect(new WindowKeys().meets(text, () => table)).toBe(false);
        const fresh = new WindowKeys();
        parts.forEach((keys, kind) => fresh.addAll(keys, kind));
        expect(fresh.meets(text, () => table)).toBe(expected);
        expect(fresh.mayMeet(table) || !expected).toBe(true);
        for (const k of text.slice(0, 50)) expect(table.has(k)).toBe(true);
      }
      // Looking a key up by kind files the lists first; the kinds are those each list was added with.
      for (const keys of parts) expect(listed.get(keys[keys.length - 1])).toBe(filed.get(keys[keys.length - 1]));
      expect(listed.get(absent[0])).toBe(-1);
      expect(listed.size).toBe(filed.size);
    });
  }

  it("a text table with many keys keeps a filter sized to them, and still finds each key", () => {
    const keys = randomKeys(20_000);
    const table = WindowKeys.of(keys);
    for (const k of keys) expect(table.has(k)).toBe(true);
    const present = new Set(keys);
    const absent = randomKeys(20_000).filter((k) => !present.has(k));
    expect(absent.some((k) => table.has(k))).toBe(false);
  });

  it("a filter that grows (the shared summary) still finds every key after each doubling, and stays small", () => {
    const t = WindowKeys.filtered(20, 1 << 19, 12);
    const keys = randomKeys(6_000);
    const present = new Set<number>();
    keys.forEach((k, i) => {
      t.add(k, 0);
      present.add(k);
      // Every key added so far, after whatever doubling this addition caused.
      if (i % 500 === 0 || i === keys.length - 1) for (const p of present) expect(t.has(p)).toBe(true);
    });
    expect(t.hasAny([keys[keys.length - 1]])).toBe(true);
    const absent = randomKeys(20_000).filter((k) => !present.has(k));
    expect(absent.some((k) => t.has(k))).toBe(false);
    expect(t.hasAny(absent)).toBe(false);
    // 6,000 keys at 16 bits each: 2^17 bits, not the 2^20 it may grow to.
    expect((t as unknown as { filterMask: number }).filterMask + 1).toBe(1 << 17);
  });
});
