/**
 * Nothing private at a careless umask (issue 30 item 4): `capsule build` and `capsule assess` print a one-screen
 * summary on a terminal and the capsule JSON only with --json or into a pipe; --out FILE is mode 0600 whatever the
 * umask; stdin read from a terminal says what it expects and how to end it. In process (streams that say they are a
 * terminal) and once in a real pseudo-terminal (`script`). Synthetic example only.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, describe, expect, test } from "vitest";
import { main, oneLine } from "../../../bridge/cli/main.js";
import { Sink } from "../../helpers/cli.js";
import { repoRoot } from "../../helpers/shared.js";
import { childEnv, TEST_ENDPOINT_ENV } from "../../helpers/test-env.js";

const EX = join(repoRoot, "examples/synthetic");
const PACK = join(EX, "intelligence-pack.json");
const ASSESSMENT = readFileSync(join(EX, "assessment.json"));
const JUDGEMENT = readFileSync(join(EX, "judgement.json"));
const HANDLE = "@synthetic_recruiter_demo";
const ID = "733c55ea68db7852f0170cc3e3b6d3ed829b508d8bfb8ca7c55033c2db682d69";
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "eb-capsule-out-"));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function run(args: string[], stdin: Buffer, tty: { stdout?: boolean; stdin?: boolean } = {}) {
  const stdout = new Sink(tty.stdout ?? false);
  const stderr = new Sink(false);
  const input = Object.assign(Readable.from([stdin]), { isTTY: tty.stdin ?? false });
  let code: number;
  try {
    code = await main(args, { stdin: input, stdout, stderr, env: { ...TEST_ENDPOINT_ENV } });
  } catch (e) {
    stderr.write(`evidence-bridge: ${oneLine((e as Error).message)}\n`);
    code = (e as { exitCode?: number }).exitCode ?? 2;
  }
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const build = (home: string, extra: string[] = []) => ["--home", home, "--pack", PACK, "capsule", "build", "--message-file", join(EX, "message.txt"), ...extra];
const assess = (home: string, extra: string[] = []) => ["--home", home, "--pack", PACK, "capsule", "assess", "--message-file", join(EX, "message.txt"), ...extra];

describe("capsule build", () => {
  test("on a terminal: a one-screen summary, never the JSON or an IOC value", async () => {
    const home = temp();
    const r = await run(build(home), ASSESSMENT, { stdout: true });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`capsule ${ID}`);
    expect(lines.length).toBeLessThanOrEqual(10);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(120);
    expect(r.stdout).toContain(`  stored     sealed into ${home}`);
    expect(r.stdout).toContain("  tiers      detector LIKELY_SCAM, threat CLEAN, overall LIKELY_SCAM");
    expect(r.stdout).toContain("  IOCs       handles 1");
    expect(r.stdout).toContain("  candidate  queued for human review");
    expect(r.stdout).toContain("--out FILE writes it 0600, --json prints it");
    expect(r.stdout).not.toContain(HANDLE);
    expect(r.stdout).not.toContain("{");
  });

  test("--json on a terminal, and any pipe, get the canonical JSON", async () => {
    const json = await run(build(temp(), ["--json"]), ASSESSMENT, { stdout: true });
    expect(JSON.parse(json.stdout).content_sha256).toBe(ID);
    const piped = await run(build(temp()), ASSESSMENT);
    expect(piped.stdout).toBe(json.stdout);
  });

  test("--out FILE is mode 0600 under umask 022; the same bytes again succeed, different bytes are refused", async () => {
    const dir = temp();
    const out = join(dir, "capsule.json");
    const old = process.umask(0o022);
    try {
      const r = await run(build(temp(), ["--out", out, "--no-store"]), ASSESSMENT, { stdout: true });
      expect(r.code, r.stderr).toBe(0);
      expect(statSync(out).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(out, "utf8")).content_sha256).toBe(ID);
      expect(r.stdout).toContain(`  file       ${out} (mode 0600)`);
      expect(r.stdout).toContain("  stored     not stored (--no-store)");
      const piped = await run(build(temp(), ["--out", out, "--no-store"]), ASSESSMENT);
      expect([piped.code, piped.stdout]).toEqual([0, ""]);
      writeFileSync(out, "other");
      const clash = await run(build(temp(), ["--out", out]), ASSESSMENT);
      expect(clash.code).toBe(2);
      expect(clash.stderr).toMatch(/already exists with different content; refusing to overwrite it\n$/);
    } finally {
      process.umask(old);
    }
  });

  test("--out inside the data directory, or in a missing directory, fails before anything is sealed", async () => {
    const home = temp();
    const inside = await run(build(home, ["--out", join(home, "c.json")]), ASSESSMENT);
    expect(inside.stderr).toMatch(/is inside the data directory/);
    const missing = await run(build(home, ["--out", join(home, "..", "nope", "c.json")]), ASSESSMENT);
    expect(missing.stderr).toMatch(/--out: the directory .* does not exist/);
    expect(existsSync(join(home, "capsules"))).toBe(false);
  });

  test("stdin on a terminal: says what it reads and how to end it", async () => {
    const r = await run(build(temp()), ASSESSMENT, { stdin: true });
    expect(r.stderr).toMatch(/^evidence-bridge: reading one assessment \(JSON\) from the terminal; paste it, then press Ctrl-D on a new line to end/);
    const piped = await run(build(temp()), ASSESSMENT);
    expect(piped.stderr).toBe("");
  });
});

describe("capsule assess", () => {
  test("a summary on a terminal, JSON into a pipe, --out 0600, and the stdin prompt", async () => {
    const home = temp();
    const r = await run(assess(home), JUDGEMENT, { stdout: true, stdin: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^capsule [0-9a-f]{64}\n {2}stored {5}sealed into /);
    expect(r.stdout).not.toContain(HANDLE);
    expect(r.stderr).toMatch(/^evidence-bridge: reading the judgement \(JSON\) from the terminal/);
    const again = await run(assess(home), JUDGEMENT, { stdout: true });
    expect(again.stdout).toContain("  stored     already in the store");
    const out = join(temp(), "c.json");
    const old = process.umask(0o022);
    try {
      expect((await run(assess(temp(), ["--out", out]), JUDGEMENT)).code).toBe(0);
    } finally {
      process.umask(old);
    }
    expect(statSync(out).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(out, "utf8")).content_sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});

const BUNDLE = join(repoRoot, "dist/bundle/bin.js");
describe.runIf(existsSync("/usr/bin/script") && existsSync(BUNDLE))("in a real pseudo-terminal (script)", () => {
  test("the built command prints the summary to a terminal and the JSON to a pipe", () => {
    const home = temp();
    const cmd = `${process.execPath} ${BUNDLE} --home ${home} --pack ${PACK} capsule build --no-store < ${join(EX, "assessment.json")}`;
    const tty = spawnSync("script", ["-qec", cmd, "/dev/null"], { encoding: "utf8", env: childEnv() });
    expect(tty.status, tty.stderr).toBe(0);
    expect(tty.stdout).toContain(`capsule ${ID}`);
    expect(tty.stdout).not.toContain(HANDLE);
    const piped = execFileSync("bash", ["-c", cmd], { encoding: "utf8", env: childEnv() });
    expect(JSON.parse(piped).content_sha256).toBe(ID);
  });
});
