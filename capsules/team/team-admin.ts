/**
 * The admin's side of membership (issue 34 items 1 and 4): `team init` (schema through the port's factory, team
 * key set, membership v1), `team invite` (a new membership version, a chain entry, the queue re-wrapped for the new
 * member) and `team remove` (a new epoch not wrapped to the removed member, a new membership version, a chain
 * entry). Each step is idempotent, so an admin interrupted half-way runs the same command again.
 */
import { bytesToHex, hexToBytes } from "../../src/hash.js";
import nacl from "tweetnacl";
import { TeamError } from "./errors.js";
import { EpochPurpose, epochKeyPayload, newEpochKey, sealUnderEpoch, type EpochKey } from "./epoch-keys.js";
import { hourOf, newObjectId, sealObject, wrapKey } from "./envelope.js";
import { makeInvitation } from "./invitation.js";
import { readJoinRequest } from "./join-request.js";
import { createAdminKey, loadAdminKey, loadOrCreateMemberKeys, type MemberKeys } from "./member-keys.js";
import { memberOf, signMembership, type Membership, type TeamMember, type TeamRole } from "./membership.js";
import { recipientsOf } from "./outbox.js";
import type { TeamQueuePort } from "./queue-port.js";
import { appendEntry, epochOfMembership } from "./chain-append.js";
import { membershipEntryBytes } from "./team-chain.js";
import { joinedTeam, readTeamState, writeTeamState } from "./team-state.js";
import { readTeamView, type TeamView } from "./team-view.js";
import { normalizedReviewerName, reviewerNameProblem } from "../review/text-rules.js";

async function publishEpoch(port: TeamQueuePort, author: MemberKeys, epoch: EpochKey, m: Membership, now: Date): Promise<void> {
  await port.putObjects([sealObject({ id: newObjectId(), kind: "membership-keys", hour: hourOf(now), payload: epochKeyPayload(epoch), author, recipients: recipientsOf(m) })]);
}

async function storeMembership(port: TeamQueuePort, m: Membership, epoch: EpochKey): Promise<void> {
  await port.putMembership(m.version, sealUnderEpoch(m.bytes, epoch, EpochPurpose.membership));
}

/** `team init`: this data directory becomes the team's admin and first lead. */
export async function initTeam(home: string, port: TeamQueuePort, opts: { name: string; approvals: number; now?: Date }): Promise<Membership> {
  if (joinedTeam(home)) throw new TeamError("state", "this data directory already belongs to a team ('team status' shows it); a data directory joins one team");
  const name = normalizedReviewerName(opts.name);
  const np = reviewerNameProblem(name);
  if (np !== undefined) throw new TeamError("malformed", `--name: ${np}`);
  if ((await port.memberships()).length > 0) throw new TeamError("state", "the team database already holds a team: 'team init' runs once per database");
  const keys = loadOrCreateMemberKeys(home);
  const admin = createAdminKey(home);
  const epoch = newEpochKey();
  const self: TeamMember = { name, role: "lead", signKey: bytesToHex(keys.sign.publicKey), boxKey: bytesToHex(keys.box.publicKey), fingerprint: keys.fingerprint };
  const m = signMembership(
    { teamId: bytesToHex(nacl.randomBytes(16)), version: 1, adminKey: bytesToHex(admin.publicKey), epoch: epoch.id, approvals: opts.approvals, members: [self], removed: [] },
    admin,
  );
  await publishEpoch(port, keys, epoch, m, opts.now ?? new Date());
  await storeMembership(port, m, epoch);
  writeTeamState(home, { teamId: m.teamId, adminKey: m.adminKey, member: keys.fingerprint }, m);
  return m;
}

/** Re-wraps every data key this member can open for `to` (a new member): the queue, old epochs included. */
async function rewrapFor(port: TeamQueuePort, view: TeamView, to: TeamMember): Promise<number> {
  const wraps = view.objects.map((o) => ({ objectId: o.id, recipient: to.fingerprint, wrapped: wrapKey(o.dataKey, o.id, { fingerprint: to.fingerprint, boxKey: hexToBytes(to.boxKey) }) }));
  for (let i = 0; i < wraps.length; i += 500) await port.addWraps(wraps.slice(i, i + 500));
  return wraps.length;
}

