/**
 * The MISP core format's required fields (draft-dulaunoy-misp-core-format, MISP/misp-rfc), for the parts our
 * feed writes: Event (uuid, published, info, date, timestamp, publish_timestamp, org_id, orgc_id, distribution
 * MUST; id, threat_level_id, analysis, attribute_count SHALL; sharing_group_id "0" unless distribution is 4),
 * Orgc (uuid, name, id), Attribute (uuid, type, category, to_ids, event_id, distribution, timestamp, deleted,
 * value; `counter` in category Other), Tag (name; colour and exportable), analyst Note (uuid, object_uuid, authors,
 * org_uuid, orgc_uuid, note, note_type_name "Note"). Numbers, timestamps and enumerations are JSON strings.
 */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DIGITS = /^[0-9]+$/;

type Obj = Record<string, unknown>;

export function mispEventProblems(doc: unknown): string[] {
  const out: string[] = [];
  const e = (doc as { Event?: Obj } | null)?.Event;
  if (typeof e !== "object" || e === null) return ["Event: required"];
  const str = (o: Obj, k: string, where: string, re?: RegExp) => {
    if (typeof o[k] !== "string" || (re !== undefined && !re.test(o[k] as string))) out.push(`${where}.${k}: expected a string${re ? ` matching ${re}` : ""}`);
  };
  for (const k of ["uuid"]) str(e, k, "Event", UUID);
  for (const k of ["id", "timestamp", "publish_timestamp", "org_id", "orgc_id", "attribute_count"]) str(e, k, "Event", DIGITS);
  str(e, "info", "Event");
  if (typeof e.info === "string" && (e.info.length > 256 || /\n/.test(e.info))) out.push("Event.info: at most 256 characters, one line");
  str(e, "date", "Event", /^\d{4}-\d{2}-\d{2}$/);
  if (typeof e.published !== "boolean") out.push("Event.published: expected a boolean");
  str(e, "threat_level_id", "Event", /^[1-4]$/);
  str(e, "analysis", "Event", /^[0-2]$/);
  str(e, "distribution", "Event", /^[0-4]$/);
  if (e.distribution !== "4" && e.sharing_group_id !== "0") out.push('Event.sharing_group_id: expected "0" unless distribution is 4');
  const orgc = e.Orgc as Obj | undefined;
  if (typeof orgc !== "object" || orgc === null) out.push("Event.Orgc: required");
  else {
    str(orgc, "uuid", "Event.Orgc", UUID);
    str(orgc, "name", "Event.Orgc");
    str(orgc, "id", "Event.Orgc", DIGITS);
  }
  const attrs = e.Attribute;
  if (!Array.isArray(attrs)) out.push("Event.Attribute: expected a list");
  else {
    if (e.attribute_count !== String(attrs.length)) out.push("Event.attribute_count: differs from the attributes");
    attrs.forEach((a: Obj, i: number) => {
      const w = `Event.Attribute[${i}]`;
      str(a, "uuid", w, UUID);
      for (const k of ["type", "category", "value"]) str(a, k, w);
      for (const k of ["event_id", "timestamp"]) str(a, k, w, DIGITS);
      str(a, "distribution", w, /^[0-5]$/);
      if (typeof a.to_ids !== "boolean") out.push(`${w}.to_ids: expected a boolean`);
      if (typeof a.deleted !== "boolean") out.push(`${w}.deleted: expected a boolean`);
      if (a.type === "counter" && (a.category !== "Other" || !DIGITS.test(String(a.value)))) out.push(`${w}: a counter is category Other with a decimal value`);
    });
  }
  const tags = e.Tag;
  if (!Array.isArray(tags)) out.push("Event.Tag: expected a list");
  else tags.forEach((t: Obj, i: number) => str(t, "name", `Event.Tag[${i}]`));
  const notes = e.Note;
  if (notes !== undefined) {
    if (!Array.isArray(notes)) out.push("Event.Note: expected a list");
    else
      notes.forEach((n: Obj, i: number) => {
        const w = `Event.Note[${i}]`;
        for (const k of ["uuid", "object_uuid", "org_uuid", "orgc_uuid"]) str(n, k, w, UUID);
        for (const k of ["authors", "note"]) str(n, k, w);
        if (n.note_type_name !== "Note") out.push(`${w}.note_type_name: expected "Note"`);
      });
  }
  return out;
}
