/**
 * The team's decision chain (issue 34 items 3 and 4): what the `records` table holds and how every client verifies
 * it. Each row's body is a chain entry sealed under the epoch key in force (epoch-keys.ts, purpose "entry"); the row's
 * `prev` is the previous row's `digest` (64 zeros for the first) and `digest` = SHA-256 of the body, so the table's
 * UNIQUE `prev` makes a fork impossible (queue-port.ts). Two entry kinds, as canonical JSON:
 *
 *     {"format":"evidence-bridge-team-entry/v1","kind":"decision","record":<a v2 review record, record.ts>}
 *     {"after_decision":<64 hex>,"format":"evidence-bridge-team-entry/v1","kind":"membership",
 *      "membership_sha256":<64 hex>,"signature":<128 hex>,"version":n}
 *
 * - A decision is the project's ordinary signed, hash-chained review record: its `seq` counts the decisions of the
 *   chain and its `prev_sha256` names the previous decision's record digest, exactly like a local review log; the
 *   signer must be a member of the membership in force with role reviewer or lead, under the name that membership
 *   gives; the transition rules of state.ts apply.
 * - A membership entry records, in the chain, that membership `version` (whose document has `membership_sha256`)
 *   takes force after decision `after_decision`; signed by the team admin key over
 *   `"evidence-bridge team membership entry v1\0"` + the canonical bytes without `signature`. A removal is such an
 *   entry, so a later decision by the removed member is refused naming the removal.
 *
 * The database can withhold rows or serve an older prefix; each member's signed position (position.ts) catches the
 * second. It cannot forge a row: every failure below names the row and what happened.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { bytesToHex, hexToBytes, sha256Hex } from "../../src/hash.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject, type JsonValue } from "../../src/json/value.js";
import { verifySignature, type SigningKey } from "../../src/crypto/sign.js";
import { GENESIS_PREV, RecordShapeError, recordDigest, recordFromJson, recordBytes, signatureProblem, type ReviewRecord } from "../review/record.js";
import { ReviewState, type LoggedRecord } from "../review/state.js";
import { approvalsFor, type ApprovalCount } from "../review/approvals.js";
import { TeamError } from "./errors.js";
import { domainBytes, hexField, intField, malformed, objectWith } from "./fields.js";
import { EpochPurpose, openUnderEpoch, sealUnderEpoch, type EpochKey } from "./epoch-keys.js";
import { canDecide, MAX_MEMBERSHIP_VERSION, memberOf, type Membership, type TeamPin } from "./membership.js";
import type { TeamRecordOut } from "./queue-port.js";

export const ENTRY_FORMAT = "evidence-bridge-team-entry/v1";
const MEMBERSHIP_ENTRY_DOMAIN = "evidence-bridge team membership entry v1\u0000";

export type ChainEntry =
  | { kind: "decision"; record: ReviewRecord }
  | { kind: "membership"; version: number; membershipSha256: string; afterDecision: string; signature: string };

function membershipEntryUnsigned(version: number, membershipSha256: string, afterDecision: string): Uint8Array {
  return canonicalBytes({ after_decision: afterDecision, format: ENTRY_FORMAT, kind: "membership", membership_sha256: membershipSha256, version }, "entry");
}

export function decisionEntryBytes(record: ReviewRecord): Uint8Array {
  const recordJson = JSON.parse(Buffer.from(recordBytes(record)).toString("utf8")) as unknown;
  return canonicalBytes({ format: ENTRY_FORMAT, kind: "decision", record: recordJson }, "entry");
}

export function membershipEntryBytes(m: Membership, afterDecision: string, admin: SigningKey): Uint8Array {
  const signature = bytesToHex(admin.sign(domainBytes(MEMBERSHIP_ENTRY_DOMAIN, membershipEntryUnsigned(m.version, m.sha256, afterDecision))));
  return canonicalBytes({ after_decision: afterDecision, format: ENTRY_FORMAT, kind: "membership", membership_sha256: m.sha256, signature, version: m.version }, "entry");
}

/** The body of a chain row: the entry sealed under the epoch in force. */
export function sealEntry(entry: Uint8Array, epoch: EpochKey): Uint8Array {
  return sealUnderEpoch(entry, epoch, EpochPurpose.entry);
}

