/**
 * Every rule of the interface specification's index tables has a broken fixture that breaks exactly that rule
 * (test/fixtures/regional/broken, listed in expected.json): validation reports exactly one error, with that JSON
 * path and rule. The valid fixtures conform with no warnings and a verified content_sha256.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { REGIONS } from "../../../published/regional/constants.js";
import { NEUTRAL_PROFILE, PROFILE_TOKENS, PUBLISHER_PROFILE } from "../../../published/regional/profiles.js";
import { shapesFor } from "../../../published/regional/index-shape.js";
import { regionalIndexSchema } from "../../../published/regional/schema.js";
import { validateRegionalIndex } from "../../../published/regional/validate.js";
import { fixtureFiles, type BrokenCase } from "../../fixtures/regional/generate.js";
import { fixture, fixturesDir, index, type Obj } from "./helpers.js";

const expected = JSON.parse(fixture("broken/expected.json").toString("utf8")) as BrokenCase[];

describe("valid synthetic indexes", () => {
  test.each([...REGIONS])("%s conforms, is consistent and carries the right content_sha256", (region) => {
    const report = validateRegionalIndex(fixture(`valid/${region}.json`));
    expect(report.errors).toEqual([]);
    expect(report.conforms).toBe(true);
    expect(report.region).toBe(region);
    expect(report.event_count).toBe(6);
    expect(report.consistency).toBe("checked");
    expect(report.warnings).toEqual([]);
    expect(report.content_sha256.status).toBe("verified");
  });

  test("the zod schema compiled from the same shape accepts them too (it is the whole format in one object)", () => {
    for (const region of REGIONS) {
      expect(regionalIndexSchema.safeParse(JSON.parse(fixture(`valid/${region}.json`).toString("utf8"))).success).toBe(true);
    }
  });

  test("myanmar has no translation sidecar (the nullable branch); the others have one", () => {
    expect(JSON.parse(fixture("valid/myanmar.json").toString("utf8")).inputs.chinese_translation_sidecar).toBeNull();
    expect(JSON.parse(fixture("valid/gwadar.json").toString("utf8")).inputs.chinese_translation_sidecar.missing_records).toBe(0);
  });
});

describe("profiles: the file's own schema_version selects the brand-bearing values", () => {
  test.each([...REGIONS])("publisher-profile %s conforms, consistent, verified, and says so", (region) => {
    const report = validateRegionalIndex(fixture(`valid-publisher/${region}.json`));
    expect(report.errors).toEqual([]);
    expect([report.conforms, report.profile, report.format]).toEqual([true, "publisher", "palimpsest.regional-captured-index.v1"]);
    expect(report.warnings).toEqual([]);
    expect(report.content_sha256.status).toBe("verified");
  });

  test("the neutral fixtures report the neutral profile", () => {
    for (const region of REGIONS) {
      const report = validateRegionalIndex(fixture(`valid/${region}.json`));
      expect([report.profile, report.format]).toEqual(["neutral", "service.regional-captured-index.v1"]);
    }
  });

  test("the publisher fixture differs from the neutral one only in the profile tokens", () => {
    const real = fixture("valid-publisher/gwadar.json").toString("utf8");
    const neutral = JSON.parse(fixture("valid/gwadar.json").toString("utf8"));
    const back = JSON.parse(real.replace(/"content_sha256": "[0-9a-f]{64}"\n}\n$/, '"content_sha256": ""\n}\n'));
    const swap = (v: unknown): unknown =>
      typeof v === "string" ? (PROFILE_TOKENS.find((t) => t.publisher === v)?.neutral ?? v) : Array.isArray(v) ? v.map(swap) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, swap(x)])) : v;
    expect({ ...(swap(back) as object), content_sha256: neutral.content_sha256 }).toEqual(neutral);
    // Every token of the table appears in the publisher file (both providers and both model ids are exercised).
    for (const t of PROFILE_TOKENS) expect(real.includes(JSON.stringify(t.publisher)), t.publisher).toBe(true);
  });

  test("the table maps every neutral token of the specification to one real value, and no value to both", () => {
    expect(PROFILE_TOKENS.map((t) => t.neutral)).toEqual([
      NEUTRAL_PROFILE.schema_version, NEUTRAL_PROFILE.prompt_revision, ...NEUTRAL_PROFILE.providers, ...NEUTRAL_PROFILE.model_ids,
    ]);
    expect(NEUTRAL_PROFILE).toMatchObject({ schema_version: "service.regional-captured-index.v1", prompt_revision: "service-zh-en-metadata-v1", providers: ["model-api", "model-router"], model_ids: ["lite-model-1", "vendor/lite-model-1"] });
    const neutral = new Set(PROFILE_TOKENS.map((t) => t.neutral));
    for (const t of PROFILE_TOKENS) expect(neutral.has(t.publisher)).toBe(false);
    expect(PUBLISHER_PROFILE.schema_version).toBe("palimpsest.regional-captured-index.v1");
  });

  test("a schema_version of no profile is one error naming both accepted values, checked against the neutral rules", () => {
    const s = shapesFor("other.regional-captured-index.v1");
    expect([s.known, s.profile.name]).toEqual([false, "neutral"]);
    const r = validateRegionalIndex(fixture("broken/schema-version-wrong.json"));
    expect(r.profile).toBeNull();
    expect(r.errors[0].message).toContain("palimpsest.regional-captured-index.v1");
    expect(r.errors[0].message).toContain("service.regional-captured-index.v1");
  });
});

describe("broken fixtures: each breaks exactly one rule", () => {
  test("every broken file is listed and every listed file exists", () => {
    const files = readdirSync(join(fixturesDir, "broken")).filter((f) => f !== "expected.json").map((f) => f.replace(/\.json$/, ""));
    expect(files.sort()).toEqual(expected.map((c) => c.name).sort());
    expect(expected.length).toBeGreaterThan(140);
  });

  test.each(expected.map((c) => [c.name, c] as const))("%s", (_name, c) => {
    const report = validateRegionalIndex(fixture(`broken/${c.name}.json`));
    expect(report.conforms).toBe(false);
    expect(report.errors.map((e) => [e.path, e.rule])).toEqual([[c.path, c.rule]]);
    expect(report.error_count).toBe(1);
    expect(report.errors[0].message.startsWith(`${c.path}: `)).toBe(true);
    expect(report.warnings).toEqual([]);
    expect(report.consistency).toBe("not_checked");
  });

  test("the rules named include every kind the tables state", () => {
    const rules = new Set(expected.map((c) => c.rule));
    for (const rule of ["additional-property", "required", "const", "enum", "pattern", "min-length", "min-items", "minimum", "type", "integer", "date-time", "uri", "iri", "unique-items"]) {
      expect(rules.has(rule), rule).toBe(true);
    }
  });

  test("the committed fixtures are exactly what the generator writes", () => {
    for (const [rel, content] of fixtureFiles()) expect(fixture(rel).toString("utf8"), rel).toBe(content);
  });
});

describe("messages", () => {
  test("name the path, the rule's expectation and the value found", () => {
    const msg = (name: string) => validateRegionalIndex(fixture(`broken/${name}.json`)).errors[0].message;
    expect(msg("sidecar-missing-records-one")).toBe("index.inputs.chinese_translation_sidecar.missing_records: expected the constant 0, got integer 1");
    expect(msg("region-not-in-enum")).toBe("index.region: expected one of 'bri', 'gwadar', 'balochistan', 'myanmar', got string 'kashgar'");
    expect(msg("inputs-window-hours-float")).toBe("index.inputs.newswire_window.hours: expected integer, got float 48.0");
    expect(msg("event-source-ids-duplicate")).toBe("index.events[1].source_ids[2]: duplicates item 0 (items must be unique)");
    expect(msg("top-missing-region")).toBe("index.region: missing required member");
    expect(msg("event-extra-property")).toBe("index.events[1].unexpected: member is not allowed here (no extra properties)");
    expect(msg("translation-public-url-zero-page")).toMatch(/^index\.events\[1\]\.english_translation\.public_url: does not match .*page\/0\//);
    expect(msg("json-duplicate-nested-key")).toBe("index.events[1].english_translation.status: duplicate JSON key: 'status'");
    expect(msg("json-truncated")).toMatch(/^index\.events\[1\]\.english_translation\.original_title_zh: invalid JSON: Unterminated string starting at: line 1 column \d+ \(char \d+\)$/);
  });

  test("extra properties are reported at every depth, one finding per key", () => {
    const report = validateRegionalIndex(
      JSON.stringify({ ...JSON.parse(fixture("valid/gwadar.json").toString("utf8")), a: 1, b: 2 }),
    );
    expect(report.errors.map((e) => e.path)).toEqual(["index.a", "index.b"]);
  });

  test("several problems: every one is reported, in the specification's order, as the zod reference listed them", () => {
    // Pinned from the reports of the zod schema this shape replaced (each event's problems in table order, unknown
    // members after the known ones, every repeat at its index beside items that failed, floats at their own path).
    const pathsAndRules = (o: Obj, edit?: (t: string) => string) => {
      const text = JSON.stringify(o);
      return validateRegionalIndex(edit ? edit(text) : text).errors.map((e) => [e.path.replace(/^index\./, ""), e.rule]);
    };
    const many = index();
    Object.assign(many, { a: 1, counts: 3 });
    delete many.label;
    many.events[0].headline = "";
    many.events[1].source_ids = ["a", "a", "a", ""];
    many.events[2].english_translation = { zz: 1 };
    many.events[3].version_count = "1";
    many.events[4] = 5;
    const translation = [
      "translation_id", "public_url", "title_en", "context_en", "translation_notes_en", "status", "background_en", "background_basis",
      "background_status", "original_title_zh", "original_context_zh", "original_content_sha256", "provider", "model_id", "prompt_revision",
    ].map((k) => [`events[2].english_translation.${k}`, "required"]);
    expect(pathsAndRules(many)).toEqual([
      ["label", "required"], ["counts", "type"], ["a", "additional-property"], ["events[0].headline", "min-length"],
      ["events[1].source_ids[3]", "min-length"], ["events[1].source_ids[1]", "unique-items"], ["events[1].source_ids[2]", "unique-items"],
      ...translation, ["events[2].english_translation.zz", "additional-property"],
      ["events[3].version_count", "type"], ["events[4]", "type"],
    ]);
    const floats = index();
    floats.events[0].headline = [1.5];
    floats.events[0].extra = { a: 2.5 };
    expect(pathsAndRules(floats, (t) => t.replace('"hours":48', '"hours":48.0'))).toEqual([
      ["inputs.newswire_window.hours", "integer"], ["events[0].headline", "type"], ["events[0].extra", "additional-property"],
      ["events[0].headline[0]", "integer"], ["events[0].extra.a", "integer"],
    ]);
    const kinds = index();
    Object.assign(kinds, { region: 5 });
    kinds.classification.overlap_allowed = "true";
    kinds.rights.article_bodies_included = true;
    Object.assign(kinds.events[0], { dek: 3, current_in_wire: "yes" });
    Object.assign(kinds.events[1], { region_tags: [], topics: ["x", "x"], publisher_links: [{ source_id: "", title: 1 }] });
    const report = validateRegionalIndex(JSON.stringify(kinds));
    expect(report.errors.map((e) => [e.path.replace(/^index\./, ""), e.rule])).toEqual([
      ["region", "enum"], ["classification.overlap_allowed", "const"], ["rights.article_bodies_included", "const"],
      ["events[0].dek", "type"], ["events[0].current_in_wire", "type"], ["events[1].topics[1]", "unique-items"],
      ["events[1].region_tags", "min-items"], ["events[1].publisher_links[0].source_id", "min-length"],
      ["events[1].publisher_links[0].title", "type"], ["events[1].publisher_links[0].url", "required"],
    ]);
    expect(report.errors[2].message).toBe("index.rights.article_bodies_included: expected the constant false, got boolean True");
  });

  test("many errors: the list is capped, the count is not", () => {
    const o = JSON.parse(fixture("valid/bri.json").toString("utf8"));
    for (const ev of o.events) ev.headline = "";
    const report = validateRegionalIndex(JSON.stringify(o), { maxFindings: 2 });
    expect(report.errors.length).toBe(2);
    expect(report.error_count).toBe(6);
  });
});
