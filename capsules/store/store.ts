/**
 * The sealed private store (product.md §7): capsules sealed under their `content_sha256`, a detached receipt
 * beside each, optional retained raw messages, and a sealed row index for fast listing.
 *
 * Every write seals in memory and writes only ciphertext, through a temporary file that is synced and then
 * linked into place without overwriting (src/crypto/safe-write.ts), so several processes may write at once and
 * a kill at any instant leaves only complete files. Writes are idempotent: the same id with the same bytes
 * succeeds, the same id with different bytes is the documented `conflict` error. Opening a store removes
 * temporary files left by crashed processes.
 *
 * Methods are synchronous (each touches a handful of small files); opening is asynchronous because passphrase
 * mode runs scrypt. A put is also written as durable steps (src/crypto/sync-set.ts) that a one-shot command awaits
 * with the independent syncs of each step at once.
 *
 * Longer than 400 lines on purpose: the store's files (capsules, receipts, messages, the key id, the row index) share
 * one layout, one key check and one write discipline, kept in one class.
 */
import { lstatSync, readdirSync, statSync, type Stats } from "node:fs";
import { join } from "node:path";
import { assertWritableDataDir, inspectDataDir } from "../../src/crypto/data-dir.js";
import { KeyError } from "../../src/crypto/errors.js";
import { createKeys, keyLayout, loadKeys, loadOrCreateKeys, storedKeyMode, type InstallationKeys, type KeyOptions } from "../../src/crypto/keys.js";
import { pathExists } from "../../src/crypto/key-files.js";
import {
  cleanStaleTemps,
  createFileExclusive,
  discardStaged,
  ensurePrivateDir,
  linkNoReplace,
  makePrivateDir,
  removeQuietly,
  renameInto,
  stageUnsynced,
  type StagedFile,
} from "../../src/crypto/safe-write.js";
import { runDurable, runDurableSync, type DurableSteps } from "../../src/crypto/sync-set.js";
import { readRegularFile, readRegularFileIfExists, readRegularFilePrefix, SafeReadError } from "../../src/crypto/safe-read.js";
import { SEAL_OVERHEAD, SealKind, seal, sealedKeyId, unseal } from "../../src/crypto/seal.js";
import { hmacSha256Hex, sha256Hex } from "../../src/hash.js";
import { CAPSULE_MAX_BYTES } from "../capsule/limits.js";
import { BuiltCapsule } from "../pipeline/build.js";
import { LoadedCapsule } from "../pipeline/open.js";
import { checkCapsuleId as checkId, openSealedCapsule, readSealedCapsule, type OpenedCapsule } from "./open-capsule.js";
import { StoreError } from "./errors.js";
import {
  CAPSULE_ID,
  capsuleLabel,
  messageLabel,
  RECEIPT_SUFFIX,
  SEALED_CAPSULE_NAME,
  SEALED_SUFFIX,
  storeLayout,
  type StoreLayout,
} from "./layout.js";
import { checkReceiptBytes, makeReceipt, RECEIPT_MAX_BYTES, type ReceiptCheck } from "./receipts.js";
import { readRowIndex, writeRowIndex, type IndexEntry } from "./row-index.js";
import { sortRows, DEFAULT_REVIEW_STATUS, indexFacts, type CapsuleRow, type ReviewStatus } from "./rows.js";
import { errno } from "../../src/errno.js";

/** The part of the configuration (src/config.ts `Config`) the store needs. */
export interface StoreConfig {
  home: string;
  passphrase: string | undefined;
}

export type StoreOptions = Pick<KeyOptions, "kdfCost">;

/** Outcome of a put: `new` when this call stored it, `existing` when identical bytes were already stored. */
export interface PutResult {
  id: string;
  stored: "new" | "existing";
}

/** What the store seals: a capsule this process built (pipeline/build.ts) or opened and checked (pipeline/open.ts). */
export type StorableCapsule = BuiltCapsule | LoadedCapsule;

/** Retained raw messages are bounded (an assessment is ≤ 1 MiB; the message it describes is far smaller). */
export const MESSAGE_MAX_BYTES = 16 * 1024 * 1024;

const encoder = new TextEncoder();
/** The file under `store/` recording the id of the key the store is sealed with. */
export const KEY_ID_NAME = "store-key-id";
const MESSAGE_NAME_DOMAIN = encoder.encode("evidence-bridge/message-name/v1\0");

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.length), Buffer.from(b.buffer, b.byteOffset, b.length)) === 0;
}

