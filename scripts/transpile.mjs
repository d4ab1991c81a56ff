// Writes dist/ for the test run: every TypeScript file that tsconfig.test.json covers, transpiled file by file to
// an ES module of the same path under dist/ (what tsc would emit, without the type-check). The type-check runs
// beside the tests instead, as its own test file (test/typecheck.test.ts), so both cores stay busy; `npm run
// build` (the release) still compiles with tsc. CONTRIBUTING.md has the figures.
import { build } from "esbuild";
import { readdirSync } from "node:fs";
import { join } from "node:path";

const ROOTS = ["src", "published", "capsules", "bridge", "bench", "test", "examples", "scripts"];

function tsFiles(dir, out = []) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) tsFiles(full, out);
    else if (e.name.endsWith(".ts") && !e.name.endsWith(".d.ts")) out.push(full);
  }
  return out;
}

await build({
  entryPoints: [...ROOTS.flatMap((r) => tsFiles(r)), "vitest.config.ts"],
  outdir: "dist",
  outbase: ".",
  bundle: false,
  format: "esm",
  platform: "node",
  target: "node20.19", // keeps import attributes (`with { type: "json" }`), which plain Node needs
  tsconfig: "tsconfig.json",
  logLevel: "warning",
});
