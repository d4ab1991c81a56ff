/**
 * STIX 2.1 bundle of approved leads (issue 16 item 1). One bundle holds, in this order: the TLP marking
 * definition, an `identity` for the producing installation, and per lead a `grouping` (context
 * `suspicious-activity`) and a `note` carrying the lead as text (leadText). No `indicator`, no `observed-data`,
 * no IOC value: counts by kind only.
 *
 * Rules followed (STIX 2.1, OASIS Standard): every object has `type`, `spec_version` "2.1", `id` of the form
 * `<type>--<UUID>`, and `created`/`modified` timestamps in UTC with millisecond precision; `grouping` requires
 * `context` and a non-empty `object_refs`; `note` requires `content` and a non-empty `object_refs`; `identity`
 * requires `name`; the bundle has `type` "bundle", an `id` and `objects` and no `spec_version`.
 *
 * Markings: every object except the marking definition itself carries `object_marking_refs` with the one TLP
 * marking; the marking definition is the published, fixed object of the chosen profile (tlp.ts) and is not
 * altered (a marking definition that marked itself would be a different object under the same id).
 *
 * Ids are UUIDv5 (uuid5.ts): the grouping and the note from the candidate digest, the identity from the signing
 * key fingerprint, the bundle from the marking and the exported candidate digests, so re-exports are identical.
 */
import { leadText, millisecondTime, type Lead } from "./lead.js";
import { producerName, producerUuid, type Producer } from "./producer.js";
import { markingDefinition, type MarkingProfile, type TlpLevel } from "./tlp.js";
import { EXPORT_NAMESPACE, uuidV5 } from "./uuid5.js";

export interface StixOptions {
  tlp: TlpLevel;
  profile: MarkingProfile;
  producer: Producer;
}

const SHORT = 12;

function sdoId(type: string, name: string): string {
  return `${type}--${uuidV5(EXPORT_NAMESPACE, `stix/${type}/${name}`)}`;
}

/** The bundle as a JS value (objects in a fixed order, members in a fixed order). */
export function stixBundle(leads: readonly Lead[], opts: StixOptions): Record<string, unknown> {
  const marking = markingDefinition(opts.tlp, opts.profile);
  const markingRefs = [marking.id as string];
  const identityId = `identity--${producerUuid(opts.producer)}`;
  const since = millisecondTime(opts.producer.since);
  const identity = {
    type: "identity",
    spec_version: "2.1",
    id: identityId,
    created: since,
    modified: since,
    name: producerName(opts.producer),
    description: `An evidence-bridge installation; its Ed25519 signing key fingerprint is ${opts.producer.fingerprint}.`,
    identity_class: "system",
    object_marking_refs: markingRefs,
  };
  const objects: Record<string, unknown>[] = [marking, identity];
  for (const lead of leads) {
    const time = millisecondTime(lead.decision.decided_at);
    const groupingId = sdoId("grouping", lead.candidate_sha256);
    const noteId = sdoId("note", lead.candidate_sha256);
    const sources = new Map<string, { source_name: string; description: string; url: string; external_id: string }>();
    for (const h of lead.hypotheses) {
      for (const s of h.sources) sources.set(s.id, { source_name: s.publisher, description: s.title, url: s.url, external_id: s.id });
    }
    const grouping: Record<string, unknown> = {
      type: "grouping",
      spec_version: "2.1",
      id: groupingId,
      created_by_ref: identityId,
      created: time,
      modified: time,
      name: `evidence-bridge lead ${lead.capsule_sha256.slice(0, SHORT)}: ${lead.overall_tier}${lead.families.length > 0 ? ` (${lead.families.join(", ")})` : ""}`,
      description: lead.candidate.origin_answer,
      context: "suspicious-activity",
      object_refs: [noteId],
      object_marking_refs: markingRefs,
    };
    if (sources.size > 0) grouping.external_references = [...sources.values()];
    const note = {
      type: "note",
      spec_version: "2.1",
      id: noteId,
      created_by_ref: identityId,
      created: time,
      modified: time,
      abstract: `Reviewed lead ${lead.capsule_sha256.slice(0, SHORT)}: ${lead.decision.decision} by ${lead.decision.reviewer.name}`,
      content: leadText(lead).join("\n"),
      authors: [...new Set(lead.approvals.map((a) => a.reviewer.name))],
      object_refs: [groupingId],
      object_marking_refs: markingRefs,
    };
    objects.push(grouping, note);
  }
  const digests = leads.map((l) => l.candidate_sha256).sort();
  return {
    type: "bundle",
    id: `bundle--${uuidV5(EXPORT_NAMESPACE, `stix/bundle/${opts.profile}/${opts.tlp}/${digests.join(",")}`)}`,
    objects,
  };
}

/** The bundle's bytes: JSON, two-space indented, LF at the end. */
export function stixBundleBytes(leads: readonly Lead[], opts: StixOptions): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(stixBundle(leads, opts), null, 2)}\n`);
}
