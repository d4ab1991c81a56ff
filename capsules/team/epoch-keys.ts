/**
 * Epoch keys (issue 34 items 3 and 4): the symmetric key that seals the team's chain records and membership
 * documents, so every member (and each member added later) can read them while the database cannot.
 *
 * - An epoch key is 32 random bytes; its id is the first 16 bytes of SHA-256(`"evidence-bridge team epoch v1\0"` ‖
 *   key), hex. The admin-signed membership names the epoch in force (`epoch`), so the id is a commitment: a key the
 *   database made up can never match it.
 * - The key travels as a `membership-keys` object (envelope.ts) wrapped to every member; a member added later gets
 *   a wrap with `addWraps`. Removing a member starts a new epoch whose key is not wrapped to them.
 * - `sealUnderEpoch` gives `01 ‖ epoch id(16) ‖ purpose(1) ‖ nonce(24) ‖ secretbox(plaintext, nonce, key')` with
 *   key' = HMAC-SHA256(key, "evidence-bridge team epoch seal v1\0" ‖ purpose), purpose 1 = chain entry,
 *   2 = membership: an entry cannot be replayed as a membership or the reverse.
 */
import nacl from "tweetnacl";
import { canonicalBytes } from "../../src/json/canonical.js";
import { bytesToHex, hexToBytes, hmacSha256Bytes, sha256Bytes } from "../../src/hash.js";
import { TeamError } from "./errors.js";
import { domainBytes, exactObject, hexField, malformed } from "./fields.js";

export const EPOCH_KEY_FORMAT = "evidence-bridge-team-epoch-key/v1";
const ID_DOMAIN = "evidence-bridge team epoch v1\u0000";
const SEAL_DOMAIN = "evidence-bridge team epoch seal v1\u0000";
export const EpochPurpose = { entry: 1, membership: 2 } as const;
export type EpochPurpose = (typeof EpochPurpose)[keyof typeof EpochPurpose];

export interface EpochKey {
  readonly id: string;
  readonly key: Uint8Array;
}

export function epochKey(key: Uint8Array): EpochKey {
  if (key.length !== 32) throw new RangeError("an epoch key has 32 bytes");
  return Object.freeze({ id: bytesToHex(sha256Bytes(domainBytes(ID_DOMAIN, key)).subarray(0, 16)), key: Uint8Array.from(key) });
}

export function newEpochKey(): EpochKey {
  return epochKey(nacl.randomBytes(32));
}

/** The payload of a `membership-keys` object. */
export function epochKeyPayload(k: EpochKey): Uint8Array {
  return canonicalBytes({ epoch: k.id, format: EPOCH_KEY_FORMAT, key: bytesToHex(k.key) }, "epoch key");
}

export function readEpochKeyPayload(bytes: Uint8Array): EpochKey {
  const o = exactObject(bytes, "epoch key", ["epoch", "format", "key"]);
  if (o.get("format") !== EPOCH_KEY_FORMAT) throw malformed("epoch key.format", `expected ${EPOCH_KEY_FORMAT}`);
  const k = epochKey(hexToBytes(hexField(o, "key", "epoch key", 64)));
  if (k.id !== hexField(o, "epoch", "epoch key", 32)) throw new TeamError("forged", `epoch key ${k.id}: its stated id does not match the key`);
  return k;
}

function purposeKey(k: EpochKey, purpose: EpochPurpose): Uint8Array {
  return hmacSha256Bytes(k.key, domainBytes(SEAL_DOMAIN, Uint8Array.of(purpose)));
}

export function sealUnderEpoch(plaintext: Uint8Array, k: EpochKey, purpose: EpochPurpose): Uint8Array {
  const nonce = nacl.randomBytes(24);
  return new Uint8Array([1, ...hexToBytes(k.id), purpose, ...nonce, ...nacl.secretbox(plaintext, nonce, purposeKey(k, purpose))]);
}

/** The epoch id a sealed body names, or undefined when it is not an epoch-sealed body. */
export function epochOf(body: Uint8Array): string | undefined {
  return body.length >= 42 && body[0] === 1 ? bytesToHex(body.subarray(1, 17)) : undefined;
}

/** Opens an epoch-sealed body; `label` names it in errors. Throws TeamError `forged` / `not-member`. */
export function openUnderEpoch(body: Uint8Array, keys: ReadonlyMap<string, EpochKey>, purpose: EpochPurpose, label: string): Uint8Array {
  const id = epochOf(body);
  if (id === undefined) throw new TeamError("forged", `${label}: not an epoch-sealed body`);
  const k = keys.get(id);
  if (k === undefined) throw new TeamError("not-member", `${label}: sealed under epoch ${id}, whose key this member was never given (removed, or the database withholds the key object)`);
  if (body[17] !== purpose) throw new TeamError("forged", `${label}: sealed for another purpose (a ${purpose === 1 ? "membership" : "chain entry"} served in its place)`);
  const opened = nacl.secretbox.open(body.subarray(42), body.subarray(18, 42), purposeKey(k, purpose));
  if (opened === null) throw new TeamError("forged", `${label}: failed authentication under epoch ${id} (altered by the database, or not written by a member)`);
  return opened;
}
