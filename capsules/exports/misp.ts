/**
 * MISP feed of approved leads (issue 16 item 2): a directory with `manifest.json` and one `<event uuid>.json`
 * per lead (`{"Event": {...}}`), the layout MISP reads as a feed. No `hashes.csv`: it would carry hashes of
 * attribute values, and our attributes are counts, but a recipient's tooling must never be led to expect value
 * hashes from us.
 *
 * Each event (MISP core format, draft-dulaunoy-misp-core-format): `published` false (a human publishes it in
 * MISP), `distribution` "0" (Your Organisation Only) unless chosen otherwise, `sharing_group_id` "0",
 * `threat_level_id` from the overall tier, `analysis` "0" (Initial), `date` the candidate's hour's date,
 * `timestamp` the decision time, `publish_timestamp` "0" (never published), the TLP tag and one tag per
 * typology and for the tier, one `counter` attribute (category "Other") per IOC kind with a non-zero count, one
 * `text` attribute (category "Internal reference") naming the capsule and candidate digest, and the reviewer's
 * decision as an analyst `Note` (MISP 2.5) on the event. Instance-local numeric ids (`id`, `org_id`,
 * `orgc_id`, `event_id`) are "0": the importing instance assigns its own; uuids are UUIDv5 from the candidate
 * digest, so re-exports are identical.
 */
import type { Tier } from "../assessment/types.js";
import { leadText, unixSeconds, type Lead } from "./lead.js";
import { producerName, producerUuid, type Producer } from "./producer.js";
import { mispTlpTag, type TlpLevel } from "./tlp.js";
import { EXPORT_NAMESPACE, uuidV5 } from "./uuid5.js";

export const MISP_DISTRIBUTIONS = ["0", "1", "2", "3"] as const;
export type MispDistribution = (typeof MISP_DISTRIBUTIONS)[number];

export interface MispOptions {
  tlp: TlpLevel;
  distribution: MispDistribution;
  producer: Producer;
}

export interface FeedFile {
  name: string;
  bytes: Uint8Array;
}

const THREAT_LEVEL: Readonly<Record<Tier, string>> = { CONFIRMED_PATTERN: "1", LIKELY_SCAM: "2", WATCH: "3", CLEAN: "4" };
const SHORT = 12;

function tag(name: string, colour: string): Record<string, unknown> {
  return { name, colour, exportable: true };
}

export function mispEventUuid(lead: Lead): string {
  return uuidV5(EXPORT_NAMESPACE, `misp/event/${lead.candidate_sha256}`);
}

/** One event document (`{"Event": {...}}`). */
export function mispEvent(lead: Lead, opts: MispOptions): Record<string, unknown> {
  const uuid = mispEventUuid(lead);
  const orgUuid = producerUuid(opts.producer);
  const org = { id: "0", name: producerName(opts.producer), uuid: orgUuid };
  const timestamp = unixSeconds(lead.decision.decided_at);
  const sub = (what: string) => uuidV5(EXPORT_NAMESPACE, `misp/${what}/${lead.candidate_sha256}`);
  const tlp = mispTlpTag(opts.tlp);
  const tags = [
    tag(tlp.name, tlp.colour),
    tag(`evidence-bridge:tier="${lead.overall_tier}"`, "#666666"),
    ...[...new Set(lead.hypotheses.map((h) => h.typology_id))].map((id) => tag(`evidence-bridge:typology="${id}"`, "#336699")),
  ];
  const attribute = (kindName: string, type: string, category: string, value: string, comment: string) => ({
    uuid: sub(`attribute/${kindName}`),
    id: "0",
    event_id: "0",
    type,
    category,
    value,
    to_ids: false,
    distribution: "5",
    sharing_group_id: "0",
    timestamp,
    comment,
    deleted: false,
  });
  const attributes = [
    attribute("reference", "text", "Internal reference", `evidence-bridge capsule ${lead.capsule_sha256} candidate sha256:${lead.candidate_sha256}`, "the approved candidate (check the JSONL export with 'evidence-bridge review verify-export')"),
    ...lead.ioc_counts.map((x) => attribute(`count/${x.kind}`, "counter", "Other", String(x.count), `number of ${x.kind} indicators in the lead (values withheld)`)),
  ];
  const d = lead.decision;
  const decided = new Date(Date.parse(d.decided_at)).toISOString();
  const note = {
    uuid: sub("note"),
    id: "0",
    object_uuid: uuid,
    object_type: "Event",
    authors: `${d.reviewer.name} (${d.reviewer.fingerprint})`,
    org_uuid: orgUuid,
    orgc_uuid: orgUuid,
    created: decided,
    modified: decided,
    distribution: "5",
    sharing_group_id: "0",
    note: leadText(lead).join("\n"),
    language: "en",
    note_type_name: "Note",
  };
  return {
    Event: {
      uuid,
      id: "0",
      info: `evidence-bridge lead ${lead.capsule_sha256.slice(0, SHORT)}: ${lead.overall_tier}${lead.families.length > 0 ? ` (${lead.families.join(", ")})` : ""}`,
      date: lead.candidate.created_at.slice(0, 10),
      published: false,
      analysis: "0",
      threat_level_id: THREAT_LEVEL[lead.overall_tier],
      timestamp,
      publish_timestamp: "0",
      distribution: opts.distribution,
      sharing_group_id: "0",
      org_id: "0",
      orgc_id: "0",
      attribute_count: String(attributes.length),
      Orgc: org,
      Org: org,
      Tag: tags,
      Attribute: attributes,
      Note: [note],
    },
  };
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}

/** The feed's files: `manifest.json` first, then one event file per lead. */
export function mispFeedFiles(leads: readonly Lead[], opts: MispOptions): FeedFile[] {
  const manifest: Record<string, unknown> = {};
  const files: FeedFile[] = [];
  for (const lead of leads) {
    const doc = mispEvent(lead, opts);
    const e = doc.Event as Record<string, unknown>;
    const orgc = e.Orgc as { name: string; uuid: string };
    manifest[e.uuid as string] = {
      Orgc: { name: orgc.name, uuid: orgc.uuid },
      Tag: (e.Tag as { name: string; colour: string }[]).map((t) => ({ name: t.name, colour: t.colour })),
      info: e.info,
      date: e.date,
      analysis: e.analysis,
      threat_level_id: e.threat_level_id,
      timestamp: e.timestamp,
    };
    files.push({ name: `${e.uuid as string}.json`, bytes: json(doc) });
  }
  return [{ name: "manifest.json", bytes: json(manifest) }, ...files];
}
