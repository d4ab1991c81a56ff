import { execFileSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { readRegularFile, readRegularFileIfExists, readRegularFilePrefix, SafeReadError } from "../../../src/crypto/safe-read.js";

const dir = mkdtempSync(join(tmpdir(), "safe-read-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("readRegularFile", () => {
  test("an empty regular file reads as empty", () => {
    const file = join(dir, "empty");
    writeFileSync(file, "");
    expect(readRegularFile(file, { maxBytes: 10 }).length).toBe(0);
  });

  test("a regular file reads whole", () => {
    const file = join(dir, "text");
    writeFileSync(file, "hello");
    expect(Buffer.from(readRegularFile(file, { maxBytes: 10 })).toString()).toBe("hello");
  });

  // /proc files are regular to fstat and report size 0, yet have content: read by size they would look empty.
  const proc = "/proc/self/status";
  test.runIf(existsSync(proc))("a file that reports size 0 but has content is refused, not read as empty", () => {
    let caught: unknown;
    try {
      readRegularFile(proc, { maxBytes: 1 << 20, label: "status" });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(SafeReadError);
    expect((caught as SafeReadError).code).toBe("not-regular");
    expect((caught as Error).message).toMatch(/^status reports size 0 but has content/);
  });

  function refusal(read: () => unknown): SafeReadError {
    try {
      read();
    } catch (e) {
      expect(e).toBeInstanceOf(SafeReadError);
      return e as SafeReadError;
    }
    throw new Error("read");
  }

  test.each([
    ["a FIFO without a writer", "not-regular", "is a FIFO; only regular files are read", (p: string) => execFileSync("mkfifo", [p])],
    ["a directory", "not-regular", "is a directory; only regular files are read", (p: string) => mkdirSync(p)],
    ["a link to a readable file", "link", "is a symbolic link; only regular files are read (links are not followed)", (p: string) => (writeFileSync(`${p}.t`, "x"), symlinkSync(`${p}.t`, p))],
    ["a dangling link", "link", "is a symbolic link; only regular files are read (links are not followed)", (p: string) => symlinkSync(join(dir, "nowhere"), p)],
  ])("%s: refused at open, naming the file and what it is", (_what, code, detail, make) => {
    const path = join(dir, `hostile-${code}-${Math.random().toString(16).slice(2)}`);
    make(path);
    for (const read of [() => readRegularFile(path, { maxBytes: 10 }), () => readRegularFilePrefix(path, 10), () => readRegularFileIfExists(path, { maxBytes: 10 })]) {
      const e = refusal(read);
      expect(e.code).toBe(code);
      expect(e.message).toBe(`${path} ${detail}`);
      expect(e.detail).toBe(detail);
    }
  });

  test("a device is refused before a byte is read", () => {
    const e = refusal(() => readRegularFile("/dev/zero", { maxBytes: 10, label: "zeros" }));
    expect(e.message).toBe("zeros is a device; only regular files are read");
  });

  test("a file over the bound is refused from its size, which the error carries", () => {
    const path = join(dir, "sparse");
    closeSync(openSync(path, "w"));
    truncateSync(path, 1 << 30); // sparse: nothing is read
    const e = refusal(() => readRegularFile(path, { maxBytes: 1000 }));
    expect([e.code, e.size, e.message]).toEqual(["too-large", 1 << 30, `${path} is larger than 1000 bytes (${1 << 30})`]);
    expect(readRegularFilePrefix(path, 4)).toEqual(new Uint8Array(4)); // a prefix read stops at its own bound
  });

  test("nothing there: missing (undefined from readRegularFileIfExists)", () => {
    expect(refusal(() => readRegularFile(join(dir, "absent"), { maxBytes: 1 })).code).toBe("missing");
    expect(readRegularFileIfExists(join(dir, "absent"), { maxBytes: 1 })).toBeUndefined();
  });
});
