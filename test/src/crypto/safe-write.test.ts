/** Safe writes (src/crypto/safe-write.ts): exclusive creation, atomic replace, exact modes, stale temp cleanup. */
import { spawnSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { SafeWriteError } from "../../../src/crypto/errors.js";
import { cleanStaleTemps, createFileExclusive, ensurePrivateDir, replaceFile, stageFile } from "../../../src/crypto/safe-write.js";
import { tempDir } from "./helpers.js";

const bytes = (s: string) => new TextEncoder().encode(s);

describe("createFileExclusive", () => {
  test("creates a 0600 file, then reports 'exists' and keeps the first bytes; no temp file remains", () => {
    const dir = tempDir("excl");
    mkdirSync(dir);
    const old = process.umask(0);
    try {
      expect(createFileExclusive(dir, "a", bytes("first"))).toBe("created");
    } finally {
      process.umask(old);
    }
    expect(statSync(join(dir, "a")).mode & 0o777).toBe(0o600);
    expect(createFileExclusive(dir, "a", bytes("second"))).toBe("exists");
    expect(readFileSync(join(dir, "a"), "utf8")).toBe("first");
    expect(readdirSync(dir)).toEqual(["a"]);
  });

  test("replaceFile replaces atomically with a 0600 file", () => {
    const dir = tempDir("repl");
    mkdirSync(dir);
    writeFileSync(join(dir, "idx"), "old", { mode: 0o644 });
    replaceFile(dir, "idx", bytes("new"));
    expect(readFileSync(join(dir, "idx"), "utf8")).toBe("new");
    expect(statSync(join(dir, "idx")).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(["idx"]);
  });

  test("a missing directory is a SafeWriteError naming it", () => {
    const dir = join(tempDir("missing"), "nope");
    expect(() => createFileExclusive(dir, "a", bytes("x"))).toThrow(SafeWriteError);
    expect(() => createFileExclusive(dir, "a", bytes("x"))).toThrow(`cannot create a temporary file in ${dir}: ENOENT`);
  });
});

describe("ensurePrivateDir", () => {
  test("creates 0700, accepts an existing directory, refuses a file or a symlink", () => {
    const base = tempDir("dirs");
    mkdirSync(base);
    const old = process.umask(0o077);
    try {
      ensurePrivateDir(join(base, "d"));
    } finally {
      process.umask(old);
    }
    expect(statSync(join(base, "d")).mode & 0o777).toBe(0o700);
    ensurePrivateDir(join(base, "d"));
    writeFileSync(join(base, "f"), "");
    expect(() => ensurePrivateDir(join(base, "f"))).toThrow(`${join(base, "f")} exists and is not a directory`);
    symlinkSync(join(base, "d"), join(base, "l"));
    expect(() => ensurePrivateDir(join(base, "l"))).toThrow("is a symbolic link");
  });
});

describe("cleanStaleTemps", () => {
  test("removes temps of dead processes and old temps; keeps live writers' temps and other files", () => {
    const dir = tempDir("clean");
    mkdirSync(dir);
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const deadTemp = join(dir, `.tmp-${dead}-0123456789abcdef`);
    const liveTemp = join(dir, `.tmp-${process.ppid}-0123456789abcdef`);
    const oldLive = join(dir, `.tmp-${process.ppid}-fedcba9876543210`);
    const own = stageFile(dir, bytes("in progress"));
    writeFileSync(deadTemp, "x");
    writeFileSync(liveTemp, "x");
    writeFileSync(oldLive, "x");
    writeFileSync(join(dir, ".tmp-notours"), "x");
    writeFileSync(join(dir, "final.sealed"), "x");
    const twoHoursAgo = (Date.now() - 2 * 3600_000) / 1000;
    utimesSync(oldLive, twoHoursAgo, twoHoursAgo);
    expect(cleanStaleTemps(dir)).toBe(2);
    expect(readdirSync(dir).sort()).toEqual([".tmp-notours", liveTemp.split("/").pop(), own.split("/").pop(), "final.sealed"].sort());
    expect(cleanStaleTemps(join(dir, "absent"))).toBe(0);
  });
});
