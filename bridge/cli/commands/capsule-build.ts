/**
 * `capsule build` (product.md §5, assessment-v1 §6.7): one assessment on stdin → validate (shape, message file,
 * pack consistency, assessment id) → build → self-verify → seal into the store → optional plaintext outbox →
 * the capsule file (canonical JSON + LF) on stdout. Any failure: exit 2, nothing on stdout, one stderr line.
 *
 * The sealed store and the outbox writer are loaded only when used, so `--no-store` builds stay light.
 */
import { readRegularFile, SafeReadError } from "../../../src/crypto/safe-read.js";
import { projectProducer, REFERENCE_PRODUCER, type Producer } from "../../../capsules/assessment/adapter.js";
import { AssessmentError } from "../../../capsules/assessment/errors.js";
import { buildFromIntake, type BuiltCapsule } from "../../../capsules/pipeline/build.js";
import { intakeAssessment } from "../../../capsules/pipeline/intake.js";
import { ASSESSMENT_MAX_BYTES } from "../../../capsules/assessment/parse-assessment.js";
import { firstControlOrFormat, isPythonBlank } from "../../../capsules/assessment/text-rules.js";
import { PackError } from "../../../published/pack/errors.js";
import { rememberPackConcurrently, useConfiguredPack } from "../pack-choice.js";
import type { ResolvedPack } from "../../../published/pack/home-pack.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { packageVersion } from "../../package-info.js";
import { parseFlags, readLimited } from "../args.js";
import { configFrom } from "../config.js";
import { assertOutsideDataDir } from "../outside-data-dir.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { withheldNote } from "../withheld-note.js";
import { coverCodePath } from "../code-path.js";
import { CAPSULE_OUTPUT_FLAGS, capsuleOutputHelp, capsuleOutputFlags, emitCapsule, promptForStdin } from "../capsule-output.js";
import type { Derivation } from "../../../capsules/pipeline/derivation.js";

/** Largest message file `--message-file` reads. */
export const MESSAGE_FILE_MAX_BYTES = 1_048_576;

const help = `usage: evidence-bridge [--pack FILE] [--home DIR] capsule build [--out FILE] [--json] [--outbox DIR]
         [--message-file F] [--retain-message] [--no-store] [--producer-name N --producer-software S]
         < assessment.json

Reads one scamshield-provenance/v1 assessment (at most 1 MiB) from stdin, validates it strictly (closed shape,
consistency with the intelligence pack, recomputed assessment_id), builds the Evidence Capsule v1, verifies it
and seals it into the private store. The capsule file (canonical JSON + newline) goes to --out FILE (mode 0600)
or to stdout when stdout is a pipe or with --json; on a terminal a one-screen summary is printed instead.

${capsuleOutputHelp(27)}
  --outbox DIR             also write <content_sha256>.json (plaintext, mode 0600) into DIR (created 0700);
                           an identical existing file is success, a different one is an error; DIR may not
                           be inside the data directory (plaintext never lives there)
  --message-file F         the raw message: its SHA-256 must equal message_sha256 and the typology match is
                           re-run on it; the text is never printed, logged or written
  --retain-message         seal the message text into the store as well (needs --message-file)
  --no-store               do not seal anything into the store
  --producer-name N        producer block of the capsule (default: evidence-bridge)
  --producer-software S    (default: evidence-bridge/<version>); --producer-name Palimpsest
                           --producer-software evidence.scamshield/v1 reproduces the reference bridge
                           byte for byte

An assessment whose assessment_id the store already holds under other bytes (re-serialised, or another producer
block) is not stored again: the stored capsule is the output and a warning goes to stderr.

The intelligence pack is --pack FILE, EVIDENCE_BRIDGE_PACK, or the data directory's own ('pack fetch').

Exit status: 0 success; 2 any error (nothing on stdout, exactly one stderr line 'evidence-bridge: <reason>').
`;

function producerText(flag: string, value: string): string {
  const bad = firstControlOrFormat(value);
  if (isPythonBlank(value) || bad !== undefined || [...value].length > 256) {
    throw new CliError(`--${flag}: expected a non-blank text of at most 256 characters without control characters`);
  }
  return value;
}


