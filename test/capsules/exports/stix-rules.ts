/**
 * The STIX 2.1 rules our bundle must follow, written from the specification (OASIS STIX Version 2.1, OASIS
 * Standard 10 June 2021): §2.9 identifiers `<type>--<UUID>` (RFC 4122 UUID); §3.1 `type` of 3–250 characters of
 * a–z, 0–9 and hyphen; §3.2 `spec_version` "2.1"; §3.2 `created`/`modified` timestamps in UTC ("Z"), precise to
 * the millisecond, `modified` not before `created`; §4.7 grouping requires `context` and a non-empty
 * `object_refs`; §4.13 note requires `content` and a non-empty `object_refs`; §4.5 identity requires `name`;
 * §7.2.1 marking-definition requires `type`, `spec_version`, `id`, `created` and either `definition_type` +
 * `definition` or `extensions`, and has no `modified`; §7.2.2 `object_marking_refs` hold marking-definition ids;
 * §8 a bundle has `type` "bundle", an `id` `bundle--<UUID>`, `objects`, and no `spec_version`. Property names are
 * lowercase ASCII letters, digits and underscore (§3.1).
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-5][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TYPE = /^[a-z0-9-]{3,250}$/;
const MS_TIME = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
const PROPERTY = /^[a-z0-9_]+$/;

type Obj = Record<string, unknown>;

function idProblem(id: unknown, type: string): string | undefined {
  if (typeof id !== "string") return "id: expected a string";
  const [t, uuid, more] = id.split("--");
  if (more !== undefined || t !== type || uuid === undefined || !UUID.test(uuid)) return `id: expected ${type}--<RFC 4122 UUID>, got ${id}`;
  return undefined;
}

function refsProblem(name: string, v: unknown, ids: ReadonlyMap<string, string>, wanted?: string): string | undefined {
  if (!Array.isArray(v) || v.length === 0) return `${name}: expected a non-empty list of identifiers`;
  for (const r of v) {
    if (typeof r !== "string" || !/^[a-z0-9-]+--/.test(r)) return `${name}: ${String(r)} is not an identifier`;
    const type = ids.get(r);
    if (type === undefined) return `${name}: ${r} is not in the bundle`;
    if (wanted !== undefined && type !== wanted) return `${name}: ${r} is not a ${wanted}`;
  }
  return undefined;
}

/** Every rule broken by `bundle`, as `objects[i].<property>: <rule>` lines (empty when it conforms). */
export function stixProblems(bundle: unknown): string[] {
  const out: string[] = [];
  if (typeof bundle !== "object" || bundle === null) return ["bundle: expected an object"];
  const b = bundle as Obj;
  if (b.type !== "bundle") out.push("bundle.type: expected bundle");
  const bid = idProblem(b.id, "bundle");
  if (bid) out.push(`bundle.${bid}`);
  if ("spec_version" in b) out.push("bundle.spec_version: not a bundle property in STIX 2.1");
  if (!Array.isArray(b.objects)) return [...out, "bundle.objects: expected a list"];
  const objects = b.objects as Obj[];
  const ids = new Map<string, string>();
  for (const o of objects) if (typeof o.id === "string" && typeof o.type === "string") ids.set(o.id, o.type);
  objects.forEach((o, i) => {
    const p = (s: string) => out.push(`objects[${i}].${s}`);
    for (const k of Object.keys(o)) if (!PROPERTY.test(k)) p(`${k}: property names are a-z, 0-9 and _`);
    if (typeof o.type !== "string" || !TYPE.test(o.type)) return p("type: expected 3-250 of a-z 0-9 -");
    if (o.type === "indicator" || o.type === "observed-data") p(`type: ${o.type} objects are never exported`);
    if (o.spec_version !== "2.1") p('spec_version: expected "2.1"');
    const idp = idProblem(o.id, o.type);
    if (idp) p(idp);
    if (typeof o.created !== "string" || !MS_TIME.test(o.created)) p("created: expected a UTC timestamp with millisecond precision");
    if (o.type === "marking-definition") {
      if ("modified" in o) p("modified: a marking definition has none");
      const hasDefinition = typeof o.definition_type === "string" && typeof o.definition === "object" && o.definition !== null;
      if (!hasDefinition && (typeof o.extensions !== "object" || o.extensions === null)) p("definition: required when extensions is absent");
      return;
    }
    if (typeof o.modified !== "string" || !MS_TIME.test(o.modified)) p("modified: expected a UTC timestamp with millisecond precision");
    else if (typeof o.created === "string" && o.modified < o.created) p("modified: earlier than created");
    const marks = refsProblem("object_marking_refs", o.object_marking_refs, ids, "marking-definition");
    if (marks) p(marks);
    if ("created_by_ref" in o) {
      const c = refsProblem("created_by_ref", [o.created_by_ref], ids, "identity");
      if (c) p(c);
    }
    if (o.type === "identity" && (typeof o.name !== "string" || o.name === "")) p("name: required");
    if (o.type === "grouping") {
      if (typeof o.context !== "string" || o.context === "") p("context: required");
      const r = refsProblem("object_refs", o.object_refs, ids);
      if (r) p(r);
    }
    if (o.type === "note") {
      if (typeof o.content !== "string" || o.content === "") p("content: required");
      const r = refsProblem("object_refs", o.object_refs, ids);
      if (r) p(r);
    }
  });
  return out;
}
