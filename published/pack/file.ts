/**
 * Reading a pack file from disk with the §3.2 P1 bound (a regular file of at most 1 MiB), and locating the configured
 * pack.
 */
import { lstatSync } from "node:fs";
import { join } from "node:path";
import { readRegularFile, SafeReadError } from "../../src/crypto/safe-read.js";
import { PackError } from "./errors.js";
import { loadPack, MAX_PACK_BYTES } from "./load.js";
import type { IntelligencePack } from "./types.js";

/**
 * Reads a pack file through the safe reader (src/crypto/safe-read.ts): a regular file only (a link, FIFO, device or
 * directory is a `read` failure naming what it is, at open), larger than MAX_PACK_BYTES a `size` failure from its
 * size, before a byte is read.
 */
export function readPackBytes(file: string): Uint8Array {
  try {
    return readRegularFile(file, { maxBytes: MAX_PACK_BYTES, label: file });
  } catch (e) {
    if (e instanceof SafeReadError && e.code === "too-large") throw new PackError("pack", "size", `intelligence pack exceeds the 1 MiB limit: ${e.message}`);
    if (e instanceof SafeReadError) throw new PackError("pack", "read", `cannot read intelligence pack: ${e.message}`);
    throw e;
  }
}

/**
 * True when anything is at `path`, a dangling link included (not followed): whatever is there is then judged by
 * {@link readPackBytes}, so a link or FIFO in place of the data directory's pack is an error, never "no pack".
 */
export function presentAt(path: string): boolean {
  return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
}

/** Reads and loads a pack file. */
export function loadPackFile(file: string): IntelligencePack {
  return loadPack(readPackBytes(file));
}

/** The pack file name inside the data directory. */
export const PACK_FILE_NAME = "intelligence-pack-v1.json";

/**
 * The configured pack path (product.md §4): `--pack` / `EVIDENCE_BRIDGE_PACK` when set, else
 * `<home>/intelligence-pack-v1.json` when that file exists, else undefined.
 */
export function configuredPackPath(config: { home: string; packFile: string | undefined }): string | undefined {
  if (config.packFile !== undefined) return config.packFile;
  const inHome = join(config.home, PACK_FILE_NAME);
  return presentAt(inHome) ? inHome : undefined;
}

/** Loads the configured pack; a clear `not-configured` error when there is none. */
export function loadConfiguredPack(config: { home: string; packFile: string | undefined }): { file: string; pack: IntelligencePack } {
  const file = configuredPackPath(config);
  if (file === undefined) {
    throw new PackError(
      "pack",
      "not-configured",
      `no intelligence pack configured: pass --pack FILE or set EVIDENCE_BRIDGE_PACK, or place ${PACK_FILE_NAME} in ${config.home}`,
    );
  }
  return { file, pack: loadPackFile(file) };
}