export function readEntry(bytes: Uint8Array, label: string): ChainEntry {
  let v: JsonValue;
  try {
    v = parseStrictJson(bytes);
  } catch {
    throw malformed(label, "the entry is not strict JSON");
  }
  if (!isJsonObject(v)) throw malformed(label, "the entry is not an object");
  if (v.get("format") !== ENTRY_FORMAT) throw malformed(`${label}.format`, `expected ${ENTRY_FORMAT}`);
  if (v.get("kind") === "decision") {
    const o = objectWith(v, label, ["format", "kind", "record"]);
    try {
      return { kind: "decision", record: recordFromJson(o.get("record")!, `${label}.record`) };
    } catch (e) {
      if (e instanceof RecordShapeError) throw malformed(label, e.message);
      throw e;
    }
  }
  if (v.get("kind") === "membership") {
    const o = objectWith(v, label, ["after_decision", "format", "kind", "membership_sha256", "signature", "version"]);
    return {
      kind: "membership",
      version: intField(o, "version", label, 1, MAX_MEMBERSHIP_VERSION),
      membershipSha256: hexField(o, "membership_sha256", label, 64),
      afterDecision: hexField(o, "after_decision", label, 64),
      signature: hexField(o, "signature", label, 128),
    };
  }
  throw malformed(`${label}.kind`, "expected decision or membership");
}

export interface TeamChain {
  /** The decisions, as the local review log would hold them (line = decision seq). */
  records: LoggedRecord[];
  state: ReviewState;
  /** Record digest of the last decision (GENESIS_PREV when none): the next decision's prev_sha256. */
  decisionHead: string;
  /** Digest of the last row (GENESIS_PREV when none): the next row's `prev`. */
  rowHead: string;
  /** Rows verified. */
  rows: number;
  /** The membership in force after the last row. */
  membership: Membership;
  /** Store seq of the last row and of the row before it (0 when none): where a later read resumes. */
  lastSeq: number;
  prevSeq: number;
}

/** A verified prefix of the chain (from this member's sealed view cache) to resume after. */
export interface ChainStart {
  records: readonly LoggedRecord[];
  decisionHead: string;
  rowHead: string;
  rows: number;
  membershipVersion: number;
  lastSeq: number;
  prevSeq: number;
}

export interface ChainInputs {
  /** Every row from the first, or (with `from`) the rows after the verified prefix. */
  rows: readonly TeamRecordOut[];
  from?: ChainStart;
  /** The verified membership sequence (membership.ts checkMembershipSequence), version ascending. */
  memberships: readonly Membership[];
  epochs: ReadonlyMap<string, EpochKey>;
  pin: TeamPin;
}

/**
 * Verifies every row from the first, or the rows after a verified prefix (`from`); throws TeamError naming the row
 * and what happened.
 */