export class SealedStore {
  readonly home: string;
  readonly layout: StoreLayout;
  readonly keys: InstallationKeys;

  /**
   * Called with the capsules a put stored (new or already there), once they are durably written: the derivation
   * cache (capsules/pipeline/stored.ts `cacheDerivationsOnPut`). Its failures never fail the put.
   */
  afterPut: ((stored: readonly StorableCapsule[]) => void) | undefined;

  constructor(home: string, keys: InstallationKeys) {
    this.home = home;
    this.layout = storeLayout(home);
    this.keys = keys;
  }

  // ---- capsules -------------------------------------------------------------------------------------------

  /**
   * Seals one capsule (a pipeline value: built and self-verified, or opened and checked; never re-parsed here) under
   * its id and writes its receipt. Throws {@link StoreError} `conflict` when different bytes are already stored under
   * the id.
   */
  putCapsule(capsule: StorableCapsule): PutResult {
    return this.putCapsules([capsule])[0];
  }

  /** Seals several capsules with one directory sync. Stops at the first conflict (earlier ones stay stored). */
  putCapsules(items: readonly StorableCapsule[]): PutResult[] {
    return runDurableSync(this.putSteps(items));
  }

  /**
   * {@link putCapsules} with the independent syncs of each step at once (src/crypto/sync-set.ts `runDurable`): what a
   * one-shot command awaits. The same steps, the same order of barriers, the same files.
   */
  putCapsulesConcurrently(items: readonly StorableCapsule[]): Promise<PutResult[]> {
    return runDurable(this.putSteps(items));
  }

  /**
   * The durable steps of a put (src/crypto/sync-set.ts). First set: the data of every sealed capsule and receipt (and
   * of `store-key-id` at the store's first seal), with the directories that gained `store/` or `capsules/`. Then each
   * capsule is linked into place (never replacing) and its receipt renamed beside it; the second set syncs
   * `capsules/` (and `store/` when `store-key-id` was linked). Nothing is linked before its data is durable, and the
   * put returns only once the names are.
   */
  *putSteps(items: readonly StorableCapsule[]): DurableSteps<PutResult[]> {
    for (const item of items) {
      // The pipeline's values are the proof that the bytes are the capsule `id` names: only they are sealed.
      if (!(item instanceof BuiltCapsule || item instanceof LoadedCapsule)) throw new TypeError("putCapsule takes a built or opened capsule (capsules/pipeline)");
      checkId(item.id, "content_sha256");
      if (item.bytes.length > CAPSULE_MAX_BYTES) throw new StoreError("too-large", `capsule ${item.id} exceeds the v1 byte limit`);
    }
    const madeDirs = this.makeDirs(this.layout.capsules);
    const dir = this.layout.capsules;
    const results: PutResult[] = [];
    const staged: StagedFile[] = [];
    const keyId = this.stageKeyId(madeDirs);
    try {
      if (keyId !== undefined) staged.push(keyId);
      const pairs = items.map(({ bytes, id }) => {
        const capsule = stageUnsynced(dir, seal(bytes, this.keys.store, SealKind.capsule, capsuleLabel(id)));
        staged.push(capsule);
        const receipt = stageUnsynced(dir, makeReceipt(id, this.keys.signing));
        staged.push(receipt);
        return { capsule, receipt };
      });
      yield { files: staged, dirs: madeDirs };
      const changedDirs: string[] = [];
      if (keyId !== undefined && this.linkKeyId(keyId)) changedDirs.push(this.layout.root);
      try {
        items.forEach(({ bytes, id }, i) => {
          let stored: PutResult["stored"] = "new";
          if (!linkNoReplace(pairs[i].capsule.path, join(dir, `${id}${SEALED_SUFFIX}`))) {
            // Equal bytes are this very capsule (already checked), so the stored copy is compared, not parsed again.
            if (!sameBytes(this.readSealedCapsuleBytes(id), bytes)) {
              throw new StoreError("conflict", `capsule ${id} is already stored with different bytes; the stored copy is kept`);
            }
            stored = "existing";
          }
          renameInto(pairs[i].receipt.path, join(dir, `${id}${RECEIPT_SUFFIX}`));
          results.push({ id, stored });
        });
      } finally {
        for (const t of staged) discardStaged(t);
        if (items.length > 0) changedDirs.push(dir);
        if (changedDirs.length > 0) yield { dirs: changedDirs };
      }
    } finally {
      for (const t of staged) discardStaged(t);
    }
    try {
      this.afterPut?.(items.slice(0, results.length));
    } catch {
      // The capsules are stored; a derivation the cache lacks is derived again when read.
    }
    return results;
  }

