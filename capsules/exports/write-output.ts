/**
 * Writing an export: a single file through the one writer of named files (src/output-file.ts: created atomically,
 * mode 0600; a link, FIFO, device or directory at the name refused at once; an existing file with the same bytes
 * accepted, other bytes refused), or a feed directory built under a temporary name beside the target and renamed
 * into place, so a reader never sees half a feed (an existing directory holding exactly the same files is accepted,
 * anything else refused; its files are compared without following links or waiting on FIFOs). Files 0600,
 * directories 0700.
 */
import { lstatSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileKind, readRegularFilePrefix, SafeReadError } from "../../src/crypto/safe-read.js";
import { createFileExclusive, fsyncDir } from "../../src/crypto/safe-write.js";
import { OutputFileError, writeOutputFile } from "../../src/output-file.js";
import type { FeedFile } from "./misp.js";

export class ExportWriteError extends Error {
  override readonly name = "ExportWriteError";
}

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/** Writes one file through the named-file writer (src/output-file.ts); "created" or "unchanged" (same bytes there). */
export function writeExportFile(path: string, bytes: Uint8Array): "created" | "unchanged" {
  try {
    return writeOutputFile(path, bytes);
  } catch (e) {
    if (e instanceof OutputFileError) throw new ExportWriteError(e.message);
    throw e;
  }
}

/** True when the regular file `path` (never followed, never waited on) holds exactly `bytes`. */
function sameFile(path: string, bytes: Uint8Array): boolean {
  let got: Uint8Array;
  try {
    got = readRegularFilePrefix(path, bytes.length + 1);
  } catch (e) {
    if (e instanceof SafeReadError && (e.code === "link" || e.code === "not-regular")) return false;
    throw e;
  }
  return Buffer.from(got).equals(Buffer.from(bytes));
}

function sameDirectory(dir: string, files: readonly FeedFile[]): boolean {
  const names = readdirSync(dir).sort();
  const wanted = files.map((f) => f.name).sort();
  if (names.length !== wanted.length || names.some((n, i) => n !== wanted[i])) return false;
  return files.every((f) => sameFile(join(dir, f.name), f.bytes));
}

/** Writes a feed directory; "created" or "unchanged". */
export function writeExportDirectory(dir: string, files: readonly FeedFile[]): "created" | "unchanged" {
  let exists = false;
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory()) throw new ExportWriteError(`${dir} is ${fileKind(st)}, not a directory; refusing to write the feed there`);
    exists = true;
  } catch (e) {
    if (e instanceof ExportWriteError) throw e;
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw new ExportWriteError(`cannot inspect ${dir}: ${code(e)}`);
  }
  if (exists) {
    let same: boolean;
    try {
      same = sameDirectory(dir, files);
    } catch (e) {
      throw new ExportWriteError(`${dir} exists and cannot be read: ${code(e)}`);
    }
    if (!same) throw new ExportWriteError(`${dir} already exists with other content; refusing to overwrite it (choose a new directory)`);
    return "unchanged";
  }
  const parent = dirname(dir);
  const temp = join(parent, `.tmp-${basename(dir)}-${process.pid}-${Date.now()}`);
  try {
    mkdirSync(temp, { mode: 0o700 });
    for (const f of files) createFileExclusive(temp, f.name, f.bytes, { syncDir: false });
    fsyncDir(temp);
    renameSync(temp, dir);
    fsyncDir(parent);
  } catch (e) {
    rmSync(temp, { recursive: true, force: true });
    throw new ExportWriteError(`cannot write ${dir}: ${code(e)}`);
  }
  return "created";
}
