/**
 * External observations (assessment-v1 §4.5): field validation with the hardened additions, unknown typologies
 * (M1) and exact-IOC binding (M2). Messages name the path and rule and never echo IOC values or summaries.
 */
import { codePointLength } from "../../src/json/value.js";
import { PackError, unknownFieldError } from "./errors.js";
import { hasControlOrFormat, isAssessmentTimestamp, isBlank } from "./text-rules.js";
import type { ExternalObservation, IntelligencePack, IocSet } from "./types.js";
import {
  IDENTIFIER_LOWER,
  IOC_KINDS,
  MATCH_TYPES,
  RELIABILITIES,
  SOURCE_KINDS,
  SUBMITTED_MESSAGE_GROUP,
  type IocKind,
} from "./vocabulary.js";
import { isRecord } from "../../src/json/value.js";

export const OBSERVATION_FIELDS = [
  "typology_id",
  "evidence_class",
  "source_id",
  "source_group",
  "source_kind",
  "match_type",
  "summary",
  "reliability",
  "artifact_uri",
  "observed_at",
  "matched_ioc_kind",
  "matched_ioc_value",
] as const;

const IDENTIFIER_FIELDS = ["typology_id", "evidence_class", "source_id", "source_group"] as const;

/**
 * Checks one observation's shape and field rules (§4.5 + hardened: exactly the 12 string fields, no control or
 * format characters in `summary`, `observed_at` empty or a §2.2 timestamp, group `submitted-message` reserved).
 * Throws {@link PackError} at `path.<field>`.
 */
export function validateObservation(o: unknown, path: string): asserts o is ExternalObservation {
  if (!isRecord(o)) throw new PackError(path, "type", "an external observation must be an object");
  for (const key of Object.keys(o)) {
    if (!(OBSERVATION_FIELDS as readonly string[]).includes(key)) throw unknownFieldError(path, key);
  }
  for (const key of OBSERVATION_FIELDS) {
    if (!(key in o)) throw new PackError(`${path}.${key}`, "missing-field", "required field is missing");
    if (typeof o[key] !== "string") throw new PackError(`${path}.${key}`, "type", "expected a string");
  }
  const s = o as Record<(typeof OBSERVATION_FIELDS)[number], string>;
  for (const key of IDENTIFIER_FIELDS) {
    if (!IDENTIFIER_LOWER.test(s[key])) throw new PackError(`${path}.${key}`, "identifier", "must match ^[a-z][a-z0-9._-]{0,127}$");
  }
  if (s.source_group === SUBMITTED_MESSAGE_GROUP) {
    throw new PackError(`${path}.source_group`, "reserved-group", `'${SUBMITTED_MESSAGE_GROUP}' is reserved for the message itself`);
  }
  const enums = [
    ["source_kind", SOURCE_KINDS],
    ["match_type", MATCH_TYPES],
    ["reliability", RELIABILITIES],
  ] as const;
  for (const [key, values] of enums) {
    if (!(values as readonly string[]).includes(s[key])) throw new PackError(`${path}.${key}`, "enum", `must be one of ${values.join(", ")}`);
  }
  if (isBlank(s.summary)) throw new PackError(`${path}.summary`, "blank", "must not be empty or blank");
  if (codePointLength(s.summary) > 1024) throw new PackError(`${path}.summary`, "max-length", "must be at most 1024 characters");
  if (hasControlOrFormat(s.summary)) throw new PackError(`${path}.summary`, "control-character", "must not contain control or format characters");
  if (s.artifact_uri !== "" && !s.artifact_uri.startsWith("https://") && !s.artifact_uri.startsWith("urn:")) {
    throw new PackError(`${path}.artifact_uri`, "artifact-uri", 'must be "" or start with "https://" or "urn:"');
  }
  if (hasControlOrFormat(s.artifact_uri)) {
    throw new PackError(`${path}.artifact_uri`, "control-character", "must not contain control or format characters");
  }
  if (s.observed_at !== "" && !isAssessmentTimestamp(s.observed_at)) {
    throw new PackError(`${path}.observed_at`, "timestamp", 'must be "" or YYYY-MM-DDTHH:MM:SS[.ffffff]Z');
  }
  if (s.match_type === "exact_ioc") {
    if (!(IOC_KINDS as readonly string[]).includes(s.matched_ioc_kind)) {
      throw new PackError(`${path}.matched_ioc_kind`, "enum", `an exact_ioc observation needs one of ${IOC_KINDS.join(", ")}`);
    }
    if (isBlank(s.matched_ioc_value)) throw new PackError(`${path}.matched_ioc_value`, "blank", "an exact_ioc observation needs a value");
    if (codePointLength(s.matched_ioc_value) > 2048) {
      throw new PackError(`${path}.matched_ioc_value`, "max-length", "must be at most 2048 characters");
    }
  } else {
    if (s.matched_ioc_kind !== "") throw new PackError(`${path}.matched_ioc_kind`, "ioc-fields", `must be "" unless match_type is exact_ioc`);
    if (s.matched_ioc_value !== "") throw new PackError(`${path}.matched_ioc_value`, "ioc-fields", `must be "" unless match_type is exact_ioc`);
  }
}

/** M1: the observation's typology must exist in the pack. */
export function checkObservationTypology(pack: IntelligencePack, o: ExternalObservation, path: string): void {
  if (!pack.typologyById.has(o.typology_id)) {
    throw new PackError(`${path}.typology_id`, "M1", `external observations reference unknown typologies: ['${o.typology_id}']`);
  }
}

/** M2: an exact-IOC observation must bind, by exact string equality, an IOC of the assessment. */
export function checkObservationBinding(o: ExternalObservation, iocs: IocSet, path: string): void {
  if (o.match_type !== "exact_ioc") return;
  const values = iocs[o.matched_ioc_kind as IocKind];
  if (!Array.isArray(values) || !values.includes(o.matched_ioc_value)) {
    throw new PackError(`${path}.matched_ioc_value`, "M2", "exact_ioc observation does not bind an IOC extracted from this message");
  }
}

/** Validates every observation (shape, M1, M2) in input order; `pathOf(i)` names the i-th observation. */
export function checkObservations(
  pack: IntelligencePack,
  observations: readonly unknown[],
  iocs: IocSet,
  pathOf: (i: number) => string,
): ExternalObservation[] {
  return observations.map((o, i) => {
    const path = pathOf(i);
    validateObservation(o, path);
    checkObservationTypology(pack, o, path);
    checkObservationBinding(o, iocs, path);
    return o;
  });
}
