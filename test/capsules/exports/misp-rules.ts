/**
 * The rules every exported MISP event follows, checked with our own code: the MISP core format
 * (draft-dulaunoy-misp-core-format, MISP/misp-rfc) and MISP's event schema (format/2.4/schema.json, the copy PyMISP
 * 2.5.34.1 ships as pymisp/data/schema.json), plus what PyMISP's `MISPEvent().load` reads (docs/sharing.md lists
 * them with the versions checked).
 *
 * M1  Event, Orgc/Org, Attribute and Tag hold only the members MISP's schema defines (the schema is closed: no
 *     `Note`, no `Object`).
 * M2  Event: uuid, published (boolean), info (one line, at most 256 characters), date `YYYY-MM-DD`, timestamp and
 *     publish_timestamp (Unix seconds), org_id, orgc_id, id, attribute_count (decimal strings, attribute_count the
 *     number of attributes), threat_level_id 1-4, analysis 0-2, distribution 0-4, sharing_group_id "0" unless
 *     distribution is 4; Orgc with uuid, name and id.
 * M3  times in MISP's own form only: Unix seconds as decimal strings; no member holds an ISO time (`…Z`), the
 *     form PyMISP could not read (`Invalid isoformat string: '…000Z+00:00'`); free texts (attribute values and
 *     comments, the event's info) may quote one.
 * M4  Attribute: uuid, type, category, value, to_ids (boolean), event_id and timestamp (decimal strings),
 *     distribution 0-5, deleted (boolean); the category one MISP allows for the type (describeTypes.json facts for
 *     the types we write, MISP_TYPES below); `to_ids` true exactly for released values (issue 32: a reviewer
 *     released them to be acted on), false for the lead's own attributes (counters, references, text).
 * M5  Tag: name; the TLP tag is one of the MISP `tlp` taxonomy (version 10) with the taxonomy's colour.
 * M6  hashes.csv: one line `<MD5 of the value>,<event uuid>` per attribute of every event (MISP's feed generator).
 */
import { createHash } from "node:crypto";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DIGITS = /^[0-9]+$/;
const ISO_TIME = /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})/;

const EVENT_MEMBERS = ["id", "orgc_id", "org_id", "date", "threat_level_id", "info", "published", "uuid", "attribute_count", "analysis", "timestamp", "distribution", "proposal_email_lock", "locked", "publish_timestamp", "sharing_group_id", "disable_correlation", "event_creator_email", "Org", "Orgc", "SharingGroup", "Attribute", "ShadowAttribute", "RelatedEvent", "Galaxy", "Tag"];
const ORG_MEMBERS = ["id", "name", "uuid"];
const ATTRIBUTE_MEMBERS = ["id", "type", "category", "to_ids", "uuid", "event_id", "distribution", "timestamp", "comment", "sharing_group_id", "deleted", "disable_correlation", "value", "data", "SharingGroup", "ShadowAttribute", "Tag"];
const TAG_MEMBERS = ["id", "name", "colour", "exportable", "hide_tag"];

/** The MISP types the feed writes and the categories MISP allows for them (describeTypes.json). */
export const MISP_TYPES: Readonly<Record<string, { categories: readonly string[]; ids: boolean }>> = {
  text: { categories: ["Internal reference", "Other", "Financial fraud", "Social network", "Person"], ids: false },
  domain: { categories: ["Payload delivery", "Network activity", "External analysis"], ids: true },
  counter: { categories: ["Other"], ids: false },
  btc: { categories: ["Financial fraud"], ids: true },
  xmr: { categories: ["Financial fraud"], ids: true },
  dash: { categories: ["Financial fraud"], ids: true },
  url: { categories: ["Payload delivery", "Network activity", "External analysis"], ids: true },
  "email-src": { categories: ["Payload delivery", "Network activity", "Social network"], ids: true },
  "phone-number": { categories: ["Financial fraud", "Person", "Other"], ids: true },
};

/** The MISP `tlp` taxonomy, version 10: tag value → colour. */
export const MISP_TLP_TAXONOMY: Readonly<Record<string, string>> = {
  "tlp:red": "#FF2B2B",
  "tlp:amber": "#FFC000",
  "tlp:amber+strict": "#FFC000",
  "tlp:green": "#33FF00",
  "tlp:clear": "#ffffff",
};

type Obj = Record<string, unknown>;

function closed(o: Obj, members: readonly string[], where: string, out: string[]): void {
  for (const k of Object.keys(o)) if (!members.includes(k)) out.push(`${where}.${k}: not a member MISP's schema defines (M1)`);
}

/** Members holding an ISO time, outside the free texts (attribute values and comments, the event's info). */
function isoTimes(v: unknown, path: string): string[] {
  if (typeof v === "string") return ISO_TIME.test(v) ? [path] : [];
  if (Array.isArray(v)) return v.flatMap((x, i) => isoTimes(x, `${path}[${i}]`));
  if (typeof v === "object" && v !== null) {
    return Object.entries(v).flatMap(([k, x]) => (["value", "comment", "info"].includes(k) && typeof x === "string" ? [] : isoTimes(x, path === "" ? k : `${path}.${k}`)));
  }
  return [];
}

