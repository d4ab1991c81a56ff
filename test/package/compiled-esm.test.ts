/**
 * The compiled output (dist/, plain ES modules: tsc for `npm run bench`, esbuild for `npm test`) is what the bench
 * and some end-to-end tests run: every module of the four source roots must load in plain Node, without the tsx
 * loader or the bundler's help (a JSON package imported without `with { type: "json" }` loads under both and fails
 * here).
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, test } from "vitest";
import { repoRoot } from "../helpers/shared.js";

function jsFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) jsFiles(full, out);
    else if (e.name.endsWith(".js")) out.push(full);
  }
  return out;
}

test("every compiled module of src, published, capsules and bridge loads in plain Node", () => {
  const roots = ["src", "published", "capsules", "bridge"].map((r) => join(repoRoot, "dist", r));
  for (const r of roots) if (!existsSync(r)) throw new Error(`run npm run build first: ${r} is missing`);
  // Entry points that act when loaded (the CLI's bin) are left out: importing them would run a command.
  const files = roots.flatMap((r) => jsFiles(r)).filter((f) => !f.endsWith(join("cli", "bin.js")));
  expect(files.length).toBeGreaterThan(100);
  const script = `for (const f of ${JSON.stringify(files.map((f) => pathToFileURL(f).href))}) await import(f);`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { cwd: repoRoot, encoding: "utf8", env: { PATH: process.env.PATH ?? "" } });
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
});
