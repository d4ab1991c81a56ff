/**
 * STIX 2.1 bundle of approved leads (issue 16 item 1, issue 32): the marking definition, the extension definition
 * that gives it a `modified`, an `identity` for the producing installation, and per lead a `grouping` (context
 * `suspicious-activity`) and a `note` carrying the lead as text (leadText), and an `indicator` per released value
 * (released.ts) that the grouping lists. No `observed-data` and no IOC value but the released ones; counts by kind.
 *
 * The bundle passes the OASIS stix2-validator with `--strict` and `--interop` and parses with the OASIS `stix2`
 * library without `allow_custom` (the rules, and the versions they were checked with, are listed in docs/sharing.md
 * and checked by test/capsules/exports/stix-rules.ts):
 * - every id is `<type>--<UUIDv4>`, minted once per object and marking and kept in the sealed store (export-ids.ts):
 *   a re-export keeps its ids, another installation never shares one, and the same lead under another marking is
 *   another object with another id (a marking is part of an object's content; one id with two markings would read
 *   as two versions of one object);
 * - every object has `created_by_ref`, the producer identity (the identity names itself), and `object_marking_refs`
 *   with the one marking (the marking definition has none: it may not mark itself);
 * - a lead's objects are `modified` at its decision or its latest release, whichever is later (a release changes the
 *   grouping's `object_refs` and the note's text, so the same id gets a new `modified`, as a STIX version must);
 * - every object has `created` and `modified` in UTC with millisecond precision; the marking definition's `modified`
 *   is a top-level property extension the bundle defines (`extension-definition` object), since the STIX 2.1
 *   marking definition has no `modified` property and `--interop` requires one;
 * - external references carry no `url` (we hold no hash of the cited page, and `--strict` requires one with a
 *   URL): the URL is in the reference's `description`, the pack source id in `external_id`.
 */
import { createHash } from "node:crypto";
import type { ExportIds } from "./export-ids.js";
import { leadText, millisecondTime, type Lead } from "./lead.js";
import { producerName, type Producer } from "./producer.js";
import { releasedAt, releasedByText, shownValue, stixPattern, type LeadRelease } from "./released.js";
import { markingLevelProperties, tlpName, type MarkingProfile, type TlpLevel } from "./tlp.js";

export interface StixOptions {
  tlp: TlpLevel;
  profile: MarkingProfile;
  producer: Producer;
  ids: ExportIds;
  /** False for the render the outward guard checks: released values are written as their stand-ins. */
  reveal: boolean;
}

const SHORT = 12;
/** The one property the bundle's own top-level property extension adds (to marking definitions). */
const EXTENSION_PROPERTIES = ["modified"];

type Obj = Record<string, unknown>;

/** The variant an object is minted under: its marking. */
function variant(opts: StixOptions): string {
  return `${opts.profile}/${opts.tlp}`;
}

function stixId(opts: StixOptions, type: string, ...rest: string[]): string {
  return `${type}--${opts.ids.uuid(["stix", type, variant(opts), ...rest].join("/"))}`;
}

/** The marking definition, the extension definition giving it `modified`, and the identity: one each per marking. */
function producerObjects(opts: StixOptions): { objects: Obj[]; identityId: string; markingRefs: string[] } {
  const identityId = stixId(opts, "identity");
  const markingId = stixId(opts, "marking-definition");
  const extensionId = stixId(opts, "extension-definition");
  const since = millisecondTime(opts.producer.since);
  const level = markingLevelProperties(opts.tlp, opts.profile);
  const marking = {
    type: "marking-definition",
    spec_version: "2.1",
    id: markingId,
    created_by_ref: identityId,
    created: since,
    modified: since,
    ...level.properties,
    extensions: { ...level.extensions, [extensionId]: { extension_type: "toplevel-property-extension" } },
  };
  const extension = {
    type: "extension-definition",
    spec_version: "2.1",
    id: extensionId,
    created_by_ref: identityId,
    created: since,
    modified: since,
    name: "evidence-bridge marking definition modified",
    description: "Adds modified to the marking definitions of evidence-bridge exports (the STIX Interoperability profile requires it of every object).",
    schema: "A top-level property modified: a STIX timestamp with millisecond precision, the time the marking definition was last changed (equal to created).",
    version: "1.0.0",
    extension_types: ["toplevel-property-extension"],
    extension_properties: EXTENSION_PROPERTIES,
    object_marking_refs: [markingId],
  };
  const identity = {
    type: "identity",
    spec_version: "2.1",
    id: identityId,
    created_by_ref: identityId,
    created: since,
    modified: since,
    name: producerName(opts.producer),
    description: `An evidence-bridge installation; its Ed25519 signing key fingerprint is ${opts.producer.fingerprint}. Marked ${tlpName(opts.tlp)}.`,
    identity_class: "system",
    object_marking_refs: [markingId],
  };
  return { objects: [marking, extension, identity], identityId, markingRefs: [markingId] };
}

