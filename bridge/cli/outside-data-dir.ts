/**
 * Plaintext written at a user's request (`capsule export --out`, `capsule build --outbox`) never goes inside the
 * data directory: the data directory holds sealed files only. Paths are compared after resolving symbolic links
 * of the longest existing ancestor, so a link pointing into the data directory is caught too.
 */
import { realpathSync } from "node:fs";
import { basename, dirname, resolve, sep } from "node:path";
import { CliError } from "./context.js";

function insideDir(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}

/** `path` with the symbolic links of its longest existing ancestor resolved. */
export function realPathOf(path: string): string {
  const abs = resolve(path);
  try {
    return realpathSync(abs);
  } catch {
    const parent = dirname(abs);
    return parent === abs ? abs : resolve(realPathOf(parent), basename(abs));
  }
}

/** Throws a {@link CliError} when `path` is the data directory `home` or lies inside it. */
export function assertOutsideDataDir(path: string, home: string, what: string): void {
  if (insideDir(realPathOf(path), realPathOf(home))) {
    throw new CliError(`${what} ${resolve(path)} is inside the data directory ${home}; plaintext copies must live elsewhere`);
  }
}
