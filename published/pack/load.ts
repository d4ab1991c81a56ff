/**
 * Fail-closed loading of `intelligence-pack-v1.json` (assessment-v1 §3.2): size limit, strict UTF-8 and strict JSON
 * with duplicate keys rejected, the complete §3.1 validation before anything is exposed (the shape of
 * `pack-shape.ts` checked over the strict value model, without zod; then `rules.ts`), digest over the raw bytes.
 * The result is deeply frozen.
 */
import { sha256Hex } from "../../src/hash.js";
import { JsonLoadError, parseStrictJson } from "../../src/json/parse.js";
import { checkShape, ShapeViolation } from "../../src/json/shape-check.js";
import { indexPath, isJsonFloat, memberPath, type JsonValue } from "../../src/json/value.js";
import { joinPath, PackError } from "./errors.js";
import { PACK_DIALECT } from "./pack-dialect.js";
import { PACK_SHAPE, type RawIndicator, type RawPack } from "./pack-shape.js";
import { checkPackRules } from "./rules.js";
import type { IntelligencePack, PackIndicator, PackSource, PackTypology } from "./types.js";

/** §3.2 P1: more than this many bytes is rejected. */
export const MAX_PACK_BYTES = 1_048_576;

const ROOT = "pack";

/** §3.2 P5: lowercase hex SHA-256 over the raw file bytes (never a re-serialisation). */
export function packDigest(bytes: Uint8Array): string {
  return sha256Hex(bytes);
}

/** Parses and validates pack bytes; throws {@link PackError} naming the path and the rule. */
export function loadPack(bytes: Uint8Array): IntelligencePack {
  if (bytes.length > MAX_PACK_BYTES) {
    throw new PackError(ROOT, "size", "intelligence pack exceeds the 1 MiB limit");
  }
  let doc: JsonValue;
  try {
    doc = parseStrictJson(bytes, { maxBytes: MAX_PACK_BYTES, rootPath: ROOT });
  } catch (e) {
    if (e instanceof JsonLoadError) throw new PackError(e.path ?? ROOT, `json:${e.rule}`, stripPath(e.message, e.path));
    throw e;
  }
  rejectFloats(doc, ROOT);
  let raw: RawPack;
  try {
    raw = checkShape(PACK_SHAPE, doc, PACK_DIALECT) as RawPack;
  } catch (e) {
    if (e instanceof ShapeViolation) throw new PackError(joinPath(ROOT, e.path), e.rule, e.detail);
    throw e;
  }
  const warnings = checkPackRules(raw);
  return freezePack(raw, packDigest(bytes), bytes.length, warnings);
}

function stripPath(message: string, path: string | undefined): string {
  return path !== undefined && message.startsWith(`${path}: `) ? message.slice(path.length + 2) : message;
}

/** No pack field is a float: reject any float lexeme (`2.0` is not the integer 2). */
function rejectFloats(v: JsonValue, path: string): void {
  if (isJsonFloat(v)) throw new PackError(path, "type", "floats are not allowed in a pack (expected an integer or a string)");
  if (Array.isArray(v)) v.forEach((x, i) => rejectFloats(x, indexPath(path, i)));
  else if (v instanceof Map) for (const [k, x] of v) rejectFloats(x, memberPath(path, k));
}

function freezeIndicator(i: RawIndicator): PackIndicator {
  return Object.freeze({
    id: i.id,
    label: i.label,
    evidence_class: i.evidence_class,
    specificity: i.specificity,
    any_terms: Object.freeze([...(i.any_terms ?? [])]),
    all_terms: Object.freeze([...(i.all_terms ?? [])]),
    any_signals: Object.freeze([...(i.any_signals ?? [])]),
    all_signals: Object.freeze([...(i.all_signals ?? [])]),
  });
}

function freezePack(raw: RawPack, sha256: string, size: number, warnings: string[]): IntelligencePack {
  const sources: PackSource[] = raw.sources.map((s) =>
    Object.freeze({ id: s.id, publisher: s.publisher, title: s.title, published_at: s.published_at, url: s.url }),
  );
  const typologies: PackTypology[] = raw.typologies.map((t) =>
    Object.freeze({
      id: t.id,
      dimension: t.dimension,
      label: t.label,
      description: t.description,
      minimum_indicators: t.minimum_indicators,
      minimum_specificity: t.minimum_specificity,
      source_refs: Object.freeze([...t.source_refs]),
      limitations: Object.freeze([...t.limitations]),
      indicators: Object.freeze(t.indicators.map(freezeIndicator)),
    }),
  );
  return Object.freeze({
    schema: raw.schema,
    version: raw.version,
    generated_at: raw.generated_at,
    publisher: Object.freeze({ name: raw.publisher.name, project_url: raw.publisher.project_url }),
    method: Object.freeze({
      summary: raw.method.summary,
      support_levels: Object.freeze([...raw.method.support_levels]),
      principles: Object.freeze([...raw.method.principles]),
    }),
    sources: Object.freeze(sources),
    typologies: Object.freeze(typologies),
    sha256,
    size,
    sourceById: new Map(sources.map((s) => [s.id, s])),
    typologyById: new Map(typologies.map((t) => [t.id, t])),
    warnings: Object.freeze([...warnings]),
  });
}