  /** The exact capsule file bytes stored under `id`, authenticated and checked against the id. */
  getCapsule(id: string): Uint8Array {
    return this.openCapsule(id).bytes;
  }

  /**
   * The authenticated bytes stored under `id`, NOT checked against the id: only for comparing with a capsule the
   * caller already holds as a pipeline value (equal bytes are that capsule). Anything else uses {@link openCapsule}.
   */
  readSealedCapsuleBytes(id: string): Uint8Array {
    return readSealedCapsule(this.layout.capsules, this.keys.store, id);
  }

  /** {@link getCapsule} plus the parsed envelope: the pipeline's loaded value (open-capsule.ts). */
  openCapsule(id: string): OpenedCapsule {
    return openSealedCapsule(this.layout.capsules, this.keys.store, id);
  }

  hasCapsule(id: string): boolean {
    return CAPSULE_ID.test(id) && pathExists(join(this.layout.capsules, `${id}${SEALED_SUFFIX}`));
  }

  /** Ids of every sealed capsule file, sorted. */
  capsuleIds(): string[] {
    return this.sealedCapsuleNames().map((n) => n.slice(0, 64)).sort();
  }

  /** The one stored id starting with `prefix` (at least 6 hexadecimal digits, or a full id). */
  resolveCapsuleId(prefix: string): string {
    if (!/^[0-9a-f]{6,64}$/.test(prefix)) throw new StoreError("invalid-id", "capsule id must be 6 to 64 lowercase hexadecimal digits");
    if (prefix.length === 64) {
      if (!this.hasCapsule(prefix)) throw new StoreError("not-found", `no capsule ${prefix} in the store`);
      return prefix;
    }
    const matches = this.capsuleIds().filter((id) => id.startsWith(prefix));
    if (matches.length === 0) throw new StoreError("not-found", `no stored capsule id starts with ${prefix}`);
    if (matches.length > 1) throw new StoreError("ambiguous", `${matches.length} stored capsule ids start with ${prefix}; give more digits`);
    return matches[0];
  }

  /** The receipt of a stored capsule, checked against this installation's signing key. */
  receipt(id: string): ReceiptCheck {
    checkId(id);
    const stored = this.hasCapsule(id);
    const read = this.readReceipt(id);
    return "bytes" in read ? { ...checkReceiptBytes(read.bytes, id, this.keys.signing.publicKey), stored } : { ...read, stored };
  }

  /** The receipt file's bytes, or why there are none (missing, too large, unreadable: never waited on). */
  private readReceipt(id: string): { bytes: Uint8Array } | Omit<ReceiptCheck, "stored"> {
    try {
      return { bytes: readRegularFile(join(this.layout.capsules, `${id}${RECEIPT_SUFFIX}`), { maxBytes: RECEIPT_MAX_BYTES, label: `store/capsules/${id}${RECEIPT_SUFFIX}` }) };
    } catch (e) {
      if (e instanceof SafeReadError && e.code === "missing") return { status: "missing" };
      if (e instanceof SafeReadError && e.code === "too-large") return { status: "invalid", reason: "receipt file is too large" };
      return { status: "unavailable", reason: `receipt cannot be read: ${e instanceof SafeReadError ? e.message : (errno(e) ?? (e as Error).message)}` };
    }
  }

  /**
   * What the row index remembers of a receipt found valid: this installation's signing key and the receipt file's
   * identity (inode, size, modification and change times). A receipt swapped, copied over or rewritten has another
   * inode or change time (which no ordinary tool can set back), and another signing key changes the mark too, so an
   * equal mark means the very file that verified; the index is sealed under the store key, so marks cannot be forged.
   */
  private receiptMark(st: Stats): string {
    return `${this.receiptKeyTag}:${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`;
  }

  private get receiptKeyTag(): string {
    return Buffer.from(this.keys.signing.publicKey.subarray(0, 8)).toString("hex");
  }

