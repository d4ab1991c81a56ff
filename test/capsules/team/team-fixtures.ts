/**
 * Fixtures for the team tests: member key sets, an admin key, and memberships signed with it. Keys are fresh random
 * keys per call (no fixed secrets in the repository).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bytesToHex } from "../../../src/hash.js";
import { generateSigningSeed, signingKeyFromSeed, type SigningKey } from "../../../src/crypto/sign.js";
import { generateMemberSecret, memberKeysFromSecret, type MemberKeys } from "../../../capsules/team/member-keys.js";
import { signMembership, type Membership, type TeamMember, type TeamRole } from "../../../capsules/team/membership.js";

export function newMember(): MemberKeys {
  return memberKeysFromSecret(generateMemberSecret());
}

export function newAdmin(): SigningKey {
  return signingKeyFromSeed(generateSigningSeed());
}

export function asMember(keys: MemberKeys, name: string, role: TeamRole): TeamMember {
  return { name, role, signKey: bytesToHex(keys.sign.publicKey), boxKey: bytesToHex(keys.box.publicKey), fingerprint: keys.fingerprint };
}

export const TEAM_ID = "0123456789abcdef0123456789abcdef";

export function membership(admin: SigningKey, members: TeamMember[], opts: { version?: number; epoch?: string; approvals?: number; removed?: string[] } = {}): Membership {
  return signMembership(
    {
      teamId: TEAM_ID,
      version: opts.version ?? 1,
      adminKey: bytesToHex(admin.publicKey),
      epoch: opts.epoch ?? "a".repeat(32),
      approvals: opts.approvals ?? 2,
      members,
      removed: opts.removed ?? [],
    },
    admin,
  );
}

const homes: string[] = [];
export function tempHome(): string {
  const h = mkdtempSync(join(tmpdir(), "eb-team-"));
  homes.push(h);
  return h;
}
export function removeTempHomes(): void {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
}

/** Flips one bit of byte `i` (a copy). */
export function flipped(bytes: Uint8Array, i: number): Uint8Array {
  const out = Uint8Array.from(bytes);
  out[i] ^= 0x01;
  return out;
}
