/**
 * The rules every exported STIX bundle follows, checked with our own code. They are the rules of the OASIS tools a
 * recipient runs, written down from their public sources (docs/sharing.md lists them with the versions checked):
 * stix2-validator 3.2.1 with `--strict --interop` (schemas of cti-stix2-json-schemas, branch stix2.1), the `stix2`
 * library 3.0.2 parsing without `allow_custom`, and the STIX 2.1 specification (OASIS Standard, 10 June 2021).
 *
 * S1  bundle: `type` "bundle", `id` `bundle--<UUIDv4>`, `objects` a list, no `spec_version` (§8).
 * S2  every object: `type` of 3-250 of a-z 0-9 -, `spec_version` "2.1", `id` `<type>--<UUIDv4>` (strict {103}),
 *     `created` and `modified` UTC timestamps with millisecond precision, `modified` not before `created`
 *     (interop: the core schema requires `modified` of every object, marking definitions included).
 * S3  every object has `created_by_ref` naming an identity in the bundle that has `created_by_ref` itself (interop).
 * S4  every object but the marking definition has `object_marking_refs`, non-empty, each a marking definition in the
 *     bundle; no marking definition marks itself (validator musts).
 * S5  only the properties the specification defines for the type, plus the properties a top-level property
 *     extension in the object's `extensions` declares in its `extension_properties`, whose extension definition is
 *     in the bundle (`stix2` without `allow_custom`: Unexpected properties; strict {401}). Names of extension
 *     properties are 3-250 of a-z 0-9 _ (§3.1).
 * S6  a marking definition has `definition_type` + `definition` or `extensions`; never `definition_type` "tlp" (only
 *     the four published TLP 1.0 objects may, which lack `created_by_ref`: `stix2` TLPMarkingDefinitionError).
 * S7  an extension definition has `name`, `schema`, `version`, non-empty `extension_types`; a top-level property
 *     extension lists its `extension_properties` (strict {306}); every `extension-definition--` key of an object's
 *     `extensions` has an `extension_type`.
 * S8  an external reference has `source_name` and one of `description`, `url`, `external_id`; one with `url` has
 *     `hashes` (strict {302}).
 * S9  grouping: `context` from grouping-context-ov, non-empty `object_refs` that resolve (§4.7); note: `content`,
 *     non-empty `object_refs` that resolve (§4.13); identity: `name`, `identity_class` from identity-class-ov (§4.5).
 * S10 indicator (§4.8): `name` and `description` (strict {303}), `pattern_type` "stix", `pattern` accepted by the STIX 2.1 pattern grammar
 *     (pattern-rules.ts), `valid_from`, `indicator_types` from indicator-type-ov (strict vocabulary check).
 * S11 no two objects share an id (one object per marking and lead, never two versions in one bundle).
 */
import { patternProblem } from "./pattern-rules.js";

const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TYPE = /^[a-z0-9-]{3,250}$/;
const MS_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const PROPERTY = /^[a-z0-9_]{3,250}$/;

const COMMON = ["type", "spec_version", "id", "created_by_ref", "created", "modified", "revoked", "labels", "confidence", "lang", "external_references", "object_marking_refs", "granular_markings", "extensions"];
/** Properties the specification defines per exported type (§4, §7.2, §7.3). */
export const STIX_PROPERTIES: Readonly<Record<string, readonly string[]>> = {
  "marking-definition": ["type", "spec_version", "id", "created_by_ref", "created", "external_references", "object_marking_refs", "granular_markings", "extensions", "definition_type", "name", "definition"],
  "extension-definition": ["type", "spec_version", "id", "created_by_ref", "created", "modified", "revoked", "labels", "external_references", "object_marking_refs", "granular_markings", "name", "description", "schema", "version", "extension_types", "extension_properties"],
  identity: [...COMMON, "name", "description", "roles", "identity_class", "sectors", "contact_information"],
  grouping: [...COMMON, "name", "description", "context", "object_refs"],
  note: [...COMMON, "abstract", "content", "authors", "object_refs"],
  indicator: [...COMMON, "name", "description", "indicator_types", "pattern", "pattern_type", "pattern_version", "valid_from", "valid_until", "kill_chain_phases"],
};
const GROUPING_CONTEXT = ["suspicious-activity", "malware-analysis", "unspecified"];
const IDENTITY_CLASS = ["individual", "group", "system", "organization", "class", "unknown"];
const INDICATOR_TYPE = ["anomalous-activity", "anonymization", "benign", "compromised", "malicious-activity", "attribution", "unknown"];

