import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { readRegularFile, SafeReadError } from "../../../src/crypto/safe-read.js";

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
});
