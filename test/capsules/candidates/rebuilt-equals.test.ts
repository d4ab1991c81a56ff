/**
 * equalsRebuilt compares stored content (value model) with the adapter's plain rebuild without converting it:
 * it must answer exactly what strictJsonEquals(stored, fromJs(rebuilt)) answers, for any pair.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { assessmentContent, REFERENCE_PRODUCER } from "../../../capsules/assessment/adapter.js";
import { parseAssessment } from "../../../capsules/assessment/parse-assessment.js";
import { readCapsuleSource } from "../../../capsules/pipeline/capsule-source.js";
import { equalsRebuilt } from "../../../capsules/candidates/rebuilt-equals.js";
import { fromJs } from "../../../capsules/capsule/js-input.js";
import { strictJsonEquals } from "../../../capsules/capsule/pointer.js";
import { JsonFloat, type JsonObject, type JsonValue } from "../../../src/json/value.js";
import { describeShared, readShared } from "../../helpers/shared.js";

const reference = (stored: JsonValue, rebuilt: unknown) => strictJsonEquals(stored, fromJs(rebuilt) as JsonValue);

/** Plain values as the adapter builds them, plus Maps, floats of the model and class instances. */
const plain = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.constantFrom(null, true, false, 0, -0, 1, 2, 1.5, 0.1, NaN, Infinity, "", "a", "b", "1"),
    fc.integer({ min: -3, max: 3 }),
    fc.double({ noNaN: false }),
    fc.constantFrom(new JsonFloat(1), new JsonFloat(1.5), new JsonFloat(0.1)),
    fc.constant(new Date(0)),
    fc.array(tie("value"), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "c", "__proto__"), tie("value"), { maxKeys: 3 }),
    fc.dictionary(fc.constantFrom("a", "b", "c"), tie("value"), { maxKeys: 3 }).map((o) => new Map(Object.entries(o))),
  ),
})).value;

describe("equalsRebuilt", () => {
  it("answers exactly as strictJsonEquals over fromJs, for equal and for unrelated pairs", () => {
    fc.assert(
      fc.property(plain, plain, fc.boolean(), (a, b, same) => {
        const stored = fromJs(same ? b : a) as JsonValue;
        expect(equalsRebuilt(stored, b)).toBe(reference(stored, b));
      }),
      { numRuns: 3000 },
    );
  });

  it("tells floats from integers, and object members from missing or extra ones", () => {
    const cases: [JsonValue, unknown][] = [
      [new JsonFloat(1), 1],
      [1, 1.0],
      [new JsonFloat(1.5), 1.5],
      [0, -0],
      [new Map([["a", 1]]), { a: 1 }],
      [new Map([["a", 1]]), { a: 1, b: 2 }],
      [new Map([["a", 1]]), {}],
      [new Map([["a", 1]]), Object.create({ a: 1 })],
      [new Map([["a", 1]]), Object.defineProperty({ b: 1 }, "a", { value: 1, enumerable: false })],
      [new Map([["a", 1]]), new Map([["a", 1]])],
      [new Map(), new Date(0)],
      [[1, 2], [1, 2]],
      [[1, 2], [1]],
      ["x", "x"],
      [null, undefined],
    ];
    for (const [stored, rebuilt] of cases) expect(equalsRebuilt(stored, rebuilt), JSON.stringify([String(stored), String(rebuilt)])).toBe(reference(stored, rebuilt));
    expect(equalsRebuilt(new JsonFloat(1), 1)).toBe(false);
    expect(equalsRebuilt(new Map([["a", 1]]), Object.create({ a: 1 }))).toBe(false);
    expect(equalsRebuilt(new Map([["a", 1]]), Object.defineProperty({ b: 1 }, "a", { value: 1, enumerable: false }))).toBe(false);
  });
});

describeShared("equalsRebuilt on real capsules", () => {
  it("accepts a reference capsule's content against the adapter's rebuild and refuses any edited member", () => {
    const source = readCapsuleSource(readShared("data/bridge-examples/valid/03-usdt-inr-kitchen-sink-iocs.capsule.json"));
    if (!source.ok) throw new Error(source.reason);
    const rebuilt = assessmentContent(source.assessmentBytes, parseAssessment(source.assessmentBytes).assessment, REFERENCE_PRODUCER);
    expect(equalsRebuilt(source.content, rebuilt)).toBe(true);
    const edited = structuredClone(rebuilt) as { claims: { statement: string }[]; artifacts: { size: number }[] };
    edited.claims[0].statement += " ";
    expect(equalsRebuilt(source.content, edited)).toBe(false);
    const resized = structuredClone(rebuilt) as { artifacts: { size: number }[] };
    resized.artifacts[0].size += 1;
    expect(equalsRebuilt(source.content, resized)).toBe(false);
    const stored = source.content as JsonObject;
    expect(equalsRebuilt(new Map([...stored, ["extra", 1]]), rebuilt)).toBe(false);
  });
});