type Obj = Record<string, unknown>;

function idProblem(id: unknown, type: string): string | undefined {
  if (typeof id !== "string") return "id: expected a string";
  const [t, uuid, more] = id.split("--");
  if (more !== undefined || t !== type || uuid === undefined || !UUID4.test(uuid)) return `id: expected ${type}--<UUIDv4>, got ${id}`;
  return undefined;
}

function refsProblem(name: string, v: unknown, types: ReadonlyMap<string, string>, wanted?: string): string | undefined {
  if (!Array.isArray(v) || v.length === 0) return `${name}: expected a non-empty list of identifiers`;
  for (const r of v) {
    if (typeof r !== "string" || !/^[a-z0-9-]+--/.test(r)) return `${name}: ${String(r)} is not an identifier`;
    const type = types.get(r);
    if (type === undefined) return `${name}: ${r} is not in the bundle`;
    if (wanted !== undefined && type !== wanted) return `${name}: ${r} is not a ${wanted}`;
  }
  return undefined;
}

/** Every rule broken by `bundle`, as `objects[i].<property>: <rule> (S<n>)` lines (empty when it conforms). */
export function stixProblems(bundle: unknown): string[] {
  const out: string[] = [];
  if (typeof bundle !== "object" || bundle === null) return ["bundle: expected an object (S1)"];
  const b = bundle as Obj;
  if (b.type !== "bundle") out.push("bundle.type: expected bundle (S1)");
  const bid = idProblem(b.id, "bundle");
  if (bid) out.push(`bundle.${bid} (S1)`);
  if ("spec_version" in b) out.push("bundle.spec_version: not a bundle property in STIX 2.1 (S1)");
  if (!Array.isArray(b.objects)) return [...out, "bundle.objects: expected a list (S1)"];
  const objects = b.objects as Obj[];
  const types = new Map<string, string>();
  const seen = new Set<string>();
  for (const o of objects) {
    if (typeof o.id !== "string" || typeof o.type !== "string") continue;
    if (seen.has(o.id)) out.push(`bundle.objects: ${o.id} appears twice (S11)`);
    seen.add(o.id);
    types.set(o.id, o.type);
  }
  const producers = new Set(objects.filter((o) => o.type === "identity" && typeof o.created_by_ref === "string").map((o) => o.id as string));
  const extensionProps = new Map<string, readonly string[]>();
  for (const o of objects) {
    if (o.type === "extension-definition" && Array.isArray(o.extension_types) && o.extension_types.includes("toplevel-property-extension")) {
      extensionProps.set(o.id as string, Array.isArray(o.extension_properties) ? (o.extension_properties as string[]) : []);
    }
  }
  objects.forEach((o, i) => {
    const p = (s: string) => out.push(`objects[${i}].${s}`);
    if (typeof o.type !== "string" || !TYPE.test(o.type)) return p("type: expected 3-250 of a-z 0-9 - (S2)");
    if (o.spec_version !== "2.1") p('spec_version: expected "2.1" (S2)');
    const idp = idProblem(o.id, o.type);
    if (idp) p(`${idp} (S2)`);
    if (typeof o.created !== "string" || !MS_TIME.test(o.created)) p("created: expected a UTC timestamp with millisecond precision (S2)");
    if (typeof o.modified !== "string" || !MS_TIME.test(o.modified)) p("modified: expected a UTC timestamp with millisecond precision (S2)");
    else if (typeof o.created === "string" && o.modified < o.created) p("modified: earlier than created (S2)");
    if (typeof o.created_by_ref !== "string" || types.get(o.created_by_ref) !== "identity") p("created_by_ref: expected an identity in the bundle (S3)");
    else if (!producers.has(o.created_by_ref)) p("created_by_ref: the identity has no created_by_ref itself (S3)");
    // S5: the type's properties, plus those of the top-level property extensions it names.
    const allowed = new Set(STIX_PROPERTIES[o.type] ?? []);
    if (STIX_PROPERTIES[o.type] === undefined) p(`type: ${o.type} is not a type the export writes (S5)`);
    const exts = typeof o.extensions === "object" && o.extensions !== null ? (o.extensions as Record<string, Obj>) : {};
    for (const [key, ext] of Object.entries(exts)) {
      if (typeof ext?.extension_type !== "string") p(`extensions.${key}: expected an extension_type (S7)`);
      if (ext?.extension_type === "toplevel-property-extension") {
        const props = extensionProps.get(key);
        if (props === undefined) p(`extensions.${key}: a top-level property extension whose definition is not in the bundle (S5)`);
        else for (const k of props) allowed.add(k);
      }
    }
    for (const k of Object.keys(o)) {
      if (!allowed.has(k) && !PROPERTY.test(k)) p(`${k}: property names are 3-250 of a-z, 0-9 and _ (S5)`);
      else if (!allowed.has(k)) p(`${k}: not a property of ${o.type} nor of an extension it names (S5)`);
    }
    if (o.type === "marking-definition") {
      if ("object_marking_refs" in o && (o.object_marking_refs as unknown[]).includes(o.id)) p("object_marking_refs: marks itself (S4)");
      const hasDefinition = typeof o.definition_type === "string" && typeof o.definition === "object" && o.definition !== null;
      if (!hasDefinition && Object.keys(exts).length === 0) p("definition: required when extensions is absent (S6)");
      if (o.definition_type === "tlp") p('definition_type: "tlp" is reserved for the published TLP 1.0 objects (S6)');
    } else {
      const marks = refsProblem("object_marking_refs", o.object_marking_refs, types, "marking-definition");
      if (marks) p(`${marks} (S4)`);
    }
    if (o.type === "extension-definition") {
      for (const k of ["name", "schema", "version"]) if (typeof o[k] !== "string" || o[k] === "") p(`${k}: required (S7)`);
      if (!Array.isArray(o.extension_types) || o.extension_types.length === 0) p("extension_types: expected a non-empty list (S7)");
      else if (o.extension_types.includes("toplevel-property-extension") && (!Array.isArray(o.extension_properties) || o.extension_properties.length === 0)) {
        p("extension_properties: a top-level property extension lists its properties (S7)");
      }
    }
    if (Array.isArray(o.external_references)) {
      (o.external_references as Obj[]).forEach((r, j) => {
        if (typeof r.source_name !== "string") p(`external_references[${j}].source_name: required (S8)`);
        if (!["description", "url", "external_id"].some((k) => typeof r[k] === "string")) p(`external_references[${j}]: needs description, url or external_id (S8)`);
        if ("url" in r && !("hashes" in r)) p(`external_references[${j}].url: a URL without hashes (S8)`);
      });
    }
    if (o.type === "identity") {
      if (typeof o.name !== "string" || o.name === "") p("name: required (S9)");
      if (!IDENTITY_CLASS.includes(o.identity_class as string)) p("identity_class: expected a value of identity-class-ov (S9)");
    }
    if (o.type === "grouping") {
      if (!GROUPING_CONTEXT.includes(o.context as string)) p("context: expected a value of grouping-context-ov (S9)");
      const r = refsProblem("object_refs", o.object_refs, types);
      if (r) p(`${r} (S9)`);
    }
    if (o.type === "note") {
      if (typeof o.content !== "string" || o.content === "") p("content: required (S9)");
      const r = refsProblem("object_refs", o.object_refs, types);
      if (r) p(`${r} (S9)`);
    }
    if (o.type === "indicator") {
      for (const k of ["name", "description"]) if (typeof o[k] !== "string" || o[k] === "") p(`${k}: required (S10)`);
      if (o.pattern_type !== "stix") p('pattern_type: expected "stix" (S10)');
      const pp = typeof o.pattern === "string" ? patternProblem(o.pattern) : "expected a string";
      if (pp !== undefined) p(`pattern: ${pp} (S10)`);
      if (typeof o.valid_from !== "string" || !MS_TIME.test(o.valid_from)) p("valid_from: expected a UTC timestamp with millisecond precision (S10)");
      if (!Array.isArray(o.indicator_types) || o.indicator_types.length === 0 || o.indicator_types.some((t) => !INDICATOR_TYPE.includes(t as string))) {
        p("indicator_types: expected values of indicator-type-ov (S10)");
      }
    }
  });
  return out;
}
