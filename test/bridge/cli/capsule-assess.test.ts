/**
 * `evidence-bridge capsule assess` through `main()`: a sealed capsule from a raw message and a judgement, the
 * error contract of `capsule build`, idempotence and --supersede, --retain-message, and a canary: the message
 * text, its hash and its IOCs reach neither stdout, stderr nor any file in plaintext.
 */
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Readable } from "node:stream";
import { afterEach, beforeEach, expect, it } from "vitest";
import { main, oneLine } from "../../../bridge/cli/main.js";
import { CliError } from "../../../bridge/cli/context.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { loadCapsuleBytes } from "../../../capsules/capsule/load.js";
import { openStore } from "../../../capsules/store/store.js";
import { PENDING_DIR } from "../../../capsules/store/derivation-cache.js";
import { readCapsuleSource } from "../../../capsules/pipeline/capsule-source.js";
import { describeShared, sharedPath } from "../../helpers/shared.js";
import { TEST_ENDPOINT_ENV } from "../../helpers/test-env.js";

const PACK = sharedPath("data/intelligence-pack/intelligence-pack-v1.json");
const CANARY_HANDLE = "@canary_handle_7731";
const CANARY_WALLET = "0x9b1f00c0ffee00000000000000000000000a7731";
const CANARY_TEXT = `CANARY-MESSAGE-7731 bank accounts on rent 3% commission, DM ${CANARY_HANDLE}, pay ${CANARY_WALLET}`;
const JUDGEMENT = {
  signals: ["account_rental_offer", "account_sourcing_demand", "commission_share_terms"],
  findings: [],
  surface: "private_submission",
  authorization: "user_submitted",
  source: "telegram-user:7731",
};

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function runCli(argv: string[], stdin: string): Promise<Run> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on("data", (c: Buffer) => out.push(c));
  stderr.on("data", (c: Buffer) => err.push(c));
  let code: number;
  try {
    code = await main(argv, { stdin: Readable.from([Buffer.from(stdin)]), stdout, stderr, env: { ...TEST_ENDPOINT_ENV } });
  } catch (e) {
    stderr.write(`evidence-bridge: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    code = e instanceof CliError ? e.exitCode : 2;
  }
  return { code, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") };
}

let dir: string;
let home: string;
let messageFile: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "capsule-assess-"));
  home = join(dir, "home");
  messageFile = join(dir, "message.txt");
  writeFileSync(messageFile, CANARY_TEXT);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const assess = (args: string[], judgement: unknown = JUDGEMENT) =>
  runCli(["--home", home, "--pack", PACK, "capsule", "assess", "--message-file", messageFile, ...args], typeof judgement === "string" ? judgement : JSON.stringify(judgement));

function expectFailure(run: Run, pattern: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr).toMatch(/^evidence-bridge: [^\n]+\n$/);
  expect(run.stderr).toMatch(pattern);
}

/** Every file under the home directory, as bytes. */
function homeFiles(): Buffer[] {
  return readdirSync(home, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name)));
}

describeShared("capsule assess", () => {
  it("prints a verifying capsule of the assess producer, seals it, and keeps the canary out of every output", async () => {
    const r = await assess([]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("");
    const capsule = loadCapsuleBytes(Buffer.from(r.stdout));
    expect(verifyCapsule(capsule).ok).toBe(true);
    const content = JSON.parse(r.stdout).content;
    expect(content.producer).toEqual({ name: "evidence-bridge", software: "evidence-bridge/assess" });
    expect(content.claims.map((c: { id: string }) => c.id)).toContain("judgement-origin");
    const store = await openStore({ home, passphrase: undefined });
    expect(store.capsuleIds()).toEqual([JSON.parse(r.stdout).content_sha256]);
    // Its derivation was written (sealed) at put, as capsule build does, so a later feed reads it (docs/feed.md).
    expect(readdirSync(join(store.layout.root, PENDING_DIR))).toEqual([`${JSON.parse(r.stdout).content_sha256}.sealed`]);

    // Canary: the text never appears; the hash and IOCs only inside the (sealed) capsule.
    const hash = createHash("sha256").update(CANARY_TEXT).digest("hex");
    expect(r.stdout).not.toContain("CANARY-MESSAGE");
    for (const f of homeFiles()) {
      for (const secret of ["CANARY-MESSAGE", CANARY_HANDLE, CANARY_WALLET, hash]) expect(f.includes(secret)).toBe(false);
    }
    expect(store.hasMessage(hash)).toBe(false);
  });

  it("the same message again returns the stored capsule and says so; --supersede records a new one naming the old", async () => {
    const first = await assess([]);
    const again = await assess([]);
    expect(again.code).toBe(0);
    expect(again.stdout).toBe(first.stdout);
    const id = JSON.parse(first.stdout).content_sha256;
    expect(again.stderr).toBe(`evidence-bridge: this message was already recorded as capsule ${id}; nothing new was built (use --supersede to record it again)\n`);
    const retained = await assess(["--retain-message"]);
    expect(retained.stderr).toBe(`evidence-bridge: this message was already recorded as capsule ${id}; nothing new was built (use --supersede to record it again); its text is now sealed in the store\n`);
    await new Promise((r) => setTimeout(r, 5)); // a later created_at
    const superseding = await assess(["--supersede"]);
    expect(superseding.code).toBe(0);
    const newId = JSON.parse(superseding.stdout).content_sha256;
    expect(newId).not.toBe(id);
    expect(superseding.stderr).toBe(`evidence-bridge: capsule ${newId} supersedes ${id}\n`);
    expect((await openStore({ home, passphrase: undefined })).capsuleIds().sort()).toEqual([id, newId].sort());
  });

  it("--retain-message seals the text (never in plaintext)", async () => {
    const r = await assess(["--retain-message"]);
    expect(r.code).toBe(0);
    const hash = createHash("sha256").update(CANARY_TEXT).digest("hex");
    const store = await openStore({ home, passphrase: undefined });
    expect(Buffer.from(store.getMessage(hash)).toString("utf8")).toBe(CANARY_TEXT);
    for (const f of homeFiles()) expect(f.includes("CANARY-MESSAGE")).toBe(false);
  });

  it("errors: exit 2, empty stdout, one line naming the path and rule, never the value", async () => {
    expectFailure(await assess([], { ...JUDGEMENT, signals: ["made_up_signal"] }), /judgement\.signals\[0\]: expected one of /);
    expectFailure(await assess([], { ...JUDGEMENT, extra: 1 }), /judgement: 1 unknown field\(s\) \(names not shown; allowed: signals, findings/);
    // A value in the wrong field (here a handle without its @) is never quoted back.
    const handleAsSignal = await assess([], { ...JUDGEMENT, signals: ["canarydesk_9"] });
    expectFailure(handleAsSignal, /judgement\.signals\[0\]: expected one of .* \(got a string of 12 characters\)/);
    expect(handleAsSignal.stderr).not.toContain("canarydesk_9");
    expectFailure(await assess([], { ...JUDGEMENT, findings: [{ rule_id: "wildlife_trade_offer", tier: "CONFIRMED_PATTERN", evidence_classes: ["offer"] }] }), /capped at LIKELY_SCAM/);
    const notThere = await assess([], { ...JUDGEMENT, iocs: { emails: ["CANARY-NOT-IN-TEXT@x.example"] } });
    expectFailure(notThere, /^evidence-bridge: judgement\.iocs\.emails\[0\]: this email does not occur in the message \(after Unicode normalisation\)\n$/);
    const fragment = await assess([], { ...JUDGEMENT, findings: [{ rule_id: "task_scam_pattern", tier: "WATCH", evidence_classes: ["offer"], fragments: { offer: ["CANARY-PARAPHRASE"] } }] });
    expectFailure(fragment, /fragments\.offer\[0\]: not an exact substring/);
    expect(fragment.stderr).not.toContain("CANARY");
    expectFailure(await assess([], "{not json"), /judgement: not strict JSON/);
    expectFailure(await assess([], ""), /^evidence-bridge: judgement: stdin is empty/);
    expectFailure(await assess(["--retain"]), /^evidence-bridge: Unknown option '--retain' \(the options are --message-file, --retain-message, --supersede, --json, --out\)\n$/);
    expectFailure(await runCli(["--home", home, "--pack", PACK, "capsule", "assess"], "{}"), /--message-file: the raw message file is required/);
    const nope = join(dir, "nope.txt");
    const missing = await runCli(["--home", home, "--pack", PACK, "capsule", "assess", "--message-file", nope], JSON.stringify(JUDGEMENT));
    expectFailure(missing, /does not exist/);
    expect(missing.stderr).toBe(`evidence-bridge: --message-file: ${nope} does not exist (ENOENT)\n`); // the path once
    const fifo = join(dir, "fifo");
    execFileSync("mkfifo", [fifo]);
    expectFailure(await runCli(["--home", home, "--pack", PACK, "capsule", "assess", "--message-file", fifo], JSON.stringify(JUDGEMENT)), /--message-file: \S+fifo is a FIFO; only regular files are read/);
    symlinkSync(messageFile, join(dir, "link.txt"));
    expectFailure(await runCli(["--home", home, "--pack", PACK, "capsule", "assess", "--message-file", join(dir, "link.txt")], JSON.stringify(JUDGEMENT)), /--message-file: \S+link\.txt is a symbolic link; only regular files are read/);
    // Nothing was stored by any failure.
    expect(homeFiles().some((f) => f.includes("CANARY"))).toBe(false);
  });

  it("says on stderr when the sealed capsule's candidate is withheld (a one-word quote that a public family name spells)", async () => {
    writeFileSync(messageFile, "Earn daily: we need your account for transfers, commission paid. Ping @acct_helper_42");
    const judgement = {
      signals: ["account_rental_offer", "commission_share_terms"],
      findings: [{ rule_id: "task_scam_pattern", tier: "WATCH", evidence_classes: ["offer", "payment"], fragments: { offer: ["account"], payment: ["commission paid"] } }],
      surface: "private_submission",
      authorization: "user_submitted",
    };
    const r = await assess([], judgement);
    expect(r.code).toBe(0);
    const id = JSON.parse(r.stdout).content_sha256;
    expect(r.stderr).toBe(
      `evidence-bridge: capsule ${id} is sealed, but its outward candidate is withheld (leak guard: matched_term in candidate.detector.families[0]), so it will not reach review (a private value that is also a word of the candidate's public fields does this; docs/candidates.md "Withheld")\n`,
    );
    // The same message again: already recorded, and still said to be withheld.
    const again = await assess([], judgement);
    expect(again.stderr).toBe(
      `evidence-bridge: this message was already recorded as capsule ${id}; nothing new was built (use --supersede to record it again)\n` +
        `evidence-bridge: capsule ${id} is sealed, but its outward candidate is withheld (leak guard: matched_term in candidate.detector.families[0]), so it will not reach review (a private value that is also a word of the candidate's public fields does this; docs/candidates.md "Withheld")\n`,
    );
    // A distinctive quote: the candidate is emitted and nothing is said.
    writeFileSync(messageFile, "Earn daily: we need your account for transfers, commission paid. Ping @acct_helper_43");
    const distinctive = await assess([], { ...judgement, findings: [{ ...judgement.findings[0], fragments: { offer: ["need your account for transfers"], payment: ["commission paid"] } }] });
    expect(distinctive.code).toBe(0);
    expect(distinctive.stderr).toBe("");
  });

  it("says how many wallet addresses failed their checksum, never which", async () => {
    const wallet = "TE7Ut7NwLifP2XPdtz761z57MkEWJUTu7n";
    writeFileSync(messageFile, `USDT TRC20 ${wallet} pe bhejo, account on rent 3% commission`);
    const r = await assess([]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("evidence-bridge: 1 wallet address(es) failed their checksum (mistyped or made up; recorded as written), 0 verified, 0 without one\n");
    const source = readCapsuleSource(Buffer.from(r.stdout));
    if (!source.ok) throw new Error(source.reason);
    expect(JSON.parse(Buffer.from(source.assessmentBytes).toString("utf8")).detector.iocs.wallets).toEqual([wallet]);
  });

  it("a message file without visible text is refused before a data directory is created", async () => {
    const fresh = join(dir, "fresh-home");
    const blank = join(dir, "blank.txt");
    writeFileSync(blank, "\ufeff \u200b\n");
    const r = await runCli(["--home", fresh, "--pack", PACK, "capsule", "assess", "--message-file", blank], JSON.stringify(JUDGEMENT));
    expectFailure(r, /^evidence-bridge: --message-file: no visible character \(empty, or only spaces and invisible characters\)\n$/);
    expect(existsSync(fresh)).toBe(false);
  });
});
