import { describe, expect, it } from "vitest";
import { BoundedCache } from "../../../capsules/guard/bounded-cache.js";

describe("BoundedCache: two generations of at most `size` entries", () => {
  it("keeps the last `size` entries, and at most 2 × size", () => {
    const c = new BoundedCache<number, string>(4);
    for (let i = 0; i < 10; i++) c.set(i, `v${i}`);
    // Generations: [8, 9] current, [4..7] old; 0..3 dropped.
    for (let i = 0; i < 4; i++) expect(c.get(i)).toBeUndefined();
    for (let i = 6; i < 10; i++) expect(c.get(i)).toBe(`v${i}`);
  });

  it("an entry read from the old generation survives the next turnover", () => {
    const c = new BoundedCache<string, number>(2);
    c.set("a", 1);
    c.set("b", 2);
    c.set("c", 3); // a, b are old now
    expect(c.get("a")).toBe(1); // moved to the current generation
    c.set("d", 4); // current full (c, a): it becomes old, b is dropped
    expect(c.get("b")).toBeUndefined();
    expect(c.get("a")).toBe(1);
    expect(c.get("d")).toBe(4);
  });
});
