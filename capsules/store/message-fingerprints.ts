/**
 * Sealed message fingerprints in the store (issue 28 item 5; docs/guard.md "Message fingerprints"): one file per
 * message text, `store/fingerprints/<name>.sealed`, holding the keyed hashes of its shingles
 * (capsules/guard/message-shingles.ts) as 6-byte big-endian numbers, sorted, sealed with the store key (kind
 * "message fingerprint"). The name is a keyed hash of the text, so writing the same text again changes nothing and
 * no name reveals a message hash. Neither the text nor an unkeyed hash of it is written.
 *
 *     recordMessageFingerprint(store, text)          // every door that is given a message text
 *     readMessageFingerprints(store, into, seen)     // every process that checks outward text
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile, SafeReadError } from "../../src/crypto/safe-read.js";
import { discardStaged, linkNoReplace, makePrivateDir, stageUnsynced, type StagedFile } from "../../src/crypto/safe-write.js";
import { runDurable, runDurableSync, type DurableSteps } from "../../src/crypto/sync-set.js";
import { SEAL_OVERHEAD, SealKind, seal, unseal } from "../../src/crypto/seal.js";
import { errno } from "../../src/errno.js";
import { hmacSha256Hex } from "../../src/hash.js";
import { fingerprintKey, keyedShingleHash, messageShingles, MessageFingerprints } from "../guard/message-shingles.js";
import { StoreError } from "./errors.js";
import { SEALED_SUFFIX } from "./layout.js";
import type { SealedStore } from "./store.js";

const HASH_BYTES = 6;
/** A fingerprint file holds at most this many hashes (a 1 MiB message has fewer shingles than characters). */
const MAX_HASHES = 1 << 21;
const NAME = /^([0-9a-f]{64})\.sealed$/;
const NAME_DOMAIN = "evidence-bridge/message-fingerprint-name/v1\0";

const label = (name: string) => `store/fingerprints/${name}${SEALED_SUFFIX}`;

/** The fingerprint key of a store (derived from its store key). */
export function storeFingerprintKey(store: SealedStore): Uint8Array {
  return fingerprintKey(store.keys.store.bytes);
}

/** The keyed hashes of a text's shingles, sorted and distinct. */
export function fingerprintHashes(key: Uint8Array, text: string): number[] {
  return [...new Set(messageShingles(text).map((s) => keyedShingleHash(key, s)))].sort((a, b) => a - b);
}

/**
 * Seals the fingerprint of `text` into the store (idempotent: the same text has the same file). Returns its keyed
 * hashes, so a process can add them to its own table at once. Store errors throw {@link StoreError}.
 */
export function recordMessageFingerprint(store: SealedStore, text: string): number[] {
  return runDurableSync(fingerprintSteps(store, [text]))[0];
}

/**
 * {@link recordMessageFingerprint} for several texts in one durable write whose independent syncs run at once
 * (src/crypto/sync-set.ts): what a one-shot command awaits before it seals the capsule. Returns each text's hashes.
 */
export function recordMessageFingerprintsConcurrently(store: SealedStore, texts: readonly string[]): Promise<number[][]> {
  return runDurable(fingerprintSteps(store, texts));
}

/**
 * The durable steps: every new fingerprint file (and `store-key-id` at the store's first seal) staged, their data
 * synced in one set with the directories that gained `store/` or `fingerprints/`; then each linked into place (never
 * replacing: the same name is the same text), and the changed directories synced before this returns.
 */
