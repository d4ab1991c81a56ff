/**
 * MISP feed of approved leads (issue 16 item 2, issue 32): a directory with `manifest.json`, `hashes.csv` and one
 * `<event uuid>.json` per lead (`{"Event": {...}}`), the layout MISP reads as a feed. `hashes.csv` holds one line
 * `<MD5 of an attribute value>,<event uuid>` per attribute, as MISP's feed generator writes it (MISP uses it to
 * find feed hits before fetching events).
 *
 * Each event (MISP core format, draft-dulaunoy-misp-core-format, and MISP's JSON schema format/2.4/schema.json):
 * `published` false (a human publishes it in MISP), `distribution` "0" (Your Organisation Only) unless chosen
 * otherwise, `sharing_group_id` "0", `threat_level_id` from the overall tier, `analysis` "0" (Initial), `date` the
 * candidate's hour's date, `timestamp` the decision time, `publish_timestamp` "0" (never published), the TLP tag
 * of the MISP `tlp` taxonomy (tlp.ts) and one tag per typology and for the tier, one `counter` attribute (category
 * "Other") per IOC kind with a non-zero count, one `text` attribute (category "Internal reference") naming the
 * capsule and candidate digest, and one `text` attribute (category "Other") with the lead as text and the review
 * decisions (leadText), and one attribute per released value (released.ts: MISP's type and category for it,
 * `to_ids` true). Every time is MISP's own form: `timestamp`s are Unix seconds as decimal strings, `date` is
 * `YYYY-MM-DD`. No analyst `Note` (MISP 2.5): MISP's event schema (format/2.4/schema.json) admits no `Note` member,
 * and an ISO time with `Z` in it is what PyMISP's `MISPEvent().load` could not read. Instance-local numeric ids (`id`, `org_id`, `orgc_id`, `event_id`) are "0": the
 * importing instance assigns its own. Uuids are random (version 4), kept per object and marking in the sealed store
 * (export-ids.ts), so re-exports are identical and two installations never share one; the organisation's uuid is
 * a UUIDv5 of the installation's signing key fingerprint (one per installation).
 */
import type { Tier } from "../assessment/types.js";
import { leadText, unixSeconds, type Lead } from "./lead.js";
import { producerName, producerUuid, type Producer } from "./producer.js";
import { mispTlpTag, type TlpLevel } from "./tlp.js";
import { createHash } from "node:crypto";
import type { ExportIds } from "./export-ids.js";
import { mispTypeOf, releasedAt, releasedByText, shownValue } from "./released.js";

export const MISP_DISTRIBUTIONS = ["0", "1", "2", "3"] as const;
export type MispDistribution = (typeof MISP_DISTRIBUTIONS)[number];

export interface MispOptions {
  tlp: TlpLevel;
  distribution: MispDistribution;
  producer: Producer;
  ids: ExportIds;
  /** False for the render the outward guard checks: released values are written as their stand-ins. */
  reveal: boolean;
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


/** One event document (`{"Event": {...}}`). */
export function mispEvent(lead: Lead, opts: MispOptions): Record<string, unknown> {
  const variant = `${opts.tlp}/${opts.distribution}`;
  const sub = (what: string) => opts.ids.uuid(`misp/${what}/${variant}/${lead.candidate_sha256}`);
  const uuid = sub("event");
  const orgUuid = producerUuid(opts.producer);
  const org = { id: "0", name: producerName(opts.producer), uuid: orgUuid };
  const timestamp = unixSeconds(lead.decision.decided_at);
  const tlp = mispTlpTag(opts.tlp);
  const tags = [
    tag(tlp.name, tlp.colour),
    tag(`evidence-bridge:tier="${lead.overall_tier}"`, "#666666"),
    ...[...new Set(lead.hypotheses.map((h) => h.typology_id))].map((id) => tag(`evidence-bridge:typology="${id}"`, "#336699")),
  ];
  const attribute = (kindName: string, type: string, category: string, value: string, comment: string, toIds = false, at = timestamp) => ({
    uuid: sub(`attribute/${kindName}`),
    id: "0",
    event_id: "0",
    type,
    category,
    value,
    to_ids: toIds,
    distribution: "5",
    sharing_group_id: "0",
    timestamp: at,
    comment,
    deleted: false,
  });
  const attributes = [
    attribute("reference", "text", "Internal reference", `evidence-bridge capsule ${lead.capsule_sha256} candidate sha256:${lead.candidate_sha256}`, "the approved candidate (check the JSONL export with 'evidence-bridge review verify-export')"),
    ...lead.ioc_counts.map((x) => attribute(`count/${x.kind}`, "counter", "Other", String(x.count), `number of ${x.kind} indicators in the lead (values withheld)`)),
    attribute("lead", "text", "Other", leadText(lead).join("\n"), `the reviewed lead: tiers, typologies and their sources, and the review decisions (${lead.approvals.map((a) => a.reviewer.name).join(", ")})`),
    ...lead.released.map((r) => {
      const t = mispTypeOf(r.kind, r.value);
      return attribute(`released/${r.kind}/${r.index}`, t.type, t.category, shownValue(r, opts.reveal), `released ${r.kind} value #${r.index}, ${releasedByText(r)}; the signed release records are in the JSONL export`, true, unixSeconds(releasedAt(r)));
    }),
  ];
  // The event changes when a value is released after the approval: its timestamp moves with the last release.
  const eventTimestamp = String(Math.max(...attributes.map((a) => Number(a.timestamp))));
  return {
    Event: {
      uuid,
      id: "0",
      info: `evidence-bridge lead ${lead.capsule_sha256.slice(0, SHORT)}: ${lead.overall_tier}${lead.families.length > 0 ? ` (${lead.families.join(", ")})` : ""}`,
      date: lead.candidate.created_at.slice(0, 10),
      published: false,
      analysis: "0",
      threat_level_id: THREAT_LEVEL[lead.overall_tier],
      timestamp: eventTimestamp,
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
    },
  };
}

function json(value: unknown): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(value, null, 2)}\n`);
}

/** `hashes.csv`: `<MD5 of the value>,<event uuid>` + LF per attribute (MISP's feed generator's form). */
function hashesCsv(events: readonly Record<string, unknown>[]): Uint8Array {
  const lines = events.flatMap((e) =>
    (e.Attribute as { value: string }[]).map((a) => `${createHash("md5").update(a.value, "utf8").digest("hex")},${e.uuid as string}\n`),
  );
  return new TextEncoder().encode(lines.join(""));
}

/** The feed's files: `manifest.json` first, then `hashes.csv` (when an event has attributes), then one event file per lead. */
export function mispFeedFiles(leads: readonly Lead[], opts: MispOptions): FeedFile[] {
  const manifest: Record<string, unknown> = {};
  const files: FeedFile[] = [];
  const events: Record<string, unknown>[] = [];
  for (const lead of leads) {
    const doc = mispEvent(lead, opts);
    const e = doc.Event as Record<string, unknown>;
    events.push(e);
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
  const hashes = events.some((e) => (e.Attribute as unknown[]).length > 0) ? [{ name: "hashes.csv", bytes: hashesCsv(events) }] : [];
  return [{ name: "manifest.json", bytes: json(manifest) }, ...hashes, ...files];
}