  /**
   * Every stored capsule's receipt checked against its capsule id and this installation's key, plus receipts
   * without a capsule: one line per problem (ids and rules only). A receipt moved or swapped to another capsule's
   * name names the wrong content_sha256 and is reported. A receipt is read and its signature verified only when
   * the file is not the one last found valid ({@link receiptMark}, remembered in the sealed row index), so a listing
   * of 10,000 capsules does not verify 10,000 signatures again. `entries`: {@link indexEntries}, when the caller
   * just read it (`capsule list` reads it once for rows and receipts).
   */
  receiptProblems(entries: ReadonlyMap<string, IndexEntry> = this.indexEntries()): string[] {
    const problems: string[] = [];
    let learned: Map<string, IndexEntry> | undefined;
    for (const [id, entry] of entries) {
      let st: Stats | undefined;
      try {
        st = lstatSync(join(this.layout.capsules, `${id}${RECEIPT_SUFFIX}`));
      } catch {
        st = undefined; // missing or unreadable: the full check below names it
      }
      const mark = st?.isFile() ? this.receiptMark(st) : undefined;
      if (mark !== undefined && entry.receipt === mark) continue;
      const read = this.readReceipt(id);
      const r = "bytes" in read ? checkReceiptBytes(read.bytes, id, this.keys.signing.publicKey) : read;
      if (r.status !== "valid") problems.push(`capsule ${id}: receipt ${r.status}${r.reason ? `: ${r.reason}` : ""}`);
      else if (mark !== undefined) (learned ??= new Map(entries)).set(id, { ...entry, receipt: mark });
    }
    if (learned !== undefined) this.saveIndex(learned);
    let names: string[] = [];
    try {
      names = readdirSync(this.layout.capsules);
    } catch {
      names = [];
    }
    for (const n of names) {
      const m = /^([0-9a-f]{64})\.receipt$/.exec(n);
      if (m && !entries.has(m[1])) problems.push(`receipt ${n}: no sealed capsule ${m[1]} beside it`);
    }
    return problems;
  }

  // ---- rows -----------------------------------------------------------------------------------------------

  /**
   * Minimized rows of every stored capsule, newest first (from {@link indexEntries}, or `entries` a caller already
   * has from it). `reviewStatus` supplies review states (default `HUMAN_REVIEW_REQUIRED`).
   */
  rows(opts: { reviewStatus?: (id: string) => ReviewStatus | undefined; entries?: ReadonlyMap<string, IndexEntry> } = {}): CapsuleRow[] {
    const status = opts.reviewStatus ?? (() => undefined);
    return sortRows([...(opts.entries ?? this.indexEntries()).values()].map((e) => e.facts)).map((f) => ({ ...f, review_status: status(f.id) ?? DEFAULT_REVIEW_STATUS }));
  }

  /**
   * The sealed row index reconciled with the directory: one entry per stored capsule. Opens only capsules the index
   * does not describe (new, changed or never indexed; every capsule once when the index is of an older format),
   * then saves the index when it changed. A capsule that fails authentication is an error naming it.
   */
  indexEntries(): ReadonlyMap<string, IndexEntry> {
    const { root, capsules, indexName } = this.layout;
    const previous = readRowIndex(root, indexName, this.keys.store);
    const next = new Map<string, IndexEntry>();
    let changed = previous === undefined;
    for (const name of this.sealedCapsuleNames()) {
      const id = name.slice(0, 64);
      let st;
      try {
        st = statSync(join(capsules, name));
      } catch (e) {
        if (errno(e) === "ENOENT") continue;
        throw e;
      }
      const old = previous?.get(id);
      if (old !== undefined && old.size === st.size && old.mtimeMs === st.mtimeMs) {
        next.set(id, old);
        continue;
      }
      const { envelope } = this.openCapsule(id);
      next.set(id, { size: st.size, mtimeMs: st.mtimeMs, ...indexFacts(id, envelope), receipt: null });
      changed = true;
    }
    if (previous !== undefined && previous.size !== next.size) changed = true;
    if (changed) this.saveIndex(next);
    return next;
  }

  private saveIndex(entries: Map<string, IndexEntry>): void {
    try {
      this.ensureDirs(this.layout.root);
      writeRowIndex(this.layout.root, this.layout.indexName, this.keys.store, entries);
    } catch (e) {
      // The index is a cache: a read-only data directory still lists (slower), it just cannot save it.
      const code = (e as { code?: string }).code;
      if (code === "EACCES" || code === "EROFS" || code === "EPERM" || e instanceof StoreError) return;
      throw e;
    }
  }

