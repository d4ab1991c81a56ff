/**
 * `evidence-bridge capsule build` end to end through `main()` with in-memory streams: byte parity with the
 * reference bridge, the error contract (exit 2, empty stdout, one stderr line), the outbox and the store, the
 * message file, and that nothing private reaches stdout/stderr or the disk on failure.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterEach, beforeEach, expect, it } from "vitest";
import { main, oneLine } from "../../../bridge/cli/main.js";
import { CliError } from "../../../bridge/cli/context.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { openStore } from "../../../capsules/store/store.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject, JsonValue } from "../../../src/json/value.js";
import { deriveAssessment } from "../../../capsules/assess/derive.js";
import { checkJudgement } from "../../../capsules/assess/judgement.js";
import { fromJs } from "../../../capsules/capsule/js-input.js";
import { loadPackFile } from "../../../published/pack/file.js";
import { describeShared, readShared, sharedPath, validExampleNames } from "../../helpers/shared.js";
import { TEST_ENDPOINT_ENV } from "../../helpers/test-env.js";

const EXAMPLES = "data/bridge-examples";
const PACK = sharedPath("data/intelligence-pack/intelligence-pack-v1.json");
const REFERENCE = ["--producer-name", "Palimpsest", "--producer-software", "evidence.scamshield/v1"];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI like `runProcess` does: errors become one stderr line and their exit code. */
async function runCli(argv: string[], stdin: Uint8Array, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (c: Buffer) => out.push(c));
  stderr.on("data", (c: Buffer) => err.push(c));
  let code: number;
  try {
    code = await main(argv, { stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr, env: { ...TEST_ENDPOINT_ENV, ...env } });
  } catch (e) {
    stderr.write(`evidence-bridge: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    code = e instanceof CliError ? e.exitCode : 2;
  }
  return { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
}

let dir: string;
let home: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "capsule-build-"));
  home = join(dir, "home");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function build(args: string[], stdin: Uint8Array, env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return runCli(["--home", home, "--pack", PACK, "capsule", "build", ...args], stdin, env);
}

const validNames = validExampleNames;

const valid = (name: string) => readShared(EXAMPLES, "valid", `${name}.json`);

function expectFailure(run: Run, pattern: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toMatch(/^evidence-bridge: [^\n]+\n$/);
  expect(run.stderr).toMatch(pattern);
}

/** Every file below `root` (relative paths). */
function filesUnder(root: string): string[] {
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name).slice(root.length + 1))
    .sort();
}

describeShared("capsule build", () => {
  it.each(validNames())("reproduces valid/%s byte for byte, stores it and writes the outbox", async (name) => {
    const expected = readShared(EXAMPLES, "valid", `${name}.capsule.json`).toString("utf8");
    const outbox = join(dir, "outbox");
    const run = await build([...REFERENCE, "--outbox", outbox], valid(name));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(expected);
    const id = (parseStrictJson(expected) as JsonObject).get("content_sha256") as string;
    expect(readFileSync(join(outbox, `${id}.json`), "utf8")).toBe(expected);
    expect(statSync(join(outbox, `${id}.json`)).mode & 0o777).toBe(0o600);
    expect(statSync(outbox).mode & 0o777).toBe(0o700);
    const store = await openStore({ home, passphrase: undefined });
    expect(Buffer.from(store.getCapsule(id)).toString("utf8")).toBe(expected);
    // Idempotent: the same input again succeeds with the same output.
    expect((await build([...REFERENCE, "--outbox", outbox], valid(name))).stdout).toBe(expected);
  });

  it("names this project in the producer block by default, and the capsule verifies", async () => {
    const run = await build(["--no-store"], valid("13-wildlife-ivory-en"));
    expect(run.code).toBe(0);
    const capsule = parseStrictJson(run.stdout) as JsonObject;
    const producer = (capsule.get("content") as JsonObject).get("producer") as JsonObject;
    expect(producer.get("name")).toBe("evidence-bridge");
    expect(producer.get("software")).toMatch(/^evidence-bridge\/\d+\.\d+\.\d+/);
    expect(verifyCapsule(capsule).ok).toBe(true);
    expect(existsSync(home)).toBe(false);
  });

  const invalid = readdirSync(sharedPath(EXAMPLES, "invalid")).sort();
  const lenient = readdirSync(sharedPath(EXAMPLES, "lenient")).sort();
  const reasons: Record<string, RegExp> = {
    "01-bad-enum-detector-tier.json": /assessment\.detector\.tier: expected one of/,
    "11-oversize-1MiB-plus-1.json": /: assessment exceeds 1 MiB$/m,
    "12-duplicate-key-assessment-id.json": /duplicate JSON key: 'assessment_id'/,
    "14-nan-market-rate.json": /non-finite JSON number is forbidden: NaN/,
    "17-bad-hex-message-sha256-uppercase.json": /assessment\.message_sha256: expected 64 lowercase hex characters/,
    "24-unknown-ioc-kind.json": /assessment\.detector\.iocs: unknown field\(s\): ips/,
    "28-float-detector-score.json": /assessment\.detector\.score: expected integer .*\(got float\)/,
    "33-lone-surrogate.json": /json\.origin_answer: lone Unicode surrogate is forbidden/,
    "34-invalid-utf8.json": /JSON is not UTF-8: invalid byte 0xff at offset 4307/,
    "35-utf8-bom.json": /invalid JSON: Unexpected UTF-8 BOM/,
    "38-empty-stdin.json": /invalid JSON: Expecting value: line 1 column 1 \(char 0\)/,
    "45-nesting-depth-33.json": /json\.market_rate\.debug(\[0\]){31}: JSON nesting exceeds 32/,
    "02-origin-answer-carries-ioc.json": /assessment\.hypotheses: typology 'mule-crypto-cashout' matches over the assessment's signals .* \(R4\)/,
    "05-unsupported-direct-link.json": /assessment\.hypotheses\[0\]\.support_level: DIRECT_LINK requires/,
  };

  it.each([...invalid.map((f) => ["invalid", f]), ...lenient.map((f) => ["lenient", f])])(
    "refuses %s/%s: exit 2, empty stdout, one line, nothing written",
    async (sub, file) => {
      const outbox = join(dir, "outbox");
      const run = await build([...REFERENCE, "--outbox", outbox], readShared(EXAMPLES, sub, file));
      expectFailure(run, reasons[file]);
      expect(run.stderr).not.toContain("@leaky_handle");
      expect(existsSync(outbox)).toBe(false);
      expect(existsSync(home)).toBe(false);
    },
  );

  it("checks --message-file against message_sha256 and never echoes it", async () => {
    const name = "01-mule-account-rental-hinglish";
    const text = readShared(EXAMPLES, "valid", `${name}.txt`);
    const good = join(dir, "message.txt");
    writeFileSync(good, text);
    const ok = await build([...REFERENCE, "--no-store", "--message-file", good], valid(name));
    expect(ok.code).toBe(0);
    expect(ok.stdout).toBe(readShared(EXAMPLES, "valid", `${name}.capsule.json`).toString("utf8"));
    expect(ok.stdout).not.toContain(text.toString("utf8"));

    const edited = join(dir, "edited.txt");
    writeFileSync(edited, Buffer.concat([text, Buffer.from("\n")]));
    const bad = await build(["--no-store", "--message-file", edited], valid(name));
    expectFailure(bad, /assessment\.message_sha256: the SHA-256 of the given message does not equal message_sha256/);
    expect(bad.stderr).not.toContain(text.toString("utf8").slice(0, 16));
    expect(bad.stderr).not.toMatch(/[0-9a-f]{64}/);

    writeFileSync(join(dir, "bad-utf8.txt"), Buffer.from([0x61, 0xff]));
    expectFailure(await build(["--no-store", "--message-file", join(dir, "bad-utf8.txt")], valid(name)), /--message-file: .* is not valid UTF-8/);
    expectFailure(await build(["--no-store", "--message-file", join(dir, "absent.txt")], valid(name)), /--message-file: \/\S+ does not exist \(ENOENT\)\n$/);
  });

  it("--retain-message seals the message into the store and writes no plaintext of it", async () => {
    const name = "05-feiqian-zh-simplified-plus-mule";
    const text = readShared(EXAMPLES, "valid", `${name}.txt`);
    const file = join(dir, "message.txt");
    writeFileSync(file, text);
    const run = await build(["--message-file", file, "--retain-message"], valid(name));
    expect(run.code).toBe(0);
    const store = await openStore({ home, passphrase: undefined });
    const sha = (parseStrictJson(valid(name)) as JsonObject).get("message_sha256") as string;
    expect(Buffer.from(store.getMessage(sha)).equals(text)).toBe(true);
    for (const f of filesUnder(home)) expect(readFileSync(join(home, f)).includes(text)).toBe(false);

    const without = await build(["--no-store", "--message-file", file], valid(name));
    expect(without.code).toBe(0);
  });

  it("keeps the store untouched with --no-store", async () => {
    const run = await build(["--no-store"], valid("22-clean-mandi-prices"));
    expect(run.code).toBe(0);
    expect(existsSync(home)).toBe(false);
  });

  it("refuses different bytes under an existing outbox name and leaves the file alone", async () => {
    const name = "08-golden-triangle-casino-junket";
    const expected = readShared(EXAMPLES, "valid", `${name}.capsule.json`);
    const id = (parseStrictJson(expected) as JsonObject).get("content_sha256") as string;
    const outbox = join(dir, "outbox");
    mkdirSync(outbox, { mode: 0o700 });
    writeFileSync(join(outbox, `${id}.json`), "tampered\n", { mode: 0o600 });
    const run = await build([...REFERENCE, "--no-store", "--outbox", outbox], valid(name));
    expectFailure(run, /outbox: existing capsule path has different bytes/);
    expect(readFileSync(join(outbox, `${id}.json`), "utf8")).toBe("tampered\n");
    expect(readdirSync(outbox)).toEqual([`${id}.json`]);
  });

  it.each([
    [["--producer-name", "X"], /--producer-name and --producer-software must be given together/],
    [["--retain-message"], /--retain-message needs --message-file/],
    [["--retain-message", "--message-file", "m.txt", "--no-store"], /--retain-message cannot be combined with --no-store/],
    [["--outbox", "./x"], /outbox: the path must not contain empty, '\.' or '\.\.' components/],
    [["--bogus"], /Unknown option '--bogus'/],
    [["extra"], /Unexpected argument 'extra'/],
    [["--producer-name", "a\u202eb", "--producer-software", "s"], /--producer-name: expected a non-blank text/],
  ])("rejects usage %j", async (args, pattern) => {
    expectFailure(await build(["--no-store", ...args], valid("22-clean-mandi-prices")), pattern);
  });

  it("says clearly when no intelligence pack is configured", async () => {
    const run = await runCli(["--home", home, "capsule", "build", "--no-store"], valid("22-clean-mandi-prices"));
    expectFailure(run, /no intelligence pack in the data directory .*: run 'evidence-bridge pack fetch' to install the pinned published pack/);
  });

  it("takes the pack from EVIDENCE_BRIDGE_PACK and reports a broken pack", async () => {
    const viaEnv = await runCli(["--home", home, "capsule", "build", "--no-store"], valid("22-clean-mandi-prices"), { EVIDENCE_BRIDGE_PACK: PACK });
    expect(viaEnv.code).toBe(0);
    writeFileSync(join(dir, "pack.json"), "{}");
    const broken = await runCli(["--home", home, "--pack", join(dir, "pack.json"), "capsule", "build", "--no-store"], valid("22-clean-mandi-prices"));
    expectFailure(broken, /^evidence-bridge: intelligence pack: pack\.\S+: /);
  });

  it("prints usage with --help", async () => {
    const run = await runCli(["capsule", "build", "--help"], new Uint8Array());
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^usage: evidence-bridge .*capsule build/);
  });
});

describeShared("capsule build: one capsule per assessment_id", () => {
  it("the same assessment re-serialised prints the stored capsule with a warning; no second capsule is stored", async () => {
    const name = validNames()[0];
    const first = await build([], valid(name));
    expect(first.code).toBe(0);
    const reindented = Buffer.from(JSON.stringify(JSON.parse(valid(name).toString("utf8")), null, 1).replace(/"rate": 91.97/, '"rate": 91.97'));
    const second = await build([], reindented);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe(first.stdout);
    const id = JSON.parse(first.stdout).content_sha256;
    expect(second.stderr).toMatch(new RegExp(`^evidence-bridge: warning: assessment [0-9a-f]{24} was already recorded as capsule ${id} \\(other bytes\\)`));
    const store = await openStore({ home, passphrase: undefined });
    expect(store.capsuleIds()).toEqual([id]);
  });
});

describeShared("capsule build: a withheld candidate is said on stderr", () => {
  it("an assessment quoting a word that a public family name spells is sealed, and stderr says its candidate is withheld", async () => {
    const pack = loadPackFile(PACK);
    const message = "Earn daily: we need your account for transfers, commission paid. Ping @acct_helper_42";
    const judgement = checkJudgement(
      fromJs({
        signals: ["account_rental_offer", "commission_share_terms"],
        findings: [{ rule_id: "task_scam_pattern", tier: "WATCH", evidence_classes: ["offer"], fragments: { offer: ["account"] } }],
        surface: "private_submission",
        authorization: "user_submitted",
      }) as JsonValue,
    );
    const { bytes } = deriveAssessment({ message, judgement, pack, pseudonymKey: "0".repeat(64) });
    const r = await build([], bytes);
    expect(r.code).toBe(0);
    const id = JSON.parse(r.stdout).content_sha256;
    expect(r.stderr).toMatch(new RegExp(`^evidence-bridge: capsule ${id} is sealed, but its outward candidate is withheld \\(leak guard: matched_term in candidate\\.detector\\.families\\[0\\]\\), so it will not reach review`));
    expect(r.stderr).not.toContain("account");
    const store = await openStore({ home, passphrase: undefined });
    expect(store.capsuleIds()).toEqual([id]);
  });
});
