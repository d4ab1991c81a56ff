/**
 * The zod schema of the pack (compiled from the same shape the loader checks without zod) agrees with `loadPack` on
 * every field-level rule: same first problem, same path, same rule name, same text. Cross-field rules (`rules.ts`)
 * are the loader's alone, and zod cannot see float lexemes, which the loader refuses before the shape check.
 */
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { parseStrictJson } from "../../../src/json/parse.js";
import { PackError } from "../../../published/pack/errors.js";
import { loadPack } from "../../../published/pack/load.js";
import { packSchemaProblem } from "../../../published/pack/schema.js";
import { describeShared } from "../../helpers/shared.js";
import { bytesOf, realPackObject } from "./helpers.js";

/** Rules checked after the shape, by `rules.ts` (not part of the zod schema). */
const CROSS_FIELD = new Set(["support-levels", "unknown-source", "minimum-indicators", "empty-indicator", "max-indicators"]);

function loaderProblem(bytes: Uint8Array): { rule: string; message: string } | undefined {
  try {
    loadPack(bytes);
    return undefined;
  } catch (e) {
    if (e instanceof PackError) return { rule: e.rule, message: e.message };
    throw e;
  }
}

/** True when the loader's problem comes from the cross-field rules (duplicate ids are `unique` there too). */
function crossField(p: { rule: string; message: string }): boolean {
  return CROSS_FIELD.has(p.rule) || / duplicate (source|typology|indicator) id /.test(p.message);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Edit = (p: any) => void;

const FIELD_CASES: [string, Edit][] = [
  ["unknown top-level field", (p) => (p.regex = "^a.*$")],
  ["unknown field with an odd name", (p) => (p.typologies[1]["a b"] = 1)],
  ["unknown fields, index-like first", (p) => Object.assign(p.publisher, { zz: 1, "10": 1, "2": 1 })],
  ["missing typology label", (p) => delete p.typologies[2].label],
  ["missing method", (p) => delete p.method],
  ["missing enum member", (p) => delete p.typologies[0].dimension],
  ["enum of the wrong kind", (p) => (p.typologies[0].indicators[0].specificity = 3)],
  ["http source URL", (p) => (p.sources[3].url = "http://example.org/x")],
  ["blank URL", (p) => (p.publisher.project_url = " ")],
  ["over-long label", (p) => (p.typologies[1].label = "x".repeat(513))],
  ["over-long version in code points", (p) => (p.version = "\u{1F600}".repeat(65))],
  ["too many terms", (p) => (p.typologies[0].indicators[0].any_terms = Array.from({ length: 129 }, (_, i) => `term ${i}`))],
  ["too many sources with a bad one", (p) => (p.sources = Array.from({ length: 130 }, (_, i) => ({ ...p.sources[0], id: `s${i}`, url: i === 129 ? "ftp://x" : p.sources[0].url })))],
  ["minimum_indicators above 16", (p) => (p.typologies[0].minimum_indicators = 17)],
  ["minimum_indicators 0", (p) => (p.typologies[0].minimum_indicators = 0)],
  ["minimum_indicators a string", (p) => (p.typologies[0].minimum_indicators = "2")],
  ["no source_refs", (p) => (p.typologies[3].source_refs = [])],
  ["duplicate term", (p) => p.typologies[0].indicators[0].any_terms.push(p.typologies[0].indicators[0].any_terms[0])],
  ["blank principle after a duplicate", (p) => (p.method.principles = ["a", "a", " "])],
  ["control character", (p) => (p.sources[1].title = "Title\u0007")],
  ["uppercase identifier", (p) => (p.typologies[0].id = "China-Banking")],
  ["other schema", (p) => (p.schema = "scamshield-intelligence-pack/v2")],
  ["schema not a string", (p) => (p.schema = 1)],
  ["typologies not an array", (p) => (p.typologies = {})],
  ["clause null", (p) => (p.typologies[0].indicators[0].any_terms = null)],
  ["publisher an array", (p) => (p.publisher = [])],
];

describeShared("packSchema (zod) agrees with loadPack", () => {
  test("the real pack passes both", () => {
    const bytes = bytesOf(realPackObject());
    expect(loaderProblem(bytes)).toBeUndefined();
    expect(packSchemaProblem(parseStrictJson(bytes))).toBeUndefined();
  });

  test.each(FIELD_CASES)("%s", (_name, edit) => {
    const p = realPackObject();
    edit(p);
    const bytes = bytesOf(p);
    const loader = loaderProblem(bytes);
    expect(loader).toBeDefined();
    expect(crossField(loader!)).toBe(false);
    expect(packSchemaProblem(parseStrictJson(bytes))).toBe(loader!.message);
  });

  test("unknown members are reported in JS property order (index-like keys first), at their own path", () => {
    const text = JSON.stringify(realPackObject(), null, 2).replace('"name": "Palimpsest"', '"zz": 1, "10": 1, "2": 1, "name": "Palimpsest"');
    const bytes = new TextEncoder().encode(text);
    const loader = loaderProblem(bytes);
    expect(loader).toEqual({ rule: "unknown-field", message: 'pack.publisher["2"]: unknown field (unknown-field)' });
    expect(packSchemaProblem(parseStrictJson(bytes))).toBe(loader!.message);
  });

  test("random edits: the first field-level problem is the same", () => {
    const scalar = fc.oneof(
      fc.constantFrom("", " ", "x", "Ab", "a b", "a\u0007", "https://x.org", "http://x.org", "low", "TYPOLOGY_MATCH", "x".repeat(520)),
      fc.integer({ min: -2, max: 20 }),
      fc.constantFrom(true, false, null),
    );
    const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom("id", "zz", "2", "a b"), scalar, { maxKeys: 2 }));
    const edit = fc.tuple(fc.nat(), fc.nat(), fc.constantFrom("set", "delete", "add", "duplicate"), value);
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        const p = realPackObject();
        for (const [which, key, action, v] of edits) {
          const containers = objectsIn(p);
          const target = containers[which % containers.length];
          if (Array.isArray(target)) {
            const i = key % Math.max(target.length, 1);
            if (action === "set" && target.length > 0) target[i] = v;
            else if (action === "delete") target.splice(i, 1);
            else if (action === "duplicate" && target.length > 0) target.push(structuredClone(target[i]));
            else target.push(v);
          } else {
            const keys = Object.keys(target);
            const k = keys.length > 0 ? keys[key % keys.length] : "zz";
            if (action === "set") target[k] = v;
            else if (action === "delete") delete target[k];
            else if (action === "duplicate") target[`${k}_copy`] = structuredClone(target[k]);
            else target[["zz", "2", "a b"][key % 3]] = v;
          }
        }
        const bytes = bytesOf(p);
        const loader = loaderProblem(bytes);
        const zod = packSchemaProblem(parseStrictJson(bytes));
        if (loader === undefined || crossField(loader)) expect(zod).toBeUndefined();
        else expect(zod).toBe(loader.message);
      }),
      { numRuns: 400 },
    );
  });
});

