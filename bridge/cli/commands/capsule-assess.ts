/**
 * `capsule assess --message-file FILE [--retain-message] [--supersede] < judgement.json` (docs/assess.md): the
 * raw message and the client's judgement → the whole `scamshield-provenance/v1` assessment derived by the bridge →
 * Evidence Capsule (producer evidence-bridge, software evidence-bridge/assess) → sealed store → the capsule file
 * (canonical JSON + LF) on stdout. Same error contract as `capsule build`: exit 2, nothing on stdout, one stderr
 * line. A message already recorded prints the stored capsule and says so on stderr, unless --supersede.
 */
import { assessAndSealConcurrently, CLEAN_DROPS_IOCS } from "../../../capsules/assess/assess.js";
import { checkJudgement, JudgementError } from "../../../capsules/assess/judgement.js";
import { checkMessageText } from "../../../capsules/assess/message-text.js";
import { AssessmentError } from "../../../capsules/assessment/errors.js";
import { JsonLoadError, parseStrictJson } from "../../../src/json/parse.js";
import { parseFlags, readLimited } from "../args.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { loadPack, readMessageFile } from "./capsule-build.js";
import { rememberPackConcurrently } from "../pack-choice.js";
import { coverCodePath } from "../code-path.js";
import type { Derivation } from "../../../capsules/pipeline/derivation.js";
import { withheldNote } from "../withheld-note.js";
import { CAPSULE_OUTPUT_FLAGS, capsuleOutputHelp, capsuleOutputFlags, emitCapsule, promptForStdin } from "../capsule-output.js";

/** Largest judgement read from stdin. */
export const JUDGEMENT_MAX_BYTES = 262_144;

