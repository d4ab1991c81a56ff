// `npm run mcpb`: stages the built bundle with a minimal package.json, the synthetic example, the icon and the docs the
// manifest points at, writes mcpb/manifest.json with the package version, validates it with the mcpb tool and
// packs dist/evidence-bridge-<version>.mcpb. Run after `npm run build` (the npm script does both).
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const pkg = JSON.parse(readFileSync("package.json", "utf8"));
const stage = "dist/mcpb-stage";
const out = `dist/${pkg.name}-${pkg.version}.mcpb`;
if (!existsSync("dist/bundle/bin.js")) {
  process.stderr.write("mcpb: dist/bundle/bin.js is missing; run npm run build first\n");
  process.exit(2);
}
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, "dist"), { recursive: true });
cpSync("dist/bundle", join(stage, "dist/bundle"), { recursive: true });
cpSync("examples/synthetic", join(stage, "examples/synthetic"), { recursive: true });
for (const f of ["README.md", "SECURITY.md", "LICENSE"]) cpSync(f, join(stage, f));
cpSync("mcpb/icon.png", join(stage, "icon.png")); // drawn by scripts/make-icon.mjs
// The bundle finds its root and version through a package.json named evidence-bridge; ESM needs "type": "module".
writeFileSync(join(stage, "package.json"), `${JSON.stringify({ name: pkg.name, version: pkg.version, type: "module", license: pkg.license }, null, 2)}\n`);
const manifest = JSON.parse(readFileSync("mcpb/manifest.json", "utf8"));
manifest.version = pkg.version;
writeFileSync(join(stage, "manifest.json"), `${JSON.stringify(manifest, null, 2)}\n`);

const mcpb = join("node_modules", "@anthropic-ai", "mcpb", "dist", "cli", "cli.js");
for (const args of [["validate", join(stage, "manifest.json")], ["pack", stage, out]]) {
  const r = spawnSync(process.execPath, [mcpb, ...args], { stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) {
    process.stderr.write(`mcpb: '${args[0]}' failed\n`);
    process.exit(r.status ?? 2);
  }
}
process.stdout.write(`${out}\n`);