/** A released value as an `indicator` (released.ts gives the pattern). */
function indicator(r: LeadRelease, lead: Lead, opts: StixOptions, identityId: string, markingRefs: string[]): Obj {
  const time = millisecondTime(releasedAt(r));
  const value = shownValue(r, opts.reveal);
  return {
    type: "indicator",
    spec_version: "2.1",
    id: stixId(opts, "indicator", lead.candidate_sha256, r.kind, String(r.index)),
    created_by_ref: identityId,
    created: time,
    modified: time,
    name: `evidence-bridge released ${r.kind} value of lead ${lead.capsule_sha256.slice(0, SHORT)}`,
    description: `A ${r.kind} value (#${r.index}) of the approved lead ${lead.capsule_sha256}, ${releasedByText(r)}. Each reviewer signed a release record binding this value to candidate sha256:${lead.candidate_sha256}; check them with 'evidence-bridge review verify-export' on the JSONL export.`,
    indicator_types: ["malicious-activity"],
    pattern: stixPattern(r.kind, value),
    pattern_type: "stix",
    pattern_version: "2.1",
    valid_from: time,
    object_marking_refs: markingRefs,
  };
}

function leadObjects(lead: Lead, opts: StixOptions, identityId: string, markingRefs: string[]): Obj[] {
  // An object changes when a value of its lead is released later: its modified moves with the last release.
  const created = millisecondTime(lead.decision.decided_at);
  const time = millisecondTime([lead.decision.decided_at, ...lead.released.map(releasedAt)].sort().at(-1)!);
  const groupingId = stixId(opts, "grouping", lead.candidate_sha256);
  const noteId = stixId(opts, "note", lead.candidate_sha256);
  const indicators = lead.released.map((r) => indicator(r, lead, opts, identityId, markingRefs));
  const sources = new Map<string, { source_name: string; description: string; external_id: string }>();
  for (const h of lead.hypotheses) {
    for (const s of h.sources) sources.set(s.id, { source_name: s.publisher, description: `${s.title} (${s.url})`, external_id: s.id });
  }
  const grouping: Obj = {
    type: "grouping",
    spec_version: "2.1",
    id: groupingId,
    created_by_ref: identityId,
    created,
    modified: time,
    name: `evidence-bridge lead ${lead.capsule_sha256.slice(0, SHORT)}: ${lead.overall_tier}${lead.families.length > 0 ? ` (${lead.families.join(", ")})` : ""}`,
    description: lead.candidate.origin_answer,
    context: "suspicious-activity",
    object_refs: [noteId, ...indicators.map((i) => i.id as string)],
    object_marking_refs: markingRefs,
  };
  if (sources.size > 0) grouping.external_references = [...sources.values()];
  const note = {
    type: "note",
    spec_version: "2.1",
    id: noteId,
    created_by_ref: identityId,
    created,
    modified: time,
    abstract: `Reviewed lead ${lead.capsule_sha256.slice(0, SHORT)}: ${lead.decision.decision} by ${lead.decision.reviewer.name}`,
    content: leadText(lead).join("\n"),
    authors: [...new Set(lead.approvals.map((a) => a.reviewer.name))],
    object_refs: [groupingId],
    object_marking_refs: markingRefs,
  };
  return [grouping, note, ...indicators];
}

/** The bundle as a JS value (objects in a fixed order, members in a fixed order). */
export function stixBundle(leads: readonly Lead[], opts: StixOptions): Obj {
  const { objects, identityId, markingRefs } = producerObjects(opts);
  for (const lead of leads) objects.push(...leadObjects(lead, opts, identityId, markingRefs));
  const digests = leads.map((l) => l.candidate_sha256).sort();
  const set = createHash("sha256").update(digests.join(",")).digest("hex");
  return { type: "bundle", id: `bundle--${opts.ids.uuid(`stix/bundle/${variant(opts)}/${set}`)}`, objects };
}

/** The bundle's bytes: JSON, two-space indented, LF at the end. */
export function stixBundleBytes(leads: readonly Lead[], opts: StixOptions): Uint8Array {
  return new TextEncoder().encode(`${JSON.stringify(stixBundle(leads, opts), null, 2)}\n`);
}
