/**
 * Where this installation lives and which version it is: found by walking up from the running module to the
 * directory whose package.json names evidence-bridge. Works from source (tsx), from dist/ and from the bundle.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";

let cached: { root: string; version: string } | undefined;

function find(): { root: string; version: string } {
  if (cached) return cached;
  // The ESM build (tsc, tsx, vitest) has import.meta.dirname; the CommonJS bundle maps it to __dirname
  // (scripts/bundle.mjs), which also spares every command loading node:url for this.
  let dir = import.meta.dirname;
  for (let i = 0; i < 6; i++) {
    const file = join(dir, "package.json");
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, "utf8")) as { name?: unknown; version?: unknown };
        if (pkg.name === "evidence-bridge" && typeof pkg.version === "string") {
          cached = { root: dir, version: pkg.version };
          return cached;
        }
      } catch {
        // an unreadable or foreign package.json: keep walking up
      }
    }
    dir = dirname(dir);
  }
  throw new Error("cannot find the evidence-bridge package.json above the running module");
}

/** The package root directory (holds package.json, examples/, schemas/). */
export function packageRoot(): string {
  return find().root;
}

/** The package version from package.json. */
export function packageVersion(): string {
  return find().version;
}