const help = `usage: evidence-bridge [--pack FILE] [--home DIR] capsule assess --message-file FILE [--out FILE]
         [--json] [--retain-message] [--supersede] < judgement.json

Reads the client's judgement of one message (strict JSON, at most 256 KiB) from stdin, derives the whole
scamshield-provenance/v1 assessment from the message and that judgement (message hash, IOCs, detector score and
tier from the weight table, threat tier, pack match, assessment id; docs/assess.md), builds and verifies the
Evidence Capsule and seals it into the private store. The capsule file (canonical JSON + newline) goes to --out
FILE (mode 0600) or to stdout when stdout is a pipe or with --json; on a terminal a one-screen summary instead.

${capsuleOutputHelp(24)}
  --message-file FILE   the raw message (a regular file, UTF-8, at most 1 MiB); hashed and used, never
                        printed or written
  --retain-message      also seal the message text into the store
  --supersede           record the message again although it was recorded before (the new capsule supersedes
                        the earlier one; stderr names it)

Judgement: {"signals": [...], "findings": [{"rule_id", "tier", "evidence_classes", "fragments"?}],
"surface", "authorization", "observed_at"?, "source"?, "iocs"?} in the closed vocabularies of assessment-v1.

Exit status: 0 success; 2 any error (nothing on stdout, exactly one stderr line 'evidence-bridge: <reason>').
`;

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { flags } = parseFlags(
    args,
    { "message-file": { type: "string" }, "retain-message": { type: "boolean" }, supersede: { type: "boolean" }, ...CAPSULE_OUTPUT_FLAGS },
    false,
  );
  const messageFile = flags["message-file"] as string | undefined;
  if (messageFile === undefined || messageFile === "") throw new CliError("--message-file: the raw message file is required");
  const { pack, resolved, config } = loadPack(ctx);
  const output = capsuleOutputFlags(flags, config.home);
  promptForStdin(ctx, "the judgement (JSON)");
  const raw = await readLimited(ctx.io.stdin, JUDGEMENT_MAX_BYTES, `judgement exceeds ${JUDGEMENT_MAX_BYTES} bytes`);
  if (raw.length === 0) throw new CliError("judgement: stdin is empty (the judgement JSON is read from stdin; docs/assess.md)");
  let judgement;
  try {
    judgement = checkJudgement(parseStrictJson(raw));
  } catch (e) {
    if (e instanceof JudgementError) throw new CliError(e.message);
    // The loader's text can quote keys and positions of client text; the rule alone is reported.
    if (e instanceof JsonLoadError) throw new CliError(`judgement: not strict JSON (rule ${e.rule}; assessment-v1 §2.1)`);
    throw e;
  }
  // readMessageFile reads only a regular file: a FIFO, device or link is refused at once, never waited on.
  const message = readMessageFile(messageFile);
  // Before the store is opened (or created): a message that cannot be recorded leaves nothing behind.
  let checkedMessage;
  try {
    checkedMessage = checkMessageText(message.text, "--message-file");
  } catch (e) {
    if (e instanceof JudgementError) throw new CliError(e.message);
    throw e;
  }

  const { openOrCreateStore } = await import("../../../capsules/store/store.js");
  const stored = await import("../../../capsules/pipeline/stored.js");
  let outcome;
  let store;
  try {
    store = await openOrCreateStore(config);
    // The fingerprints of the message and of the judgement's source (docs/guard.md "Message fingerprints").
    // Both in one durable write, its independent syncs at once, complete before the capsule is sealed.
    const { recordMessageFingerprintsConcurrently } = await import("../../../capsules/store/message-fingerprints.js");
    await recordMessageFingerprintsConcurrently(store, judgement.source === undefined ? [message.text] : [message.text, judgement.source]);
    outcome = await assessAndSealConcurrently(store, pack, {
      message: checkedMessage,
      judgement,
      retainMessage: flags["retain-message"] === true,
      supersede: flags.supersede === true,
    });
  } catch (e) {
    if (e instanceof JudgementError || e instanceof AssessmentError) throw new CliError(e.message);
    throw new CliError(`store: ${(e as Error).message}`);
  }
  coverCodePath(outcome.status === "new" ? "stored" : "recorded"); // docs/startup.md "Code cache coverage"
  // The pack is remembered once the capsule is stored; its syncs run while the capsule's derivation is made.
  const remembering = rememberPackConcurrently(config, resolved);
  const made = new Map<string, Derivation>();
  try {
    // Like capsule build: the new capsule's derivation goes to the derivation cache, so a later feed reads it
    // (docs/feed.md); an earlier recording's is derived here, so a withheld one is said again (docs/candidates.md).
    if (outcome.status === "new") stored.cacheDerivations(store, pack, [outcome.capsule], made);
    else made.set(outcome.capsuleId, stored.deriveStorable(outcome.capsule, pack));
  } catch {
    // The capsule is stored; a derivation the cache lacks is derived again when read.
  }
  await remembering;
  await emitCapsule(ctx, output, { id: outcome.capsuleId, bytes: outcome.capsuleBytes, stored: outcome.status === "already_recorded" ? "recorded" : "new", derivations: made }, config.home);
  if (outcome.status === "already_recorded") {
    const sealed = outcome.messageRetained ? "; its text is now sealed in the store" : "";
    ctx.io.stderr.write(`evidence-bridge: this message was already recorded as capsule ${outcome.capsuleId}; nothing new was built (use --supersede to record it again)${sealed}\n`);
  } else if (outcome.supersedes.length > 0) {
    ctx.io.stderr.write(`evidence-bridge: capsule ${outcome.capsuleId} supersedes ${outcome.supersedes.join(", ")}\n`);
  }
  if (outcome.clientIocsDropped === true) ctx.io.stderr.write(`evidence-bridge: ${CLEAN_DROPS_IOCS}\n`);
  const checksums = outcome.walletChecksums;
  if (checksums !== undefined && checksums.failed > 0) {
    ctx.io.stderr.write(`evidence-bridge: ${checksums.failed} wallet address(es) failed their checksum (mistyped or made up; recorded as written), ${checksums.verified} verified, ${checksums.none} without one\n`);
  }
  const withheld = withheldNote(made, outcome.capsuleId);
  if (withheld !== undefined) ctx.io.stderr.write(withheld);
  return 0;
}

const command: CliCommand = { summary: "raw message and your judgement: derive, build and seal a capsule", help, run };
export default command;
