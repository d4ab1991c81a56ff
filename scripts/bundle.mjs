// Bundles the compiled CLI into CommonJS files, one per entry point (docs/startup.md):
//   dist/bundle/bin.js                the entry: argument parsing and the command table, nothing else;
//   dist/bundle/commands/<name>.js    one self-contained file per command module (bridge/cli/commands/<name>.ts),
//                                      loaded only when its command runs, through the V8 code-cache loader
//                                      (bridge/cli/code-cache-loader.ts);
//   dist/bundle/package.json          {"type":"commonjs"}, so Node runs these .js files as CommonJS.
// CommonJS, because Node 20 starts a CommonJS entry without the ESM loader and its URL resolution, and because
// `vm.Script` cachedData (Node 20's only code cache for user code) compiles scripts, not ES modules. Lazy imports
// inside a command stay lazy: esbuild turns them into initialisers that run on first use.
import { build } from "esbuild";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { isAscii } from "node:buffer";
import { resolve } from "node:path";

const OUT = "dist/bundle";

/** In the bin, the command loader is the bundle's own (bridge/cli/bundled-command-modules.ts). */
const bundledCommandModules = {
  name: "bundled-command-modules",
  setup(b) {
    b.onResolve({ filter: /^\.\/command-modules\.js$/ }, (args) => ({ path: resolve(args.resolveDir, "bundled-command-modules.js") }));
  },
};

const common = {
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  packages: "bundle",
  // Smaller files read, hash and parse faster; names are kept for error types and stack-free messages alike.
  charset: "ascii", // the code-cache loader decodes ASCII files the fast way
  minify: true,
  keepNames: true,
  // import.meta under CommonJS: the directory is __dirname (bridge/package-info.ts); any use of import.meta.url
  // gets the file's URL, computed when first read.
  define: { "import.meta.dirname": "__dirname", "import.meta.url": "__ebImportMeta.url" },
  inject: ["scripts/bundle-import-meta.cjs"],
  legalComments: "none",
  logLevel: "warning",
};

mkdirSync(OUT, { recursive: true });
writeFileSync(`${OUT}/package.json`, '{ "type": "commonjs" }\n');
await build({ ...common, entryPoints: { bin: "dist/bridge/cli/bin.js" }, outdir: OUT, plugins: [bundledCommandModules] });
const commands = readdirSync("dist/bridge/cli/commands").filter((f) => f.endsWith(".js"));
await build({ ...common, entryPoints: commands.map((f) => `dist/bridge/cli/commands/${f}`), outdir: `${OUT}/commands` });

// Every file must be ASCII: the code-cache loader reads ASCII as latin1, the fast way, and V8 keeps a one-byte
// source. esbuild's `charset: "ascii"` escapes strings but leaves a regular expression literal's characters as
// written, and nine bytes of CJK punctuation in one pattern made every command file take the slow UTF-8 path
// (~10 ms more per start for `capsule assess`, ~20 ms for `serve`). Write such characters as `\uXXXX` escapes.
for (const file of [`${OUT}/bin.js`, ...commands.map((f) => `${OUT}/commands/${f}`)]) {
  const bytes = readFileSync(file);
  if (!isAscii(bytes)) {
    const at = bytes.findIndex((b) => b >= 0x80);
    const line = bytes.subarray(0, at).toString("latin1").split("\n").length;
    throw new Error(`${file}: byte ${at} (line ${line}) is not ASCII; escape the character in the source (\\uXXXX)`);
  }
}
