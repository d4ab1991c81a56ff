/**
 * `review export --team` (issue 34 item 3): the approved candidates of the verified team chain as the JSON Lines
 * export of capsules/review/export-lines.ts, so `review verify-export` checks a team export as it checks a local one.
 *
 * Read from a cold {@link TeamView} (every object addressed to this member opened, the whole chain verified against
 * the signed memberships and this member's position). Exported: every candidate digest whose latest team decision
 * approves it and whose approvals meet the membership's `approvals` (four-eyes as the chain counts it:
 * `teamApprovals`, distinct current reviewer/lead members, no rejection), one line per counted approval, in queue
 * order; approved digests still short of approvals are listed as pending. The export ends with a checkpoint over the
 * team chain's decision records and its vetoes, signed with this member's Ed25519 key.
 *
 * Guarded before anything is returned, all or nothing:
 * - each candidate's bytes are canonical JSON (so the line carries exactly the approved bytes), its capsule object is
 *   a capsule whose content id is the one the publication names, and every counted record's signature verifies;
 * - the whole line (candidate and decision) is checked by the outward guard over the private values of EVERY capsule
 *   this member can open from the team queue (a candidate is derived on its author's machine, so it is checked here
 *   too); the verified members of the record (digests, key, signature) are not searched, as in export-lines.ts.
 * The CLI runs the closed outward vocabulary over the lines first (capsules/exports/vocabulary-check.ts).
 *
 * Not done here: the candidate is not derived again from the capsule with this machine's pack (its digest is bound
 * to the capsule by the author's sealed, signed publication and to the decisions by the signed records).
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import { capsulePrivateValues } from "../guard/private-values.js";
import { OutwardGuard } from "../guard/outward-guard.js";
import { openCapsuleBytes } from "../pipeline/open.js";
import { checkpointLine } from "../review/checkpoint.js";
import { ReviewError } from "../review/errors.js";
import { REVIEW_EXPORT_SCHEMA, vetoesOf, type ExportLine } from "../review/export-lines.js";
import { signatureProblem, type ReviewRecord } from "../review/record.js";
import type { ApprovalCount } from "../review/approvals.js";
import type { Candidate } from "../candidates/types.js";
import type { MemberKeys } from "./member-keys.js";
import { teamApprovals } from "./team-chain.js";
import type { TeamView } from "./team-view.js";

export interface TeamExportOutcome {
  /** Canonical line bytes, each ending with LF. */
  lines: Uint8Array[];
  /** The checkpoint over the team chain, signed by this member. */
  checkpoint: Uint8Array;
  exported: { capsule_sha256: string; candidate_sha256: string; seq: number; reviewer: string }[];
  pending: { capsule_sha256: string; candidate_sha256: string; approvals: ApprovalCount }[];
  approvals: number;
  /** The guard the lines were checked with (the marked formats check their render with it too). */
  guard: OutwardGuard;
}

const SHORT = 12;

/** The outward guard over the private values of every capsule object of the view (a cold view opens them all). */
export function teamGuard(view: TeamView, pack: IntelligencePack): OutwardGuard {
  const guard = new OutwardGuard();
  for (const o of view.capsules.values()) guard.add(capsulePrivateValues(openCapsuleBytes(o.payload, `team capsule object ${o.id}`).envelope, pack));
  return guard;
}

function canonicalCandidate(bytes: Uint8Array): Candidate | string {
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return "its candidate is not UTF-8 JSON";
  }
  const again = canonicalBytes(value as never, "candidate");
  if (again.length !== bytes.length || again.some((b, i) => b !== bytes[i])) return "its candidate is not canonical JSON";
  return value as Candidate;
}

function verifiedIn(d: ReviewRecord): (s: string) => boolean {
  const verified = new Set([d.prev_sha256, d.signature, d.reviewer.public_key, d.reviewer.fingerprint, d.capsule_sha256, d.candidate_sha256]);
  return (s) => verified.has(s);
}

/** Builds the export of a cold view, or throws ReviewError `export-refused` naming every refused capsule. */
export function buildTeamExport(view: TeamView, keys: MemberKeys, pack: IntelligencePack): TeamExportOutcome {
  const state = view.chain.state;
  const guard = teamGuard(view, pack);
  const out: TeamExportOutcome = {
    guard,
    lines: [],
    exported: [],
    pending: [],
    approvals: view.membership.approvals,
    checkpoint: checkpointLine(
      view.chain.records.map((e) => e.digest),
      vetoesOf(view.chain.records),
      keys.sign,
    ),
  };
  const refusals: string[] = [];
  const seen = new Set<string>();
  let approved = 0;
  for (const p of view.publications) {
    if (seen.has(p.candidateSha256)) continue;
    seen.add(p.candidateSha256);
    const last = state.lastForDigest(p.candidateSha256);
    if (last?.record.decision !== "APPROVED_FOR_RELEASE") continue;
    approved++;
    const count = teamApprovals(view.chain, p.candidateSha256, view.membership);
    if (!count.met) {
      out.pending.push({ capsule_sha256: p.capsuleSha256, candidate_sha256: p.candidateSha256, approvals: count });
      continue;
    }
    const refuse = (reason: string) => refusals.push(`capsule ${p.capsuleSha256} (candidate ${p.candidateSha256.slice(0, SHORT)}): ${reason}`);
    const capsule = view.capsules.get(p.capsuleObject);
    if (capsule === undefined || p.candidateBytes === undefined) {
      refuse("its capsule or candidate object was not opened");
      continue;
    }
    try {
      openCapsuleBytes(capsule.payload, `team capsule object ${capsule.id}`, p.capsuleSha256);
    } catch (e) {
      refuse((e as Error).message);
      continue;
    }
    const candidate = canonicalCandidate(p.candidateBytes);
    if (typeof candidate === "string") {
      refuse(candidate);
      continue;
    }
    const lines: ExportLine[] = [];
    let refused = false;
    for (const { entry } of count.approvers) {
      const d = entry.record as ReviewRecord;
      const sig = signatureProblem(d);
      const line: ExportLine = { schema_version: REVIEW_EXPORT_SCHEMA, candidate, decision: d };
      const verdict = sig === undefined ? guard.check(line, "export.line", { isPublic: verifiedIn(d) }) : undefined;
      if (sig !== undefined || (verdict !== undefined && !verdict.ok)) {
        refuse(sig !== undefined ? `bad signature in team decision #${d.seq}: ${sig}` : (verdict as { reason: string }).reason);
        refused = true;
        break;
      }
      lines.push(line);
    }
    if (refused) continue;
    for (const line of lines) {
      const bytes = canonicalBytes(line as never, "export");
      const buf = new Uint8Array(bytes.length + 1);
      buf.set(bytes);
      buf[bytes.length] = 0x0a;
      out.lines.push(buf);
      const d = line.decision;
      out.exported.push({ capsule_sha256: d.capsule_sha256, candidate_sha256: d.candidate_sha256, seq: d.seq, reviewer: d.reviewer.name });
    }
  }
  if (refusals.length > 0) {
    throw new ReviewError(
      "export-refused",
      `refused ${refusals.length} of ${approved} approved candidate${approved === 1 ? "" : "s"} of the team queue, nothing was exported: ${refusals.join("; ")}`,
    );
  }
  return out;
}
