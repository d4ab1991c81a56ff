/**
 * Field-level shape of `intelligence-pack-v1.json` (assessment-v1 §3.1) as zod v4 strict objects: unknown and
 * missing fields fail, every string is non-blank without control characters (TAB, LF, CR allowed) and bounded in
 * code points, ids are identifiers, URLs are https. Cross-field rules (unique ids, source references,
 * `minimum_indicators` ≤ indicators, totals) are checked by `rules.ts` after this schema passes.
 *
 * Custom issues carry `params.rule`, the rule name reported by {@link PackError}.
 */
import { z } from "zod";
import { codePointLength } from "../json/value.js";
import { hasForbiddenControl, isBlank } from "./text-rules.js";
import { DIMENSIONS, IDENTIFIER_LOWER, PACK_SCHEMA, SPECIFICITIES } from "./vocabulary.js";

type Ctx = z.RefinementCtx;

function fail(ctx: Ctx, rule: string, message: string): void {
  ctx.addIssue({ code: "custom", message, params: { rule } });
}

/** Problems of a pack string against the §3.1 string rules, or undefined. */
function checkText(s: string, max: number, ctx: Ctx): void {
  if (isBlank(s)) fail(ctx, "blank", "must not be empty or blank");
  else if (hasForbiddenControl(s)) fail(ctx, "control-character", "must not contain control characters other than TAB, LF, CR");
  else if (codePointLength(s) > max) fail(ctx, "max-length", `must be at most ${max} characters`);
}

/** A non-blank string of at most `max` code points without control characters. */
export function packText(max: number) {
  return z.string().superRefine((s, ctx) => checkText(s, max, ctx));
}

/** "Identifier (lower)". */
export const packIdentifier = z.string().superRefine((s, ctx) => {
  if (!IDENTIFIER_LOWER.test(s)) fail(ctx, "identifier", "must match ^[a-z][a-z0-9._-]{0,127}$");
});

/** An https URL of at most `max` code points. */
export function packHttpsUrl(max: number) {
  return z.string().superRefine((s, ctx) => {
    checkText(s, max, ctx);
    let ok = s.startsWith("https://");
    if (ok) {
      try {
        const u = new URL(s);
        ok = u.protocol === "https:" && u.hostname !== "" && !/\s/.test(s);
      } catch {
        ok = false;
      }
    }
    if (!ok) fail(ctx, "https-url", 'must be an https URL (starting "https://")');
  });
}

/** An array of unique items, with item-count bounds. */
export function uniqueArray<T extends z.ZodType<string>>(item: T, min: number, max: number) {
  return z
    .array(item)
    .min(min)
    .max(max)
    .superRefine((items, ctx) => {
      const seen = new Set<string>();
      items.forEach((v, i) => {
        if (seen.has(v)) ctx.addIssue({ code: "custom", message: "duplicate entry", path: [i], params: { rule: "unique" } });
        seen.add(v);
      });
    });
}

const specificity = z.enum(SPECIFICITIES);

export const indicatorSchema = z.strictObject({
  id: packIdentifier,
  label: packText(512),
  evidence_class: packIdentifier,
  specificity,
  any_terms: uniqueArray(packText(512), 0, 128).optional(),
  all_terms: uniqueArray(packText(512), 0, 128).optional(),
  any_signals: uniqueArray(packIdentifier, 0, 128).optional(),
  all_signals: uniqueArray(packIdentifier, 0, 128).optional(),
});

export const typologySchema = z.strictObject({
  id: packIdentifier,
  dimension: z.enum(DIMENSIONS),
  label: packText(512),
  description: packText(4096),
  minimum_indicators: z.int().min(1).max(16),
  minimum_specificity: specificity,
  source_refs: uniqueArray(packIdentifier, 1, 32),
  limitations: uniqueArray(packText(512), 1, 16),
  indicators: z.array(indicatorSchema).max(64),
});

export const sourceSchema = z.strictObject({
  id: packIdentifier,
  publisher: packText(256),
  title: packText(4096),
  published_at: packText(64),
  url: packHttpsUrl(1024),
});

export const packSchema = z.strictObject({
  schema: z.string().superRefine((s, ctx) => {
    if (s !== PACK_SCHEMA) fail(ctx, "schema", `must be "${PACK_SCHEMA}"`);
  }),
  version: packText(64),
  generated_at: packText(64),
  publisher: z.strictObject({ name: packText(128), project_url: packHttpsUrl(512) }),
  method: z.strictObject({
    summary: packText(4096),
    support_levels: uniqueArray(packText(64), 0, 8),
    principles: uniqueArray(packText(512), 0, 32),
  }),
  sources: z.array(sourceSchema).max(128),
  typologies: z.array(typologySchema).max(32),
});

export type RawPack = z.infer<typeof packSchema>;
export type RawTypology = z.infer<typeof typologySchema>;
export type RawIndicator = z.infer<typeof indicatorSchema>;
