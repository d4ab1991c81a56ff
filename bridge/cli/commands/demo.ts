/**
 * `evidence-bridge demo`: the main job on the synthetic example that ships with the project (examples/synthetic,
 * written by us), with no network and no configuration. It validates the assessment against the synthetic pack
 * and message, builds and verifies the capsule, seals it into a temporary private store, and prints the outward
 * candidate exactly as `review show` prints it by default (it runs that command on the store). The temporary store
 * is removed afterwards unless --keep is given; then it holds the synthetic pack as its own pack.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { projectProducer } from "../../../capsules/assessment/adapter.js";
import { buildFromIntake } from "../../../capsules/pipeline/build.js";
import { intakeAssessment } from "../../../capsules/pipeline/intake.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { readPackBytes } from "../../../published/pack/file.js";
import { installLoadedPack } from "../../../published/pack/home-pack.js";
import { loadPack } from "../../../published/pack/load.js";
import { packageRoot, packageVersion } from "../../package-info.js";
import { parseFlags } from "../args.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";

const help = `usage: evidence-bridge demo [--keep]
       evidence-bridge demo --examples DIR

Runs the whole private pipeline on the synthetic example in examples/synthetic/ (a fictitious message, its
scamshield-provenance/v1 assessment and a small synthetic intelligence pack, all written by this project):
validate → build the Evidence Capsule v1 → verify it → seal it into a temporary private store → show the
outward candidate exactly as 'review show' shows it to a reviewer by default. No network, no configuration;
your own data directory is not touched.

  --keep    keep the temporary data directory (with the synthetic pack installed as its own pack) and print
            the commands to try on it: capsule list, feed, review list and review show work there as written
  --examples DIR
            only copy the synthetic example files into DIR (a new directory): assessment.json, message.txt,
            judgement.json, intelligence-pack.json and regional-index.json, to try the README's commands on
`;

/** The synthetic example files `demo --examples` copies (all written by this project; nothing private). */
export const EXAMPLE_FILES = ["assessment.json", "message.txt", "judgement.json", "intelligence-pack.json", "regional-index.json"] as const;

function copyExamples(from: string, to: string, ctx: CliContext): number {
  if (existsSync(to)) throw new CliError(`demo --examples: ${to} already exists; name a new directory`);
  mkdirSync(to, { recursive: true });
  for (const f of EXAMPLE_FILES) copyFileSync(join(from, f), join(to, f));
  ctx.io.stdout.write(`${EXAMPLE_FILES.map((f) => `${join(to, f)}\n`).join("")}`);
  return 0;
}

/** How the user invoked us, for the "try next" lines: the checkout's bundle under npm run, else the bin name. */
function invocation(env: NodeJS.ProcessEnv): string {
  return env.npm_lifecycle_event === "demo" ? "node dist/bundle/bin.js" : "evidence-bridge";
}

/** Runs another command in this process with the given data directory, capturing its stdout. */
async function capture(command: CliCommand, args: string[], ctx: CliContext, home: string): Promise<string> {
  const chunks: Buffer[] = [];
  const stdout = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
      cb();
    },
  });
  const code = await command.run(args, { io: { ...ctx.io, stdout, env: { ...ctx.io.env, EVIDENCE_BRIDGE_PACK: "" } }, globalFlags: { home } });
  if (code !== 0) throw new CliError(`demo: review show exited ${code}`);
  return Buffer.concat(chunks).toString("utf8");
}

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { flags } = parseFlags(args, { keep: { type: "boolean" }, examples: { type: "string" } }, false);
  const dir = join(packageRoot(), "examples", "synthetic");
  if (flags.examples !== undefined) {
    if (flags.keep === true) throw new CliError("demo: --examples and --keep do not go together");
    if (flags.examples === "") throw new CliError("demo --examples: a directory is required");
    return copyExamples(dir, flags.examples as string, ctx);
  }
  const packBytes = readPackBytes(join(dir, "intelligence-pack.json"));
  const pack = loadPack(packBytes);
  const assessmentBytes = readFileSync(join(dir, "assessment.json"));
  const messageText = readFileSync(join(dir, "message.txt"), "utf8");
  const out = (line = "") => ctx.io.stdout.write(`${line}\n`);

  // The pipeline (docs/pipeline.md): intake, then build with its one self-verification (a failure throws).
  const built = buildFromIntake(intakeAssessment(assessmentBytes, pack, { messageText }), projectProducer(packageVersion()));
  const { assessment } = built.intake;
  const { report, id } = built;

  const home = mkdtempSync(join(tmpdir(), "evidence-bridge-demo-"));
  try {
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const put = store.putCapsule(built);
    const receipt = store.receipt(id);
    // The demo directory gets the synthetic pack as its own, so every command works there without --pack.
    installLoadedPack(home, { bytes: packBytes, pack });
    const { show } = await import("./review.js");
    const shown = await capture(show, [id.slice(0, 12)], ctx, home);

    out("evidence-bridge demo: synthetic example, nothing leaves this machine");
    out();
    out(`1. assessment   examples/synthetic/assessment.json (${assessment.schema_version}, id ${assessment.assessment_id})`);
    out(`                checked against the synthetic pack ${assessment.intelligence_pack.sha256.slice(0, 12)}… and the raw message`);
    out(`                (its SHA-256 matches message_sha256; the text itself is never printed or stored)`);
    out(`2. capsule      ${id}`);
    out(`                verification: ok=${report.ok}, artifacts ${report.artifacts.status}, claims ${report.claims.status}`);
    out(`3. sealed       into a temporary private store (${put.stored}); receipt ${receipt.status}`);
    out(`4. candidate    as a reviewer sees it by default ('review show ${id.slice(0, 6)}'); IOC values, message text,`);
    out(`                message hash and pseudonym are not in it, counts only:`);
    out();
    for (const line of shown.replace(/\n$/, "").split("\n")) out(`    ${line}`);
    out();
    const eb = invocation(ctx.io.env);
    if (flags.keep === true) {
      out(`kept the demo data directory (synthetic pack installed): ${home}`);
      out("try next:");
      out(`  export EVIDENCE_BRIDGE_HOME=${home}`);
      out(`  ${eb} capsule list`);
      out(`  ${eb} review list`);
      out(`  ${eb} review show ${id.slice(0, 6)}`);
      out(`  ${eb} feed`);
      out(`  ${eb} help`);
    } else {
      const keep = ctx.io.env.npm_lifecycle_event === "demo" ? "npm run demo -- --keep" : `${eb} demo --keep`;
      const rows: Array<[string, string]> = [
        [keep, "keep the demo data directory and list the commands to run on it"],
        [`${eb} help`, "every command with one line on each"],
        ["README.md", "the review loop on this example, step by step"],
      ];
      const width = Math.max(...rows.map((r) => r[0].length));
      out("try next:");
      for (const [cmd, what] of rows) out(`  ${cmd.padEnd(width)}  ${what}`);
    }
  } finally {
    if (flags.keep !== true) rmSync(home, { recursive: true, force: true });
  }
  return 0;
}
const command: CliCommand = { help, summary: "run the private pipeline on the synthetic example (no network)", run };
export default command;
