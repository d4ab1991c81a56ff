/**
 * Reviewing against the team queue (issue 34 item 3): the queue as a member sees it, and one decision appended to
 * the team chain. A decision is the project's ordinary v2 review record (record.ts), signed with the member's Ed25519
 * key under the name the signed membership gives; four-eyes counts distinct current reviewer/lead members
 * (team-chain.ts `teamApprovals`), against the team's `approvals` from the signed membership.
 *
 * Limits of this version (docs/team.md): private notes (`--note`) and public notes (`--public-note`) are refused
 * with `--team`: a public note is leak-guarded against the private values of a store, and the team queue is not a
 * store on this machine yet.
 */
import { bytesToHex } from "../../src/hash.js";
import { decisionTime, recordDigest, REVIEW_RECORD_SCHEMA, signRecord, type UnsignedRecordV2 } from "../review/record.js";
import { ReviewError } from "../review/errors.js";
import { finalText, type LoggedRecord } from "../review/state.js";
import { reasonProblem, type ReviewReason } from "../review/text-rules.js";
import type { Decision } from "../review/decisions.js";
import { approvalsFor, type ApprovalCount } from "../review/approvals.js";
import { TeamError } from "./errors.js";
import { canDecide, memberOf } from "./membership.js";
import type { MemberKeys } from "./member-keys.js";
import type { Publication } from "./publication.js";
import type { TeamQueuePort } from "./queue-port.js";
import { appendEntry, epochOfMembership } from "./chain-append.js";
import { decisionEntryBytes, teamApprovals } from "./team-chain.js";
import type { TeamView } from "./team-view.js";

export interface TeamQueueEntry {
  publication: Publication;
  status: string;
  approvals: ApprovalCount;
  last?: LoggedRecord;
}

/** The queue: every publication with its status from the verified chain, in queue order. */
export function teamQueue(view: TeamView): TeamQueueEntry[] {
  return view.publications.map((p) => {
    const approvals = teamApprovals(view.chain, p.candidateSha256, view.membership);
    const last = view.chain.state.lastForDigest(p.candidateSha256);
    return { publication: p, status: view.chain.state.statusOf(p.candidateSha256), approvals, last };
  });
}

/** The publication whose capsule id, candidate digest or object id starts with `prefix` (at least 8 hex digits). */
export function findPublication(view: TeamView, prefix: string): Publication {
  const p = prefix.toLowerCase();
  if (!/^[0-9a-f]{8,64}$/.test(p)) throw new TeamError("malformed", "ID: expected 8 to 64 lowercase hexadecimal digits of a capsule id");
  const hits = view.publications.filter((x) => x.capsuleSha256.startsWith(p) || x.candidateSha256.startsWith(p) || x.objectId.startsWith(p));
  if (hits.length === 0) throw new ReviewError("no-candidate", `no candidate in the team queue matches ${p}`);
  const distinct = new Set(hits.map((h) => h.candidateSha256));
  if (distinct.size > 1) throw new ReviewError("no-candidate", `${p} matches ${distinct.size} candidates of the team queue: give more digits`);
  return hits[0];
}

export interface TeamDecisionRequest {
  id: string;
  decision: Decision;
  reason: ReviewReason;
  now?: () => Date;
}

/** Appends one decision to the team chain (retrying on a lost head). Throws ReviewError / TeamError. */
export async function decideOnTeam(home: string, port: TeamQueuePort, keys: MemberKeys, req: TeamDecisionRequest): Promise<{ entry: LoggedRecord; approvals: ApprovalCount }> {
  const rp = reasonProblem(req.reason);
  if (rp !== undefined) throw new ReviewError("invalid-note", `--reason: ${rp}`);
  const appended = await appendEntry(home, port, keys, (view) => {
    if (!canDecide(view.self.role)) throw new ReviewError("reviewer-key", `${view.self.name} is an ${view.self.role} of this team: only reviewers and leads decide`);
    const p = findPublication(view, req.id);
    const state = view.chain.state;
    const fingerprint = `ed25519:${keys.fingerprint}`;
    const last = state.lastForDigest(p.candidateSha256);
    if (last?.record.decision === "APPROVED_FOR_RELEASE" && teamApprovals(view.chain, p.candidateSha256, view.membership).met) {
      throw new ReviewError("double-decision", finalText(p.candidateSha256, p.capsuleSha256, last));
    }
    const problem = state.transitionProblem(p.capsuleSha256, p.candidateSha256, req.decision, fingerprint);
    if (problem !== undefined) throw new ReviewError("double-decision", problem);
    const unsigned: UnsignedRecordV2 = {
      schema_version: REVIEW_RECORD_SCHEMA,
      seq: view.chain.records.length + 1,
      prev_sha256: view.chain.decisionHead,
      capsule_sha256: p.capsuleSha256,
      candidate_sha256: p.candidateSha256,
      typology_match_visible: p.typologyMatchVisible,
      decision: req.decision,
      reason: req.reason,
      private_note_sha256: null,
      public_note: null,
      reviewer: { name: view.self.name, fingerprint, public_key: bytesToHex(keys.sign.publicKey) },
      decided_at: decisionTime((req.now ?? (() => new Date()))()),
    };
    const record = signRecord(unsigned, keys.sign);
    return { entry: decisionEntryBytes(record), epoch: epochOfMembership(view, view.membership), value: record };
  });
  if (appended === undefined) throw new TeamError("state", "nothing was appended");
  const entry: LoggedRecord = { record: appended.value, digest: recordDigest(appended.value), line: appended.value.seq };
  const records = [...appended.view.chain.state.recordsForDigest(appended.value.candidate_sha256), entry];
  const m = appended.view.membership;
  const approvals = approvalsFor(records, { approvals: m.approvals }, (fp) => {
    const x = memberOf(m, fp.replace(/^ed25519:/, ""));
    return x !== undefined && canDecide(x.role);
  });
  return { entry, approvals };
}
