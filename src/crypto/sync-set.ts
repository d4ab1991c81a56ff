/**
 * Syncs that carry no order among themselves, and the durable writes made of them (docs/store.md "Syncs").
 *
 * A crash-safe write (safe-write.ts) orders its steps: a file's data is synced before the file is linked into place,
 * and a directory is synced after the names in it changed and before anything that relies on them. Between two such
 * barriers the syncs are independent: the data of several staged files, or several changed directories. A
 * {@link SyncSet} is one such group. A durable write is written as steps ({@link DurableSteps}: a generator that
 * yields each set it needs completed before it goes on), and run either
 *
 * - {@link runDurableSync}: every sync one after another, synchronously (library callers that cannot await);
 * - {@link runDurable}: the syncs of each set at once, on libuv's thread pool. The file system then commits them
 *   together (ext4's journal commits all waiting syncs in one transaction), so a set costs about one sync's wait
 *   instead of one per file. Each set still completes before the next step runs: the order of barriers is the same.
 *
 * Every staged file's descriptor is closed by the set that syncs it, whether the sync succeeds or not.
 */
import { closeSync, constants, fdatasync, fdatasyncSync, fsync, fsyncSync, openSync } from "node:fs";
import { SafeWriteError } from "./errors.js";
import { closeStaged, type StagedFile } from "./safe-write.js";
import { errno } from "../errno.js";

/** Syncs with no order among them: staged files' data (fdatasync) and directories' entries (fsync). */
export interface SyncSet {
  files?: readonly StagedFile[];
  dirs?: readonly string[];
}

/** A durable write: yields each {@link SyncSet} that must complete before its next step; returns its result. */
export type DurableSteps<T> = Generator<SyncSet, T, void>;

function fail(e: unknown, what: string, path: string): SafeWriteError {
  return new SafeWriteError(`cannot ${what} ${path}: ${errno(e) ?? (e as Error).message}`, errno(e));
}

/** Directory fsync is refused by some file systems; a rename or link is still atomic there. */
function dirSyncRefused(e: unknown): boolean {
  return errno(e) === "EINVAL" || errno(e) === "ENOTSUP";
}

function openDir(dir: string): number {
  try {
    return openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY);
  } catch (e) {
    throw fail(e, "open directory", `${dir} to sync it`);
  }
}

function closeAll(files: readonly StagedFile[]): void {
  for (const f of files) closeStaged(f);
}

/** Unique directories, in first-seen order. */
function dirsOf(set: SyncSet): string[] {
  return [...new Set(set.dirs ?? [])];
}

/** Runs the syncs of `set` one after another. */
export function syncSetSync(set: SyncSet): void {
  const files = set.files ?? [];
  try {
    for (const f of files) {
      try {
        fdatasyncSync(f.fd);
      } catch (e) {
        throw fail(e, "write a temporary file in", f.dir);
      }
    }
  } finally {
    closeAll(files);
  }
  for (const dir of dirsOf(set)) {
    const fd = openDir(dir);
    try {
      fsyncSync(fd);
    } catch (e) {
      if (!dirSyncRefused(e)) throw fail(e, "sync directory", dir);
    } finally {
      closeSync(fd);
    }
  }
}

function promised(run: (cb: (e: NodeJS.ErrnoException | null) => void) => void): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => run((e) => resolve(e)));
}

/** Runs the syncs of `set` at once and waits for all of them; the first failure is thrown after all finished. */
export async function syncSet(set: SyncSet): Promise<void> {
  const files = set.files ?? [];
  const dirs = dirsOf(set);
  const dirFds: { dir: string; fd: number }[] = [];
  let opening: SafeWriteError | undefined;
  for (const dir of dirs) {
    try {
      dirFds.push({ dir, fd: openDir(dir) });
    } catch (e) {
      opening = e as SafeWriteError;
      break;
    }
  }
  const results = await Promise.all([
    ...files.map((f) => promised((cb) => fdatasync(f.fd, cb)).then((e) => (e ? fail(e, "write a temporary file in", f.dir) : undefined))),
    ...(opening === undefined ? dirFds : []).map(({ dir, fd }) =>
      promised((cb) => fsync(fd, cb)).then((e) => (e && !dirSyncRefused(e) ? fail(e, "sync directory", dir) : undefined)),
    ),
  ]);
  closeAll(files);
  for (const { fd } of dirFds) closeSync(fd);
  const failed = opening ?? results.find((r) => r !== undefined);
  if (failed !== undefined) throw failed;
}

/** Runs `steps` with every sync one after another. */
export function runDurableSync<T>(steps: DurableSteps<T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    try {
      syncSetSync(next.value);
    } catch (e) {
      steps.throw(e); // lets the steps clean up (their finally blocks), then rethrows
      throw e;
    }
  }
}

/** Runs `steps` with the syncs of each set at once (see the module comment). */
export async function runDurable<T>(steps: DurableSteps<T>): Promise<T> {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    try {
      await syncSet(next.value);
    } catch (e) {
      steps.throw(e);
      throw e;
    }
  }
}
