/**
 * The regional index format as a zod schema, compiled (`src/json/shape-zod.ts`) from the one definition in
 * `index-shape.ts`: for the JSON Schema under `schemas/` and the MCP schema resource. Validation does not use it
 * (validate.ts interprets the shape directly over the strict value model, which also tells `1` from `1.0`).
 */
import type { z } from "zod";
import { compileShape } from "../../src/json/shape-zod.js";
import { INDEX_DIALECT } from "./index-dialect.js";
import { NEUTRAL_INDEX_SHAPE, type RegionalIndex } from "./index-shape.js";

/** `service.regional-captured-index.v1` (neutral profile) as a zod schema over plain JSON values. */
export const regionalIndexSchema = compileShape(NEUTRAL_INDEX_SHAPE, INDEX_DIALECT) as unknown as z.ZodType<RegionalIndex>;
