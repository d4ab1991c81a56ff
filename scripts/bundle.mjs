// Bundles the compiled CLI into a few ESM files so a one-shot command loads a handful of modules instead of
// ~150 (module resolution dominates cold start). Command modules stay lazy: each becomes its own chunk.
// Files loaded by URL at run time (worker scripts) are extra entry points, named as the code expects them.
import { existsSync } from "node:fs";
import { build } from "esbuild";

const entryPoints = { bin: "dist/bridge/cli/bin.js" };
const workers = {
};
for (const [name, file] of Object.entries(workers)) if (existsSync(file)) entryPoints[name] = file;

await build({
  entryPoints,
  outdir: "dist/bundle",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "bundle",
  // Some dependencies use require(); give the ESM bundle a real one.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  legalComments: "none",
  logLevel: "warning",
});
