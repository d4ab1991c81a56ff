/**
 * A team on a queue port, made in process with the private side's own steps (capsules/team/): the admin's `team
 * init`, then for each member a join request, the admin's invitation and the member accepting it (what `team join
 * NAME.invitation` does: check the invitation, remember the team). One data directory per member, in a temporary
 * directory the caller removes. Free of vitest (bench/team.bench.ts uses it too).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { acceptInvitation, adminFingerprint } from "../../capsules/team/invitation.js";
import { makeJoinRequest } from "../../capsules/team/join-request.js";
import { loadOrCreateMemberKeys, type MemberKeys } from "../../capsules/team/member-keys.js";
import type { TeamRole } from "../../capsules/team/membership.js";
import type { TeamQueuePort } from "../../capsules/team/queue-port.js";
import { initTeam, inviteMember } from "../../capsules/team/team-admin.js";
import { writeTeamState } from "../../capsules/team/team-state.js";

export interface TeamHome {
  name: string;
  role: TeamRole;
  home: string;
  keys: MemberKeys;
}

/** The admin (a lead, named `admin.name`) and every member in `members`, joined in order. */
export async function makeTeam(
  port: TeamQueuePort,
  root: string,
  admin: { name: string },
  members: readonly { name: string; role: TeamRole }[],
  approvals = 2,
): Promise<{ admin: TeamHome; members: TeamHome[] }> {
  const adminHome = mkdtempSync(join(root, "admin-"));
  const m = await initTeam(adminHome, port, { name: admin.name, approvals });
  const joined: TeamHome[] = [];
  for (const x of members) {
    const home = mkdtempSync(join(root, "member-"));
    const keys = loadOrCreateMemberKeys(home);
    const request = new TextEncoder().encode(makeJoinRequest(keys, x.name));
    const { invitation } = await inviteMember(adminHome, port, request, x.role);
    const accepted = acceptInvitation(new TextEncoder().encode(invitation), keys, adminFingerprint(m.adminKey));
    writeTeamState(home, { teamId: accepted.invitation.membership.teamId, adminKey: accepted.invitation.membership.adminKey, member: keys.fingerprint }, accepted.invitation.membership);
    joined.push({ name: x.name, role: x.role, home, keys });
  }
  return { admin: { name: admin.name, role: "lead", home: adminHome, keys: loadOrCreateMemberKeys(adminHome) }, members: joined };
}

/** A temporary root for member data directories. */
export function teamRoot(): string {
  return mkdtempSync(join(tmpdir(), "eb-team-homes-"));
}
