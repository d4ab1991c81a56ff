/**
 * The invitation (issue 34 item 1): what `team invite NAME.request` prints and `team join NAME.invitation` reads.
 * Text (text-document.ts, kind `invitation`) whose JSON line is
 *
 *     {"format":"evidence-bridge-team-invitation/v1","member":<member fingerprint>,
 *      "membership":<the admin-signed membership document that lists the member>}
 *
 * The membership carries the team id and the admin public key and is signed by that key (membership.ts); the
 * invitation adds nothing that needs its own signature. Joining checks: the membership verifies; it lists this
 * installation's member key under `member`, with this installation's box key; when the member passed `--admin FP`,
 * the admin key has that fingerprint. The admin key's fingerprint is printed for comparison over another channel.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { bytesToHex, hexToBytes, sha256Hex } from "../../src/hash.js";
import { TeamError } from "./errors.js";
import { exactObject, hexField, malformed } from "./fields.js";
import type { MemberKeys } from "./member-keys.js";
import { memberOf, readMembership, type Membership, type TeamMember } from "./membership.js";
import { decodeTextDocument, encodeTextDocument } from "./text-document.js";

export const INVITATION_FORMAT = "evidence-bridge-team-invitation/v1";
const WHAT = "invitation";

export function makeInvitation(membership: Membership, memberFingerprint: string): string {
  if (memberOf(membership, memberFingerprint) === undefined) throw new TeamError("not-member", `membership v${membership.version} does not list member ${memberFingerprint.slice(0, 12)}`);
  const json = `{"format":"${INVITATION_FORMAT}","member":"${memberFingerprint}","membership":${Buffer.from(membership.bytes).toString("utf8")}}`;
  // The hand-assembled line is the canonical form (members sorted, the membership already canonical): checked here.
  readInvitationJson(new TextEncoder().encode(json));
  return encodeTextDocument("invitation", new TextEncoder().encode(json));
}

export interface Invitation {
  member: string;
  membership: Membership;
}

function readInvitationJson(json: Uint8Array): Invitation {
  const o = exactObject(json, WHAT, ["format", "member", "membership"]);
  if (o.get("format") !== INVITATION_FORMAT) throw malformed(`${WHAT}.format`, `expected ${INVITATION_FORMAT}`);
  const member = hexField(o, "member", WHAT, 64);
  const membership = readMembership(canonicalBytes(o.get("membership"), `${WHAT}.membership`), `${WHAT}.membership`);
  return { member, membership };
}

/** The fingerprint people compare out of band: SHA-256 hex of the admin public key. */
export function adminFingerprint(adminKey: string): string {
  return sha256Hex(hexToBytes(adminKey));
}

/** Reads an invitation and checks it is for `me` (and from the admin `expectedAdmin`, when given). */
export function acceptInvitation(bytes: Uint8Array, me: MemberKeys, expectedAdmin?: string): { invitation: Invitation; self: TeamMember } {
  const invitation = readInvitationJson(decodeTextDocument(bytes, "invitation", WHAT));
  if (invitation.member !== me.fingerprint) {
    throw new TeamError("not-member", `the invitation is for member ${invitation.member.slice(0, 12)}, not for this installation's key ${me.fingerprint.slice(0, 12)}`);
  }
  const self = memberOf(invitation.membership, me.fingerprint);
  if (self === undefined) throw new TeamError("not-member", `the invitation's membership v${invitation.membership.version} does not list this installation's key`);
  if (self.boxKey !== bytesToHex(me.box.publicKey)) throw new TeamError("forged", "the invitation lists this member's signing key with another sealing key: data would be sealed to someone else");
  if (expectedAdmin !== undefined && adminFingerprint(invitation.membership.adminKey) !== expectedAdmin.toLowerCase()) {
    throw new TeamError("forged", `the invitation is signed by admin key ${adminFingerprint(invitation.membership.adminKey)}, not ${expectedAdmin}`);
  }
  return { invitation, self };
}
