/** The O_EXCL lock file: exclusive, released after errors, stale locks broken, live locks respected. */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { ReviewError } from "../../../capsules/review/errors.js";
import { withFileLock } from "../../../capsules/review/lock.js";
import { removeHomes, tempHome } from "../feed/store-fixtures.js";

afterAll(removeHomes);

/** A pid above Linux's maximum pid_max (2^22): no process has it. */
const DEAD_PID = 4_194_400;

function lockPath(): string {
  return join(tempHome("lock"), "log.lock");
}

function lockInfo(pid: number, created: number, token = "someone-else", host = hostname()): string {
  return JSON.stringify({ pid, host, token, created });
}

describe("withFileLock", () => {
  test("holds an O_EXCL lock file with its pid while the function runs and removes it afterwards, also after an error", () => {
    const path = lockPath();
    const seen = withFileLock(path, () => JSON.parse(readFileSync(path, "utf8")) as { pid: number; host: string });
    expect(seen.pid).toBe(process.pid);
    expect(seen.host).toBe(hostname());
    expect(existsSync(path)).toBe(false);
    expect(() =>
      withFileLock(path, () => {
        throw new Error("boom");
      }),
    ).toThrow("boom");
    expect(existsSync(path)).toBe(false);
  });

  test("a lock held by a live process is respected until the timeout, with a message naming the holder", () => {
    const path = lockPath();
    writeFileSync(path, lockInfo(process.ppid, Date.now()));
    let ran = false;
    let error: unknown;
    try {
      withFileLock(path, () => (ran = true), { timeoutMs: 50 });
    } catch (e) {
      error = e;
    }
    expect(ran).toBe(false);
    expect(error).toBeInstanceOf(ReviewError);
    expect((error as ReviewError).code).toBe("busy");
    expect((error as ReviewError).message).toMatch(
      new RegExp(`^the review log is locked by process ${process.ppid} on .*, running since .*; waited 0\\.1 s \\(if no evidence-bridge process is running, remove ${path}\\)$`),
    );
    expect(readFileSync(path, "utf8")).toBe(lockInfo(process.ppid, JSON.parse(readFileSync(path, "utf8")).created));
  });

  test.each([
    ["its process is gone", () => lockInfo(DEAD_PID, Date.now()), false],
    ["it comes from another host and is older than the stale age", () => lockInfo(process.ppid, Date.now() - 120_000, "x", "elsewhere.invalid"), false],
    ["it is an unreadable leftover older than two seconds", () => "", true],
  ])("a lock is broken when %s", (_why, content, backdate) => {
    const path = lockPath();
    writeFileSync(path, content());
    if (backdate) utimesSync(path, new Date(Date.now() - 10_000), new Date(Date.now() - 10_000));
    expect(withFileLock(path, () => "ran", { timeoutMs: 5_000 })).toBe("ran");
    expect(existsSync(path)).toBe(false);
  });

  test("a live local holder is never broken for its age: waiting times out naming it", () => {
    const path = lockPath();
    writeFileSync(path, lockInfo(process.ppid, Date.now() - 3_600_000));
    expect(() => withFileLock(path, () => "ran", { timeoutMs: 100, staleMs: 1 })).toThrow(/locked by process \d+ on .*, running since/);
    expect(existsSync(path)).toBe(true);
  });

  test.each([
    ["a dangling symbolic link", (p: string) => symlinkSync(join(p, "..", "nowhere"), p), /is a symbolic link/],
    ["a symbolic link to a live lock", (p: string) => (writeFileSync(`${p}.real`, lockInfo(DEAD_PID, 0)), symlinkSync(`${p}.real`, p)), /is a symbolic link/],
    ["a FIFO", (p: string) => execFileSync("mkfifo", [p]), /is a FIFO/],
    ["a directory", (p: string) => mkdirSync(p), /is a directory/],
  ])("%s at the lock is an immediate error, never a wait or a spin", { timeout: 5_000 }, (_what, plant, message) => {
    const path = lockPath();
    plant(path);
    let error: unknown;
    try {
      withFileLock(path, () => "ran");
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ReviewError);
    expect((error as ReviewError).code).toBe("io");
    expect((error as ReviewError).message).toMatch(message);
  });

  test("a break lock left by a killed breaker is cleared once its process is gone", () => {
    const path = lockPath();
    writeFileSync(path, lockInfo(DEAD_PID, Date.now()));
    writeFileSync(`${path}.break`, lockInfo(DEAD_PID, Date.now(), "breaker"));
    expect(withFileLock(path, () => "ran", { timeoutMs: 5_000 })).toBe("ran");
    expect(existsSync(`${path}.break`)).toBe(false);
  });

  test("release leaves a lock that is no longer this holder's", () => {
    const path = lockPath();
    withFileLock(path, () => writeFileSync(path, lockInfo(process.ppid, Date.now())));
    expect(existsSync(path)).toBe(true);
  });
});
