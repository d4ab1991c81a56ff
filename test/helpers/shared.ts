/**
 * Access to `../shared` test inputs: read in place, never copied; tests skip clearly when it is absent.
 *
 * Nothing here reads `../shared` when this module loads: paths are computed, files are read only inside tests or
 * hooks. When `../shared/data` is absent, `describeShared` does not run its body at all (a body may read the data
 * while it is collected); it registers one skipped test whose name carries SHARED_SKIP_MARK, and the reporter in
 * `test/helpers/skip-summary.ts` prints one line with how many groups were skipped and why.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** `EVIDENCE_BRIDGE_SHARED` overrides the location (a test of the skip path points it at a missing directory). */
export const sharedRoot = process.env.EVIDENCE_BRIDGE_SHARED !== undefined ? resolve(process.env.EVIDENCE_BRIDGE_SHARED) : resolve(repoRoot, "../shared");
export const hasShared = existsSync(resolve(sharedRoot, "data"));

/** Text in the name of the one skipped test that stands for a group skipped without ../shared. */
export const SHARED_SKIP_MARK = "[needs ../shared/data]";

/** Absolute path of a file under ../shared (computing it reads nothing). */
export function sharedPath(...parts: string[]): string {
  return resolve(sharedRoot, ...parts);
}

export function readShared(...parts: string[]): Buffer {
  return readFileSync(sharedPath(...parts));
}

/**
 * `describe` for tests that read ../shared/data. Without it the body is never run (so nothing reads the data at
 * collection time) and one skipped test stands for the whole group.
 */
export function describeShared(name: string, fn: () => void): void {
  if (hasShared) describe(name, fn);
  else describe(name, () => it.skip(`${SHARED_SKIP_MARK} skipped: ${sharedRoot}/data is absent`, () => {}));
}

/** Names (`01-mule-account-rental-hinglish`) of the valid bridge examples, sorted; empty when ../shared is absent. */
export function validExampleNames(): string[] {
  if (!hasShared) return [];
  return readdirSync(sharedPath("data/bridge-examples/valid"))
    .filter((f) => /^\d\d-[a-z0-9-]+\.json$/.test(f) && !f.endsWith(".capsule.json"))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}
