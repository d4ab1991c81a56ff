/**
 * `evidence-bridge demo`: the main job on the synthetic example that ships with the project (examples/synthetic,
 * written by us), with no network and no configuration. It validates the assessment against the synthetic pack
 * and message, builds and verifies the capsule, seals it into a temporary private store, and prints the outward
 * candidate a reviewer would see. The temporary store is removed afterwards unless --keep is given.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAssessmentCapsule, projectProducer } from "../../../capsules/assessment/adapter.js";
import { validateAssessment } from "../../../capsules/assessment/intake.js";
import { deriveCandidate } from "../../../capsules/candidates/index.js";
import { loadCapsuleBytes } from "../../../capsules/capsule/load.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { loadPackFile } from "../../../published/pack/file.js";
import { packageRoot, packageVersion } from "../../package-info.js";
import { parseFlags } from "../args.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";

const help = `usage: evidence-bridge demo [--keep]

Runs the whole private pipeline on the synthetic example in examples/synthetic/ (a fictitious message, its
scamshield-provenance/v1 assessment and a small synthetic intelligence pack, all written by this project):
validate → build the Evidence Capsule v1 → verify it → seal it into a temporary private store → derive the
outward candidate (HUMAN_REVIEW_REQUIRED). No network, no configuration; your own data directory is not touched.

  --keep    keep the temporary data directory and print its path (to try 'capsule list' or 'feed' on it)
`;

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { flags } = parseFlags(args, { keep: { type: "boolean" } }, false);
  const dir = join(packageRoot(), "examples", "synthetic");
  const pack = loadPackFile(join(dir, "intelligence-pack.json"));
  const assessmentBytes = readFileSync(join(dir, "assessment.json"));
  const messageText = readFileSync(join(dir, "message.txt"), "utf8");
  const out = (line = "") => ctx.io.stdout.write(`${line}\n`);

  const { assessment } = validateAssessment(assessmentBytes, pack, { messageText });
  const built = buildAssessmentCapsule(assessmentBytes, assessment, projectProducer(packageVersion()));
  const capsuleBytes = Buffer.from(built.text, "utf8");
  const id = built.capsule.content_sha256;
  const report = verifyCapsule(loadCapsuleBytes(capsuleBytes));
  if (!report.ok) throw new CliError(`demo capsule did not verify: ${report.errors.join("; ")}`);

  const home = mkdtempSync(join(tmpdir(), "evidence-bridge-demo-"));
  try {
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const put = store.putCapsule(capsuleBytes, id);
    const receipt = store.receipt(id);
    const candidate = deriveCandidate(capsuleBytes, pack, { includeTypologyMatches: true, includeClean: false });
    if (candidate.status !== "emitted") throw new CliError(`demo candidate was ${candidate.status}: ${candidate.reason}`);

    out("evidence-bridge demo: synthetic example, nothing leaves this machine");
    out();
    out(`1. assessment   examples/synthetic/assessment.json (${assessment.schema_version}, id ${assessment.assessment_id})`);
    out(`                checked against the synthetic pack ${assessment.intelligence_pack.sha256.slice(0, 12)}… and the raw message`);
    out(`                (its SHA-256 matches message_sha256; the text itself is never printed or stored)`);
    out(`2. capsule      ${id}`);
    out(`                verification: ok=${report.ok}, artifacts ${report.artifacts.status}, claims ${report.claims.status}`);
    out(`3. sealed       into a temporary private store (${put.stored}); receipt ${receipt.status}`);
    out(`4. candidate    ${candidate.candidate.review_status}, digest ${candidate.digest}`);
    out(`                (IOC values, message text, message hash and pseudonym are not in it; counts only)`);
    out();
    out(Buffer.from(candidate.bytes).toString("utf8"));
    if (flags.keep === true) {
      out();
      out(`kept the demo data directory: ${home}`);
      out(`try: evidence-bridge --home ${home} capsule list`);
    }
  } finally {
    if (flags.keep !== true) rmSync(home, { recursive: true, force: true });
  }
  return 0;
}

const command: CliCommand = { help, summary: "run the whole private pipeline on the synthetic example (no network, no setup)", run };
export default command;
