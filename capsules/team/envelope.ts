/**
 * The per-object envelope (issue 34 item 2): how a capsule, a candidate or an epoch key is sealed for the team queue.
 *
 * - A random 32-byte data key per object; the body is `01 ‖ nonce(24) ‖ secretbox(plaintext, nonce, data key)`.
 * - The plaintext is `len(4, big-endian) ‖ header ‖ payload ‖ signature(64)`, where the header is the canonical JSON
 *   `{"author":<member fingerprint>,"format":"evidence-bridge-team-object/v1","id":…,"kind":…,"payload_sha256":…}`
 *   and the signature is the author's Ed25519 over `"evidence-bridge team object v1\0"` ‖ header. The object id and
 *   kind are bound inside, so the database cannot swap rows or relabel them; the author is bound, so the database
 *   (which may know members' public box keys) cannot make an object a member would accept.
 * - One wrap per recipient: `ephemeral X25519 public key(32) ‖ nonce(24) ‖ box(data key ‖ object id(16))` to the
 *   recipient's box key (NaCl box, src/crypto/box.ts): a wrap moved onto another object names the wrong id and is
 *   refused. The ephemeral secret is HMAC-SHA256 of the data key over the object id (`"evidence-bridge team wrap key
 *   v1\0"`: one per object, shared by its recipients, as in multi-recipient ECIES; each recipient's shared secret
 *   differs) and the nonce HMAC-SHA256 of the data key over the object id and the recipient (`"… wrap nonce v1\0"`):
 *   secret to anyone without the data key, and the same when the same key is wrapped for the same member again, so
 *   `addWraps` after an interrupted run offers identical bytes.
 *
 * What the database sees: the id (random), the kind, the hour, the sizes, the recipients' fingerprints.
 */
import nacl from "tweetnacl";
import { canonicalBytes } from "../../src/json/canonical.js";
import { bytesToHex, hexToBytes, hmacSha256Bytes, sha256Hex } from "../../src/hash.js";
import { verifySignature } from "../../src/crypto/sign.js";
import { boxKeyPairFromSecret, boxOpen, boxSeal } from "../../src/crypto/box.js";
import { TeamError } from "./errors.js";
import { domainBytes, exactObject, hexField, literalField, malformed } from "./fields.js";
import type { MemberKeys } from "./member-keys.js";
import { TEAM_OBJECT_KINDS, type TeamObjectIn, type TeamObjectKind, type TeamObjectOut } from "./queue-port.js";

export const OBJECT_FORMAT = "evidence-bridge-team-object/v1";
const DOMAIN = "evidence-bridge team object v1\u0000";
const BODY_VERSION = 1;
const WRAP_KEY_DOMAIN = "evidence-bridge team wrap key v1\u0000";
const WRAP_NONCE_DOMAIN = "evidence-bridge team wrap nonce v1\u0000";
const WRAP_BYTES = 32 + 24 + nacl.box.overheadLength + 32 + 16;
const HEADER_MEMBERS = ["author", "format", "id", "kind", "payload_sha256"];

/** A recipient: a member's fingerprint and X25519 public key. */
export interface Recipient {
  fingerprint: string;
  boxKey: Uint8Array;
}

/** A fresh random object id: 32 lowercase hex digits. */
export function newObjectId(): string {
  return bytesToHex(nacl.randomBytes(16));
}

/** The ISO 8601 UTC hour of `now` ("2026-11-28T22:00:00Z"): the only time the database learns. */
export function hourOf(now: Date): string {
  return `${now.toISOString().slice(0, 13)}:00:00Z`;
}

/**
 * A wrapper of `dataKey` for object `id`: one ephemeral X25519 key per object (one key import), one Diffie-Hellman
 * per recipient. Derived from the data key and the object (the nonce also from the recipient): wrapping the same key
 * for the same member again (a resumed sync, a re-run invite) gives the same bytes, which the store accepts as
 * already there.
 */
export function keyWrapper(dataKey: Uint8Array, id: string): (to: Recipient) => Uint8Array {
  const eph = boxKeyPairFromSecret(hmacSha256Bytes(dataKey, domainBytes(WRAP_KEY_DOMAIN, new TextEncoder().encode(id))));
  const plain = new Uint8Array([...dataKey, ...hexToBytes(id)]);
  return (to) => {
    const context = new TextEncoder().encode(`${id}\u0000${to.fingerprint}\u0000${bytesToHex(to.boxKey)}`);
    const nonce = hmacSha256Bytes(dataKey, domainBytes(WRAP_NONCE_DOMAIN, context)).slice(0, nacl.box.nonceLength);
    const boxed = boxSeal(plain, nonce, to.boxKey, eph.secretKey);
    const out = new Uint8Array(32 + nonce.length + boxed.length);
    out.set(eph.publicKey, 0);
    out.set(nonce, 32);
    out.set(boxed, 32 + nonce.length);
    return out;
  };
}

/** Wraps `dataKey` for one recipient, bound to `id`. */
export function wrapKey(dataKey: Uint8Array, id: string, to: Recipient): Uint8Array {
  return keyWrapper(dataKey, id)(to);
}

