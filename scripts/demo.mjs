// `npm run demo`: builds only when the bundle is missing or older than a source file, then runs `demo` with the
// arguments given after `--` (e.g. `npm run demo -- --keep`).
import { spawnSync } from "node:child_process";
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";

const BUNDLE = "dist/bundle/bin.js";
const SOURCES = ["src", "published", "capsules", "bridge", "scripts/bundle.mjs", "package.json", "package-lock.json", "tsconfig.json"];

/** Newest modification time under a file or directory (0 when absent). */
function newest(path) {
  let st;
  try {
    st = statSync(path);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let max = st.mtimeMs;
  for (const name of readdirSync(path)) max = Math.max(max, newest(join(path, name)));
  return max;
}

let built = 0;
try {
  built = statSync(BUNDLE).mtimeMs;
} catch {
  built = 0;
}
const sources = Math.max(...SOURCES.map(newest));
if (built === 0 || sources > built) {
  process.stderr.write(built === 0 ? "demo: building (no build yet)\n" : "demo: building (sources changed since the last build)\n");
  const r = spawnSync("npm", ["run", "build", "--silent"], { stdio: "inherit", shell: process.platform === "win32" });
  if (r.status !== 0) process.exit(r.status ?? 2);
}
const r = spawnSync(process.execPath, [BUNDLE, "demo", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(r.status ?? 2);