function producerFrom(flags: Record<string, unknown>): Producer {
  const name = flags["producer-name"] as string | undefined;
  const software = flags["producer-software"] as string | undefined;
  if ((name === undefined) !== (software === undefined)) {
    throw new CliError("--producer-name and --producer-software must be given together");
  }
  if (name === undefined || software === undefined) {
    try {
      return projectProducer(packageVersion());
    } catch {
      throw new CliError("cannot determine the evidence-bridge version for the producer block; pass --producer-name and --producer-software");
    }
  }
  const producer = { name: producerText("producer-name", name), software: producerText("producer-software", software) };
  return producer.name === REFERENCE_PRODUCER.name && producer.software === REFERENCE_PRODUCER.software ? REFERENCE_PRODUCER : producer;
}

/**
 * The one reader of `--message-file` (`capsule build`, `capsule assess`): the file's exact bytes (bounded), checked to
 * be UTF-8; the text is returned, never shown. Only a regular file is read (src/crypto/safe-read.ts): a FIFO or
 * device would block and a link could point anywhere, so both fail at once with one line.
 */
export function readMessageFile(file: string): { bytes: Uint8Array; text: string } {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(file, { maxBytes: MESSAGE_FILE_MAX_BYTES, label: file });
  } catch (e) {
    const code = e instanceof SafeReadError ? e.code : undefined;
    if (code === "too-large") throw new CliError(`--message-file: ${file} exceeds ${MESSAGE_FILE_MAX_BYTES} bytes`);
    // SafeReadError's message already names the file (its label); other errors do not.
    throw new CliError(e instanceof SafeReadError ? `--message-file: ${e.message}` : `--message-file: cannot read ${file}: ${(e as Error).message}`);
  }
  try {
    return { bytes, text: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    throw new CliError(`--message-file: ${file} is not valid UTF-8`);
  }
}

/**
 * The pack of `capsule build` and `capsule assess`, loaded once; `resolved` goes to {@link rememberPack} after a
 * capsule was stored, so remembering it does not load it again.
 */
export function loadPack(ctx: CliContext): { pack: IntelligencePack; resolved: ResolvedPack; config: ReturnType<typeof configFrom> } {
  const config = configFrom(ctx);
  try {
    // The first pack a sealing build uses is remembered by the data directory, once the capsule is stored.
    const resolved = useConfiguredPack(ctx, config, { install: false });
    return { pack: resolved.pack, resolved, config };
  } catch (e) {
    if (e instanceof PackError) throw new CliError(e.rule === "not-configured" || e.rule === "different-pack" ? e.detail : `intelligence pack: ${e.message}`);
    throw e;
  }
}

/**
 * Seals the capsule, unless the store already holds a capsule of the same `assessment_id` with other bytes (the
 * same assessment re-serialised, or built under another producer block): then that stored capsule is returned and
 * nothing new is queued for review. Once the capsule is stored, the configured pack is remembered by the data
 * directory (published/pack/home-pack.ts); its syncs run while the stored capsule's derivation is made (CPU) for the
 * derivation cache and the withheld note.
 */
