/**
 * The ids of exported objects (issue 32): random UUIDs (version 4), minted the first time an object is exported and
 * kept in the sealed store, so a re-export names the same object with the same id while two installations exporting
 * the same example never share one (a UUIDv5 from the candidate digest did: STIX tools then read two stores'
 * objects as versions of one object).
 *
 *     <home>/store/export-ids.sealed   sealed with the store key (src/crypto/seal.ts, kind "export id registry")
 *
 * Its plaintext is canonical JSON `{"ids":{"<name>":"<uuid>",…},"schema_version":"evidence-bridge-export-ids/v1"}`.
 * A name says what the id is for and under which marking: `stix/grouping/oasis/amber+strict/<candidate digest>`.
 * The file is read strictly (another version, unknown members, a malformed UUID: an error, never a silent new set
 * of ids) and replaced atomically under a lock, so two exports at once cannot lose each other's ids (two that minted
 * an id for the same object: the second is refused and is simply run again).
 */
import { randomUUID } from "node:crypto";
import { join } from "node:path";
import { readRegularFileIfExists } from "../../src/crypto/safe-read.js";
import { ensurePrivateDir, replaceFile } from "../../src/crypto/safe-write.js";
import { seal, SealKind, unseal } from "../../src/crypto/seal.js";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject } from "../../src/json/value.js";
import { withFileLock } from "../review/lock.js";
import type { SealedStore } from "../store/store.js";

export const EXPORT_IDS_SCHEMA = "evidence-bridge-export-ids/v1";
const FILE = "export-ids.sealed";
const LABEL = `store/${FILE}`;
const MAX_BYTES = 64 * 1024 * 1024;
const UUID4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const NAME = /^[a-z0-9][a-z0-9/+:._-]{0,300}$/;

export class ExportIdsError extends Error {
  override readonly name = "ExportIdsError";
}

/** Gives each named object its id: the kept one, or a new UUIDv4 that {@link ExportIds.save} keeps. */
export interface ExportIds {
  uuid(name: string): string;
  /** Keeps the ids minted since the registry was read (no-op when none were). */
  save(): void;
}

export function exportIdsPath(store: SealedStore): string {
  return join(store.layout.root, FILE);
}

function parseIds(plain: Uint8Array): Map<string, string> {
  let v;
  try {
    v = parseStrictJson(plain);
  } catch {
    throw new ExportIdsError(`${LABEL}: not strict JSON`);
  }
  if (!isJsonObject(v) || [...v.keys()].sort().join(",") !== "ids,schema_version") throw new ExportIdsError(`${LABEL}: expected exactly the members ids, schema_version`);
  if (v.get("schema_version") !== EXPORT_IDS_SCHEMA) throw new ExportIdsError(`${LABEL}: schema_version: expected ${EXPORT_IDS_SCHEMA}`);
  const ids = v.get("ids");
  if (!isJsonObject(ids)) throw new ExportIdsError(`${LABEL}: ids: expected an object`);
  const out = new Map<string, string>();
  for (const [name, id] of ids) {
    if (!NAME.test(name)) throw new ExportIdsError(`${LABEL}: ids: a name is not of the form this build writes`);
    if (typeof id !== "string" || !UUID4.test(id)) throw new ExportIdsError(`${LABEL}: ids.${name}: expected a lowercase version 4 UUID`);
    out.set(name, id);
  }
  return out;
}

function readIds(store: SealedStore): Map<string, string> {
  const file = readRegularFileIfExists(exportIdsPath(store), { maxBytes: MAX_BYTES, label: LABEL });
  if (file === undefined) return new Map();
  return parseIds(unseal(file, store.keys.store, SealKind.exportIds, LABEL, LABEL));
}

function writeIds(store: SealedStore, ids: ReadonlyMap<string, string>): void {
  const plain = canonicalBytes({ ids: Object.fromEntries([...ids].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), schema_version: EXPORT_IDS_SCHEMA }, "export ids");
  ensurePrivateDir(store.layout.root);
  replaceFile(store.layout.root, FILE, seal(plain, store.keys.store, SealKind.exportIds, LABEL));
}

/** The store's registry (read now; an unreadable or damaged file throws {@link ExportIdsError} or SealError). */
export function storeExportIds(store: SealedStore): ExportIds {
  const ids = readIds(store);
  const minted = new Map<string, string>();
  return {
    uuid(name) {
      if (!NAME.test(name)) throw new ExportIdsError(`export id name ${JSON.stringify(name)} is not of the form this build writes`);
      const kept = ids.get(name) ?? minted.get(name);
      if (kept !== undefined) return kept;
      const id = randomUUID();
      minted.set(name, id);
      return id;
    },
    save() {
      if (minted.size === 0) return;
      // Under the lock: re-read, keep every id another export kept meanwhile (theirs win for the same name), write.
      withFileLock(`${exportIdsPath(store)}.lock`, () => {
        const now = readIds(store);
        for (const [name, id] of minted) {
          const theirs = now.get(name);
          if (theirs !== undefined && theirs !== id) throw new ExportIdsError(`another export kept an id for the same object meanwhile; export again`);
          now.set(name, id);
        }
        writeIds(store, now);
        for (const [name, id] of now) ids.set(name, id);
        minted.clear();
      });
    },
  };
}

/** Ids that live as long as the value (an export with no store: nothing to keep them in). */
export function transientExportIds(): ExportIds {
  const ids = new Map<string, string>();
  return {
    uuid(name) {
      let id = ids.get(name);
      if (id === undefined) ids.set(name, (id = randomUUID()));
      return id;
    },
    save() {},
  };
}