function* fingerprintSteps(store: SealedStore, texts: readonly string[]): DurableSteps<number[][]> {
  const key = storeFingerprintKey(store);
  const all = texts.map((text) => fingerprintHashes(key, text));
  const files = new Map<string, Uint8Array>();
  texts.forEach((text, i) => {
    const hashes = all[i];
    if (hashes.length === 0) return;
    const name = hmacSha256Hex(key, NAME_DOMAIN + text);
    const plain = Buffer.alloc(hashes.length * HASH_BYTES);
    hashes.forEach((h, k) => plain.writeUIntBE(h, k * HASH_BYTES, HASH_BYTES));
    files.set(name, plain);
  });
  if (files.size === 0) return all;
  // Write errors propagate as the store's own writes do (src/crypto/safe-write.ts).
  const made: string[] = [];
  if (makePrivateDir(store.layout.root)) made.push(store.home);
  if (makePrivateDir(store.layout.fingerprints)) made.push(store.layout.root);
  const staged: StagedFile[] = [];
  try {
    const keyId = store.stageKeyId(made);
    if (keyId !== undefined) staged.push(keyId);
    const fps = [...files].map(([name, plain]) => {
      const temp = stageUnsynced(store.layout.fingerprints, seal(plain, store.keys.store, SealKind.fingerprint, label(name)));
      staged.push(temp);
      return { name, temp };
    });
    yield { files: staged, dirs: made };
    const changed: string[] = [];
    if (keyId !== undefined && store.linkKeyId(keyId)) changed.push(store.layout.root);
    for (const { name, temp } of fps) if (linkNoReplace(temp.path, join(store.layout.fingerprints, `${name}${SEALED_SUFFIX}`))) changed.push(store.layout.fingerprints);
    for (const t of staged) discardStaged(t);
    if (changed.length > 0) yield { dirs: changed };
  } finally {
    for (const t of staged) discardStaged(t);
  }
  return all;
}

/**
 * Reads every fingerprint file of `store` whose name is not in `seen` into `into` (and adds the name to `seen`).
 * A file that fails authentication or is malformed is an error: a guard that cannot read a fingerprint refuses.
 */
export function readMessageFingerprints(store: SealedStore, into: MessageFingerprints, seen: Set<string>): void {
  into.useKey(storeFingerprintKey(store));
  let names: string[];
  try {
    names = readdirSync(store.layout.fingerprints);
  } catch (e) {
    if (errno(e) === "ENOENT") return;
    throw new StoreError("integrity", `store/fingerprints cannot be listed: ${errno(e) ?? (e as Error).message}`);
  }
  for (const file of names) {
    const m = NAME.exec(file);
    if (m === null || seen.has(m[1])) continue;
    let bytes: Uint8Array;
    try {
      bytes = readRegularFile(join(store.layout.fingerprints, file), { maxBytes: MAX_HASHES * HASH_BYTES + SEAL_OVERHEAD, label: label(m[1]) });
    } catch (e) {
      throw new StoreError("integrity", e instanceof SafeReadError ? e.message : `${label(m[1])} cannot be read: ${(e as Error).message}`);
    }
    let plain: Buffer;
    try {
      plain = Buffer.from(unseal(bytes, store.keys.store, SealKind.fingerprint, label(m[1])));
    } catch (e) {
      throw new StoreError("integrity", (e as Error).message);
    }
    if (plain.length % HASH_BYTES !== 0) throw new StoreError("integrity", `${label(m[1])} is malformed (not whole ${HASH_BYTES}-byte hashes)`);
    const hashes: number[] = [];
    for (let i = 0; i < plain.length; i += HASH_BYTES) hashes.push(plain.readUIntBE(i, HASH_BYTES));
    into.addKeyed(hashes);
    seen.add(m[1]);
  }
}

/** Modification time of the fingerprints directory (a new file changes it); undefined when there is none. */
export function fingerprintsMtime(store: SealedStore): bigint | undefined {
  return statSync(store.layout.fingerprints, { bigint: true, throwIfNoEntry: false })?.mtimeNs;
}

/** Every fingerprint of `store`, for a one-shot command's check of its outward text. */
export function storeFingerprints(store: SealedStore): MessageFingerprints {
  const fp = new MessageFingerprints();
  readMessageFingerprints(store, fp, new Set());
  return fp;
}
