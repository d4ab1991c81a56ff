/**
 * `intelligence-pack-v1.json` (assessment-v1 §3.1) as a zod v4 schema, compiled from the one definition in
 * `pack-shape.ts` with the pack dialect: strict objects, closed enums, the same string rules with the same rule
 * names and messages as the loader. For JSON Schema export and zod-based callers only: `loadPack` does not use it
 * (nor load zod). The cross-field rules of `rules.ts` are not part of it, and zod cannot tell `2` from `2.0`.
 */
import type { z } from "zod";
import { toPlain } from "../../src/json/plain.js";
import { compileShape, firstIssue } from "../../src/json/shape-zod.js";
import type { JsonValue } from "../../src/json/value.js";
import { joinPath } from "./errors.js";
import { PACK_DIALECT } from "./pack-dialect.js";
import { PACK_SHAPE, type RawPack } from "./pack-shape.js";

export type { RawIndicator, RawPack, RawSource, RawTypology } from "./pack-shape.js";

export const packSchema = compileShape(PACK_SHAPE, PACK_DIALECT) as unknown as z.ZodType<RawPack>;

/**
 * Checks a strictly parsed pack with the zod schema: undefined when it passes, else the first problem as the
 * message `loadPack` would give (`pack.sources[3].url: must be an https URL (starting "https://") (https-url)`).
 */
export function packSchemaProblem(value: JsonValue): string | undefined {
  const result = packSchema.safeParse(toPlain(value));
  if (result.success) return undefined;
  const issue = firstIssue(result.error, PACK_DIALECT);
  return `${joinPath("pack", issue.path)}: ${issue.message}`;
}
