/**
 * A lead: one approved candidate with its signed approvals, as the export formats present it. Built from the
 * exact JSONL export lines (capsules/review/export-lines.ts), so every format shows the bytes that were approved
 * and nothing else, plus public facts of our own loaded pack (typology sources). No IOC value but those reviewers
 * released (capsules/release; attached by formats.ts).
 */
import type { Tier } from "../assessment/types.js";
import { TIER_RANK } from "../assessment/vocabulary.js";
import type { Candidate } from "../candidates/types.js";
import type { ReviewRecord } from "../review/record.js";
import type { IntelligencePack, PackSource } from "../../published/pack/types.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { releasedByText, type LeadRelease } from "./released.js";

export interface LeadHypothesis {
  typology_id: string;
  dimension: string;
  label: string;
  support_level: string;
  independent_backers: number;
  sources: PackSource[];
}

export interface Lead {
  capsule_sha256: string;
  candidate_sha256: string;
  candidate: Candidate;
  /** The approval that made the candidate releasable (the latest; with four-eyes, the last of the N). */
  decision: ReviewRecord;
  /** Every approval the export carries for this candidate, in log order (one line each in the JSONL export). */
  approvals: ReviewRecord[];
  overall_tier: Tier;
  families: string[];
  /** Non-zero IOC counts, in the fixed kind order. */
  ioc_counts: { kind: IocKind; count: number }[];
  hypotheses: LeadHypothesis[];
  /** The candidate's released IOC values (issue 32; empty unless reviewers released some). */
  released: LeadRelease[];
}

export function overallTier(c: Candidate): Tier {
  return TIER_RANK[c.detector.tier] >= TIER_RANK[c.threat_assessment.tier] ? c.detector.tier : c.threat_assessment.tier;
}

/**
 * Turns the export's canonical lines into leads, one per candidate: under a four-eyes policy the export has one
 * line per approving key for the same candidate, and a lead carries all of them (the lines come from our own
 * export: any surprise throws).
 */
export function leadsFromExportLines(lines: readonly Uint8Array[], pack: IntelligencePack): Lead[] {
  const sourceById = new Map(pack.sources.map((s) => [s.id, s]));
  const byCandidate = new Map<string, { candidate: Candidate; approvals: ReviewRecord[] }>();
  for (const bytes of lines) {
    const line = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes)) as { candidate: Candidate; decision: ReviewRecord };
    const seen = byCandidate.get(line.decision.candidate_sha256);
    if (seen) seen.approvals.push(line.decision);
    else byCandidate.set(line.decision.candidate_sha256, { candidate: line.candidate, approvals: [line.decision] });
  }
  return [...byCandidate.values()].map(({ candidate: c, approvals }) => {
    approvals.sort((a, b) => a.seq - b.seq);
    const d = approvals[approvals.length - 1];
    const hypotheses = c.hypotheses.map((h) => {
      const t = pack.typologyById.get(h.typology_id);
      const sources = (t?.source_refs ?? []).map((id) => sourceById.get(id)).filter((s): s is PackSource => s !== undefined);
      return { typology_id: h.typology_id, dimension: h.dimension, label: h.label, support_level: h.support_level, independent_backers: h.independent_backers, sources };
    });
    const ioc_counts = IOC_KINDS.map((kind) => ({ kind, count: c.ioc_counts[kind] ?? 0 })).filter((x) => x.count > 0);
    return {
      capsule_sha256: d.capsule_sha256,
      candidate_sha256: d.candidate_sha256,
      candidate: c,
      decision: d,
      approvals,
      overall_tier: overallTier(c),
      families: [...new Set<string>([...c.detector.families, ...c.threat_assessment.families])].sort(),
      ioc_counts,
      hypotheses,
      released: [],
    };
  });
}

/** `2026-11-20T09:41:07Z` → `2026-11-20T09:41:07.000Z` (STIX timestamps are precise to the millisecond). */
export function millisecondTime(iso: string): string {
  const t = Date.parse(iso);
  if (!Number.isFinite(t)) throw new Error(`not a time: ${iso}`);
  return new Date(t).toISOString();
}

/** Unix seconds as a decimal string (MISP timestamps). */
export function unixSeconds(iso: string): string {
  return String(Math.floor(Date.parse(iso) / 1000));
}

/** The lead in plain text lines (the STIX note's content and the MISP analyst note): outward fields only. */
export function leadText(lead: Lead): string[] {
  const c = lead.candidate;
  const lines = [
    `evidence-bridge lead for capsule ${lead.capsule_sha256}`,
    `candidate sha256:${lead.candidate_sha256} (${c.schema_version})`,
    `created (hour, UTC): ${c.created_at}`,
    `overall tier: ${lead.overall_tier} (detector ${c.detector.tier} score ${c.detector.score}; threat ${c.threat_assessment.tier} score ${c.threat_assessment.score})`,
    `families: ${lead.families.join(", ") || "none"}`,
    `IOC counts by kind (values withheld${lead.released.length > 0 ? " but those released below" : ""}): ${lead.ioc_counts.map((x) => `${x.kind}=${x.count}`).join(", ") || "none"}`,
    ...lead.released.map((r) => `released value: ${r.kind} #${r.index}, ${releasedByText(r)}`),
    `collection: ${c.collection.surface} / ${c.collection.authorization}`,
  ];
  if (lead.hypotheses.length === 0) lines.push("hypotheses: none shown");
  for (const h of lead.hypotheses) {
    lines.push(
      `hypothesis ${h.typology_id} (${h.dimension}): ${h.label}; support ${h.support_level}, ${h.independent_backers} independent backer${h.independent_backers === 1 ? "" : "s"}` +
        (h.sources.length > 0 ? `; pack sources: ${h.sources.map((s) => `${s.id} (${s.url})`).join(", ")}` : ""),
    );
  }
  if (c.hypotheses_withheld !== undefined) lines.push(`hypotheses withheld: ${c.hypotheses_withheld}`);
  lines.push(`origin answer: ${c.origin_answer}`);
  for (const d of lead.approvals) {
    lines.push(`review: ${d.decision} by ${d.reviewer.name} (${d.reviewer.fingerprint}) at ${d.decided_at}, record #${d.seq} of the signed review log`);
    lines.push(`reviewer note: ${d.note}`);
  }
  return lines;
}