  // ---- retained messages ----------------------------------------------------------------------------------

  /** On-disk name of a retained message: a keyed hash of its SHA-256, so file names do not reveal message hashes. */
  messageName(messageSha256: string): string {
    checkId(messageSha256, "message_sha256");
    return hmacSha256Hex(this.keys.store.bytes, new Uint8Array([...MESSAGE_NAME_DOMAIN, ...encoder.encode(messageSha256)]));
  }

  /**
   * Seals the raw message text (string: UTF-8 encoded; bytes: as given) after checking that its SHA-256 equals
   * `messageSha256`. The only way raw text reaches the disk, and only sealed. Idempotent.
   */
  putMessage(text: string | Uint8Array, messageSha256: string): PutResult {
    checkId(messageSha256, "message_sha256");
    const bytes = typeof text === "string" ? encoder.encode(text) : text;
    if (bytes.length > MESSAGE_MAX_BYTES) throw new StoreError("too-large", `retained message exceeds ${MESSAGE_MAX_BYTES} bytes`);
    if (sha256Hex(bytes) !== messageSha256) throw new StoreError("mismatch", "the message text does not hash to the given message_sha256");
    this.ensureDirs(this.layout.messages);
    this.assertSealingKey();
    const name = this.messageName(messageSha256);
    const sealed = seal(bytes, this.keys.store, SealKind.message, messageLabel(name));
    if (createFileExclusive(this.layout.messages, `${name}${SEALED_SUFFIX}`, sealed) === "created") return { id: messageSha256, stored: "new" };
    this.getMessage(messageSha256); // the existing file must open and match (same hash, so same bytes)
    return { id: messageSha256, stored: "existing" };
  }

  /** The retained message bytes for `messageSha256`, authenticated and hash-checked. */
  getMessage(messageSha256: string): Uint8Array {
    const name = this.messageName(messageSha256);
    const label = messageLabel(name);
    let file: Uint8Array;
    try {
      file = readRegularFile(join(this.layout.messages, `${name}${SEALED_SUFFIX}`), { maxBytes: MESSAGE_MAX_BYTES + SEAL_OVERHEAD, label });
    } catch (e) {
      if (e instanceof SafeReadError && e.code === "missing") throw new StoreError("not-found", "no retained message for that message_sha256");
      throw new StoreError("integrity", e instanceof SafeReadError ? e.message : `${label} cannot be read: ${errno(e) ?? (e as Error).message}`);
    }
    const bytes = unseal(file, this.keys.store, SealKind.message, label);
    if (sha256Hex(bytes) !== messageSha256) throw new StoreError("integrity", `sealed message ${label} does not hash to its name`);
    return bytes;
  }

  hasMessage(messageSha256: string): boolean {
    return pathExists(join(this.layout.messages, `${this.messageName(messageSha256)}${SEALED_SUFFIX}`));
  }

  // ---- internals ------------------------------------------------------------------------------------------

  private sealingKeyChecked = false;

  private wrongKey(theirs: string): StoreError {
    const mine = this.keys.store.idHex;
    return new StoreError(
      "wrong-key",
      `this store is sealed with key store-key:${theirs}; the loaded key is store-key:${mine}: restore the store's own key (keys/), or use another data directory; nothing was sealed`,
    );
  }

  /**
   * Refuses to seal with a key other than the one this store is sealed with: the id recorded in
   * `store/store-key-id` (written at the first seal), or, in a store from before that file, the ids in the headers
   * of its sealed files. A copied-in foreign `store.key` therefore cannot add files no other command could open.
   */
  assertSealingKey(): void {
    const staged = this.stageKeyId([]);
    if (staged === undefined) return;
    runDurableSync(
      (function* (store: SealedStore): DurableSteps<void> {
        try {
          yield { files: [staged] };
          if (store.linkKeyId(staged)) yield { dirs: [store.layout.root] };
        } finally {
          discardStaged(staged);
        }
      })(this),
    );
  }

