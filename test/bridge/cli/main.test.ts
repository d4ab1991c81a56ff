/** The dispatcher: global flags, help, unknown commands, lazy loading of a command module in process. */
import { PassThrough } from "node:stream";
import { describe, expect, test } from "vitest";
import { CliError, type CliIo } from "../../../bridge/cli/context.js";
import { main } from "../../../bridge/cli/main.js";

function fakeIo(): { io: CliIo; out: () => string } {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on("data", (c: Buffer) => chunks.push(c));
  const io: CliIo = { stdin: new PassThrough(), stdout, stderr: new PassThrough(), env: {} };
  return { io, out: () => Buffer.concat(chunks).toString("utf8") };
}

describe("CLI dispatcher", () => {
  test("--help lists the commands", async () => {
    const { io, out } = fakeIo();
    expect(await main(["--help"], io)).toBe(0);
    expect(out()).toContain("capsule verify");
    expect(out()).toContain("pack match");
  });

  test("a command's --help is loaded lazily from its module", async () => {
    const { io, out } = fakeIo();
    expect(await main(["pack", "verify", "--help"], io)).toBe(0);
    expect(out()).toMatch(/pack verify/);
  });

  test("unknown commands and global flags are errors that name them", async () => {
    const { io } = fakeIo();
    await expect(main(["frobnicate"], io)).rejects.toThrow(new CliError("unknown command: frobnicate (see --help)"));
    await expect(main(["--colour", "x", "pack", "verify"], io)).rejects.toThrow("unknown global flag --colour");
    await expect(main(["--home"], io)).rejects.toThrow("--home: a value is required");
  });

  test("a group without a subcommand prints its subcommands", async () => {
    const { io, out } = fakeIo();
    expect(await main(["capsule"], io)).toBe(2);
    expect(out()).toContain("verify");
  });
});

test("--version prints the package version (also when run from source)", async () => {
  const { readFileSync } = await import("node:fs");
  const { io, out } = fakeIo();
  expect(await main(["--version"], io)).toBe(0);
  expect(out().trim()).toBe(JSON.parse(readFileSync(new URL("../../../package.json", import.meta.url), "utf8")).version);
});

test("global flags are accepted after the command too, and not passed to it", async () => {
  const { io, out } = fakeIo();
  // pack verify with a missing file named by --pack after the command: the error names that file.
  await expect(main(["pack", "verify", "--pack", "/nonexistent/pack.json"], io)).rejects.toThrow("/nonexistent/pack.json");
  await expect(main(["pack", "verify", "--pack"], io)).rejects.toThrow("--pack: a value is required");
  expect(out()).toBe("");
});
