/**
 * CSV of approved leads (issue 16 item 3): RFC 4180 records (CRLF), a header row, one row per lead, every text
 * cell through the formula rule of published/regional/csv.ts (a cell a spreadsheet could read as a formula gets
 * a leading apostrophe). Counts per IOC kind in their own columns. A released value (issue 32) gets a row of its own
 * after its lead's: the lead's tlp, capsule and candidate, then `indicator_kind`, `indicator_value` and
 * `released_by`; lead rows leave those three empty. No other value.
 */
import { csvRecord, csvText } from "../../published/regional/csv.js";
import { IOC_KINDS } from "../../published/pack/vocabulary.js";
import type { Lead } from "./lead.js";
import { releasedByText, shownValue, type LeadRelease } from "./released.js";
import { tlpName, type TlpLevel } from "./tlp.js";

export const CSV_COLUMNS = [
  "tlp",
  "capsule_sha256",
  "candidate_sha256",
  "created_at",
  "overall_tier",
  "detector_tier",
  "detector_score",
  "threat_tier",
  "threat_score",
  "families",
  ...IOC_KINDS.map((k) => `ioc_${k}`),
  "hypotheses",
  "typology_sources",
  "origin_answer",
  "decision",
  "decided_at",
  "reviewer",
  "reviewer_fingerprint",
  "review_record",
  "review_note",
  "indicator_kind",
  "indicator_value",
  "released_by",
] as const;

function row(lead: Lead, tlp: TlpLevel): string[] {
  const c = lead.candidate;
  const d = lead.decision;
  const sources = [...new Set(lead.hypotheses.flatMap((h) => h.sources.map((s) => s.url)))];
  return [
    tlpName(tlp),
    lead.capsule_sha256,
    lead.candidate_sha256,
    c.created_at,
    lead.overall_tier,
    c.detector.tier,
    String(c.detector.score),
    c.threat_assessment.tier,
    String(c.threat_assessment.score),
    lead.families.join(";"),
    ...IOC_KINDS.map((k) => String(c.ioc_counts[k] ?? 0)),
    lead.hypotheses.map((h) => `${h.typology_id}:${h.support_level}`).join(";"),
    sources.join(" "),
    c.origin_answer,
    d.decision,
    d.decided_at,
    d.reviewer.name,
    d.reviewer.fingerprint,
    String(d.seq),
    d.note,
    "",
    "",
    "",
  ];
}

/** A released value's row: the lead's TLP, capsule and candidate, then the value; the lead's other cells empty. */
function releaseRow(lead: Lead, r: LeadRelease, tlp: TlpLevel, reveal: boolean): string[] {
  const cells: string[] = CSV_COLUMNS.map(() => "");
  const set = (name: (typeof CSV_COLUMNS)[number], v: string) => (cells[CSV_COLUMNS.indexOf(name)] = v);
  set("tlp", tlpName(tlp));
  set("capsule_sha256", lead.capsule_sha256);
  set("candidate_sha256", lead.candidate_sha256);
  set("indicator_kind", r.kind);
  set("indicator_value", shownValue(r, reveal));
  set("released_by", releasedByText(r));
  return cells;
}

export function leadsCsvBytes(leads: readonly Lead[], tlp: TlpLevel, reveal: boolean): Uint8Array {
  const rows = leads.flatMap((l) => [row(l, tlp), ...l.released.map((r) => releaseRow(l, r, tlp, reveal))]);
  const text = [csvRecord(CSV_COLUMNS.map(csvText)), ...rows.map((r) => csvRecord(r.map(csvText)))].join("");
  return new TextEncoder().encode(text);
}
