/**
 * `evidence-bridge review list | head -1`: when the reader of stdout goes away before the command has written
 * (main.ts endQuietlyOnClosedStdout), the built CLI ends quietly with status 0: no stack trace, nothing on stderr.
 * Runs the package's bin (the bundle) with a stdout pipe whose read end the test closes at once.
 */
import { spawn } from "node:child_process";
import { afterAll, beforeAll, expect, test } from "vitest";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsules, PACK_FILE, removeHomes, storeWith } from "../../capsules/feed/store-fixtures.js";
import { BUNDLE, ensureBuilt } from "../mcp/compiled.js";
import { childEnv } from "../../helpers/test-env.js";

afterAll(removeHomes);

interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  stderr: string;
}

/** Runs the bin with `args`, closing the read end of its stdout before it can write anything. */
function withStdoutClosedEarly(args: string[]): Promise<Ended> {
  const child = spawn(process.execPath, [BUNDLE!, ...args], { stdio: ["ignore", "pipe", "pipe"], env: childEnv() });
  child.stdout.destroy();
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (c: string) => (stderr += c));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code, signal) => resolve({ code, signal, stderr }));
  });
}

describeShared("a closed stdout pipe", () => {
  let home: string;

  beforeAll(async () => {
    ensureBuilt();
    ({ home } = await storeWith("closed-stdout", exampleCapsules()));
  }, 200_000);

  test("review list | head -1 with the pipe closed early: exit 0, empty stderr", async () => {
    const r = await withStdoutClosedEarly(["--home", home, "--pack", PACK_FILE, "review", "list"]);
    expect(r).toEqual({ code: 0, signal: null, stderr: "" });
  });

  test("the same for a command that writes with plain write() (capsule list --json) and for help", async () => {
    expect(await withStdoutClosedEarly(["--home", home, "capsule", "list", "--json"])).toEqual({ code: 0, signal: null, stderr: "" });
    expect(await withStdoutClosedEarly(["help"])).toEqual({ code: 0, signal: null, stderr: "" });
  });
});
