/**
 * The signed membership list (issue 34 items 1 and 4): who belongs to the team, with which keys and role, signed by
 * the team's admin key. Versioned: version 1 is written by `team init`, every invitation and removal writes the next.
 *
 *     {"admin_key":<64 hex>,"approvals":2,"epoch":<32 hex>,"format":"evidence-bridge-team-membership/v1",
 *      "members":[{"box_key":…,"name":…,"role":"lead"|"reviewer"|"investigator","sign_key":…},…],
 *      "removed":[<member fingerprint>,…],"signature":<128 hex>,"team_id":<32 hex>,"version":n}
 *
 * - `members` are sorted by member fingerprint (SHA-256 of `sign_key`), no duplicates; `removed` sorted, and never
 *   shrinks from one version to the next; a removed fingerprint never comes back;
 * - `approvals` is the team's four-eyes policy: distinct reviewer/lead keys that must approve one candidate digest;
 * - `epoch` names the current records key (epoch-keys.ts): decisions and this document are sealed under it;
 * - roles: `investigator` publishes capsules and reads the queue; `reviewer` also decides; `lead` also decides and
 *   is the role of the admin's own member key (the admin key itself signs memberships only, never decisions);
 * - the signature is Ed25519 by `admin_key` over `"evidence-bridge team membership v1\0"` + the canonical bytes
 *   without `signature`. Every client pins `team_id` and `admin_key` when it joins and refuses any membership with
 *   another team id, another admin key, a bad signature, or a version sequence with a gap or a fork.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { bytesToHex, hexToBytes, sha256Hex } from "../../src/hash.js";
import { verifySignature, type SigningKey } from "../../src/crypto/sign.js";
import { isJsonObject } from "../../src/json/value.js";
import { reviewerNameProblem } from "../review/text-rules.js";
import { MAX_APPROVALS } from "../review/policy.js";
import { TeamError } from "./errors.js";
import { arrayField, domainBytes, exactObject, hexField, intField, literalField, malformed, objectWith, stringField } from "./fields.js";
import { memberFingerprint } from "./member-keys.js";

export const MEMBERSHIP_FORMAT = "evidence-bridge-team-membership/v1";
const DOMAIN = "evidence-bridge team membership v1\u0000";
export const TEAM_ROLES = ["investigator", "reviewer", "lead"] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
const DOC_MEMBERS = ["admin_key", "approvals", "epoch", "format", "members", "removed", "signature", "team_id", "version"];
const MEMBER_MEMBERS = ["box_key", "name", "role", "sign_key"];
export const MAX_MEMBERSHIP_VERSION = 1_000_000;

export interface TeamMember {
  name: string;
  role: TeamRole;
  signKey: string;
  boxKey: string;
  fingerprint: string;
}

export interface MembershipContent {
  teamId: string;
  version: number;
  adminKey: string;
  epoch: string;
  approvals: number;
  members: readonly TeamMember[];
  removed: readonly string[];
}

/** A membership whose signature verified against its own admin key (pinning is {@link checkPinned}). */
export interface Membership extends MembershipContent {
  /** The canonical bytes as signed and stored. */
  readonly bytes: Uint8Array;
  readonly sha256: string;
}

export function canDecide(role: TeamRole): boolean {
  return role === "reviewer" || role === "lead";
}

function contentJson(m: MembershipContent): Record<string, unknown> {
  return {
    admin_key: m.adminKey,
    approvals: m.approvals,
    epoch: m.epoch,
    format: MEMBERSHIP_FORMAT,
    members: m.members.map((x) => ({ box_key: x.boxKey, name: x.name, role: x.role, sign_key: x.signKey })),
    removed: [...m.removed],
    team_id: m.teamId,
    version: m.version,
  };
}

/** Signs a membership with the admin key (whose public key must be `adminKey`). Sorts members and removals. */
export function signMembership(content: MembershipContent, admin: SigningKey): Membership {
  if (bytesToHex(admin.publicKey) !== content.adminKey) throw new TeamError("signature", "signMembership: the admin key is not the membership's admin_key");
  const sorted: MembershipContent = {
    ...content,
    members: [...content.members].sort((a, b) => (a.fingerprint < b.fingerprint ? -1 : 1)),
    removed: [...content.removed].sort(),
  };
  const unsigned = canonicalBytes(contentJson(sorted), "membership");
  const signature = bytesToHex(admin.sign(domainBytes(DOMAIN, unsigned)));
  return readMembership(canonicalBytes({ ...contentJson(sorted), signature }, "membership"));
}

