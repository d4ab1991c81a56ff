/**
 * `compareDateTimes` (the consistency checks' ordering of date-times) orders exactly as the parsed instants do,
 * for the common `YYYY-MM-DDTHH:MM:SSZ` form it compares as text and for every other form it parses.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { compareDateTimes, compareInstants, parseRfc3339 } from "../../../published/regional/rfc3339.js";

const two = (n: number) => String(n).padStart(2, "0");

/** Valid RFC 3339 date-times: mostly the plain UTC form, also fractions, offsets, lower case and leap seconds. */
const dateTime = fc
  .record({
    y: fc.integer({ min: 1999, max: 2001 }),
    mo: fc.integer({ min: 1, max: 12 }),
    d: fc.integer({ min: 1, max: 28 }),
    h: fc.constantFrom(0, 1, 12, 22, 23),
    mi: fc.constantFrom(0, 1, 58, 59),
    s: fc.constantFrom(0, 1, 59, 60),
    fraction: fc.constantFrom("", "", "", ".0", ".5", ".50", ".123456789"),
    zone: fc.constantFrom("Z", "Z", "Z", "z", "+00:00", "-00:00", "+01:00", "-05:30", "+23:59"),
    t: fc.constantFrom("T", "T", "T", "t"),
  })
  .map(({ y, mo, d, h, mi, s, fraction, zone, t }) => `${y}-${two(mo)}-${two(d)}${t}${two(h)}:${two(mi)}:${two(s)}${fraction}${zone}`)
  .filter((text) => parseRfc3339(text) !== undefined);

describe("compareDateTimes", () => {
  test("agrees in sign with compareInstants on random pairs", () => {
    fc.assert(
      fc.property(dateTime, dateTime, (a, b) => {
        expect(Math.sign(compareDateTimes(a, b))).toBe(Math.sign(compareInstants(parseRfc3339(a)!, parseRfc3339(b)!)));
      }),
      { numRuns: 5000 },
    );
  });

  test("the cases where text order and time order differ", () => {
    // A leap second is the same instant as the next midnight; an offset moves the instant; a fraction adds to it.
    expect(compareDateTimes("2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z")).toBe(0);
    expect(compareDateTimes("2026-08-22T10:00:00Z", "2026-08-22T11:00:00+01:00")).toBe(0);
    expect(compareDateTimes("2026-08-22T10:00:00Z", "2026-08-22T10:30:00+01:00")).toBeGreaterThan(0);
    expect(compareDateTimes("2026-08-22T10:00:00.5Z", "2026-08-22T10:00:00Z")).toBeGreaterThan(0);
    expect(compareDateTimes("2026-08-22t10:00:00z", "2026-08-22T10:00:00Z")).toBe(0);
    expect(compareDateTimes("2026-08-22T09:59:59Z", "2026-08-22T10:00:00Z")).toBeLessThan(0);
  });
});
