/**
 * Decisions on a real PostgreSQL server (issue 34 item 3): two reviewers approving the same candidate at the same
 * moment both land (the loser of the head retries on the new one), four-eyes then makes the bytes final, the chain
 * never forks; a removed member who still holds the old epoch key appends a decision straight into the table, and
 * every other client refuses the chain naming the removal.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { openTeamQueue } from "../../../bridge/team/postgres-queue.js";
import { bytesToHex, sha256Hex } from "../../../src/hash.js";
import { REVIEW_RECORD_SCHEMA, signRecord } from "../../../capsules/review/record.js";
import { acceptInvitation } from "../../../capsules/team/invitation.js";
import { makeJoinRequest } from "../../../capsules/team/join-request.js";
import { loadOrCreateMemberKeys } from "../../../capsules/team/member-keys.js";
import { enqueuePublication, flushOutbox } from "../../../capsules/team/outbox.js";
import type { TeamQueuePort } from "../../../capsules/team/queue-port.js";
import { initTeam, inviteMember, removeMember } from "../../../capsules/team/team-admin.js";
import { decisionEntryBytes, sealEntry } from "../../../capsules/team/team-chain.js";
import { decideOnTeam, teamQueue } from "../../../capsules/team/team-review.js";
import { readTeamState, writeTeamState } from "../../../capsules/team/team-state.js";
import { readTeamView } from "../../../capsules/team/team-view.js";
import { TeamError } from "../../../capsules/team/errors.js";
import { databaseName, describePostgres, startPostgres, type PgServer } from "../../helpers/postgres.js";
import { removeTempHomes, tempHome } from "./team-fixtures.js";

afterAll(removeTempHomes);

describePostgres("team decisions", () => {
  let pg: PgServer;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
  });

  async function joined(port: TeamQueuePort, admin: string, name: string, role: "reviewer" | "investigator"): Promise<string> {
    const home = tempHome();
    const keys = loadOrCreateMemberKeys(home);
    const { invitation } = await inviteMember(admin, port, new TextEncoder().encode(makeJoinRequest(keys, name)), role);
    const { invitation: inv } = acceptInvitation(new TextEncoder().encode(invitation), keys);
    writeTeamState(home, { teamId: inv.membership.teamId, adminKey: inv.membership.adminKey, member: keys.fingerprint }, inv.membership);
    return home;
  }

  test("concurrent approvals both land; a removed member's late decision is refused by everyone", { timeout: 180_000 }, async () => {
    const url = await pg.database();
    const ports = await Promise.all([0, 1, 2].map(() => openTeamQueue(url, { create: true })));
    const [port, portB, portC] = ports;
    try {
      const lead = tempHome();
      await initTeam(lead, port, { name: "Lea Lead", approvals: 2 });
      const ivan = await joined(port, lead, "Ivan Investigator", "investigator");
      const rita = await joined(port, lead, "Rita Reviewer", "reviewer");
      const rob = await joined(port, lead, "Rob Reviewer", "reviewer");
      const ivanKeys = loadOrCreateMemberKeys(ivan);
      const candidate = new TextEncoder().encode('{"candidate":1}');
      const capsuleSha = "a".repeat(64);
      enqueuePublication(ivan, ivanKeys, readTeamState(ivan).membership, { capsuleSha256: capsuleSha, capsuleBytes: new Uint8Array([1, 2, 3]), candidate: { bytes: candidate, typologyMatchVisible: false } });
      const ivView = await readTeamView(ivan, port, ivanKeys, readTeamState(ivan));
      await flushOutbox(ivan, port, ivanKeys, ivView.membership);

      const req = { id: capsuleSha.slice(0, 12), decision: "APPROVED_FOR_RELEASE" as const, reason: "corroborated" as const };
      const [a, b] = await Promise.all([
        decideOnTeam(rita, portB, loadOrCreateMemberKeys(rita), req),
        decideOnTeam(rob, portC, loadOrCreateMemberKeys(rob), req),
      ]);
      expect([a.entry.record.seq, b.entry.record.seq].sort()).toEqual([1, 2]);
      const view = await readTeamView(lead, port, loadOrCreateMemberKeys(lead), readTeamState(lead));
      expect(view.chain.records).toHaveLength(2);
      expect(teamQueue(view)[0]).toMatchObject({ status: "APPROVED_FOR_RELEASE", approvals: { met: true } });
      const prevs = await pg.sql<{ n: string; d: string }>(databaseName(url), "SELECT count(*)::text AS n, count(DISTINCT prev)::text AS d FROM evidence_bridge_team.records");
      expect(prevs[0].n).toBe(prevs[0].d);
      await expect(decideOnTeam(lead, port, loadOrCreateMemberKeys(lead), { ...req, decision: "REJECTED", reason: "false-positive" })).rejects.toThrow(/a decision on the same bytes is final/);

      // Rob is removed; his client still has the old epoch key and appends directly, as a hostile ex-member could
      const robKeys = loadOrCreateMemberKeys(rob);
      const robView = await readTeamView(rob, port, robKeys, readTeamState(rob));
      const oldEpoch = robView.epochs.get(robView.membership.epoch)!;
      await removeMember(lead, port, "Rob Reviewer");
      const after = await readTeamView(rita, port, loadOrCreateMemberKeys(rita), readTeamState(rita), "warm");
      const record = signRecord(
        {
          schema_version: REVIEW_RECORD_SCHEMA,
          seq: after.chain.records.length + 1,
          prev_sha256: after.chain.decisionHead,
          capsule_sha256: capsuleSha,
          candidate_sha256: sha256Hex(candidate),
          typology_match_visible: false,
          decision: "REJECTED",
          reason: "false-positive",
          private_note_sha256: null,
          public_note: null,
          reviewer: { name: "Rob Reviewer", fingerprint: robKeys.sign.fingerprint, public_key: bytesToHex(robKeys.sign.publicKey) },
          decided_at: "2026-11-28T23:00:00Z",
        },
        robKeys.sign,
      );
      const body = sealEntry(decisionEntryBytes(record), oldEpoch);
      expect(await port.appendRecord(after.chain.rowHead, sha256Hex(body), body)).toBe("appended");
      for (const [home, mode] of [[rita, "warm"], [lead, "cold"]] as const) {
        const refused = await readTeamView(home, port, loadOrCreateMemberKeys(home), readTeamState(home), mode).then(
          () => undefined,
          (e: unknown) => e,
        );
        expect(refused).toBeInstanceOf(TeamError);
        expect((refused as TeamError).code).toBe("removed");
        expect((refused as Error).message).toMatch(/is signed by Rob Reviewer .*removed from the team in membership v\d+: refused/);
      }
    } finally {
      for (const p of ports) await p.close();
    }
  });
});
