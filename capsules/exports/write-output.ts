/**
 * Writing an export: a single file created atomically (an existing file with the same bytes is accepted, other
 * bytes refused), or a feed directory built under a temporary name beside the target and renamed into place, so
 * a reader never sees half a feed (an existing directory holding exactly the same files is accepted, anything
 * else refused). Files 0600, directories 0700.
 */
import { lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { createFileExclusive, fsyncDir } from "../../src/crypto/safe-write.js";
import type { FeedFile } from "./misp.js";

export class ExportWriteError extends Error {
  override readonly name = "ExportWriteError";
}

function code(e: unknown): string {
  return (e as NodeJS.ErrnoException).code ?? (e as Error).message;
}

/** Writes one file; "created" or "unchanged" (same bytes already there). */
export function writeExportFile(path: string, bytes: Uint8Array): "created" | "unchanged" {
  let r: "created" | "exists";
  try {
    r = createFileExclusive(dirname(path), basename(path), bytes);
  } catch (e) {
    throw new ExportWriteError(`cannot write ${path}: ${(e as Error).message}`);
  }
  if (r === "created") return "created";
  let existing: Buffer;
  try {
    if (!lstatSync(path).isFile()) throw new ExportWriteError(`${path} exists and is not a regular file; refusing to overwrite it`);
    existing = readFileSync(path);
  } catch (e) {
    if (e instanceof ExportWriteError) throw e;
    throw new ExportWriteError(`${path} exists and cannot be read: ${code(e)}`);
  }
  if (!existing.equals(bytes)) throw new ExportWriteError(`${path} already exists with different content; refusing to overwrite it`);
  return "unchanged";
}

function sameDirectory(dir: string, files: readonly FeedFile[]): boolean {
  const names = readdirSync(dir).sort();
  const wanted = files.map((f) => f.name).sort();
  if (names.length !== wanted.length || names.some((n, i) => n !== wanted[i])) return false;
  return files.every((f) => {
    const p = join(dir, f.name);
    return lstatSync(p).isFile() && readFileSync(p).equals(f.bytes);
  });
}

/** Writes a feed directory; "created" or "unchanged". */
export function writeExportDirectory(dir: string, files: readonly FeedFile[]): "created" | "unchanged" {
  let exists = false;
  try {
    const st = lstatSync(dir);
    if (!st.isDirectory()) throw new ExportWriteError(`${dir} exists and is not a directory; refusing to overwrite it`);
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
