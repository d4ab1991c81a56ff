/**
 * A team member's key set (issue 34): an Ed25519 key that signs (decisions, join requests, published objects) and
 * an X25519 key that opens what is sealed to the member (NaCl `box`, src/crypto/box.ts). Both secrets live in one key file,
 * `<home>/team/member.key` (src/crypto/key-files.ts format, type `team-member-key`, mode 0600, group- or
 * world-readable files refused), like the reviewer keys: 32 bytes of Ed25519 seed then 32 bytes of X25519 secret.
 *
 * The member's fingerprint is the SHA-256 hex of the raw Ed25519 public key: the same 64 digits as the reviewer
 * fingerprint `ed25519:<hex>` the review records carry (src/crypto/sign.ts), so a team decision names its signer the
 * way every other review record does. The database sees only this fingerprint (as a wrap's recipient).
 */
import { join } from "node:path";
import nacl from "tweetnacl";
import { KeyError } from "../../src/crypto/errors.js";
import { createKeyFile, pathExists, readKeyFile } from "../../src/crypto/key-files.js";
import { ensurePrivateDir } from "../../src/crypto/safe-write.js";
import { generateSigningSeed, signingKeyFromSeed, type SigningKey } from "../../src/crypto/sign.js";
import { prepareDataDir } from "../../src/crypto/data-dir.js";
import { boxKeyPairFromSecret } from "../../src/crypto/box.js";
import { sha256Hex } from "../../src/hash.js";

export const MEMBER_KEY_TYPE = "team-member-key";
export const TEAM_ADMIN_KEY_TYPE = "team-admin-key";

export interface MemberKeys {
  readonly sign: SigningKey;
  readonly box: { readonly publicKey: Uint8Array; readonly secretKey: Uint8Array };
  /** SHA-256 hex of the Ed25519 public key (64 lowercase hex digits). */
  readonly fingerprint: string;
}

/** The member fingerprint of an Ed25519 public key. */
export function memberFingerprint(signPublicKey: Uint8Array): string {
  return sha256Hex(signPublicKey);
}

/** The key set held by the 64 secret bytes of a member key file. */
export function memberKeysFromSecret(secret: Uint8Array): MemberKeys {
  if (secret.length !== 64) throw new RangeError(`a member key holds 64 bytes, got ${secret.length}`);
  const sign = signingKeyFromSeed(secret.subarray(0, 32));
  const pair = boxKeyPairFromSecret(secret.subarray(32, 64));
  return Object.freeze({ sign, box: Object.freeze({ publicKey: pair.publicKey, secretKey: pair.secretKey }), fingerprint: memberFingerprint(sign.publicKey) });
}

export function generateMemberSecret(): Uint8Array {
  const out = new Uint8Array(64);
  out.set(generateSigningSeed(), 0);
  out.set(nacl.randomBytes(32), 32);
  return out;
}

export function teamDir(home: string): string {
  return join(home, "team");
}

export function memberKeyPath(home: string): string {
  return join(teamDir(home), "member.key");
}

export function adminKeyPath(home: string): string {
  return join(teamDir(home), "admin.key");
}

/** The member key of this data directory, created on first use (`team join --name`, `team init`). */
export function loadOrCreateMemberKeys(home: string): MemberKeys {
  const path = memberKeyPath(home);
  if (!pathExists(path)) {
    prepareDataDir(home);
    ensurePrivateDir(teamDir(home));
    createKeyFile(teamDir(home), "member.key", MEMBER_KEY_TYPE, generateMemberSecret());
  }
  return memberKeysFromSecret(readKeyFile(path, MEMBER_KEY_TYPE, 64));
}

/** The member key of this data directory; a missing file is a KeyError naming `team join --name`. */
export function loadMemberKeys(home: string): MemberKeys {
  const path = memberKeyPath(home);
  if (!pathExists(path)) throw new KeyError("missing", `no team member key ${path}: create one with 'evidence-bridge team join --name NAME'`);
  return memberKeysFromSecret(readKeyFile(path, MEMBER_KEY_TYPE, 64));
}

/** The team admin key (`team init` creates it; only the admin's data directory holds it). */
export function createAdminKey(home: string): SigningKey {
  prepareDataDir(home);
  ensurePrivateDir(teamDir(home));
  const seed = generateSigningSeed();
  if (!createKeyFile(teamDir(home), "admin.key", TEAM_ADMIN_KEY_TYPE, seed)) {
    throw new KeyError("exists", `a team admin key ${adminKeyPath(home)} already exists; refusing to replace it`);
  }
  return signingKeyFromSeed(seed);
}

export function loadAdminKey(home: string): SigningKey {
  const path = adminKeyPath(home);
  if (!pathExists(path)) throw new KeyError("missing", `no team admin key ${path}: only the data directory that ran 'team init' can invite or remove members`);
  return signingKeyFromSeed(readKeyFile(path, TEAM_ADMIN_KEY_TYPE, 32));
}
