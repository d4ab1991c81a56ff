/**
 * JSON Schemas of our formats, generated from their zod schemas with `z.toJSONSchema` (JSON Schema 2020-12): the
 * MCP schema resources serve them, and `schemas/*.schema.json` holds the checked-in copies (written by
 * `npx tsx bridge/mcp/write-schemas.ts`; a test fails when a copy drifts from the code). The schema modules are
 * imported only when a schema is generated.
 */
import { z } from "zod";

export interface FormatInfo {
  /** File name under `schemas/` and last segment of the resource URI. */
  file: string;
  title: string;
  description: string;
}

export const FORMATS: readonly FormatInfo[] = [
  { file: "assessment-v1.schema.json", title: "scamshield-provenance/v1 assessment", description: "The assessment a producer pipes into capsule build / record_assessment (assessment-v1 §2)." },
  { file: "intelligence-pack-v1.schema.json", title: "scamshield-intelligence-pack/v1", description: "The intelligence pack (assessment-v1 §3)." },
  { file: "regional-index-v1.schema.json", title: "Regional captured-news index", description: "service.regional-captured-index.v1 (product.md §10)." },
  { file: "outward-candidate-v1.schema.json", title: "Outward candidate", description: "palimpsest-scamshield-public-record/v1 plus feed_policy (product.md §8)." },
  { file: "verification-report-v1.schema.json", title: "Capsule verification report", description: "The Evidence Capsule v1 verification report (capsule-v1 §10)." },
  { file: "capsule-row-v1.schema.json", title: "Minimized capsule row", description: "A row of list_capsules / capsule list --json (product.md §6)." },
  { file: "typology-match-v1.schema.json", title: "Typology match result", description: "The result of match_typologies / pack match (assessment-v1 §4.6–§4.9)." },
  { file: "regional-report-v1.schema.json", title: "Regional index validation report", description: "The result of check_regional_index / index validate (product.md §10)." },
];

const OPTS = { unrepresentable: "any" } as const;

async function generated(file: string): Promise<Record<string, unknown>> {
  switch (file) {
    case "assessment-v1.schema.json":
      return (await import("../../capsules/assessment/schema.js")).assessmentJsonSchema();
    case "intelligence-pack-v1.schema.json":
      return z.toJSONSchema((await import("../../published/pack/schema.js")).packSchema, OPTS) as Record<string, unknown>;
    case "regional-index-v1.schema.json":
      return z.toJSONSchema((await import("../../published/regional/schema.js")).regionalIndexSchema, OPTS) as Record<string, unknown>;
  }
  const f = await import("./format-zod.js");
  const local: Record<string, z.ZodType> = {
    "outward-candidate-v1.schema.json": f.candidateSchema,
    "verification-report-v1.schema.json": f.verificationReportSchema,
    "capsule-row-v1.schema.json": f.capsuleRowSchema,
    "typology-match-v1.schema.json": f.typologyMatchSchema,
    "regional-report-v1.schema.json": f.regionalReportSchema,
  };
  const schema = local[file];
  if (!schema) throw new Error(`unknown format schema ${file}`);
  return z.toJSONSchema(schema, OPTS) as Record<string, unknown>;
}

/** The JSON Schema of one format, with its title (and description when the zod schema has none). */
export async function formatJsonSchema(file: string): Promise<Record<string, unknown>> {
  const info = FORMATS.find((f) => f.file === file);
  if (!info) throw new Error(`unknown format schema ${file}`);
  const g = await generated(file);
  return { $schema: g.$schema, title: info.title, description: info.description, ...g };
}

/** The checked-in file text: 2-space JSON and a final newline. */
export function schemaFileText(schema: Record<string, unknown>): string {
  return `${JSON.stringify(schema, null, 2)}\n`;
}
