/**
 * Most test files share a worker process with the files run before them (vitest.config.ts, `isolate: false`).
 * That is only sound while no file depends on a fresh process: no shared file may replace a module (`vi.mock` and
 * friends take effect for the whole module graph), and the leak guard that runs around every file must see each
 * kind of change a test could leave behind.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { ISOLATED_FILES, LONG_FILES } from "../vitest.config.js";
import { changedState, stateSnapshot } from "./helpers/leak-guard.js";
import { repoRoot } from "./helpers/shared.js";

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name);
    if (e.isDirectory()) return testFiles(full);
    return e.name.endsWith(".test.ts") ? [relative(repoRoot, full)] : [];
  });
}

/** Calls whose effect outlives the file that makes them when the worker's module graph is shared. */
const MODULE_GRAPH_CALLS = /\bvi\s*\.\s*(mock|doMock|unmock|doUnmock|resetModules|hoisted|stubGlobal|stubEnv)\s*\(/;

describe("test files that share a worker", () => {
  const all = testFiles(join(repoRoot, "test"));

  it("list every isolated file that exists, and only those; the long files started first exist too", () => {
    for (const f of ISOLATED_FILES) expect(all, f).toContain(f);
    for (const f of LONG_FILES) expect(all, f).toContain(f);
  });

  it("never replace a module or stub a global through vitest (those files are listed in ISOLATED_FILES)", () => {
    const shared = all.filter((f) => !ISOLATED_FILES.includes(f) && f !== "test/vitest-isolation.test.ts");
    expect(shared.length).toBeGreaterThan(150);
    const offenders = shared.filter((f) => MODULE_GRAPH_CALLS.test(readFileSync(join(repoRoot, f), "utf8")));
    expect(offenders).toEqual([]);
    // The isolated files are there for a reason: each still needs its own process.
    for (const f of ISOLATED_FILES) expect(readFileSync(join(repoRoot, f), "utf8"), f).toMatch(MODULE_GRAPH_CALLS);
  });
});

describe("the leak guard run around every test file", () => {
  it("sees nothing changed when nothing was", () => {
    expect(changedState(stateSnapshot(), stateSnapshot())).toEqual([]);
  });

  it("names each kind of change a test could leave behind", () => {
    const cases: [string, () => () => void][] = [
      ["process.env", () => ((process.env.EB_LEAK_GUARD_PROBE = "1"), () => delete process.env.EB_LEAK_GUARD_PROBE)],
      ["process.umask()", () => { const old = process.umask(0o077); return () => process.umask(old); }],
      ["process.cwd()", () => { const old = process.cwd(); process.chdir(repoRoot === "/" ? "/tmp" : "/"); return () => process.chdir(old); }],
      ["globalThis.fetch", () => { const old = globalThis.fetch; globalThis.fetch = (async () => new Response("")) as typeof fetch; return () => (globalThis.fetch = old); }],
      ["globalThis.ebLeakGuardProbe", () => { (globalThis as Record<string, unknown>).ebLeakGuardProbe = 1; return () => delete (globalThis as Record<string, unknown>).ebLeakGuardProbe; }],
      ["process.stdout.write", () => { const old = process.stdout.write; process.stdout.write = (() => true) as typeof process.stdout.write; return () => (process.stdout.write = old); }],
      ["process listeners 'exit'", () => { const f = () => {}; process.on("exit", f); return () => process.off("exit", f); }],
      ["process.exitCode", () => { const old = process.exitCode; process.exitCode = 3; return () => (process.exitCode = old); }],
    ];
    for (const [name, change] of cases) {
      const before = stateSnapshot();
      const undo = change();
      try {
        const changed = changedState(before, stateSnapshot());
        expect(changed).toContain(name);
        expect(changed.length, changed.join("; ")).toBeLessThanOrEqual(2);
      } finally {
        undo();
      }
      expect(changedState(before, stateSnapshot()), `${name} restored`).toEqual([]);
    }
  });
});
