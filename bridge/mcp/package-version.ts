/** The evidence-bridge version, read from the package.json above this module (source tree or dist/). */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

export function packageVersion(): string {
  if (cached !== undefined) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown; version?: unknown };
      if (pkg.name === "evidence-bridge" && typeof pkg.version === "string") return (cached = pkg.version);
    } catch {
      // not here: keep walking up
    }
    dir = dirname(dir);
  }
  return (cached = "0.0.0-unknown");
}
