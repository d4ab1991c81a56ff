/**
 * How a test starts one of the project's TypeScript files as its own process. `npm test` compiles the sources
 * and the tests into dist/ before vitest runs (tsconfig.test.json), so a child process starts from the compiled
 * JavaScript: a bare `node` start instead of the tsx loader transpiling the file and everything it imports on
 * every spawn. When the compiled file is missing or older than any TypeScript source (a test file run on its own
 * after an edit), the child runs the source through tsx, as before: the result never depends on a stale build.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { repoRoot } from "./shared.js";

/** Source roots whose files a compiled script may import. */
const ROOTS = ["src", "published", "capsules", "bridge", "test"];

let newest: number | undefined;

/** The newest modification time of any `.ts` file under `dir` (also what test/bridge/mcp/compiled.ts rebuilds by). */
export function newestTsIn(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) n = Math.max(n, newestTsIn(full));
    else if (e.name.endsWith(".ts")) n = Math.max(n, statSync(full).mtimeMs);
  }
  return n;
}

/** The newest modification time of any TypeScript source, read once per test file. */
function newestSource(): number {
  newest ??= Math.max(...ROOTS.map((r) => newestTsIn(join(repoRoot, r))));
  return newest;
}

/** The compiled twin of `tsFile` (absolute path under the repository) in dist/, when it is there and current. */
export function compiledScript(tsFile: string): string | undefined {
  const js = join(repoRoot, "dist", relative(repoRoot, tsFile).replace(/\.ts$/, ".js"));
  const st = statSync(js, { throwIfNoEntry: false });
  return st !== undefined && st.mtimeMs >= newestSource() ? js : undefined;
}

/** The node arguments that run `tsFile`: its compiled twin when current, else the source through tsx. */
export function scriptArgs(tsFile: string): string[] {
  const js = compiledScript(tsFile);
  if (js !== undefined) return [js];
  if (!existsSync(tsFile)) throw new Error(`no such script: ${tsFile}`);
  return ["--import", "tsx", tsFile];
}
