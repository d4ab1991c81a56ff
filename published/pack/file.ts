/**
 * Reading a pack file from disk with the §3.2 P1 bound (never more than 1 MiB + 1 bytes are read), and locating the
 * configured pack.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { PackError } from "./errors.js";
import { loadPack, MAX_PACK_BYTES } from "./load.js";
import type { IntelligencePack } from "./types.js";

/** Reads at most MAX_PACK_BYTES + 1 bytes; more is a `size` failure, a read error is a `read` failure. */
export function readPackBytes(file: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    throw new PackError("pack", "read", `cannot read intelligence pack ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    // The size from fstat is only a hint for the first buffer; reading continues until EOF or the limit.
    let buf = Buffer.allocUnsafe(Math.min(fstatSync(fd).size + 1, MAX_PACK_BYTES + 1));
    let total = 0;
    for (;;) {
      if (total === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, MAX_PACK_BYTES + 1));
        buf.copy(bigger, 0, 0, total);
        buf = bigger;
      }
      const n = readSync(fd, buf, total, buf.length - total, null);
      if (n === 0) break;
      total += n;
      if (total > MAX_PACK_BYTES) throw new PackError("pack", "size", "intelligence pack exceeds the 1 MiB limit");
    }
    return buf.subarray(0, total);
  } catch (e) {
    if (e instanceof PackError) throw e;
    throw new PackError("pack", "read", `cannot read intelligence pack ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  } finally {
    closeSync(fd);
  }
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
  return existsSync(inHome) ? inHome : undefined;
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
