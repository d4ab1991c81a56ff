/** The plaintext outbox (assessment-v1 §6.7 C3/C4): atomic, idempotent, 0600 in 0700, no symlinks, nothing left over. */
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AssessmentError } from "../../../capsules/assessment/errors.js";
import { checkOutboxPath, writeOutbox } from "../../../capsules/assessment/outbox.js";

const ID = "ab".repeat(32);
const BYTES = new TextEncoder().encode('{"content":{}}\n');

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), "outbox-"));
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function mode(path: string): number {
  return lstatSync(path).mode & 0o777;
}

describe("writeOutbox", () => {
  it("creates missing directories 0700 and the file 0600 with the exact bytes", () => {
    const dir = join(root, "var", "inbox");
    expect(writeOutbox(dir, ID, BYTES)).toBe("created");
    expect(readFileSync(join(dir, `${ID}.json`))).toEqual(Buffer.from(BYTES));
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(root, "var"))).toBe(0o700);
    expect(mode(join(dir, `${ID}.json`))).toBe(0o600);
    expect(readdirSync(dir)).toEqual([`${ID}.json`]);
  });

  it("is idempotent for the same bytes and refuses different bytes, keeping the first file", () => {
    const dir = join(root, "out");
    writeOutbox(dir, ID, BYTES);
    expect(writeOutbox(dir, ID, BYTES)).toBe("existing");
    const other = new TextEncoder().encode('{"content":{"x":1}}\n');
    expect(() => writeOutbox(dir, ID, other)).toThrow(/^outbox: existing capsule path has different bytes: /);
    expect(() => writeOutbox(dir, ID, BYTES.subarray(0, 5))).toThrow(/different bytes/);
    expect(readFileSync(join(dir, `${ID}.json`))).toEqual(Buffer.from(BYTES));
    expect(readdirSync(dir)).toEqual([`${ID}.json`]);
  });

  it("refuses '.', '..' and empty components (unlike the reference, which accepts ./x)", () => {
    for (const bad of ["./x", "a/../b", "a//b", ".", "..", ""]) {
      expect(() => checkOutboxPath(bad)).toThrow(AssessmentError);
    }
    expect(checkOutboxPath("var/inbox/")).toMatch(/var\/inbox$/);
  });

  it("refuses an outbox that is a symlink, a target that is a symlink, and a file in the way", () => {
    const real = join(root, "real");
    mkdirSync(real);
    symlinkSync(real, join(root, "link"));
    expect(() => writeOutbox(join(root, "link"), ID, BYTES)).toThrow(/is a symbolic link/);
    symlinkSync(join(root, "elsewhere"), join(real, `${ID}.json`));
    expect(() => writeOutbox(real, ID, BYTES)).toThrow(/is a symbolic link/);
    writeFileSync(join(root, "file"), "x");
    expect(() => writeOutbox(join(root, "file"), ID, BYTES)).toThrow(/exists and is not a directory/);
    expect(readdirSync(real)).toEqual([`${ID}.json`]);
  });

  it("rejects a malformed id before touching the disk", () => {
    expect(() => writeOutbox(join(root, "never"), "AB".repeat(32), BYTES)).toThrow(/content_sha256/);
    expect(readdirSync(root)).toEqual([]);
  });
});
