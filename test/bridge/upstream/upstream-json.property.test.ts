/**
 * Property tests of the text the bridge writes from a parsed upstream answer (bridge/upstream/upstream-json.ts,
 * issue 29 item 1): one line of printable ASCII, the same value as the text received, and a fixed point.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseUpstreamJson, upstreamText } from "../../../bridge/upstream/upstream-json.js";
import { pyDumps, pyParse } from "../../double/py-json.js";

const CAP = 1 << 20;

/** JSON texts: any JSON value, written compactly by JavaScript or in CPython's default form by the double. */
const texts = fc
  .jsonValue({ maxDepth: 6 })
  .chain((v) => fc.constantFrom(JSON.stringify(v), pyDumps(pyParse(JSON.stringify(v))), JSON.stringify(v, null, 2)));

describe("upstream text", () => {
  test("is one line of printable ASCII holding the value received, and writing it again changes nothing", () => {
    fc.assert(
      fc.property(texts, (text) => {
        const first = parseUpstreamJson(text, CAP);
        // Integers outside ±(2^53−1) are refused by the loader (and tested elsewhere); everything else is read.
        fc.pre(first.ok);
        if (!first.ok) return;
        const out = upstreamText(first.value);
        expect(out).toMatch(/^[\x20-\x7e]*$/);
        expect(JSON.parse(out)).toEqual(JSON.parse(text));
        const again = parseUpstreamJson(out, CAP);
        expect(again.ok && upstreamText(again.value)).toBe(out);
      }),
      { numRuns: 400 },
    );
  });
  test("CPython's default form of a value comes out byte for byte", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (v) => {
        const text = pyDumps(pyParse(JSON.stringify(v)));
        const parsed = parseUpstreamJson(text, CAP);
        fc.pre(parsed.ok);
        if (parsed.ok) expect(upstreamText(parsed.value)).toBe(text);
      }),
      { numRuns: 400 },
    );
  });
});