async function sealIntoStore(
  config: ReturnType<typeof configFrom>,
  built: BuiltCapsule,
  message: { bytes: Uint8Array; sha256: string } | undefined,
  pack: IntelligencePack,
  messageText: string | undefined,
  resolved: ResolvedPack,
): Promise<{ existing?: { id: string; bytes: Uint8Array }; withheld?: string; made: ReadonlyMap<string, Derivation> }> {
  const { openOrCreateStore } = await import("../../../capsules/store/store.js");
  const { findRecorded } = await import("../../../capsules/store/recorded.js");
  const stored = await import("../../../capsules/pipeline/stored.js");
  let store;
  let existing: { id: string; bytes: Uint8Array } | undefined;
  try {
    store = await openOrCreateStore(config);
    // The message's fingerprint, retained or not (docs/guard.md "Message fingerprints").
    if (messageText !== undefined) await (await import("../../../capsules/store/message-fingerprints.js")).recordMessageFingerprintsConcurrently(store, [messageText]);
    const same = findRecorded(store, { assessmentId: built.intake.assessmentId }).filter((id) => id !== built.id);
    existing = same.length > 0 ? { id: same[0], bytes: store.getCapsule(same[0]) } : undefined;
    // The put's independent syncs at once; the order of its barriers is the synchronous put's (sync-set.ts).
    if (existing === undefined) await store.putCapsulesConcurrently([built]);
    coverCodePath("stored");
    if (message) store.putMessage(message.bytes, message.sha256);
  } catch (e) {
    throw new CliError(`store: ${(e as Error).message}`);
  }
  const remembering = rememberPackConcurrently(config, resolved);
  const made = new Map<string, Derivation>();
  try {
    if (existing === undefined) stored.cacheDerivations(store, pack, [built], made);
  } catch {
    // As after any put: the capsule is stored; a derivation the cache lacks is derived again when read.
  }
  await remembering;
  return { existing, withheld: withheldNote(made, built.id), made };
}

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { flags } = parseFlags(
    args,
    {
      outbox: { type: "string" },
      "message-file": { type: "string" },
      "retain-message": { type: "boolean" },
      "no-store": { type: "boolean" },
      "producer-name": { type: "string" },
      "producer-software": { type: "string" },
      ...CAPSULE_OUTPUT_FLAGS,
    },
    false,
  );
  const outbox = flags.outbox as string | undefined;
  const messageFile = flags["message-file"] as string | undefined;
  const retain = flags["retain-message"] === true;
  const noStore = flags["no-store"] === true;
  if (outbox === "") throw new CliError("--outbox: a directory is required");
  if (retain && messageFile === undefined) throw new CliError("--retain-message needs --message-file");
  if (retain && noStore) throw new CliError("--retain-message cannot be combined with --no-store (the message is only ever kept sealed)");
  const producer = producerFrom(flags);
  const { pack, resolved, config } = loadPack(ctx);
  if (outbox !== undefined) assertOutsideDataDir(outbox, config.home, "--outbox");
  const output = capsuleOutputFlags(flags, config.home);

  promptForStdin(ctx, "one assessment (JSON)");
  const bytes = await readLimited(ctx.io.stdin, ASSESSMENT_MAX_BYTES, "assessment exceeds 1 MiB");
  const message = messageFile === undefined ? undefined : readMessageFile(messageFile);

  let built: BuiltCapsule;
  try {
    built = buildFromIntake(intakeAssessment(bytes, pack, { messageText: message?.text }), producer);
  } catch (e) {
    if (e instanceof AssessmentError) throw new CliError(e.message);
    throw e;
  }
  coverCodePath("built"); // docs/startup.md "Code cache coverage"
  let capsuleBytes = built.bytes;
  let id = built.id;
  let warning: string | undefined;
  let derivations: ReadonlyMap<string, Derivation> | undefined;

  if (!noStore) {
    const assessmentId = built.intake.assessmentId;
    const { existing, withheld, made } = await sealIntoStore(config, built, retain && message ? { bytes: message.bytes, sha256: built.intake.messageSha256 } : undefined, pack, message?.text, resolved);
    if (existing !== undefined) {
      id = existing.id;
      capsuleBytes = existing.bytes;
      warning = `evidence-bridge: warning: assessment ${assessmentId} was already recorded as capsule ${id} (other bytes); printing the stored capsule, nothing new was queued\n`;
    }
    warning = withheld ?? warning;
    derivations = made;
  }
  if (outbox !== undefined) {
    const { writeOutbox } = await import("../../../capsules/assessment/outbox.js");
    try {
      writeOutbox(outbox, id, capsuleBytes);
    } catch (e) {
      if (e instanceof AssessmentError) throw new CliError(e.message);
      throw e;
    }
  }
  const stored = noStore ? "none" : id === built.id ? "new" : "recorded";
  await emitCapsule(ctx, output, { id, bytes: capsuleBytes, stored, derivations }, config.home);
  if (warning !== undefined) ctx.io.stderr.write(warning);
  return 0;
}

const command: CliCommand = { help, summary: "assessment on stdin: validate, build, verify and seal a capsule", run };
export default command;