export function verifyTeamChain(input: ChainInputs): TeamChain {
  const byVersion = new Map(input.memberships.map((m) => [m.version, m]));
  const from = input.from;
  let membership = byVersion.get(from?.membershipVersion ?? 1);
  if (membership === undefined) throw new TeamError("forged", `the team database no longer serves membership v${from?.membershipVersion ?? 1}`);
  const state = new ReviewState();
  const records: LoggedRecord[] = [];
  for (const e of from?.records ?? []) {
    const problem = state.apply(e);
    if (problem !== undefined) throw new TeamError("state", `the team view cache holds a decision that does not apply (${problem}): remove team/view-cache and read again`);
    records.push(e);
  }
  let rowHead = from?.rowHead ?? GENESIS_PREV;
  let decisionHead = from?.decisionHead ?? GENESIS_PREV;
  let n = from?.rows ?? 0;
  let lastSeq = from?.lastSeq ?? 0;
  let prevSeq = from?.prevSeq ?? 0;
  for (const row of input.rows) {
    n++;
    const label = `chain record #${n} (row seq ${row.seq})`;
    if (sha256Hex(row.body) !== row.digest) throw new TeamError("forged", `${label}: its digest is not the SHA-256 of its body (the database altered the row)`);
    if (row.prev !== rowHead) {
      throw new TeamError("forged", `${label}: names previous digest ${row.prev.slice(0, 12)} where ${rowHead.slice(0, 12)} is expected: a row was inserted, deleted or reordered by the database`);
    }
    const entry = readEntry(openUnderEpoch(row.body, input.epochs, EpochPurpose.entry, label), label);
    if (entry.kind === "membership") {
      const signed = membershipEntryUnsigned(entry.version, entry.membershipSha256, entry.afterDecision);
      if (!verifySignature(hexToBytes(input.pin.adminKey), domainBytes(MEMBERSHIP_ENTRY_DOMAIN, signed), hexToBytes(entry.signature))) {
        throw new TeamError("forged", `${label}: a membership change not signed by the team admin key: a forged row`);
      }
      if (entry.version !== membership.version + 1) throw new TeamError("forged", `${label}: puts membership v${entry.version} in force after v${membership.version}`);
      const doc = byVersion.get(entry.version);
      if (doc === undefined) throw new TeamError("forged", `${label}: names membership v${entry.version}, which the database does not serve (withheld)`);
      if (doc.sha256 !== entry.membershipSha256) throw new TeamError("forged", `${label}: membership v${entry.version} served is not the one the admin signed into the chain`);
      if (entry.afterDecision !== decisionHead) throw new TeamError("forged", `${label}: the admin placed this change after another decision than the chain holds`);
      membership = doc;
    } else {
      const r = entry.record;
      const seq = records.length + 1;
      if (r.seq !== seq) throw new TeamError("forged", `${label}: decision seq ${r.seq} where ${seq} is expected: a decision was withheld, replayed or reordered`);
      if (r.prev_sha256 !== decisionHead) throw new TeamError("forged", `${label}: decision #${seq} does not follow decision #${seq - 1}`);
      const sig = signatureProblem(r);
      if (sig !== undefined) throw new TeamError("forged", `${label}: decision #${seq}: ${sig}`);
      const fp = r.reviewer.fingerprint.replace(/^ed25519:/, "");
      if (membership.removed.includes(fp)) {
        throw new TeamError("removed", `${label}: decision #${seq} is signed by ${r.reviewer.name} (${fp.slice(0, 12)}), removed from the team in membership v${membership.version}: refused`);
      }
      const member = memberOf(membership, fp);
      if (member === undefined) throw new TeamError("forged", `${label}: decision #${seq} is signed by key ${fp.slice(0, 12)}, which is not a member in membership v${membership.version}: a forged decision`);
      if (!canDecide(member.role)) throw new TeamError("forged", `${label}: decision #${seq} is signed by ${member.name}, an ${member.role}, who may not decide`);
      if (member.name !== r.reviewer.name) throw new TeamError("forged", `${label}: decision #${seq} names its signer ${r.reviewer.name}, the membership says ${member.name}`);
      const logged: LoggedRecord = { record: r, digest: recordDigest(r), line: seq };
      const problem = state.apply(logged);
      if (problem !== undefined) throw new TeamError("forged", `${label}: decision #${seq} is not an allowed transition: ${problem}`);
      records.push(logged);
      decisionHead = logged.digest;
    }
    rowHead = row.digest;
    prevSeq = lastSeq;
    lastSeq = row.seq;
  }
  return { records, state, decisionHead, rowHead, rows: n, membership, lastSeq, prevSeq };
}

/** Four-eyes across members: approvals of one candidate digest by current reviewer/lead members. */
export function teamApprovals(chain: TeamChain, candidateSha256: string, latest: Membership): ApprovalCount {
  const counts = (fingerprint: string) => {
    const m = memberOf(latest, fingerprint.replace(/^ed25519:/, ""));
    return m !== undefined && canDecide(m.role);
  };
  return approvalsFor(chain.state.recordsForDigest(candidateSha256), { approvals: latest.approvals }, counts);
}
