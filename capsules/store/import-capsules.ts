/**
 * `capsule import`: capsules received from elsewhere are read (bounded), opened through the pipeline (strictly loaded
 * and verified with our verifier once: capsules/pipeline/open.ts), and only then sealed into the store, as opened. All files are checked before anything is written, so one
 * file that is not JSON, does not verify, or conflicts with a stored capsule refuses the whole call, names
 * that file, and leaves the disk unchanged.
 */
import { readRegularFile } from "../../src/crypto/safe-read.js";
import { CapsuleLoadError } from "../capsule/load.js";
import { CAPSULE_MAX_BYTES } from "../capsule/limits.js";
import { openVerifiedCapsule, type LoadedCapsule } from "../pipeline/open.js";
import type { PutResult, SealedStore } from "./store.js";

export class ImportError extends Error {
  override readonly name = "ImportError";
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
  }
}

export interface ImportCandidate {
  file: string;
  /** The capsule as opened and verified (proof `verified`). */
  capsule: LoadedCapsule;
}

export interface ImportOptions {
  /** Directory that path artifacts are confined to (passed to the verifier). */
  artifactRoot?: string;
}

/** A capsule file's bytes through the safe reader; throws {@link ImportError} naming the file and what it is. */
export function readImportBytes(file: string): Uint8Array {
  try {
    return readRegularFile(file, { maxBytes: CAPSULE_MAX_BYTES, label: "it" });
  } catch (e) {
    if ((e as { code?: string }).code === "too-large") throw new ImportError(file, "capsule exceeds the v1 byte limit");
    if ((e as { code?: string }).code === "missing") throw new ImportError(file, "capsule cannot be read: ENOENT");
    throw new ImportError(file, `capsule cannot be read: ${(e as Error).message}`);
  }
}

/** Reads, loads and verifies one capsule file; throws {@link ImportError} naming the file. */
export function readImportCandidate(file: string, opts: ImportOptions = {}): ImportCandidate {
  return importCandidateOf(file, readImportBytes(file), opts);
}

/** Loads and verifies capsule bytes read from `file` (a name for messages: `-` for stdin); throws {@link ImportError}. */
export function importCandidateOf(file: string, bytes: Uint8Array, opts: ImportOptions = {}): ImportCandidate {
  let opened;
  try {
    opened = openVerifiedCapsule(bytes, { artifactRoot: opts.artifactRoot });
  } catch (e) {
    if (e instanceof CapsuleLoadError) throw new ImportError(file, `not a capsule file: ${e.message}`);
    throw e;
  }
  if (opened.capsule === undefined) {
    throw new ImportError(file, `capsule does not verify: ${opened.report.errors.join("; ") || "see 'evidence-bridge capsule verify'"}`);
  }
  return { file, capsule: opened.capsule };
}

/**
 * Checks candidates against each other and the store (same id with different bytes is refused), then seals
 * them all. Returns one result per distinct capsule, in input order.
 */
export function importCandidates(
  store: SealedStore,
  candidates: readonly ImportCandidate[],
  onProgress?: (done: number, total: number) => void,
): (PutResult & { file: string })[] {
  const unique = new Map<string, ImportCandidate>();
  for (const c of candidates) {
    const seen = unique.get(c.capsule.id);
    if (seen === undefined) unique.set(c.capsule.id, c);
    else if (Buffer.compare(Buffer.from(seen.capsule.bytes), Buffer.from(c.capsule.bytes)) !== 0) {
      throw new ImportError(c.file, `capsule ${c.capsule.id} has different bytes than ${seen.file} (same content_sha256)`);
    }
  }
  for (const c of unique.values()) {
    // A stored copy is compared as authenticated bytes: equal bytes are the capsule just verified, so no parse.
    if (store.hasCapsule(c.capsule.id) && Buffer.compare(Buffer.from(store.readSealedCapsuleBytes(c.capsule.id)), Buffer.from(c.capsule.bytes)) !== 0) {
      throw new ImportError(c.file, `capsule ${c.capsule.id} is already stored with different bytes; the stored copy is kept`);
    }
  }
  const list = [...unique.values()];
  const out: (PutResult & { file: string })[] = [];
  const BATCH = 64;
  for (let i = 0; i < list.length; i += BATCH) {
    const batch = list.slice(i, i + BATCH);
    const results = store.putCapsules(batch.map((c) => c.capsule));
    results.forEach((r, k) => out.push({ ...r, file: batch[k].file }));
    onProgress?.(Math.min(i + BATCH, list.length), list.length);
  }
  return out;
}
