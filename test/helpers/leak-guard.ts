/**
 * Test files share worker processes (vitest.config.ts: `isolate: false` outside the few files listed there), so a
 * file must leave the process as it found it. `checkNoLeakedState()`, called from the setup file before every test
 * file, records the process-wide state a test could change and, after the file's own hooks, fails the file naming
 * what it left changed: the environment, the working directory, the umask, patched globals and stream writers,
 * and process listeners. No test then depends on which files ran before it in its worker. Mocked modules are kept
 * out of shared workers by test/vitest-isolation.test.ts, which also checks that this guard sees each change.
 */
import type { EventEmitter } from "node:events";
import net from "node:net";
import { afterAll } from "vitest";

/**
 * What a library sets up once, when first loaded or used, for the life of the process (not state a test leaves
 * behind): zod's registry, the config of the zod bundled in playwright-core, and the exit handler of `tmp` (loaded
 * by @anthropic-ai/mcpb), which removes its own temporary files.
 */
const LAZY_LIBRARY_GLOBALS = new Set(["__zod_globalRegistry", "__zod_globalConfig"]);
const isLazyLibraryListener = (f: Function) => f.name === "_exit" && String(f).includes("_garbageCollector()");

/** A description of each piece of state a test may change only if it puts it back. */
export function stateSnapshot(): Map<string, unknown> {
  const s = new Map<string, unknown>();
  s.set("process.env", JSON.stringify(Object.entries(process.env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))));
  s.set("process.cwd()", process.cwd());
  const mask = process.umask(0o022);
  process.umask(mask);
  s.set("process.umask()", mask);
  for (const k of Object.keys(globalThis)) if (!LAZY_LIBRARY_GLOBALS.has(k)) s.set(`globalThis.${k}`, (globalThis as Record<string, unknown>)[k]);
  s.set("globalThis.fetch", globalThis.fetch);
  s.set("net.Socket.prototype.connect", net.Socket.prototype.connect);
  s.set("process.stdout.write", process.stdout.write);
  s.set("process.stderr.write", process.stderr.write);
  s.set("process.exit", process.exit);
  s.set("process.exitCode", process.exitCode);
  s.set("Date.now", Date.now);
  s.set("Math.random", Math.random);
  s.set("setTimeout", globalThis.setTimeout);
  for (const ev of ["exit", "uncaughtException", "unhandledRejection", "SIGINT", "SIGTERM", "warning"] as const) {
    const own = (process as EventEmitter).listeners(ev).filter((f) => !isLazyLibraryListener(f));
    s.set(`process listeners '${ev}'`, own.length);
    own.forEach((f, i) => s.set(`process listener '${ev}' #${i}`, f));
  }
  return s;
}

/** The names of the entries that differ between two snapshots. */
export function changedState(before: Map<string, unknown>, after: Map<string, unknown>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => !before.has(k) || !after.has(k) || !Object.is(before.get(k), after.get(k)));
}

/** Registers, for the test file now starting, a check that it leaves the process state as it found it. */
export function checkNoLeakedState(): void {
  const before = stateSnapshot();
  afterAll(() => {
    const changed = changedState(before, stateSnapshot());
    if (changed.length > 0) {
      throw new Error(`this test file left process-wide state changed for the next file in its worker: ${changed.join("; ")} (test/helpers/leak-guard.ts)`);
    }
  });
}
