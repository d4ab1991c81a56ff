/**
 * The type-check of every source, test, bench and script file (tsconfig.test.json). `npm test` transpiles with
 * esbuild, which checks no types (scripts/transpile.mjs), and runs this file first, beside the other tests, so one
 * core type-checks while the other runs tests: a type error anywhere fails `npm test` here, naming file and line.
 */
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { expect, test } from "vitest";
import { repoRoot } from "./helpers/shared.js";

test("tsc -p tsconfig.test.json finds no type error", { timeout: 600_000 }, () => {
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const r = spawnSync(process.execPath, [tsc, "-p", "tsconfig.test.json", "--noEmit", "--pretty", "false"], { cwd: repoRoot, encoding: "utf8" });
  expect(r.error).toBeUndefined();
  // On failure the whole of tsc's output, one error a line, is the message.
  expect(r.status, r.stdout + r.stderr).toBe(0);
  expect(r.stdout + r.stderr).toBe("");
});