  /**
   * The checks of {@link assertSealingKey}; when the store has no `store-key-id` yet, stages it (its data not yet
   * synced) for the caller's first sync set, to be linked with {@link linkKeyId}. Undefined when nothing is to write.
   * For the durable writes that seal into this store (the put, message fingerprints); `madeDirs`: the parents whose
   * sync the caller's first set already holds (empty: `store/` is made here if absent, and synced).
   */
  stageKeyId(madeDirs: readonly string[] = []): StagedFile | undefined {
    if (this.sealingKeyChecked) return undefined;
    const mine = this.keys.store.idHex;
    const recorded = this.recordedKeyId();
    if (recorded !== undefined) {
      if (recorded !== mine) throw this.wrongKey(recorded);
      this.sealingKeyChecked = true;
      return undefined;
    }
    const other = sealedKeyIds(this.layout).find((id) => id !== mine);
    if (other !== undefined) throw this.wrongKey(other);
    if (madeDirs.length === 0) ensurePrivateDir(this.layout.root); // a put made it (its parent is in its first set)
    return stageUnsynced(this.layout.root, encoder.encode(`store-key:${mine}\n`));
  }

  /** Links the staged `store-key-id` (its data synced) without replacing; true when this call created it. */
  linkKeyId(staged: StagedFile): boolean {
    const created = linkNoReplace(staged.path, join(this.layout.root, KEY_ID_NAME));
    removeQuietly(staged.path);
    if (!created) {
      const now = this.recordedKeyId();
      if (now !== this.keys.store.idHex) throw this.wrongKey(now ?? "unknown");
    }
    this.sealingKeyChecked = true;
    return created;
  }

  /** The key id in `store/store-key-id`, undefined when absent; a malformed or hostile file is an error. */
  private recordedKeyId(): string | undefined {
    const path = join(this.layout.root, KEY_ID_NAME);
    let bytes: Uint8Array | undefined;
    try {
      bytes = readRegularFileIfExists(path, { maxBytes: 256, label: `store/${KEY_ID_NAME}` });
    } catch (e) {
      throw new StoreError("integrity", (e as Error).message);
    }
    if (bytes === undefined) return undefined;
    const m = /^store-key:([0-9a-f]{16})\n$/.exec(new TextDecoder().decode(bytes));
    if (!m) throw new StoreError("integrity", `store/${KEY_ID_NAME} is malformed (expected 'store-key:' and 16 hexadecimal digits)`);
    return m[1];
  }

  private sealedCapsuleNames(): string[] {
    try {
      return readdirSync(this.layout.capsules).filter((n) => SEALED_CAPSULE_NAME.test(n));
    } catch (e) {
      if (errno(e) === "ENOENT") return [];
      throw new StoreError("integrity", `${this.layout.capsules} cannot be listed: ${errno(e) ?? (e as Error).message}`);
    }
  }

  private ensureDirs(target: string): void {
    ensurePrivateDir(this.layout.root);
    if (target !== this.layout.root) ensurePrivateDir(target);
  }

  /**
   * {@link ensureDirs} without the syncs: returns the parent directories that gained an entry, for the caller's
   * first sync set (nothing is linked inside them before that set completed).
   */
  private makeDirs(target: string): string[] {
    const parents: string[] = [];
    if (makePrivateDir(this.layout.root)) parents.push(this.home);
    if (target !== this.layout.root && makePrivateDir(target)) parents.push(this.layout.root);
    return parents;
  }

  /** Removes temporary files left behind by crashed writers (never those of live processes). */
  cleanStaleTemps(): number {
    let n = 0;
    for (const dir of [keyLayout(this.home).dir, this.layout.root, this.layout.capsules, this.layout.messages, this.layout.fingerprints]) n += cleanStaleTemps(dir);
    return n;
  }
}

/** True when sealed capsule or message files exist (then new keys must never be created silently). */
function hasSealedFiles(layout: StoreLayout): boolean {
  for (const dir of [layout.capsules, layout.messages, layout.fingerprints]) {
    try {
      if (readdirSync(dir).some((n) => n.endsWith(SEALED_SUFFIX))) return true;
    } catch (e) {
      if (errno(e) !== "ENOENT" && errno(e) !== "ENOTDIR") throw e;
    }
  }
  return false;
}

/**
 * `keys init`: creates the installation keys. Refuses to replace keys (src/crypto/keys.ts), and refuses to create
 * keys when sealed files exist that no present key opens (the keys were lost or moved: new keys could never open
 * those files), naming the key id those files were sealed with.
 */