/** `team invite NAME.request`: adds (or finds) the member and returns the invitation text. */
export async function inviteMember(home: string, port: TeamQueuePort, requestBytes: Uint8Array, role: TeamRole): Promise<{ invitation: string; member: TeamMember; rewrapped: number; version: number }> {
  const request = readJoinRequest(requestBytes);
  const admin = loadAdminKey(home);
  const keys = loadOrCreateMemberKeys(home);
  const appended = await appendOrReuse(home, port, keys, (view) => {
    const m = view.membership;
    if (m.removed.includes(request.fingerprint)) throw new TeamError("removed", `member ${request.name} (${request.fingerprint.slice(0, 12)}) was removed from this team; a removed key does not come back: the member makes a new key (team join --name) and sends a new request`);
    const present = memberOf(m, request.fingerprint);
    if (present !== undefined) {
      if (present.boxKey !== request.boxKey) throw new TeamError("forged", `member ${present.name} is listed with another sealing key than this request names`);
      return undefined;
    }
    if (m.members.some((x) => x.name === request.name)) throw new TeamError("malformed", `a member named ${request.name} already exists: ask for a request under another name`);
    const member: TeamMember = { name: request.name, role, signKey: request.signKey, boxKey: request.boxKey, fingerprint: request.fingerprint };
    return signMembership({ ...m, version: m.version + 1, members: [...m.members, member] }, admin);
  });
  const member = memberOf(appended.membership, request.fingerprint)!;
  const rewrapped = await rewrapFor(port, appended.view, member);
  return { invitation: makeInvitation(appended.membership, request.fingerprint), member, rewrapped, version: appended.membership.version };
}

/**
 * Puts a new membership in force (stored, then its chain entry), or returns the current one when `next` says nothing
 * changes. Idempotent: a stored but not yet chained version is chained on the next run.
 */
async function appendOrReuse(
  home: string,
  port: TeamQueuePort,
  keys: MemberKeys,
  next: (view: TeamView) => Membership | undefined,
  newEpoch?: EpochKey,
): Promise<{ view: TeamView; membership: Membership }> {
  const admin = loadAdminKey(home);
  const first = await readTeamView(home, port, keys, readTeamState(home), "warm");
  // A version stored by an interrupted run but not chained yet is put in force first.
  if (first.membership.version > first.chain.membership.version) await chainMembership(home, port, keys, admin, first.membership);
  const view = await readTeamView(home, port, keys, readTeamState(home), "warm");
  const m = next(view);
  if (m === undefined) return { view: await readTeamView(home, port, keys, readTeamState(home)), membership: view.membership };
  const epoch = newEpoch ?? epochOfMembership(view, view.membership);
  if (newEpoch !== undefined) await publishEpoch(port, keys, newEpoch, m, new Date());
  await storeMembership(port, m, epoch);
  await chainMembership(home, port, keys, admin, m);
  const after = await readTeamView(home, port, keys, readTeamState(home));
  return { view: after, membership: after.membership };
}

async function chainMembership(home: string, port: TeamQueuePort, keys: MemberKeys, admin: ReturnType<typeof loadAdminKey>, m: Membership): Promise<void> {
  await appendEntry(home, port, keys, (view) => {
    if (view.chain.membership.version >= m.version) return undefined;
    return { entry: membershipEntryBytes(m, view.chain.decisionHead, admin), epoch: epochOfMembership(view, m), value: undefined };
  });
}

/** `team remove FINGERPRINT`: a new epoch and membership without the member, recorded in the chain. */
export async function removeMember(home: string, port: TeamQueuePort, fingerprintOrName: string): Promise<{ removed: TeamMember; version: number }> {
  const admin = loadAdminKey(home);
  const keys = loadOrCreateMemberKeys(home);
  let removed: TeamMember | undefined;
  const epoch = newEpochKey();
  const out = await appendOrReuse(
    home,
    port,
    keys,
    (view) => {
      const m = view.membership;
      const wanted = fingerprintOrName.toLowerCase();
      const gone = wanted.length >= 12 ? m.removed.find((fp) => fp.startsWith(wanted)) : undefined;
      if (gone !== undefined) {
        removed = view.memberships.flatMap((x) => x.members).find((x) => x.fingerprint === gone);
        if (removed !== undefined) return undefined;
      }
      const hit = m.members.filter((x) => x.name === fingerprintOrName || (wanted.length >= 12 && x.fingerprint.startsWith(wanted)));
      if (hit.length === 0) throw new TeamError("not-member", `no current member is named ${fingerprintOrName} or has a fingerprint starting with it ('team status' lists them)`);
      if (hit.length > 1) throw new TeamError("malformed", `${fingerprintOrName} matches several members: give more of the fingerprint`);
      removed = hit[0];
      if (removed.fingerprint === keys.fingerprint) throw new TeamError("malformed", "the admin's own member key cannot be removed by itself");
      return signMembership({ ...m, version: m.version + 1, epoch: epoch.id, members: m.members.filter((x) => x !== removed), removed: [...m.removed, removed.fingerprint] }, admin);
    },
    epoch,
  );
  return { removed: removed!, version: out.membership.version };
}
