/**
 * fast-check arbitraries of valid assessments, derived from the shape definition (`ASSESSMENT_SHAPE`): every leaf,
 * closed vocabulary, bound, uniqueness and order comes from the schema itself. The cross-field rules of
 * `assessment-rules.ts` are then satisfied by small repairs at the object that carries them (tier from score,
 * finding score from its formula, IOC binding, ...), and `assessment_id` is recomputed last.
 *
 * The pack consistency check (§4.10) is NOT satisfied by these values: typology ids, labels and templates are
 * random. Property tests that use them build capsules directly (parse → build → verify) and say so.
 */
import fc from "fast-check";
import { computeAssessmentId } from "../../../capsules/assessment/assessment-id.js";
import { ASSESSMENT_SHAPE } from "../../../capsules/assessment/assessment-shape.js";
import { pythonJsonText } from "../../../capsules/assessment/json-text.js";
import { stringProblem, type Shape, type StringShape } from "../../../capsules/assessment/assessment-dialect.js";
import {
  DETECTOR_TIER_MIN_SCORE,
  FINDING_SCORE_CAP,
  FINDING_SCORE_FLOOR,
  SUPPRESSOR_SIGNALS,
  THREAT_RULES,
  TIER_RANK,
  VETO_SIGNALS,
} from "../../../capsules/assessment/vocabulary.js";
import { pythonFloatRepr } from "../../../src/json/legacy.js";
import { compareCodePoints, JsonFloat, type JsonObject, type JsonValue } from "../../../src/json/value.js";

/** Keep generated documents small: arrays get at most this many items (within each shape's own bounds). */
const MAX_ITEMS = 3;

type Repair = (v: JsonObject) => JsonObject;

const hexChar = fc.constantFrom(..."0123456789abcdef");
const hex = (n: number) => fc.string({ unit: hexChar, minLength: n, maxLength: n });
const pad = (n: number, w = 2) => String(n).padStart(w, "0");

const timestamp = fc
  .record({
    t: fc.integer({ min: Date.parse("0001-01-01T00:00:00Z"), max: Date.parse("9999-12-31T23:59:59Z") }),
    micro: fc.option(fc.integer({ min: 0, max: 999_999 }), { nil: undefined }),
  })
  .map(({ t, micro }) => {
    const d = new Date(t);
    const base = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    return micro === undefined ? `${base}Z` : `${base}.${pad(micro, 6)}Z`;
  });

const pathSegment = fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/);
const httpsUrl = fc.tuple(fc.stringMatching(/^[a-z0-9-]{1,12}$/), fc.array(pathSegment, { maxLength: 3 })).map(([host, segs]) => `https://${host}.example/${segs.join("/")}`);

/** Text that passes the shape's own string rule (so the generator can never drift from the validator). */
function textOf(shape: StringShape): fc.Arbitrary<string> {
  const unit = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz ABCXYZ0123456789.,;:!?-_'\"/\\@+()") },
    { weight: 1, arbitrary: fc.constantFrom("é", "ß", "地下钱庄", "मुद्रा", "привет", "😀", "\u00a0", "\u2028", "\u202e", "\t", "\u0000") },
  );
  return fc
    .string({ unit, minLength: 1, maxLength: Math.min(shape.maxChars, 40) })
    .filter((s) => stringProblem(shape, s) === undefined);
}

function stringArb(shape: StringShape): fc.Arbitrary<string> {
  if (shape.oneOf) return fc.constantFrom(...shape.oneOf);
  const base: fc.Arbitrary<string> = (() => {
    switch (shape.format) {
      case "hex24":
        return hex(24);
      case "hex64":
        return hex(64);
      case "identifier":
        return fc.stringMatching(/^[a-z][a-z0-9._-]{0,15}$/);
      case "timestamp":
        return timestamp;
      case "https-url":
        return httpsUrl;
      case "artifact-uri":
        return fc.oneof(httpsUrl, fc.stringMatching(/^urn:[a-z]{2,8}:[a-z0-9:-]{1,20}$/));
      case "text":
      case "pack-text":
      case "raw":
        return textOf(shape);
    }
  })().filter((s) => stringProblem(shape, s) === undefined);
  return shape.emptyAllowed ? fc.oneof(fc.constant(""), base) : base;
}

function intArb(min: number, max: number): fc.Arbitrary<number> {
  const small = fc.integer({ min: Math.max(min, -1000), max: Math.min(max, 1000) });
  if (max <= 1000 && min >= -1000) return small;
  const large = fc.integer({ min: Math.max(min, -(2 ** 31)), max: Math.min(max, 2 ** 31 - 1) });
  const huge = fc.maxSafeInteger().map((n) => Math.min(max, Math.max(min, n)));
  return fc.oneof({ weight: 8, arbitrary: small }, { weight: 1, arbitrary: large }, { weight: 1, arbitrary: huge });
}

