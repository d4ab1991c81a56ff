/**
 * README.md's shape (issue 13 item 4, issue 30 item 5): every shell block is either runnable (`sh`) or an
 * illustration (`sh no-run`), and the command table names every command of the CLI. The runnable blocks themselves
 * run with the installed package in test/package/tarball.test.ts (against a temporary directory; the checkout
 * stays clean).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { COMMANDS } from "../bridge/cli/main.js";
import { repoRoot } from "./helpers/shared.js";
import { codeBlocks } from "./helpers/markdown.js";

const readme = readFileSync(join(repoRoot, "README.md"), "utf8");

describe("README.md", () => {
  const blocks = codeBlocks(readme);

  test("marks every shell block either runnable (sh) or an illustration (sh no-run)", () => {
    for (const b of blocks) expect(["sh", "sh no-run", "json", ""], `block at line ${b.line}`).toContain(b.info);
    expect(blocks.filter((b) => b.info === "sh").length).toBeGreaterThanOrEqual(5);
  });

  test("runnable blocks use only the example files 'demo --examples' writes, never a path into the checkout", () => {
    for (const b of blocks.filter((x) => x.info === "sh")) {
      expect(b.code, `block at line ${b.line}`).not.toMatch(/examples\/synthetic|test\/fixtures|dist\//);
      expect(b.code, `block at line ${b.line}`).not.toMatch(/> capsule\.json/);
    }
  });

  test("the command table names every command, by its full name", () => {
    const start = readme.indexOf("## Commands");
    const table = readme.slice(start, readme.indexOf("\n### ", start));
    const named = new Set([...table.matchAll(/`([a-z]+(?: [a-z-]+)?)[^`]*`/g)].map((m) => m[1]));
    for (const name of Object.keys(COMMANDS)) expect(named.has(name), `README command table misses '${name}'`).toBe(true);
  });

  test("no block shows the capsule JSON redirected into a file (use --out, mode 0600)", () => {
    for (const b of blocks) expect(b.code, `block at line ${b.line}`).not.toMatch(/capsule (build|assess)[^\n]*> (?!\/dev\/null)\S+/);
  });
});