export async function initStoreKeys(config: StoreConfig, opts: StoreOptions = {}): Promise<InstallationKeys> {
  const layout = storeLayout(config.home);
  if (inspectDataDir(config.home) === "present" && storedKeyMode(config.home) === undefined && hasSealedFiles(layout)) {
    const ids = sealedKeyIds(layout);
    throw new KeyError(
      "missing",
      `the store in ${config.home} holds sealed files (sealed with store key ${ids.map((i) => `store-key:${i}`).join(", ") || "unknown"}) that no present key opens: restore the keys directory from your backup; new keys could never open them`,
    );
  }
  return createKeys(config.home, config.passphrase, { ...opts, allowCreate: !hasSealedFiles(layout) });
}

/** The key id in a sealed file's header (undefined when it cannot be read or is not a sealed header). */
function sealedFileKeyId(path: string): string | undefined {
  try {
    return sealedKeyId(readRegularFilePrefix(path, 20));
  } catch {
    return undefined;
  }
}

/** The store key ids recorded in the headers of the sealed capsule and message files (at most a few are read). */
function sealedKeyIds(layout: StoreLayout, limit = 16): string[] {
  const ids = new Set<string>();
  for (const dir of [layout.capsules, layout.messages, layout.fingerprints]) {
    let names: string[];
    try {
      names = readdirSync(dir).filter((n) => n.endsWith(SEALED_SUFFIX)).slice(0, limit);
    } catch {
      continue;
    }
    for (const n of names) {
      const id = sealedFileKeyId(join(dir, n));
      if (id !== undefined) ids.add(id);
    }
  }
  return [...ids].sort();
}

/** True when the store in `home` holds sealed capsule or message files. */
export function storeHoldsSealedFiles(home: string): boolean {
  return hasSealedFiles(storeLayout(home));
}

/**
 * True when `home` surely holds no store, so that {@link openStore} would throw `no-store`: the data directory is
 * absent, or neither its `keys` nor its `store` directory exists (no key file, no sealed file can be below them).
 * At most three stats that throw nothing; false means "open it to find out" (also for a `home` that is not a
 * directory, whose error {@link openStore} reports). A process that asks on every outward call (the MCP server
 * before each proxied call, docs/startup.md) pays this instead of a failed open.
 */
export function surelyNoStore(home: string): boolean {
  try {
    const dir = statSync(home, { throwIfNoEntry: false });
    if (dir === undefined) return true;
    if (!dir.isDirectory()) return false;
    return lstatSync(keyLayout(home).dir, { throwIfNoEntry: false }) === undefined && lstatSync(storeLayout(home).root, { throwIfNoEntry: false }) === undefined;
  } catch {
    return false;
  }
}

/**
 * Opens an existing store. Throws {@link StoreError} `no-store` when the data directory has no store yet,
 * and the key errors of src/crypto/keys.ts (missing or exposed key files, wrong passphrase, mode mismatch).
 */
export async function openStore(config: StoreConfig): Promise<SealedStore> {
  const layout = storeLayout(config.home);
  const noStore = () => new StoreError("no-store", `no store in ${config.home} yet: build or import a capsule, or run 'evidence-bridge keys init'`);
  if (inspectDataDir(config.home) === "absent") throw noStore();
  if (storedKeyMode(config.home) === undefined) {
    if (hasSealedFiles(layout)) {
      throw new KeyError(
        "missing",
        `the store in ${config.home} holds sealed files but its keys are missing from ${keyLayout(config.home).dir}: restore the keys directory from your backup`,
      );
    }
    if (!pathExists(keyLayout(config.home).signingKey)) throw noStore();
  }
  const store = new SealedStore(config.home, await loadKeys(config.home, config.passphrase));
  tryClean(store);
  return store;
}

/**
 * Opens the store, creating the data directory (0700) and keys on first use (what `capsule build` calls, so
 * the quick start needs no `keys init`). Refuses a data directory that is a file or is not writable.
 */
export async function openOrCreateStore(config: StoreConfig, opts: StoreOptions = {}): Promise<SealedStore> {
  const layout = storeLayout(config.home);
  if (inspectDataDir(config.home) === "present") assertWritableDataDir(config.home);
  const { keys } = await loadOrCreateKeys(config.home, config.passphrase, { kdfCost: opts.kdfCost, allowCreate: !hasSealedFiles(layout) });
  const store = new SealedStore(config.home, keys);
  tryClean(store);
  return store;
}

function tryClean(store: SealedStore): void {
  try {
    store.cleanStaleTemps();
  } catch {
    // Cleaning is best effort (for example on a read-only data directory); leftovers are ciphertext only.
  }
}
