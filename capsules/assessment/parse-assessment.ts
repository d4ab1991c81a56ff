/**
 * Assessment intake, step 1 (assessment-v1 §2): bytes → strict JSON (J1–J10) → the closed shape of §2.2–§2.8.
 * zod-free on purpose: this is the `capsule build` hot path. `schema.ts` compiles the same shape to zod.
 */
import { JsonLoadError, parseStrictJson } from "../../src/json/parse.js";
import { kindOf, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { checkShape, ShapeViolation } from "../../src/json/shape-check.js";
import { ASSESSMENT_DIALECT, assessmentPath, SAFE_KEY } from "./assessment-dialect.js";
import { ASSESSMENT_SHAPE } from "./assessment-shape.js";
import { AssessmentError } from "./errors.js";
import type { Assessment } from "./types.js";

/** J1: at most 1 048 576 bytes. */
export const ASSESSMENT_MAX_BYTES = 1_048_576;

export interface ParsedAssessment {
  /** The strictly parsed document (floats keep their lexemes). */
  value: JsonObject;
  /** The shape-checked assessment as plain JS. */
  assessment: Assessment;
}

/** Path segments of a loader path, with any key that does not look like a field name withheld (privacy). */
function safePath(path: string): string {
  return path.replace(/\.([^.[]*)/g, (_m, key: string) => (SAFE_KEY.test(key) ? `.${key}` : ".<key>"));
}

/** The loader's message, keeping every rule and path but never echoing a key that could carry message content. */
function loaderMessage(e: JsonLoadError, bytes: Uint8Array): string {
  if (e.rule === "utf8") {
    const at = firstInvalidUtf8(bytes);
    return at === undefined ? e.message : `JSON is not UTF-8: invalid byte 0x${bytes[at].toString(16).padStart(2, "0")} at offset ${at}`;
  }
  if (e.rule === "duplicate-key") {
    const m = /^duplicate JSON key: '(.*)'$/.exec(e.message);
    return m && SAFE_KEY.test(m[1]) ? e.message : "duplicate JSON key (name withheld)";
  }
  if (e.path !== undefined && e.message.startsWith(`${e.path}: `)) {
    return `${safePath(e.path)}: ${e.message.slice(e.path.length + 2)}`;
  }
  return e.message;
}

/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence (RFC 3629), if any. */
export function firstInvalidUtf8(b: Uint8Array): number | undefined {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let n: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) n = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      n = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      n = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= n; k++) {
      const d = b[i + k];
      if (d === undefined || d < (k === 1 ? lo : 0x80) || d > (k === 1 ? hi : 0xbf)) return i;
    }
    i += n + 1;
  }
  return undefined;
}

/** Strictly parses and shape-checks an assessment. Throws {@link AssessmentError} with a one-line reason. */
export function parseAssessment(bytes: Uint8Array): ParsedAssessment {
  if (bytes.length > ASSESSMENT_MAX_BYTES) throw new AssessmentError("assessment exceeds 1 MiB", undefined, "size");
  let value: JsonValue;
  try {
    value = parseStrictJson(bytes, { maxBytes: ASSESSMENT_MAX_BYTES });
  } catch (e) {
    if (e instanceof JsonLoadError) throw new AssessmentError(loaderMessage(e, bytes), e.path && safePath(e.path), "json");
    throw e;
  }
  if (!(value instanceof Map)) {
    throw new AssessmentError(`assessment: expected a JSON object (got ${kindOf(value)})`, "assessment", "schema");
  }
  let assessment: Assessment;
  try {
    assessment = checkShape(ASSESSMENT_SHAPE, value, ASSESSMENT_DIALECT);
  } catch (e) {
    if (!(e instanceof ShapeViolation)) throw e;
    const path = assessmentPath(e.path);
    throw new AssessmentError(`${path}: ${e.detail}`, path, "schema");
  }
  return { value, assessment };
}
