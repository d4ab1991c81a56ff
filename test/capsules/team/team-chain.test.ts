/**
 * The team chain (issue 34 items 3 and 4): a chain of decisions and membership changes verifies; a row forged by the
 * database owner, an altered or deleted row, a decision by a non-member, an investigator, or a removed member, a
 * rolled-back table and four-eyes are each decided with a message naming what happened.
 */
import { afterAll, describe, expect, test } from "vitest";
import { bytesToHex, sha256Hex } from "../../../src/hash.js";
import { readFileSync, writeFileSync } from "node:fs";
import { GENESIS_PREV, recordDigest, REVIEW_RECORD_SCHEMA, signRecord, type ReviewRecordV2 } from "../../../capsules/review/record.js";
import { TeamError } from "../../../capsules/team/errors.js";
import { newEpochKey } from "../../../capsules/team/epoch-keys.js";
import type { MemberKeys } from "../../../capsules/team/member-keys.js";
import type { Membership } from "../../../capsules/team/membership.js";
import type { TeamRecordOut } from "../../../capsules/team/queue-port.js";
import { decisionEntryBytes, membershipEntryBytes, sealEntry, teamApprovals, verifyTeamChain } from "../../../capsules/team/team-chain.js";
import { checkPosition, readPosition, writePosition } from "../../../capsules/team/team-state.js";
import type { Decision } from "../../../capsules/review/decisions.js";
import { asMember, membership, newAdmin, newMember, removeTempHomes, tempHome, TEAM_ID } from "./team-fixtures.js";

afterAll(removeTempHomes);

const admin = newAdmin();
const lead = newMember();
const rita = newMember();
const rob = newMember();
const ivan = newMember();
const epoch = newEpochKey();
const epochs = new Map([[epoch.id, epoch]]);
const pin = { teamId: TEAM_ID, adminKey: bytesToHex(admin.publicKey) };
const names = new Map([[lead, "Lea Lead"], [rita, "Rita Reviewer"], [rob, "Rob Reviewer"], [ivan, "Ivan Investigator"]]);
const v1 = membership(admin, [asMember(lead, "Lea Lead", "lead"), asMember(rita, "Rita Reviewer", "reviewer"), asMember(rob, "Rob Reviewer", "reviewer"), asMember(ivan, "Ivan Investigator", "investigator")], { epoch: epoch.id });
const v2 = membership(admin, [asMember(lead, "Lea Lead", "lead"), asMember(rita, "Rita Reviewer", "reviewer"), asMember(ivan, "Ivan Investigator", "investigator")], { version: 2, epoch: epoch.id, removed: [rob.fingerprint] });
const CAPSULE = "c".repeat(64);
const CANDIDATE = "d".repeat(64);

class ChainBuilder {
  rows: TeamRecordOut[] = [];
  decisions: ReviewRecordV2[] = [];
  decisionHead = GENESIS_PREV;

  decide(k: MemberKeys, decision: Decision, name = names.get(k)!): this {
    const r = signRecord(
      {
        schema_version: REVIEW_RECORD_SCHEMA,
        seq: this.decisions.length + 1,
        prev_sha256: this.decisionHead,
        capsule_sha256: CAPSULE,
        candidate_sha256: CANDIDATE,
        typology_match_visible: false,
        decision,
        reason: "corroborated",
        private_note_sha256: null,
        public_note: null,
        reviewer: { name, fingerprint: k.sign.fingerprint, public_key: bytesToHex(k.sign.publicKey) },
        decided_at: "2026-11-28T22:00:00Z",
      },
      k.sign,
    );
    this.decisions.push(r);
    this.decisionHead = recordDigest(r);
    return this.row(decisionEntryBytes(r));
  }

  member(m: Membership): this {
    return this.row(membershipEntryBytes(m, this.decisionHead, admin));
  }

  row(entry: Uint8Array): this {
    const body = sealEntry(entry, epoch);
    const prev = this.rows.length === 0 ? GENESIS_PREV : this.rows[this.rows.length - 1].digest;
    this.rows.push({ seq: this.rows.length * 3 + 7, prev, digest: sha256Hex(body), body });
    return this;
  }
}

function verify(rows: TeamRecordOut[], memberships: Membership[] = [v1, v2]) {
  return verifyTeamChain({ rows, memberships, epochs, pin });
}

function refusal(f: () => unknown): { code: string; message: string } {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TeamError);
    return { code: (e as TeamError).code, message: (e as Error).message };
  }
  throw new Error("expected a TeamError");
}

