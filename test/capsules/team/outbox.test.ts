/**
 * The outbox on a real PostgreSQL server (issue 34 items 2 and 5): the store's hook queues a recorded capsule once,
 * sealed (no plaintext in the pending file); a publish interrupted after the database committed (the state a kill -9
 * between `putObjects` and the marker leaves) is finished by the next flush without inserting anything twice; a
 * member who joined after the capsule was queued gets a wrap at flush, and one admitted while a publisher used an
 * older membership gets one from the publisher's wrapForNewMembers.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { openTeamQueue } from "../../../bridge/team/postgres-queue.js";
import { bytesToHex } from "../../../src/hash.js";
import { loadOrCreateMemberKeys } from "../../../capsules/team/member-keys.js";
import { flushOutbox, outboxDir, pendingCount, publishedDir, wrapForNewMembers } from "../../../capsules/team/outbox.js";
import { queueRecordedForTeam } from "../../../capsules/team/publish-hook.js";
import type { TeamQueuePort } from "../../../capsules/team/queue-port.js";
import { initTeam, inviteMember } from "../../../capsules/team/team-admin.js";
import { acceptInvitation } from "../../../capsules/team/invitation.js";
import { makeJoinRequest } from "../../../capsules/team/join-request.js";
import { readTeamState, writeTeamState } from "../../../capsules/team/team-state.js";
import { readTeamView } from "../../../capsules/team/team-view.js";
import { describePostgres, startPostgres, type PgServer } from "../../helpers/postgres.js";
import { removeTempHomes, tempHome } from "./team-fixtures.js";

afterAll(removeTempHomes);

describePostgres("team outbox", () => {
  let pg: PgServer;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
  });

  async function joined(port: TeamQueuePort, admin: string, name: string): Promise<string> {
    const home = tempHome();
    const keys = loadOrCreateMemberKeys(home);
    const { invitation } = await inviteMember(admin, port, new TextEncoder().encode(makeJoinRequest(keys, name)), "reviewer");
    const { invitation: inv } = acceptInvitation(new TextEncoder().encode(invitation), keys);
    writeTeamState(home, { teamId: inv.membership.teamId, adminKey: inv.membership.adminKey, member: keys.fingerprint }, inv.membership);
    return home;
  }

  test("queued once and sealed; an interrupted publish finishes without duplicates; late members get wraps", { timeout: 120_000 }, async () => {
    const url = await pg.database();
    const port = await openTeamQueue(url, { create: true });
    try {
      const lead = tempHome();
      await initTeam(lead, port, { name: "Lea Lead", approvals: 2 });
      const ivan = await joined(port, lead, "Ivan Investigator");
      const capsule = new TextEncoder().encode(`{"a canary capsule":"CANARY-${bytesToHex(new Uint8Array([1, 2, 3, 4]))}-value"}`);
      const id = "e".repeat(64);
      queueRecordedForTeam(ivan, [{ id, bytes: capsule, derivation: undefined }]);
      queueRecordedForTeam(ivan, [{ id, bytes: capsule, derivation: undefined }]);
      expect(pendingCount(ivan)).toBe(1);
      const pending = readdirSync(outboxDir(ivan));
      const raw = readFileSync(join(outboxDir(ivan), pending[0]));
      expect(raw.includes(Buffer.from("CANARY"))).toBe(false);
      expect(raw.includes(Buffer.from(id))).toBe(false);
      expect(pending[0]).not.toContain(id.slice(0, 12));

      // a member joins after the capsule was queued
      const rita = await joined(port, lead, "Rita Reviewer");
      const ivanKeys = loadOrCreateMemberKeys(ivan);
      const view = await readTeamView(ivan, port, ivanKeys, readTeamState(ivan));

      // the database commits, then the process dies before the marker: simulated by a port whose addWraps never returns
      const dying: TeamQueuePort = { ...port, putObjects: (o) => port.putObjects(o), addWraps: async (w) => { await port.addWraps(w); throw new Error("killed"); } } as TeamQueuePort;
      await expect(flushOutbox(ivan, dying, ivanKeys, view.membership)).rejects.toThrow("killed");
      expect(pendingCount(ivan)).toBe(1);
      const countsBefore = await port.counts();
      const again = await flushOutbox(ivan, port, ivanKeys, view.membership);
      expect(again).toEqual({ files: 1, inserted: 0, existing: 1 });
      expect(await port.counts()).toEqual(countsBefore);
      expect(pendingCount(ivan)).toBe(0);
      expect(readdirSync(publishedDir(ivan))).toHaveLength(1);
      expect(await flushOutbox(ivan, port, ivanKeys, view.membership)).toEqual({ files: 0, inserted: 0, existing: 0 });

      // every current member, the late one included, opens the capsule
      for (const home of [lead, ivan, rita]) {
        const v = await readTeamView(home, port, loadOrCreateMemberKeys(home), readTeamState(home));
        const opened = [...v.capsules.values()];
        expect(opened).toHaveLength(1);
        expect(Buffer.from(opened[0].payload).equals(Buffer.from(capsule))).toBe(true);
      }

      // a member admitted while Ivan publishes with the membership he read before: wrapped after the publish
      const stale = (await readTeamView(ivan, port, ivanKeys, readTeamState(ivan))).membership;
      queueRecordedForTeam(ivan, [{ id: "9".repeat(64), bytes: new Uint8Array([7, 7, 7]), derivation: undefined }]);
      const rob = await joined(port, lead, "Rob Reviewer");
      await flushOutbox(ivan, port, ivanKeys, stale);
      const robKeys = loadOrCreateMemberKeys(rob);
      expect((await readTeamView(rob, port, robKeys, readTeamState(rob))).capsules.size).toBe(1);
      const fresh = await readTeamView(ivan, port, ivanKeys, readTeamState(ivan));
      expect(await wrapForNewMembers(port, ivanKeys, stale, fresh)).toBe(2);
      expect(await wrapForNewMembers(port, ivanKeys, stale, fresh)).toBe(2);
      expect((await readTeamView(rob, port, robKeys, readTeamState(rob))).capsules.size).toBe(2);
    } finally {
      await port.close();
    }
  });
});
