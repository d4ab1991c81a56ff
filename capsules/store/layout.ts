/**
 * Where the sealed store lives under the data directory (product.md §7). Directories are 0700, files 0600.
 *
 *     <home>/keys/                  key files (src/crypto/keys.ts)
 *     <home>/store/capsules/<id>.sealed    sealed capsule file, id = content_sha256
 *     <home>/store/capsules/<id>.receipt   detached Ed25519 receipt over the id
 *     <home>/store/messages/<name>.sealed  retained raw message; name = keyed hash of message_sha256
 *     <home>/store/fingerprints/<name>.sealed  keyed hashes of a message's shingles (message-fingerprints.ts)
 *     <home>/store/rows.sealed             sealed index of minimized list rows (a cache, rebuilt when stale)
 *     <home>/store/store-key-id            "store-key:<key id>" of the key the store is sealed with (store.ts)
 */
import { join } from "node:path";

export interface StoreLayout {
  home: string;
  root: string;
  capsules: string;
  messages: string;
  /** Sealed message fingerprints (message-fingerprints.ts). */
  fingerprints: string;
  /** File name of the row index inside {@link root}. */
  indexName: string;
}

export const SEALED_SUFFIX = ".sealed";
export const RECEIPT_SUFFIX = ".receipt";
export const CAPSULE_ID = /^[0-9a-f]{64}$/;
export const SEALED_CAPSULE_NAME = /^([0-9a-f]{64})\.sealed$/;

export function storeLayout(home: string): StoreLayout {
  const root = join(home, "store");
  return { home, root, capsules: join(root, "capsules"), messages: join(root, "messages"), fingerprints: join(root, "fingerprints"), indexName: "rows.sealed" };
}

/** Name a sealed capsule's bytes are authenticated under, and how errors call it (relative to the data directory). */
export function capsuleLabel(id: string): string {
  return `store/capsules/${id}${SEALED_SUFFIX}`;
}

export function messageLabel(name: string): string {
  return `store/messages/${name}${SEALED_SUFFIX}`;
}

export const INDEX_LABEL = "store/rows.sealed";
