/** src/output-file.ts: the one writer of files a user names (`--out`, exports, the outbox). */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { OutputFileError, writeOutputFile } from "../../src/output-file.js";

const dir = mkdtempSync(join(tmpdir(), "output-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const BYTES = new TextEncoder().encode("exported\n");

function refusal(path: string, bytes = BYTES): OutputFileError {
  try {
    writeOutputFile(path, bytes);
  } catch (e) {
    expect(e).toBeInstanceOf(OutputFileError);
    return e as OutputFileError;
  }
  throw new Error(`${path} was written`);
}

describe("writeOutputFile", () => {
  test("a new name: created whole, mode 0600, nothing else left in the directory", () => {
    const sub = join(dir, "new");
    mkdirSync(sub);
    const out = join(sub, "out.json");
    expect(writeOutputFile(out, BYTES)).toBe("created");
    expect(readFileSync(out)).toEqual(Buffer.from(BYTES));
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(readdirSync(sub)).toEqual(["out.json"]);
  });

  test("the same bytes again: unchanged; other bytes: refused, the file kept as it was", () => {
    const out = join(dir, "again.json");
    writeOutputFile(out, BYTES);
    expect(writeOutputFile(out, BYTES)).toBe("unchanged");
    const e = refusal(out, new TextEncoder().encode("exported!\n"));
    expect(e.code).toBe("different");
    expect(e.message).toBe(`${out} already exists with different content; refusing to overwrite it`);
    expect(readFileSync(out)).toEqual(Buffer.from(BYTES));
  });

  test.each([
    ["a symbolic link to a file with the same bytes", "a symbolic link", (p: string) => (writeFileSync(`${p}.target`, BYTES), symlinkSync(`${p}.target`, p))],
    ["a dangling symbolic link", "a symbolic link", (p: string) => symlinkSync(join(dir, "nowhere"), p)],
    ["a FIFO without a writer", "a FIFO", (p: string) => execFileSync("mkfifo", [p])],
    ["a directory", "a directory", (p: string) => mkdirSync(p)],
  ])("%s at the name: refused at once, naming the path and what it is", (_what, kind, make) => {
    const out = join(dir, `hostile-${readdirSync(dir).length}`);
    make(out);
    const e = refusal(out);
    expect(e.code).toBe("not-regular");
    expect(e.message).toBe(`${out} is ${kind}; only a new file (or one with exactly these bytes) is written`);
    expect(readdirSync(dir).filter((n) => n.startsWith(".tmp-"))).toEqual([]);
  });

  test("a device is refused without being opened for writing", () => {
    const e = refusal("/dev/null");
    expect(e.message).toBe("/dev/null is a device; only a new file (or one with exactly these bytes) is written");
  });

  test("the link's target is never written through", () => {
    const target = join(dir, "precious.txt");
    writeFileSync(target, "keep me");
    symlinkSync(target, join(dir, "precious-link"));
    refusal(join(dir, "precious-link"));
    expect(readFileSync(target, "utf8")).toBe("keep me");
  });

  test("a directory that does not exist: an io error naming the file", () => {
    const e = refusal(join(dir, "no-such-dir", "out.json"));
    expect(e.code).toBe("io");
    expect(e.message).toMatch(/^cannot write \S+no-such-dir\/out\.json: /);
  });
});
