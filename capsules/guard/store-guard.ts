/**
 * The outward guard of a process over its whole store (product.md §8 rule 6, §9): the private values of every
 * stored capsule, read once per capsule and kept in memory for the life of the process (never written anywhere),
 * plus the raw message texts this process was given. {@link StoreGuard.refresh} reads capsules stored since the
 * last refresh (by any process); a store that cannot be read makes the refresh fail, and callers refuse.
 */
import { statSync } from "node:fs";
import type { JsonObject } from "../../src/json/value.js";
import type { StoredDerivations } from "../pipeline/stored.js";
import type { SealedStore } from "../store/store.js";
import { OutwardGuard, type ValueGroup } from "./outward-guard.js";
import { fingerprintsMtime, readMessageFingerprints, recordMessageFingerprint, storeFingerprintKey, storeFingerprints } from "../store/message-fingerprints.js";
import { MessageFingerprints } from "./message-shingles.js";
import { capsulePrivateValues, messageTextValue, type PrivateValue } from "./private-values.js";

export type GuardReadiness = { ok: true } | { ok: false; reason: string };

export class StoreGuard {
  readonly guard = new OutwardGuard();
  /** Fingerprints of every message recorded in the store, and of the texts of this process (message-shingles.ts). */
  readonly fingerprints = new MessageFingerprints();
  private readonly known = new Map<string, readonly PrivateValue[]>();
  private readonly texts = new Set<string>();
  /** Texts of this process whose fingerprint is not in the store yet (written at the next refresh). */
  private readonly unwritten = new Set<string>();
  private readonly fingerprintFiles = new Set<string>();
  /** Modification time of the capsules directory at the last complete refresh (a new capsule changes it). */
  private seenMtimeNs: bigint | undefined;
  private seenFingerprintsMtimeNs: bigint | undefined;

  constructor() {
    this.guard.fingerprints = this.fingerprints;
  }

  /** Adds the values of a capsule just stored, so no later check can miss them. */
  remember(id: string, envelope: JsonObject): void {
    if (this.known.has(id)) return;
    const values = capsulePrivateValues(envelope);
    this.known.set(id, values);
    this.guard.add(values);
  }

  /** Adds the values of capsule `id` as its derivation holds them (capsules/pipeline/stored.ts). */
  rememberValues(id: string, values: readonly PrivateValue[]): void {
    if (this.known.has(id)) return;
    this.known.set(id, values);
    this.guard.add(values);
  }

  /**
   * Adds a raw message text this process was given: to the guard (its lines and sentences, memory only) and to the
   * fingerprints (its shingles in memory; sealed into the store by {@link writeFingerprints}, so later processes
   * know it too).
   */
  rememberText(text: string): void {
    if (text === "" || this.texts.has(text)) return;
    this.texts.add(text);
    this.guard.add([messageTextValue(text)]);
    this.fingerprints.addText(text);
    this.unwritten.add(text);
  }

  /** Seals the fingerprints of the texts of this process not written yet into `store`. Store errors propagate. */
  writeFingerprints(store: SealedStore): void {
    for (const text of this.unwritten) {
      this.fingerprints.useKey(storeFingerprintKey(store));
      this.fingerprints.addKeyed(recordMessageFingerprint(store, text));
      this.unwritten.delete(text);
    }
  }

  /** Reads every capsule and message fingerprint of `store` not read yet (after writing this process's). Store errors propagate. */
  refreshFrom(store: SealedStore): void {
    this.writeFingerprints(store);
    const fpMtime = fingerprintsMtime(store);
    if (fpMtime === undefined || fpMtime !== this.seenFingerprintsMtimeNs) {
      readMessageFingerprints(store, this.fingerprints, this.fingerprintFiles);
      this.seenFingerprintsMtimeNs = fpMtime;
    }
    // Read before listing: a capsule linked in after this stat changes the time again and is read next time.
    const mtime = statSync(store.layout.capsules, { bigint: true, throwIfNoEntry: false })?.mtimeNs;
    if (mtime !== undefined && mtime === this.seenMtimeNs) return;
    for (const id of store.capsuleIds()) {
      if (this.known.has(id)) continue;
      this.remember(id, store.openCapsule(id).envelope);
    }
    this.seenMtimeNs = mtime;
  }

  /** {@link refreshFrom} for an optional store, as a readiness verdict that never throws. */
  async refresh(store: () => Promise<SealedStore | undefined>): Promise<GuardReadiness> {
    try {
      const s = await store();
      if (s) this.refreshFrom(s);
      return { ok: true };
    } catch (e) {
      return { ok: false, reason: `the private store cannot be read, so the outward guard cannot check this (${(e as Error).message})` };
    }
  }
}

/**
 * The guard over every capsule of a store, for one small outward value of a one-shot command (a review note, the
 * free text of an export's decisions): a guard over only the stored values that may occur in `outward` (outward-guard.ts `valuesThatMayOccur`), so checking
 * `outward`, or any part of it, gives the verdict of the guard over the whole store without indexing every stored
 * value. Store errors propagate.
 */
export function storeGuardFor(store: SealedStore | undefined, derivations: StoredDerivations | undefined, outward: unknown): OutwardGuard {
  if (store === undefined) return new OutwardGuard();
  const groups: ValueGroup[] = [];
  const ids = store.capsuleIds();
  if (derivations === undefined) for (const id of ids) groups.push({ values: capsulePrivateValues(store.openCapsule(id).envelope) });
  else {
    // Every capsule's values first (opening, unsealing, parsing where the cache has no row), then the probes the
    // rows lack, in one run of the guard's own code and tables.
    for (const id of ids) derivations.values(id);
    for (const id of ids) {
      const v = derivations.probedValues(id);
      groups.push({ values: v.storeValues, probe: v.probe });
    }
  }
  const guard = OutwardGuard.narrowed(groups, outward);
  // Every message fingerprint of the store (message-shingles.ts): a note quoting a recorded message is refused.
  guard.fingerprints = storeFingerprints(store);
  return guard;
}
