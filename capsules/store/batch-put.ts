/**
 * Storing many capsules at once (`SealedStore.putCapsules` for a large batch, the scale bench's store): the same
 * sealed files and receipts as one put, written by the same crash-safe steps, but with the batch's syncs issued
 * together. Each capsule and receipt is staged in a temporary file (mode 0600, O_EXCL), every staged file's data is
 * synced — all of them at once on the thread pool, so the file system's journal commits them together instead of
 * once per file — and only then is each linked (capsule, never replacing a file) or renamed (receipt) into place,
 * followed by one directory sync. A crash at any instant leaves either no file or the complete, synced file under
 * its final name, plus ciphertext temporaries the next opening removes: exactly the one-put guarantee.
 */
import { open } from "node:fs/promises";
import { join } from "node:path";
import { fsyncDir, linkNoReplace, removeQuietly, renameInto, stageFile } from "../../src/crypto/safe-write.js";
import { SafeWriteError } from "../../src/crypto/errors.js";
import { SealKind, seal } from "../../src/crypto/seal.js";
import { errno } from "../../src/errno.js";
import { StoreError } from "./errors.js";
import { capsuleLabel, RECEIPT_SUFFIX, SEALED_SUFFIX } from "./layout.js";
import { makeReceipt } from "./receipts.js";
import { checkStorable, type PutResult, type SealedStore, type StorableCapsule } from "./store.js";

/** Staged files synced at once (the thread pool runs four at a time; the rest queue, still one journal commit). */
const SYNC_WIDTH = 64;

async function syncData(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, "r");
    await handle.datasync();
  } catch (e) {
    throw new SafeWriteError(`cannot sync a temporary file ${path}: ${errno(e) ?? (e as Error).message}`, errno(e));
  } finally {
    await handle?.close();
  }
}

/** Syncs every path's data, `SYNC_WIDTH` at a time. */
async function syncAll(paths: readonly string[]): Promise<void> {
  for (let i = 0; i < paths.length; i += SYNC_WIDTH) await Promise.all(paths.slice(i, i + SYNC_WIDTH).map(syncData));
}

/**
 * Seals and stores `items` as {@link SealedStore.putCapsules} does (same files, same conflict rule, same `afterPut`),
 * with the batch's data syncs issued together and one directory sync. Stops at the first conflict (the capsules
 * before it stay stored); nothing of a capsule is under its final name before its data is synced.
 */
export async function putCapsuleBatch(store: SealedStore, items: readonly StorableCapsule[]): Promise<PutResult[]> {
  for (const item of items) checkStorable(item);
  store.prepareCapsuleDir();
  const dir = store.layout.capsules;
  const staged: { id: string; bytes: Uint8Array; capsule: string; receipt: string }[] = [];
  const results: PutResult[] = [];
  try {
    for (const { bytes, id } of items) {
      const capsule = stageFile(dir, seal(bytes, store.keys.store, SealKind.capsule, capsuleLabel(id)), false);
      staged.push({ id, bytes, capsule, receipt: "" });
      staged[staged.length - 1].receipt = stageFile(dir, makeReceipt(id, store.keys.signing), false);
    }
    await syncAll(staged.flatMap((s) => [s.capsule, s.receipt]));
    for (const { id, bytes, capsule, receipt } of staged) {
      let stored: PutResult["stored"] = "new";
      if (!linkNoReplace(capsule, join(dir, `${id}${SEALED_SUFFIX}`))) {
        const kept = store.readSealedCapsuleBytes(id);
        if (Buffer.compare(Buffer.from(kept), Buffer.from(bytes)) !== 0) {
          throw new StoreError("conflict", `capsule ${id} is already stored with different bytes; the stored copy is kept`);
        }
        stored = "existing";
      }
      renameInto(receipt, join(dir, `${id}${RECEIPT_SUFFIX}`));
      results.push({ id, stored });
    }
  } finally {
    for (const s of staged) {
      removeQuietly(s.capsule);
      if (s.receipt !== "") removeQuietly(s.receipt);
    }
    if (staged.length > 0) fsyncDir(dir);
  }
  try {
    store.afterPut?.(items.slice(0, results.length));
  } catch {
    // The capsules are stored; a derivation the cache lacks is derived again when read.
  }
  return results;
}
