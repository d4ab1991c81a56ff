/**
 * `evidence-bridge capsule verify` (capsule-v1 §11.4, product.md §5). The command module is driven directly with
 * fake streams (main.ts's variable dynamic import is not resolvable under vitest); one test runs the real process
 * through main.ts for dispatch, `--help` and the one-line stderr contract.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, describe, expect, test } from "vitest";
import type { JsonValue } from "../../../src/json/value.js";
import { serializeCapsule } from "../../../capsules/capsule/build.js";
import command from "../../../bridge/cli/commands/capsule-verify.js";
import { CliError, type CliIo } from "../../../bridge/cli/context.js";
import { scriptArgs } from "../../helpers/node-script.js";
import { describeShared, repoRoot, sharedPath } from "../../helpers/shared.js";
import { c, expectedReport, inlineBytes, rehash, setAt, vector } from "../../capsules/capsule/helpers.js";
import { fitColumns } from "../../../bridge/cli/help.js";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function fakeIo(stderrTty = false): { io: CliIo; out: () => string; err: () => string } {
  const collect = (s: PassThrough) => {
    const chunks: Buffer[] = [];
    s.on("data", (d: Buffer) => chunks.push(d));
    return () => Buffer.concat(chunks).toString("utf8");
  };
  const stdout = new PassThrough();
  const stderr = Object.assign(new PassThrough(), { isTTY: stderrTty });
  const out = collect(stdout);
  const err = collect(stderr);
  return { io: { stdin: new PassThrough(), stdout, stderr, env: {} }, out, err };
}

async function run(args: string[], stderrTty = false): Promise<Run> {
  const { io, out, err } = fakeIo(stderrTty);
  const code = await command.run(args, { io, globalFlags: {} });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: out(), stderr: err() };
}

/** Runs and expects exit 2 through a CliError; returns its message (nothing may reach stdout). */
async function runError(args: string[]): Promise<string> {
  const { io, out } = fakeIo();
  const error = await command.run(args, { io, globalFlags: {} }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(CliError);
  expect((error as CliError).exitCode).toBe(2);
  expect((error as Error).message).not.toMatch(/\n/);
  await new Promise((r) => setImmediate(r));
  expect(out()).toBe("");
  return (error as Error).message;
}

const P = () => sharedPath("data", "capsule-v1", "test-vectors", "palimpsest-erasure-v1.json");
const N = () => sharedPath("data", "capsule-v1", "test-vectors", "nemesis-ddti-v1.json");

describe("capsule verify: usage", () => {
  test("the help text names the usage, the flags and what ok means", () => {
    expect(command.help).toMatch(/^usage: evidence-bridge capsule verify FILE\.\.\. \[--artifact-root DIR\] \[--json\]/);
    expect(command.help).toContain("--artifact-root DIR");
    expect(command.help).toContain("not a timestamp");
  });
  test("no FILE is an error", async () => {
    expect(await runError([])).toBe("capsule verify: at least one FILE is required (see --help)");
  });
  test("unknown flags are errors", async () => {
    expect(await runError(["--jsn", "x.json"])).toMatch(/jsn/);
  });
});

describeShared("capsule verify: golden capsules", () => {
  test("one file with --json prints the exact report", async () => {
    const r = await run(["--json", P()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedReport("P"));
    expect(r.stderr).toBe("");
  });

  test("several files with --json print an array of reports", async () => {
    const r = await run([P(), N(), "--json"]);
    expect(r.code).toBe(0);
    const reports = [JSON.parse(expectedReport("P")), JSON.parse(expectedReport("N"))];
    expect(r.stdout).toBe(JSON.stringify(reports, null, 2) + "\n");
  });

  test("the human summary names each file, its sections and says ok", async () => {
    const r = await run([P(), N()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${P()}: ok\n`);
    expect(r.stdout).toContain(`${N()}: ok\n`);
    expect(r.stdout).toContain("recomputability partial, claims references_partially_recomputable");
    expect(r.stdout).not.toContain("error:");
  });

  test("progress goes to stderr only when it is a terminal and there are several files", async () => {
    expect((await run([P(), N()])).stderr).toBe("");
    const tty = await run([P(), N()], true);
    expect(tty.stderr).toContain("verifying 2/2");
    expect((await run([P()], true)).stderr).toBe("");
  });
});

describeShared("capsule verify: failures", () => {
  const dir = mkdtempSync(join(tmpdir(), "capsule-verify-cli-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, data: string | Buffer) => {
    const file = join(dir, name);
    writeFileSync(file, data);
    return file;
  };

  test("a capsule that does not verify exits 1 with its problems in the summary", async () => {
    const cap = vector("N");
    setAt(cap, c("artifacts", 0, "size"), 831);
    const file = write("bad.json", serializeCapsule(rehash(cap)));
    const r = await run([N(), file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`${file}: NOT OK\n`);
    expect(r.stdout).toContain("  artifact selected-lead-extract: size mismatch\n");
    expect(r.stdout).toContain("  error: one or more artifacts failed exact-byte verification\n");
    const json = await run(["--json", file]);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout).ok).toBe(false);
  });

  test.each([
    ["missing file", null, /: capsule cannot be read: /],
    ["non-JSON", "{nope", /: invalid JSON: /],
    ["duplicate key", '{"a":1,"a":2}', /: duplicate JSON key: 'a'$/],
    ["non-object envelope", "5", /: capsule envelope must be a JSON object$/],
    ["UTF-8 BOM", "\ufeff{}", /: invalid JSON: Unexpected UTF-8 BOM/],
  ])("%s exits 2 with one line naming the file", async (_label, data, message) => {
    const file = data === null ? join(dir, "does-not-exist.json") : write(`f${Math.random()}.json`, data);
    const m = await runError([file]);
    expect(m.startsWith(file)).toBe(true);
    expect(m).toMatch(message);
  });

  test("hostile key names never reach the terminal raw", async () => {
    const cap = vector("N");
    cap.set("\u001b[2J\u202ex", 1);
    const file = write("hostile.json", serializeCapsule(cap));
    const r = await run([file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("capsule: unknown field(s): \\u{1b}[2J\\u{202e}x");
    expect(r.stdout).not.toMatch(/[\u001b\u202e]/);
    const deep = write("hostile-deep.json", `{"\\u001b[2J":${"[".repeat(40)}`);
    const m = await runError([deep]);
    expect(m).toContain("JSON nesting exceeds 32");
    expect(m).not.toMatch(/[\u001b]/);
  });

  test("an oversize file exits 2", async () => {
    const file = write("big.json", Buffer.alloc(33_554_433, 0x20));
    expect(await runError([file])).toBe(`${file}: capsule exceeds the v1 byte limit`);
  });

  test("a directory exits 2", async () => {
    expect(await runError([dir])).toMatch(/: capsule cannot be read: /);
  });

  test("one unloadable file among good ones: exit 2 and nothing on stdout", async () => {
    expect(await runError([P(), join(dir, "missing.json"), N()])).toMatch(/missing\.json: capsule cannot be read/);
  });

  test("--artifact-root confines path artifacts", async () => {
    const root = join(dir, "root");
    const cap = vector("N");
    mkdirSync(root);
    writeFileSync(join(root, "sample.json"), inlineBytes(cap, 1));
    setAt(cap, c("artifacts", 1, "location"), new Map<string, JsonValue>([["type", "path"], ["path", "sample.json"]]));
    const file = write("path.json", serializeCapsule(rehash(cap)));
    const without = await run([file]);
    expect(without.code).toBe(1);
    expect(without.stdout).toContain("artifact cdt-sample-1: path artifact requires an explicit artifact root");
    const withRoot = await run(["--artifact-root", root, file]);
    expect(withRoot.code).toBe(0);
  });
});

describeShared("capsule verify: the real process", () => {
  test("exit codes and exactly one stderr line", () => {
    const bin = scriptArgs(join(repoRoot, "bridge", "cli", "bin.ts"));
    const help = spawnSync(process.execPath, [...bin, "capsule", "verify", "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toBe(`${fitColumns(command.help.replace(/\n+$/, ""))}\n`); // as printed: fitted to 100 columns
    const ok = spawnSync(process.execPath, [...bin, "capsule", "verify", "--json", N()], { encoding: "utf8" });
    expect(ok.status).toBe(0);
    expect(ok.stdout).toBe(expectedReport("N"));
    const missing = spawnSync(process.execPath, [...bin, "capsule", "verify", "/nonexistent/capsule.json"], { encoding: "utf8" });
    expect(missing.status).toBe(2);
    expect(missing.stdout).toBe("");
    expect(missing.stderr).toMatch(/^evidence-bridge: \/nonexistent\/capsule\.json: capsule cannot be read: [^\n]+\n$/);
  });
});
