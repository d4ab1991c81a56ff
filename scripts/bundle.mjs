// Bundles the compiled CLI into ESM files so a one-shot command loads a few dozen modules instead of ~150.
// Command modules stay lazy: each becomes its own chunk, and shared code lands in chunks esbuild splits out.
// BUNDLE_SINGLE=1 writes one file instead (dynamic imports become lazy initialisers inside it); measured against
// the chunk graph it starts slower, because every start then parses the MCP SDK and zod too (docs/startup.md).
import { build } from "esbuild";

const single = process.env.BUNDLE_SINGLE === "1";

await build({
  entryPoints: { bin: "dist/bridge/cli/bin.js" },
  outdir: "dist/bundle",
  bundle: true,
  splitting: !single,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "bundle",
  // Some dependencies use require(); give the ESM bundle a real one.
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
  legalComments: "none",
  logLevel: "warning",
});
