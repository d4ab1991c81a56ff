/**
 * The V8 code-cache loader of the bundle (bridge/cli/code-cache-loader.ts): a CommonJS file runs the same with and
 * without its cache, the cache is written at exit and used by the next process, only from a private directory; a
 * changed file never meets an old cache, and a damaged or linked cache file is ignored.
 *
 * Each load runs in a new Node process (V8 keeps compiled scripts in memory, so a second load in one process would
 * never read the cache). Uses the tsc output: run `npm run build` first.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { repoRoot } from "../../helpers/shared.js";

const LOADER = join(repoRoot, "dist/bridge/cli/code-cache-loader.js");
const work = mkdtempSync(join(tmpdir(), "eb-code-cache-"));
beforeAll(() => {
  if (!existsSync(LOADER)) throw new Error("run npm run build first: dist/bridge/cli/code-cache-loader.js is missing");
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
/** A fresh private cache directory and a CommonJS file in its own directory. */
function setup(source: string): { file: string; cacheDir: string } {
  const dir = join(work, `case-${n++}`);
  mkdirSync(dir);
  const cacheDir = join(dir, "cache");
  mkdirSync(cacheDir, { mode: 0o700 });
  const file = join(dir, "bundle.js");
  writeFileSync(file, source);
  return { file, cacheDir };
}

const CODE_PATH = join(repoRoot, "dist/bridge/cli/code-path.js");

/**
 * Loads `file` in a new process; its exports and what the loader did with the cache. `path`: a code path the run
 * takes (code-path.ts `coverCodePath`, as a command marks it), calling the file's `later()` on it.
 */
function load(file: string, cacheDir: string | null, path?: string): { exports: Record<string, unknown>; outcome: string } {
  const script = `import { cacheOutcome, loadCommonJs } from ${JSON.stringify(pathToFileURL(LOADER).href)};
import { coverCodePath } from ${JSON.stringify(pathToFileURL(CODE_PATH).href)};
const [file, dir, path] = process.argv.slice(1);
const exports = loadCommonJs(file, { cacheDir: dir === "" ? null : dir });
if (path !== "") { exports.later?.(); coverCodePath(path); }
process.stdout.write(JSON.stringify({ exports, outcome: cacheOutcome(file) }));`;
  const out = execFileSync(process.execPath, ["--input-type=module", "-e", script, file, cacheDir ?? "", path ?? ""], { encoding: "utf8" });
  return JSON.parse(out) as { exports: Record<string, unknown>; outcome: string };
}

const SOURCE = `"use strict"; // a bundle (ASCII)
const { join } = require("node:path");
function square(x) { return x * x; }
exports.answer = square(6) + 6;
exports.where = join(__dirname, "bundle.js") === __filename && module.exports === exports;
exports.strict = (function () { return this === undefined; })();
`;
const EXPORTS = { answer: 42, where: true, strict: true };

