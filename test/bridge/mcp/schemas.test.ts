/**
 * The checked-in JSON Schemas under `schemas/` are what the code generates (regenerate with
 * `npx tsx bridge/mcp/write-schemas.ts`), and the zod schemas they come from accept the real thing: the derived
 * candidates of every valid example, the golden verification reports, the store's rows.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { FORMATS, formatJsonSchema, schemaFileText } from "../../../bridge/mcp/format-schemas.js";
import { candidateSchema, verificationReportSchema } from "../../../bridge/mcp/format-zod.js";
import { driftedSchemas, schemasDir } from "../../../bridge/mcp/write-schemas.js";
import { deriveCandidate } from "../../helpers/derive.js";
import { loadCapsuleBytes } from "../../../capsules/capsule/load.js";
import { loadPackFile } from "../../../published/pack/file.js";
import { describeShared, repoRoot, sharedPath } from "../../helpers/shared.js";

describe("checked-in schemas", () => {
  test("schemas/ holds exactly the generated files, byte for byte", async () => {
    const dir = join(repoRoot, "schemas");
    expect(schemasDir()).toBe(dir);
    expect(readdirSync(dir).sort()).toEqual(FORMATS.map((f) => f.file).sort());
    for (const f of FORMATS) expect(readFileSync(join(dir, f.file), "utf8"), f.file).toBe(schemaFileText(await formatJsonSchema(f.file)));
    expect(await driftedSchemas()).toEqual([]);
  });

  test("a drifted copy is detected", async () => {
    const { mkdtempSync, writeFileSync, rmSync, cpSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const tmp = mkdtempSync(join(tmpdir(), "eb-schemas-"));
    try {
      cpSync(join(repoRoot, "schemas"), tmp, { recursive: true });
      const file = join(tmp, FORMATS[3].file);
      writeFileSync(file, readFileSync(file, "utf8").replace('"additionalProperties": false', '"additionalProperties": true'));
      expect(await driftedSchemas(tmp)).toEqual([FORMATS[3].file]);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });

  test("every schema is JSON Schema 2020-12 with a title", async () => {
    for (const f of FORMATS) {
      const s = await formatJsonSchema(f.file);
      expect(s.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(s.title).toBe(f.title);
    }
  });
});

describeShared("the zod formats accept the real outputs", () => {
  test("the derived candidate of every valid example (both views) fits the candidate schema", () => {
    const pack = loadPackFile(sharedPath("data/intelligence-pack/intelligence-pack-v1.json"));
    const dir = sharedPath("data/bridge-examples/valid");
    const capsules = readdirSync(dir).filter((f) => f.endsWith(".capsule.json"));
    expect(capsules.length).toBeGreaterThan(5);
    let emitted = 0;
    for (const f of capsules) {
      const envelope = loadCapsuleBytes(readFileSync(join(dir, f)));
      for (const includeTypologyMatches of [false, true]) {
        const r = deriveCandidate(envelope, pack, { includeTypologyMatches, includeClean: true });
        if (r.status !== "emitted") continue;
        emitted++;
        const parsed = candidateSchema.safeParse(r.candidate);
        expect(parsed.success, `${f}: ${parsed.success ? "" : parsed.error.message}`).toBe(true);
      }
    }
    expect(emitted).toBeGreaterThan(10);
  });

  test("the golden verification reports fit the report schema; a report with an extra member does not", () => {
    const dir = sharedPath("data/capsule-v1/expected-reports");
    for (const f of readdirSync(dir)) {
      const report = JSON.parse(readFileSync(join(dir, f), "utf8"));
      const parsed = verificationReportSchema.safeParse(report);
      expect(parsed.success, `${f}: ${parsed.success ? "" : parsed.error.message}`).toBe(true);
      expect(verificationReportSchema.safeParse({ ...report, extra: 1 }).success).toBe(false);
    }
  });
});