describe("the JSON Schema of the pack", () => {
  test("is strict with closed enums and integer bounds", async () => {
    const { z } = await import("zod");
    const { packSchema } = await import("../../../published/pack/schema.js");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const schema = z.toJSONSchema(packSchema, { unrepresentable: "any" }) as any;
    expect(schema.additionalProperties).toBe(false);
    expect(schema.required).toEqual(["schema", "version", "generated_at", "publisher", "method", "sources", "typologies"]);
    const typology = schema.properties.typologies.items;
    expect(typology.additionalProperties).toBe(false);
    expect(typology.properties.dimension.enum).toEqual(["laundering_mechanism", "operating_ecosystem", "predicate_offence"]);
    expect(typology.properties.minimum_indicators).toMatchObject({ type: "integer", minimum: 1, maximum: 16 });
    expect(typology.properties.indicators.items.required).toEqual(["id", "label", "evidence_class", "specificity"]);
  });
});

/** Every object and array of a plain JSON document. */
function objectsIn(v: unknown, out: (Record<string, unknown> | unknown[])[] = []): (Record<string, unknown> | unknown[])[] {
  if (v !== null && typeof v === "object") {
    out.push(v as Record<string, unknown>);
    for (const x of Object.values(v)) objectsIn(x, out);
  }
  return out;
}