/** `released`: the values reviewers released (their attributes have `to_ids` true; every other attribute false). */
export function mispEventProblems(doc: unknown, released: readonly string[] = []): string[] {
  const out: string[] = [];
  if (typeof doc !== "object" || doc === null || Object.keys(doc).join() !== "Event") return ["the document: expected exactly {Event} (M1)"];
  const e = (doc as { Event?: Obj }).Event;
  if (typeof e !== "object" || e === null) return ["Event: required (M2)"];
  for (const where of isoTimes(doc, "")) out.push(`${where}: an ISO time; MISP's times are Unix seconds (M3)`);
  closed(e, EVENT_MEMBERS, "Event", out);
  const str = (o: Obj, k: string, where: string, re?: RegExp, rule = "M2") => {
    if (typeof o[k] !== "string" || (re !== undefined && !re.test(o[k] as string))) out.push(`${where}.${k}: expected a string${re ? ` matching ${re}` : ""} (${rule})`);
  };
  str(e, "uuid", "Event", UUID);
  for (const k of ["id", "org_id", "orgc_id", "attribute_count"]) str(e, k, "Event", DIGITS);
  for (const k of ["timestamp", "publish_timestamp"]) str(e, k, "Event", DIGITS, "M3");
  str(e, "info", "Event");
  if (typeof e.info === "string" && (e.info.length > 256 || /\n/.test(e.info))) out.push("Event.info: at most 256 characters, one line (M2)");
  str(e, "date", "Event", /^\d{4}-\d{2}-\d{2}$/, "M3");
  if (typeof e.published !== "boolean") out.push("Event.published: expected a boolean (M2)");
  str(e, "threat_level_id", "Event", /^[1-4]$/);
  str(e, "analysis", "Event", /^[0-2]$/);
  str(e, "distribution", "Event", /^[0-4]$/);
  if (e.distribution !== "4" && e.sharing_group_id !== "0") out.push('Event.sharing_group_id: expected "0" unless distribution is 4 (M2)');
  for (const which of ["Orgc", "Org"]) {
    const org = e[which] as Obj | undefined;
    if (typeof org !== "object" || org === null) {
      if (which === "Orgc") out.push("Event.Orgc: required (M2)");
      continue;
    }
    closed(org, ORG_MEMBERS, `Event.${which}`, out);
    str(org, "uuid", `Event.${which}`, UUID);
    str(org, "name", `Event.${which}`);
    str(org, "id", `Event.${which}`, DIGITS);
  }
  const attrs = e.Attribute;
  if (!Array.isArray(attrs)) out.push("Event.Attribute: expected a list (M4)");
  else {
    if (e.attribute_count !== String(attrs.length)) out.push("Event.attribute_count: differs from the attributes (M2)");
    attrs.forEach((a: Obj, i: number) => {
      const w = `Event.Attribute[${i}]`;
      closed(a, ATTRIBUTE_MEMBERS, w, out);
      str(a, "uuid", w, UUID, "M4");
      for (const k of ["type", "category", "value"]) str(a, k, w, undefined, "M4");
      for (const k of ["event_id", "timestamp"]) str(a, k, w, DIGITS, "M4");
      str(a, "distribution", w, /^[0-5]$/, "M4");
      if (typeof a.to_ids !== "boolean") out.push(`${w}.to_ids: expected a boolean (M4)`);
      if (typeof a.deleted !== "boolean") out.push(`${w}.deleted: expected a boolean (M4)`);
      const t = MISP_TYPES[a.type as string];
      if (t === undefined) out.push(`${w}.type: ${String(a.type)} is not a type the feed writes (M4)`);
      else {
        if (!t.categories.includes(a.category as string)) out.push(`${w}.category: ${String(a.category)} is not allowed for ${String(a.type)} (M4)`);
        const isReleased = released.includes(a.value as string);
        if (a.to_ids !== isReleased) out.push(`${w}.to_ids: expected ${isReleased} (true exactly for released values) (M4)`);
      }
      if (a.type === "counter" && !DIGITS.test(String(a.value))) out.push(`${w}.value: a counter is a decimal number (M4)`);
    });
  }
  const tags = e.Tag;
  if (!Array.isArray(tags)) out.push("Event.Tag: expected a list (M5)");
  else {
    tags.forEach((t: Obj, i: number) => {
      closed(t, TAG_MEMBERS, `Event.Tag[${i}]`, out);
      str(t, "name", `Event.Tag[${i}]`, undefined, "M5");
      const name = t.name as string;
      if (name.startsWith("tlp:") && MISP_TLP_TAXONOMY[name] !== t.colour) out.push(`Event.Tag[${i}]: ${name} is not a tag of the MISP tlp taxonomy with its colour (M5)`);
    });
    if (tags.filter((t: Obj) => String(t.name).startsWith("tlp:")).length !== 1) out.push("Event.Tag: expected exactly one tlp: tag (M5)");
  }
  return out;
}

/** M6: the lines `hashes.csv` must hold for these event documents (in event order, then attribute order). */
export function expectedHashesCsv(docs: readonly unknown[]): string {
  return docs
    .flatMap((d) => {
      const e = (d as { Event: { uuid: string; Attribute: { value: string }[] } }).Event;
      return e.Attribute.map((a) => `${createHash("md5").update(a.value, "utf8").digest("hex")},${e.uuid}\n`);
    })
    .join("");
}
