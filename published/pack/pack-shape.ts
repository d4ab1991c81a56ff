/**
 * The one field-level definition of `intelligence-pack-v1.json` (assessment-v1 §3.1): closed objects, every
 * string non-blank without control characters (TAB, LF, CR allowed) and bounded in code points, ids are
 * identifiers, URLs are https, term and signal lists are unique. Written with the pack dialect
 * (`pack-dialect.ts`); checked by the loader through `src/json/shape-check.ts` (no zod) and compiled to zod by
 * `schema.ts`. Cross-field rules (unique ids, source references, `minimum_indicators` ≤ indicators, totals) are
 * checked by `rules.ts` once the whole document has passed this shape.
 */
import { array, int, object, oneOf, str, type Infer, type StringShape } from "../../src/json/shape.js";
import type { PackFormat } from "./pack-dialect.js";
import { DIMENSIONS, SPECIFICITIES } from "./vocabulary.js";

// No type annotations on the shapes below: their types are what `Infer` reads the pack's value types from.
const text = (maxChars: number) => str<PackFormat>("text", maxChars);
const httpsUrl = (maxChars: number) => str<PackFormat>("https-url", maxChars);
const identifier = str<PackFormat>("identifier", 128);
const specificity = oneOf("enum", SPECIFICITIES);

/** A list of distinct entries. */
function uniqueList(item: StringShape<PackFormat>, min: number, max: number) {
  return array(item, { min, max, unique: "value" });
}

const CLAUSES = ["any_terms", "all_terms", "any_signals", "all_signals"] as const;

const indicator = object(
  {
    id: identifier,
    label: text(512),
    evidence_class: identifier,
    specificity,
    any_terms: uniqueList(text(512), 0, 128),
    all_terms: uniqueList(text(512), 0, 128),
    any_signals: uniqueList(identifier, 0, 128),
    all_signals: uniqueList(identifier, 0, 128),
  },
  { optional: CLAUSES },
);

const typology = object({
  id: identifier,
  dimension: oneOf("enum", DIMENSIONS),
  label: text(512),
  description: text(4096),
  minimum_indicators: int(1, 16),
  minimum_specificity: specificity,
  source_refs: uniqueList(identifier, 1, 32),
  limitations: uniqueList(text(512), 1, 16),
  indicators: array(indicator, { max: 64 }),
});

const source = object({
  id: identifier,
  publisher: text(256),
  title: text(4096),
  published_at: text(64),
  url: httpsUrl(1024),
});

export const PACK_SHAPE = object({
  schema: str("pack-schema", 64),
  version: text(64),
  generated_at: text(64),
  publisher: object({ name: text(128), project_url: httpsUrl(512) }),
  method: object({
    summary: text(4096),
    support_levels: uniqueList(text(64), 0, 8),
    principles: uniqueList(text(512), 0, 32),
  }),
  sources: array(source, { max: 128 }),
  typologies: array(typology, { max: 32 }),
});

/** A pack that passed {@link PACK_SHAPE}, as plain JS (absent indicator clauses are absent). */
export type RawPack = Infer<typeof PACK_SHAPE>;
export type RawSource = Infer<typeof source>;
export type RawTypology = Infer<typeof typology>;
export type RawIndicator = Infer<typeof indicator>;