describe("team chain", () => {
  test("decisions and a removal verify; four-eyes counts distinct current reviewers", () => {
    const b = new ChainBuilder().decide(rita, "APPROVED_FOR_RELEASE");
    let chain = verify(b.rows);
    expect(chain.records).toHaveLength(1);
    expect(teamApprovals(chain, CANDIDATE, v1).met).toBe(false);
    b.decide(rob, "APPROVED_FOR_RELEASE");
    chain = verify(b.rows);
    expect(teamApprovals(chain, CANDIDATE, v1)).toMatchObject({ met: true, required: 2 });
    // after rob's removal his approval no longer counts
    expect(teamApprovals(chain, CANDIDATE, v2).met).toBe(false);
    b.member(v2);
    chain = verify(b.rows);
    expect(chain.membership.version).toBe(2);
    expect(chain.rows).toBe(3);
    expect(chain.rowHead).toBe(b.rows[2].digest);
  });

  test("the same reviewer approving twice is refused as a transition", () => {
    const b = new ChainBuilder().decide(rita, "APPROVED_FOR_RELEASE").decide(rita, "APPROVED_FOR_RELEASE");
    expect(refusal(() => verify(b.rows)).message).toContain("not an allowed transition");
  });

  test("a row forged by the database owner: an outsider's decision, sealed correctly, is refused naming the signer", () => {
    const mallory = newMember();
    const b = new ChainBuilder().decide(mallory, "APPROVED_FOR_RELEASE", "Mal Lory");
    expect(refusal(() => verify(b.rows))).toMatchObject({ code: "forged", message: expect.stringContaining("which is not a member in membership v1: a forged decision") });
  });

  test("an investigator may not decide; a name differing from the membership is refused", () => {
    expect(refusal(() => verify(new ChainBuilder().decide(ivan, "APPROVED_FOR_RELEASE").rows)).message).toContain("an investigator, who may not decide");
    expect(refusal(() => verify(new ChainBuilder().decide(rita, "APPROVED_FOR_RELEASE", "Rita Other").rows)).message).toContain("the membership says Rita Reviewer");
  });

  test("a decision by a removed member after the removal entry is refused as removed", () => {
    const b = new ChainBuilder().decide(rita, "APPROVED_FOR_RELEASE").member(v2).decide(rob, "APPROVED_FOR_RELEASE");
    expect(refusal(() => verify(b.rows))).toMatchObject({ code: "removed", message: expect.stringContaining("removed from the team in membership v2") });
  });

  test("altered, deleted, reordered and re-pointed rows are refused naming the row", () => {
    const b = new ChainBuilder().decide(rita, "APPROVED_FOR_RELEASE").decide(rob, "APPROVED_FOR_RELEASE").member(v2);
    const altered = b.rows.map((r, i) => (i === 1 ? { ...r, body: Uint8Array.from(r.body, (x, j) => (j === 60 ? x ^ 1 : x)) } : r));
    expect(refusal(() => verify(altered)).message).toContain("chain record #2 (row seq 10): its digest is not the SHA-256 of its body");
    const deleted = [b.rows[0], b.rows[2]];
    expect(refusal(() => verify(deleted)).message).toContain("chain record #2");
    expect(refusal(() => verify([b.rows[1], b.rows[0]])).message).toContain("a row was inserted, deleted or reordered");
    // a re-sealed, re-digested row whose prev was re-pointed past a deleted decision: the decision chain catches it
    const skip = new ChainBuilder().decide(rita, "APPROVED_FOR_RELEASE").decide(rob, "APPROVED_FOR_RELEASE");
    const only2 = { ...skip.rows[1], prev: GENESIS_PREV };
    expect(refusal(() => verify([only2])).message).toContain("decision seq 2 where 1 is expected");
  });

  test("a membership entry not signed by the admin, or naming a withheld version, is refused", () => {
    const fake = newAdmin();
    const b = new ChainBuilder().decide(rita, "APPROVED_FOR_RELEASE");
    b.row(membershipEntryBytes(v2, b.decisionHead, fake));
    expect(refusal(() => verify(b.rows)).message).toContain("not signed by the team admin key");
    const c = new ChainBuilder().member(v2);
    expect(refusal(() => verify(c.rows, [v1])).message).toContain("which the database does not serve (withheld)");
  });

  test("rollback: a member's signed position catches a shorter or different chain", () => {
    const home = tempHome();
    const state = { ...pin, member: rita.fingerprint };
    const b = new ChainBuilder().decide(rita, "APPROVED_FOR_RELEASE").decide(rob, "APPROVED_FOR_RELEASE");
    const chain = verify(b.rows);
    writePosition(home, state, rita, { rows: chain.rows, rowDigest: chain.rowHead });
    const p = readPosition(home, state, rita);
    expect(p).toEqual({ rows: 2, rowDigest: b.rows[1].digest });
    expect(() => checkPosition(p, 2, (n) => b.rows[n - 1]?.digest)).not.toThrow();
    expect(refusal(() => checkPosition(p, 1, (n) => b.rows[n - 1]?.digest))).toMatchObject({ code: "rollback", message: expect.stringContaining("serves 1 chain records where this member already verified 2") });
    const other = new ChainBuilder().decide(rita, "REJECTED").decide(lead, "REJECTED");
    expect(refusal(() => checkPosition(p, 2, (n) => other.rows[n - 1]?.digest)).message).toContain("the database serves another history");
    // the position file itself cannot be edited down
    const file = `${home}/team/position.json`;
    writeFileSync(file, readFileSync(file, "utf8").replace('"rows":2', '"rows":1'));
    expect(refusal(() => readPosition(home, state, rita)).message).toContain("does not verify with this member's key");
  });
});
