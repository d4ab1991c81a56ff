/** Access to `../shared` test inputs: read in place, never copied; tests skip clearly when it is absent. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe } from "vitest";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const sharedRoot = resolve(repoRoot, "../shared");
export const hasShared = existsSync(resolve(sharedRoot, "data"));

/** Absolute path of a file under ../shared. */
export function sharedPath(...parts: string[]): string {
  return resolve(sharedRoot, ...parts);
}

export function readShared(...parts: string[]): Buffer {
  return readFileSync(sharedPath(...parts));
}

/** `describe` that skips with a message naming the missing directory when ../shared is absent. */
export function describeShared(name: string, fn: () => void): void {
  if (hasShared) describe(name, fn);
  else describe.skip(`${name} (skipped: ${sharedRoot} is absent; these tests read ../shared/data in place)`, fn);
}

/** Names (`01-mule-account-rental-hinglish`) of the valid bridge examples, sorted; empty when ../shared is absent. */
export function validExampleNames(): string[] {
  if (!hasShared) return [];
  return readdirSync(sharedPath("data/bridge-examples/valid"))
    .filter((f) => /^\d\d-[a-z0-9-]+\.json$/.test(f) && !f.endsWith(".capsule.json"))
    .map((f) => f.slice(0, -".json".length))
    .sort();
}