describe("loadCommonJs", () => {
  test("the first process compiles and writes the cache at exit; the next one uses it and runs the same code", () => {
    const { file, cacheDir } = setup(SOURCE);
    expect(load(file, cacheDir)).toEqual({ exports: EXPORTS, outcome: "miss" });
    const written = readdirSync(cacheDir);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^bundle-[0-9a-f]{12}-[0-9a-f]{32}\.v8$/);
    expect(load(file, cacheDir)).toEqual({ exports: EXPORTS, outcome: "hit" });
  });

  test("a run on a code path the cache does not cover writes it again at exit, with that path's functions; once", () => {
    const source = `"use strict";
exports.answer = 42;
exports.later = function later() { let t = 0; for (let i = 0; i < 10; i++) t += [i].map((x) => x * 2)[0]; return t; };
`;
    const { file, cacheDir } = setup(source);
    const header = () => {
      const [name] = readdirSync(cacheDir);
      const bytes = readFileSync(join(cacheDir, name));
      return { head: bytes.subarray(0, bytes.indexOf(10) + 1).toString("latin1"), size: bytes.length, bytes };
    };
    expect(load(file, cacheDir).outcome).toBe("miss"); // written by a run that took no marked path
    const first = header();
    expect(first.head).toBe("ebcc/1 \n");
    expect(load(file, cacheDir, "stored").outcome).toBe("hit"); // uses it, takes "stored": written again at exit
    const second = header();
    expect(second.head).toBe("ebcc/1 stored\n");
    expect(second.size).toBeGreaterThan(first.size); // later() and its closure are in it now
    expect(load(file, cacheDir, "stored").outcome).toBe("hit"); // covered: not written again
    expect(header().bytes.equals(second.bytes)).toBe(true);
    expect(load(file, cacheDir).outcome).toBe("hit"); // a run on no marked path never rewrites a cache
    expect(header().bytes.equals(second.bytes)).toBe(true);
    expect(load(file, cacheDir, "built").outcome).toBe("hit");
    expect(header().head).toBe("ebcc/1 built,stored\n");
  });

  test("a changed file of the same length gets a cache of its own, never the old code; the old cache goes", () => {
    const { file, cacheDir } = setup(SOURCE);
    load(file, cacheDir);
    const [old] = readdirSync(cacheDir);
    // The same file name in another installation: its cache stays.
    const elsewhere = join(cacheDir, "..", "other-install");
    mkdirSync(elsewhere);
    writeFileSync(join(elsewhere, "bundle.js"), SOURCE);
    load(join(elsewhere, "bundle.js"), cacheDir);
    const other = readdirSync(cacheDir).find((f) => f !== old)!;
    expect(other).toMatch(/^bundle-[0-9a-f]{12}-[0-9a-f]{32}\.v8$/);
    const changed = SOURCE.replace("square(6) + 6", "square(5) + 5");
    expect(changed.length).toBe(SOURCE.length);
    writeFileSync(file, changed);
    expect(load(file, cacheDir)).toEqual({ exports: { ...EXPORTS, answer: 30 }, outcome: "miss" });
    const now = readdirSync(cacheDir).sort();
    expect(now).toHaveLength(2);
    expect(now).toContain(other);
    expect(now).not.toContain(old);
    expect(load(file, cacheDir)).toEqual({ exports: { ...EXPORTS, answer: 30 }, outcome: "hit" });
  });

  test("damaged cache data is rejected by V8, the file still runs, and the cache is written again", () => {
    const { file, cacheDir } = setup(SOURCE);
    load(file, cacheDir);
    const [name] = readdirSync(cacheDir);
    const damaged = Buffer.alloc(readFileSync(join(cacheDir, name)).length, 0x5a);
    writeFileSync(join(cacheDir, name), damaged);
    expect(load(file, cacheDir)).toEqual({ exports: EXPORTS, outcome: "rejected" });
    expect(readFileSync(join(cacheDir, name)).equals(damaged)).toBe(false);
    expect(load(file, cacheDir).outcome).toBe("hit");
  });

  test("a cache file that is a symbolic link is not followed", () => {
    const { file, cacheDir } = setup(SOURCE);
    load(file, cacheDir);
    const [name] = readdirSync(cacheDir);
    const elsewhere = join(work, `elsewhere-${n++}.v8`);
    writeFileSync(elsewhere, readFileSync(join(cacheDir, name)));
    rmSync(join(cacheDir, name));
    symlinkSync(elsewhere, join(cacheDir, name));
    expect(load(file, cacheDir)).toEqual({ exports: EXPORTS, outcome: "miss" });
  });

  test.skipIf(typeof process.getuid !== "function")("a cache directory others can write to is not used", () => {
    const { file, cacheDir } = setup(SOURCE);
    chmodSync(cacheDir, 0o777);
    expect(load(file, cacheDir)).toEqual({ exports: EXPORTS, outcome: "off" });
    expect(readdirSync(cacheDir)).toEqual([]);
  });

  test("a file that is not ASCII is read as UTF-8", () => {
    const { file, cacheDir } = setup(`${SOURCE}exports.text = "bundle \u00e9\u4e2d";\n`); // raw é and 中 in the file
    expect(load(file, cacheDir).exports.text).toBe("bundle \u00e9\u4e2d");
    expect(load(file, cacheDir)).toMatchObject({ exports: { text: "bundle \u00e9\u4e2d" }, outcome: "hit" });
  });

  test("past 64 cache files, writing one removes those used longest ago; reading one marks it used", () => {
    const { file, cacheDir } = setup(SOURCE);
    // Caches of 70 other installations (a name, a path digest, a key), used 1 to 70 days ago; one stray file.
    const day = 86_400;
    const now = Date.now() / 1000;
    const others = Array.from({ length: 70 }, (_, i) => `cmd-${i.toString(16).padStart(12, "0")}-${"a".repeat(32)}.v8`);
    others.forEach((name, i) => {
      writeFileSync(join(cacheDir, name), "x");
      utimesSync(join(cacheDir, name), now - (i + 1) * day, now - (i + 1) * day);
    });
    writeFileSync(join(cacheDir, "notes.txt"), "not a cache");
    expect(load(file, cacheDir).outcome).toBe("miss");
    const left = readdirSync(cacheDir);
    expect(left.filter((f) => f.endsWith(".v8"))).toHaveLength(64);
    expect(left).toContain("notes.txt");
    // The one just written and the 63 used most recently stay; the 7 used longest ago are gone.
    expect(left.some((f) => f.startsWith("bundle-"))).toBe(true);
    for (const name of others.slice(0, 63)) expect(left).toContain(name);
    for (const name of others.slice(63)) expect(left).not.toContain(name);
    // A hit marks its cache as used now.
    const own = left.find((f) => f.startsWith("bundle-"))!;
    utimesSync(join(cacheDir, own), now - 100 * day, now - 100 * day);
    expect(load(file, cacheDir).outcome).toBe("hit");
    expect(statSync(join(cacheDir, own)).mtimeMs).toBeGreaterThan((now - day) * 1000);
  });

  test("no cache directory: the file is compiled and nothing is written", () => {
    const { file, cacheDir } = setup(SOURCE);
    expect(load(file, null)).toEqual({ exports: EXPORTS, outcome: "off" });
    expect(readdirSync(cacheDir)).toEqual([]);
  });
});
