/**
 * The compiled bridge (`dist/bridge/cli/bin.js`) for end-to-end tests: built with `tsc` when dist is missing or
 * older than any source file (`npm test` builds first, so this is for running the tests on their own).
 */
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../../helpers/shared.js";

export const BIN = join(repoRoot, "dist/bridge/cli/bin.js");
const MARKERS = [BIN, join(repoRoot, "dist/bridge/mcp/server.js"), join(repoRoot, "dist/bridge/mcp/stdio-transport.js")];

function newestSource(dir: string): number {
  let newest = 0;
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    const st = statSync(full);
    if (st.isDirectory()) newest = Math.max(newest, newestSource(full));
    else if (name.endsWith(".ts")) newest = Math.max(newest, st.mtimeMs);
  }
  return newest;
}

function stale(): boolean {
  if (!MARKERS.every(existsSync)) return true;
  const built = Math.min(...MARKERS.map((m) => statSync(m).mtimeMs));
  return ["bridge", "capsules", "src"].some((d) => newestSource(join(repoRoot, d)) > built);
}

/** Builds dist when needed. Type errors elsewhere in the tree do not stop tsc from emitting. */
export function ensureBuilt(): void {
  if (!stale()) return;
  try {
    execFileSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(repoRoot, "tsconfig.json")], { cwd: repoRoot, stdio: "pipe" });
  } catch {
    // tsc exits non-zero on any type error in the tree but still writes dist; the check below decides.
  }
  if (!MARKERS.every(existsSync)) throw new Error("the build did not produce dist/bridge/cli/bin.js");
}