/** The data key in a wrap addressed to `me` for object `id`; throws TeamError `forged` otherwise. */
export function unwrapKey(wrapped: Uint8Array, id: string, me: MemberKeys): Uint8Array {
  if (wrapped.length !== WRAP_BYTES) throw new TeamError("forged", `object ${id}: its key wrap has ${wrapped.length} bytes, not ${WRAP_BYTES}`);
  const opened = boxOpen(wrapped.subarray(56), wrapped.subarray(32, 56), wrapped.subarray(0, 32), me.box.secretKey);
  if (opened === null) throw new TeamError("forged", `object ${id}: its key wrap does not open with this member's key (altered, or addressed to someone else)`);
  if (bytesToHex(opened.subarray(32)) !== id) throw new TeamError("forged", `object ${id}: its key wrap belongs to object ${bytesToHex(opened.subarray(32))} (the database moved a wrap)`);
  return opened.slice(0, 32);
}

/** Seals `payload` as object `id` of `kind`, authored by `author`, for `recipients`. */
export function sealObject(
  args: { id: string; kind: TeamObjectKind; hour: string; payload: Uint8Array; author: MemberKeys; recipients: readonly Recipient[] },
): TeamObjectIn {
  const header = canonicalBytes({ author: args.author.fingerprint, format: OBJECT_FORMAT, id: args.id, kind: args.kind, payload_sha256: sha256Hex(args.payload) }, "object header");
  const signature = args.author.sign.sign(domainBytes(DOMAIN, header));
  const plain = new Uint8Array(4 + header.length + args.payload.length + 64);
  new DataView(plain.buffer).setUint32(0, header.length);
  plain.set(header, 4);
  plain.set(args.payload, 4 + header.length);
  plain.set(signature, 4 + header.length + args.payload.length);
  const dataKey = nacl.randomBytes(32);
  const nonce = nacl.randomBytes(24);
  const boxed = nacl.secretbox(plain, nonce, dataKey);
  const body = new Uint8Array(25 + boxed.length);
  body[0] = BODY_VERSION;
  body.set(nonce, 1);
  body.set(boxed, 25);
  const wrap = keyWrapper(dataKey, args.id);
  const wraps = args.recipients.map((r) => ({ recipient: r.fingerprint, wrapped: wrap(r) }));
  return { id: args.id, kind: args.kind, hour: args.hour, body, wraps };
}

export interface OpenedObject {
  id: string;
  kind: TeamObjectKind;
  /** Fingerprint of the member who signed it. */
  author: string;
  payload: Uint8Array;
  /** The data key (kept only to re-wrap it for a new member). */
  dataKey: Uint8Array;
}

/**
 * Opens a row addressed to `me`. `authorKey` gives the Ed25519 public key of a fingerprint that may author objects
 * (members of the signed membership), or undefined. Throws TeamError `forged` naming what does not hold.
 */
export function openObject(row: TeamObjectOut, me: MemberKeys, authorKey: (fingerprint: string) => Uint8Array | undefined): OpenedObject {
  const label = `object ${row.id} (row #${row.seq})`;
  const dataKey = unwrapKey(row.wrapped, row.id, me);
  if (row.body.length < 25 || row.body[0] !== BODY_VERSION) throw new TeamError("forged", `${label}: not a version-1 team object body`);
  const plain = nacl.secretbox.open(row.body.subarray(25), row.body.subarray(1, 25), dataKey);
  if (plain === null) throw new TeamError("forged", `${label}: the body failed authentication (altered, or another object's body)`);
  const view = new DataView(plain.buffer, plain.byteOffset, plain.byteLength);
  const headerLength = plain.length >= 4 ? view.getUint32(0) : -1;
  if (headerLength < 0 || 4 + headerLength + 64 > plain.length) throw new TeamError("forged", `${label}: damaged plaintext layout`);
  const headerBytes = plain.subarray(4, 4 + headerLength);
  let header;
  try {
    header = exactObject(headerBytes, "object header", HEADER_MEMBERS);
  } catch (e) {
    throw new TeamError("forged", `${label}: ${(e as Error).message}`);
  }
  if (header.get("format") !== OBJECT_FORMAT) throw malformed(`${label} header.format`, `expected ${OBJECT_FORMAT}`);
  const id = hexField(header, "id", "object header", 32);
  const kind = literalField(header, "kind", "object header", TEAM_OBJECT_KINDS);
  const author = hexField(header, "author", "object header", 64);
  if (id !== row.id) throw new TeamError("forged", `${label}: the sealed id is ${id}: the database swapped rows`);
  if (kind !== row.kind) throw new TeamError("forged", `${label}: sealed as a ${kind}, served as a ${row.kind}: the database relabelled it`);
  const payload = plain.slice(4 + headerLength, plain.length - 64);
  if (sha256Hex(payload) !== header.get("payload_sha256")) throw new TeamError("forged", `${label}: the payload does not match its sealed digest`);
  const pub = authorKey(author);
  if (pub === undefined) throw new TeamError("forged", `${label}: signed by ${author.slice(0, 12)}, who is not a member of the signed membership`);
  if (!verifySignature(pub, domainBytes(DOMAIN, headerBytes), plain.subarray(plain.length - 64))) {
    throw new TeamError("forged", `${label}: the author signature of member ${author.slice(0, 12)} does not verify`);
  }
  return { id, kind, author, payload, dataKey };
}
