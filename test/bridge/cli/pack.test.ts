/**
 * `pack verify` and `pack match` end to end with in-memory streams. The command objects are called directly with
 * the context `main()` would build (global flags already split off): vitest cannot follow main's variable dynamic
 * import of command modules.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { afterAll, expect, test } from "vitest";
import { match, verify } from "../../../bridge/cli/commands/pack.js";
import { CliError, type CliCommand, type CliIo } from "../../../bridge/cli/context.js";
import { scriptArgs } from "../../helpers/node-script.js";
import { describeShared, repoRoot } from "../../helpers/shared.js";
import { observationsOf, signalsOf, validExamples } from "../../published/pack/examples.js";
import { PACK_PATH, PACK_SHA256, realPackObject } from "../../published/pack/helpers.js";

interface Run {
  code: number | undefined;
  error: CliError | undefined;
  stdout: string;
  stderr: string;
}

function sink(): { stream: Writable; text: () => string } {
  const chunks: Buffer[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

const COMMANDS: Record<string, CliCommand> = { verify, match };
const GLOBAL = new Set(["home", "pack"]);

/** Runs `[--home H] [--pack P] pack <verify|match> args...` like main() does. */
async function run(argv: string[], stdin: Buffer | string = "", env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const globalFlags: Record<string, string> = {};
  let i = 0;
  while (argv[i]?.startsWith("--") && GLOBAL.has(argv[i].slice(2))) {
    globalFlags[argv[i].slice(2)] = argv[i + 1];
    i += 2;
  }
  expect(argv[i]).toBe("pack");
  const command = COMMANDS[argv[i + 1]];
  const out = sink();
  const err = sink();
  const io: CliIo = { stdin: Readable.from([Buffer.from(stdin)]), stdout: out.stream, stderr: err.stream, env: { HOME: tmp, ...env } };
  try {
    const code = await command.run(argv.slice(i + 2), { io, globalFlags });
    return { code, error: undefined, stdout: out.text(), stderr: err.text() };
  } catch (e) {
    if (!(e instanceof CliError)) throw e;
    return { code: undefined, error: e, stdout: out.text(), stderr: err.text() };
  }
}

const tmp = mkdtempSync(join(tmpdir(), "eb-pack-cli-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describeShared("pack verify", () => {
  test("prints version, digest and counts of the real pack", async () => {
    const r = await run(["pack", "verify", PACK_PATH]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`${PACK_PATH}: ok`);
    expect(r.stdout).toMatch(/version +2026-08-08\.2/);
    expect(r.stdout).toMatch(new RegExp(`sha256 +${PACK_SHA256}`));
    expect(r.stdout).toMatch(/sources +18\n/);
    expect(r.stdout).toMatch(/typologies +8\n/);
    expect(r.stdout).toMatch(/dimensions +3\n/);
    expect(r.stdout).toContain("gambling_insider_ad");
    expect(r.stderr).toBe("");
  });

  test("--json prints a canonical summary", async () => {
    const r = await run(["pack", "verify", PACK_PATH, "--json"]);
    const s = JSON.parse(r.stdout);
    expect(s).toMatchObject({ sha256: PACK_SHA256, sources: 18, typologies: 8, dimensions: 3, indicators: 31, version: "2026-08-08.2" });
    expect(s.warnings).toHaveLength(2);
  });

  test("a violation exits 2 with one line naming the path and rule, and nothing on stdout", async () => {
    const p = realPackObject();
    p.sources[4].url = "http://insecure.example";
    const file = join(tmp, "bad-pack.json");
    writeFileSync(file, JSON.stringify(p));
    const r = await run(["pack", "verify", file]);
    expect(r.error?.exitCode).toBe(2);
    expect(r.error?.message).toBe(`intelligence pack ${file}: pack.sources[4].url: must be an https URL (starting "https://") (https-url)`);
    expect(r.stdout).toBe("");
  });

  test("a missing file exits 2", async () => {
    const r = await run(["pack", "verify", join(tmp, "nope.json")]);
    expect(r.error?.exitCode).toBe(2);
    expect(r.error?.message).toContain("ENOENT");
  });

  test("without FILE: --pack, then EVIDENCE_BRIDGE_PACK, then <home>/intelligence-pack-v1.json", async () => {
    expect((await run(["--pack", PACK_PATH, "pack", "verify"])).stdout).toContain(`${PACK_PATH}: ok`);
    expect((await run(["pack", "verify"], "", { EVIDENCE_BRIDGE_PACK: PACK_PATH })).stdout).toContain(`${PACK_PATH}: ok`);
    const home = join(tmp, "home-with-pack");
    rmSync(home, { recursive: true, force: true });
    await import("node:fs").then((fs) => fs.mkdirSync(home));
    writeFileSync(join(home, "intelligence-pack-v1.json"), readFileSync(PACK_PATH));
    const r = await run(["--home", home, "pack", "verify"]);
    expect(r.stdout).toContain(`${join(home, "intelligence-pack-v1.json")}: ok`);
  });

  test("without any pack: a clear error", async () => {
    const home = join(tmp, "empty-home");
    const r = await run(["--home", home, "pack", "verify"]);
    expect(r.error?.exitCode).toBe(2);
    expect(r.error?.message).toContain("no intelligence pack in the data directory");
    expect(r.error?.message).toContain("run 'evidence-bridge pack fetch'");
  });
});