/** Compiles a shape to an arbitrary of strict-model values; `repairs` (by normalised path) fix cross-field rules. */
export function shapeArbitrary(shape: Shape, path: string, repairs: Record<string, Repair>): fc.Arbitrary<JsonValue> {
  switch (shape.kind) {
    case "string":
      return stringArb(shape);
    case "bool":
      return shape.value === undefined ? fc.boolean() : fc.constant(shape.value);
    case "int":
      return intArb(shape.min, shape.max);
    case "float":
      return fc
        .double({ min: shape.min, max: Math.min(shape.max, 1e300), noNaN: true, noDefaultInfinity: true })
        .map((x) => new JsonFloat(x, pythonFloatRepr(x)));
    case "nullable":
      return fc.option(shapeArbitrary(shape.inner, path, repairs), { nil: null });
    case "tuple":
      return fc.tuple(...shape.items.map((s, i) => shapeArbitrary(s, `${path}[${i}]`, repairs)));
    case "array": {
      const max = Math.max(shape.min, Math.min(shape.max, MAX_ITEMS));
      const item = shapeArbitrary(shape.item, `${path}[]`, repairs);
      if (Array.isArray(shape.order)) {
        return fc.subarray([...shape.order], { minLength: shape.min, maxLength: max }) as fc.Arbitrary<JsonValue>;
      }
      const unique = shape.unique ?? (shape.order ? "value" : undefined);
      const arr: fc.Arbitrary<JsonValue[]> =
        unique === undefined
          ? fc.array(item, { minLength: shape.min, maxLength: max })
          : fc.uniqueArray(item, {
              minLength: shape.min,
              maxLength: max,
              selector: (v) => (unique === "value" ? v : (v as JsonObject).get(unique.key)),
            });
      return shape.order === "code-point" ? arr.map((a) => [...a].sort((x, y) => compareCodePoints(x as string, y as string))) : arr;
    }
    case "object": {
      const names = Object.keys(shape.fields);
      const full = fc
        .tuple(...names.map((n) => shapeArbitrary(shape.fields[n], path ? `${path}.${n}` : n, repairs)))
        .map((values) => new Map(names.map((n, i) => [n, values[i]])) as JsonObject);
      const repaired = repairs[path] ? full.map(repairs[path]) : full;
      return shape.allOrNone ? fc.oneof(fc.constant(new Map() as JsonObject), repaired) : repaired;
    }
    case "record": {
      const value = shapeArbitrary(shape.value, `${path}.*`, repairs);
      return fc
        .tuple(fc.subarray([...shape.keys]), fc.array(value, { minLength: shape.keys.length, maxLength: shape.keys.length }))
        .map(([keys, values]) => new Map(keys.map((k, i) => [k, values[i]])) as JsonObject);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Repairs for the cross-field rules (each mirrors one rule of assessment-rules.ts).

const arr = (v: JsonValue | undefined) => v as JsonValue[];
const o = (v: JsonValue | undefined) => v as JsonObject;

const TIERS_BY_RANK = Object.keys(TIER_RANK) as (keyof typeof TIER_RANK)[];

function repairDetector(d: JsonObject): JsonObject {
  const score = d.get("score") as number;
  // Highest tier the score allows, possibly demoted (gates only demote), never CLEAN above 15.
  const allowed = TIERS_BY_RANK.filter((t) => (score < 15 ? t === "CLEAN" : t !== "CLEAN" && DETECTOR_TIER_MIN_SCORE[t] <= score));
  d.set("tier", allowed[score % allowed.length]);
  const seen = new Set<string>();
  const signals = arr(d.get("signals")).filter((s) => {
    const name = o(s).get("name") as string;
    if (seen.has(name)) return false;
    seen.add(name);
    const family = (SUPPRESSOR_SIGNALS as readonly string[]).includes(name) ? "SUPPRESS" : (VETO_SIGNALS as readonly string[]).includes(name) ? "VETO" : undefined;
    if (family) o(s).set("family", family);
    else if (o(s).get("family") === "SUPPRESS" || o(s).get("family") === "VETO") o(s).set("family", "WEAK");
    return true;
  });
  d.set("signals", signals);
  return d;
}

function repairFinding(f: JsonObject): JsonObject {
  const rule = THREAT_RULES[f.get("rule_id") as string];
  f.set("family", rule.family);
  f.set("label", rule.label);
  if (rule.cappedAtLikelyScam && f.get("tier") === "CONFIRMED_PATTERN") f.set("tier", "LIKELY_SCAM");
  const classes = arr(f.get("evidence_classes")) as string[];
  const tier = f.get("tier") as keyof typeof FINDING_SCORE_FLOOR;
  f.set("score", Math.min(FINDING_SCORE_CAP, FINDING_SCORE_FLOOR[tier] + 5 * Math.max(0, classes.length - 2)));
  const terms = o(f.get("matched_terms"));
  for (const k of [...terms.keys()]) if (!classes.includes(k)) terms.delete(k);
  return f;
}

function repairThreat(t: JsonObject): JsonObject {
  const seen = new Set<string>();
  const findings = arr(t.get("findings"))
    .map(o)
    .filter((f) => !seen.has(f.get("rule_id") as string) && seen.add(f.get("rule_id") as string))
    .sort((a, b) => {
      const ta = TIER_RANK[a.get("tier") as keyof typeof TIER_RANK];
      const tb = TIER_RANK[b.get("tier") as keyof typeof TIER_RANK];
      return tb - ta || (b.get("score") as number) - (a.get("score") as number) || compareCodePoints(a.get("rule_id") as string, b.get("rule_id") as string);
    });
  t.set("findings", findings);
  t.set("tier", findings[0]?.get("tier") ?? "CLEAN");
  t.set("score", findings[0]?.get("score") ?? 0);
  t.set("families", [...new Set(findings.map((f) => f.get("family") as string))]);
  return t;
}

function repairCollection(c: JsonObject): JsonObject {
  if (c.get("surface") === "public_channel") {
    c.set("authorization", "public");
    if (c.get("source_pseudonym") === "") c.set("source_pseudonym", "0123456789abcdef01234567");
  }
  if (c.get("surface") === "private_submission") c.set("authorization", "user_submitted");
  const hints = arr(c.get("script_hints"));
  if (hints.includes("undetermined") && hints.length > 1) c.set("script_hints", ["undetermined"]);
  return c;
}

function repairObservation(ob: JsonObject): JsonObject {
  if (ob.get("source_group") === "submitted-message") ob.set("source_group", "submitted-message-copy");
  if (ob.get("match_type") === "exact_ioc") {
    if (ob.get("matched_ioc_kind") === "") ob.set("matched_ioc_kind", "handles");
    if (ob.get("matched_ioc_value") === "") ob.set("matched_ioc_value", "@placeholder");
  } else {
    ob.set("matched_ioc_kind", "");
    ob.set("matched_ioc_value", "");
  }
  return ob;
}

function repairHypothesis(h: JsonObject): JsonObject {
  for (const ob of arr(h.get("external_observations"))) o(ob).set("typology_id", h.get("typology_id")!);
  return h;
}

/** M2 binding and DIRECT_LINK support against the generated detector IOCs; one hypothesis per typology. */
function repairAssessment(a: JsonObject): JsonObject {
  const iocs = o(o(a.get("detector")).get("iocs"));
  const seen = new Set<string>();
  const hypotheses = arr(a.get("hypotheses"))
    .map(o)
    .filter((h) => !seen.has(h.get("typology_id") as string) && seen.add(h.get("typology_id") as string));
  for (const h of hypotheses) {
    for (const ob of arr(h.get("external_observations")).map(o)) {
      if (ob.get("match_type") !== "exact_ioc") continue;
      const values = iocs.get(ob.get("matched_ioc_kind") as string) as string[] | undefined;
      if (values && values.length > 0) ob.set("matched_ioc_value", values[values.length - 1]);
      else {
        ob.set("match_type", "entity");
        ob.set("matched_ioc_kind", "");
        ob.set("matched_ioc_value", "");
      }
    }
    const direct = arr(h.get("external_observations")).some(
      (ob) => o(ob).get("source_kind") === "authoritative" && o(ob).get("match_type") === "exact_ioc" && o(ob).get("reliability") === "direct",
    );
    if (h.get("support_level") === "DIRECT_LINK" && !direct) h.set("support_level", "TYPOLOGY_MATCH");
  }
  a.set("hypotheses", hypotheses);
  a.set("assessment_id", computeAssessmentId(a));
  return a;
}

const REPAIRS: Record<string, Repair> = {
  detector: repairDetector,
  "threat_assessment.findings[]": repairFinding,
  threat_assessment: repairThreat,
  collection: repairCollection,
  "hypotheses[].external_observations[]": repairObservation,
  "hypotheses[]": repairHypothesis,
  "": repairAssessment,
};

/** Valid assessments (shape and rules; not pack consistency) as strict-model values. */
export const assessmentValue: fc.Arbitrary<JsonObject> = shapeArbitrary(ASSESSMENT_SHAPE, "", REPAIRS) as fc.Arbitrary<JsonObject>;

/** The producer's bytes for a generated assessment (Python-style canonical JSON, floats as reprs). */
export const assessmentBytes: fc.Arbitrary<Uint8Array> = assessmentValue.map((v) => new TextEncoder().encode(pythonJsonText(v)));