/** Reads and verifies a membership document's bytes (signature against its own admin_key). */
export function readMembership(bytes: Uint8Array, what = "membership"): Membership {
  const o = exactObject(bytes, what, DOC_MEMBERS);
  if (o.get("format") !== MEMBERSHIP_FORMAT) throw malformed(`${what}.format`, `expected ${MEMBERSHIP_FORMAT}`);
  const teamId = hexField(o, "team_id", what, 32);
  const adminKey = hexField(o, "admin_key", what, 64);
  const epoch = hexField(o, "epoch", what, 32);
  const version = intField(o, "version", what, 1, MAX_MEMBERSHIP_VERSION);
  const approvals = intField(o, "approvals", what, 1, MAX_APPROVALS);
  const signature = hexField(o, "signature", what, 128);
  const members: TeamMember[] = [];
  arrayField(o, "members", what).forEach((v, i) => {
    const path = `${what}.members[${i}]`;
    const m = objectWith(isJsonObject(v) ? v : undefined, path, MEMBER_MEMBERS);
    const name = stringField(m, "name", path);
    const np = reviewerNameProblem(name);
    if (np !== undefined) throw malformed(`${path}.name`, np);
    const signKey = hexField(m, "sign_key", path, 64);
    const member: TeamMember = { name, role: literalField(m, "role", path, TEAM_ROLES), signKey, boxKey: hexField(m, "box_key", path, 64), fingerprint: memberFingerprint(hexToBytes(signKey)) };
    const prev = members[members.length - 1];
    if (prev !== undefined && prev.fingerprint >= member.fingerprint) throw malformed(path, "members must be sorted by fingerprint, each once");
    members.push(member);
  });
  const removed: string[] = [];
  arrayField(o, "removed", what).forEach((v, i) => {
    if (typeof v !== "string" || !/^[0-9a-f]{64}$/.test(v)) throw malformed(`${what}.removed[${i}]`, "expected 64 lowercase hexadecimal digits");
    if (removed.length > 0 && removed[removed.length - 1] >= v) throw malformed(`${what}.removed[${i}]`, "removed must be sorted, each once");
    removed.push(v);
  });
  for (const m of members) if (removed.includes(m.fingerprint)) throw malformed(what, `member ${m.name} (${m.fingerprint.slice(0, 12)}) is both a member and removed`);
  if (!members.some((m) => m.role === "lead")) throw malformed(`${what}.members`, "a team has at least one lead");
  const content: MembershipContent = { teamId, version, adminKey, epoch, approvals, members, removed };
  if (!verifySignature(hexToBytes(adminKey), domainBytes(DOMAIN, canonicalBytes(contentJson(content), what)), hexToBytes(signature))) {
    throw new TeamError("signature", `${what} v${version}: the signature does not verify with its admin_key (the document was altered, or not signed by the team admin)`);
  }
  return Object.freeze({ ...content, bytes: Uint8Array.from(bytes), sha256: sha256Hex(bytes) });
}

/** What a client pinned when it joined: the team and its admin key. */
export interface TeamPin {
  teamId: string;
  adminKey: string;
}

/** Refuses a membership of another team or signed by another admin key. */
export function checkPinned(m: Membership, pin: TeamPin, what = "membership"): void {
  if (m.teamId !== pin.teamId) throw new TeamError("forged", `${what} v${m.version} belongs to team ${m.teamId}, not to this team ${pin.teamId}`);
  if (m.adminKey !== pin.adminKey) {
    throw new TeamError("forged", `${what} v${m.version} is signed by admin key ${sha256Hex(hexToBytes(m.adminKey)).slice(0, 16)}, not by this team's admin key: a forged membership`);
  }
}

/**
 * Checks a sequence of memberships (version ascending) against the pin: versions 1, 2, … without a gap, removals
 * never undone. Returns the latest. Throws TeamError naming the version and what happened.
 */
export function checkMembershipSequence(docs: readonly Membership[], pin: TeamPin): Membership {
  if (docs.length === 0) throw new TeamError("forged", "the team database holds no membership: it was emptied or never initialised ('team init')");
  let prev: Membership | undefined;
  for (const m of docs) {
    checkPinned(m, pin);
    const expected = (prev?.version ?? 0) + 1;
    if (m.version !== expected) throw new TeamError("forged", `membership v${m.version} follows v${expected - 1}: a version is missing (withheld or deleted)`);
    if (prev !== undefined) {
      for (const fp of prev.removed) if (!m.removed.includes(fp)) throw new TeamError("forged", `membership v${m.version} forgets the removal of member ${fp.slice(0, 12)}`);
    }
    prev = m;
  }
  return prev!;
}

/** The member with this fingerprint in `m`, or undefined. */
export function memberOf(m: MembershipContent, fingerprint: string): TeamMember | undefined {
  return m.members.find((x) => x.fingerprint === fingerprint);
}
