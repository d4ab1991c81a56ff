/**
 * The data directory itself (product.md §4, §7): created with mode 0700 when absent; refused when it is a
 * file, or when a command must write and it is not writable. Checks never change anything on disk.
 */
import { accessSync, chmodSync, constants, mkdirSync, statSync } from "node:fs";
import { DataDirError } from "./errors.js";
import { DIR_MODE } from "./safe-write.js";
import { errno } from "../errno.js";

/** "present", "absent", or throws when the path exists but is not a usable directory. */
export function inspectDataDir(home: string): "present" | "absent" {
  try {
    const st = statSync(home);
    if (!st.isDirectory()) throw new DataDirError(`data directory ${home} is not a directory (choose another with --home or EVIDENCE_BRIDGE_HOME)`);
    return "present";
  } catch (e) {
    if (e instanceof DataDirError) throw e;
    if (errno(e) === "ENOENT") return "absent";
    if (errno(e) === "ENOTDIR") {
      throw new DataDirError(`data directory ${home} cannot be created: a parent path is a file (choose another with --home or EVIDENCE_BRIDGE_HOME)`);
    }
    throw new DataDirError(`data directory ${home} cannot be inspected: ${errno(e) ?? (e as Error).message}`);
  }
}

/**
 * Throws unless the existing directory is writable by this process. The owner's write bit is required even for
 * root, so a directory made read-only with `chmod u-w` is refused the same way for every user.
 */
export function assertWritableDataDir(home: string): void {
  const st = statSync(home);
  let writable = true;
  try {
    accessSync(home, constants.W_OK | constants.X_OK);
  } catch {
    writable = false;
  }
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  if (uid !== undefined && st.uid === uid && (st.mode & 0o200) === 0) writable = false;
  if (!writable) throw new DataDirError(`data directory ${home} is not writable (fix its permissions, e.g. chmod 700 ${home})`);
}

/** Makes sure the data directory exists (created 0700) and is writable. */
export function prepareDataDir(home: string): void {
  if (inspectDataDir(home) === "absent") {
    try {
      mkdirSync(home, { recursive: true, mode: DIR_MODE });
      chmodSync(home, DIR_MODE);
    } catch (e) {
      throw new DataDirError(`data directory ${home} cannot be created: ${errno(e) ?? (e as Error).message}`);
    }
    return;
  }
  assertWritableDataDir(home);
}