describeShared("pack match", () => {
  test("prints the message-level hypotheses of example 05 and echoes nothing on stderr", async () => {
    const [ex] = validExamples().filter((e) => e.name.startsWith("05-"));
    const r = await run(["--pack", PACK_PATH, "pack", "match", "--signals", signalsOf(ex.assessment).join(",")], ex.text!);
    expect(r.code).toBe(0);
    // Only the warning naming detector signals the pack never uses (identifiers, never message text).
    expect(r.stderr).toMatch(/^(pack match: warning: [^\n]*\(see 'pack signals'\)\n)?$/);
    const out = JSON.parse(r.stdout);
    expect(out.pack_sha256).toBe(PACK_SHA256);
    expect(out.hypotheses).toStrictEqual(ex.assessment.hypotheses);
    expect(out.origin_answer).toBe(ex.assessment.origin_answer);
    expect(out.abstentions).toStrictEqual(ex.assessment.abstentions);
  });

  test("every example without observations reproduces its hypotheses", async () => {
    for (const ex of validExamples().filter((e) => observationsOf(e.assessment).length === 0)) {
      const r = await run(["--pack", PACK_PATH, "pack", "match", "--signals", signalsOf(ex.assessment).join(",")], ex.text!);
      expect(JSON.parse(r.stdout).hypotheses, ex.name).toStrictEqual(ex.assessment.hypotheses);
    }
  });

  test("without --signals only terms count", async () => {
    const [ex] = validExamples().filter((e) => e.name.startsWith("01-"));
    const r = await run(["--pack", PACK_PATH, "pack", "match"], ex.text!);
    expect(JSON.parse(r.stdout).hypotheses).toEqual([]);
  });

  test("an invalid signal name is rejected without echoing it", async () => {
    const r = await run(["--pack", PACK_PATH, "pack", "match", "--signals", "ok_one,Secret Thing"], "text");
    expect(r.error?.exitCode).toBe(2);
    expect(r.error?.message).toContain("--signals[1]");
    expect(r.error?.message).not.toContain("Secret");
  });

  test("invalid UTF-8 is rejected without echoing the message", async () => {
    const r = await run(["--pack", PACK_PATH, "pack", "match"], Buffer.from([0x66, 0x65, 0x69, 0xff, 0x71]));
    expect(r.error?.message).toBe("message is not valid UTF-8");
    expect(r.stdout).toBe("");
    expect(r.stderr).toBe("");
  });

  test("a message over 1 MiB is refused", async () => {
    const r = await run(["--pack", PACK_PATH, "pack", "match"], Buffer.alloc(1_048_577, 0x61));
    expect(r.error?.exitCode).toBe(2);
    expect(r.error?.message).toContain("message exceeds");
  });

  test("positional arguments are refused (the message comes from stdin)", async () => {
    const r = await run(["--pack", PACK_PATH, "pack", "match", "message.txt"], "x");
    expect(r.error?.exitCode).toBe(2);
  });
});

describeShared("through the real entry point", () => {
  test("the command table reaches pack verify and pack match; errors are one stderr line with exit 2", async () => {
    const { spawnSync } = await import("node:child_process");
    const bin = join(repoRoot, "bridge", "cli", "bin.ts");
    const opts = { cwd: repoRoot, encoding: "utf8" as const, env: { ...process.env, EVIDENCE_BRIDGE_PACK: "", EVIDENCE_BRIDGE_HOME: join(tmp, "e2e-home") } };
    const ok = spawnSync(process.execPath, [...scriptArgs(bin), "--pack", PACK_PATH, "pack", "verify"], opts);
    expect(ok.status).toBe(0);
    expect(ok.stdout).toMatch(/typologies +8\n/);

    const [ex] = validExamples().filter((e) => e.name.startsWith("13-"));
    const m = spawnSync(process.execPath, [...scriptArgs(bin), "--pack", PACK_PATH, "pack", "match", "--signals", "wildlife_trade_offer"], {
      ...opts,
      input: ex.text,
    });
    expect(m.status).toBe(0);
    expect(m.stderr).toBe("");
    expect(JSON.parse(m.stdout).hypotheses).toStrictEqual(ex.assessment.hypotheses);

    const bad = spawnSync(process.execPath, [...scriptArgs(bin), "pack", "verify"], opts);
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr).toMatch(/^evidence-bridge: no intelligence pack in the data directory[^\n]*\n$/);
  });
});
