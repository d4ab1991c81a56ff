/**
 * The commands that write to the review log's side of the store: `review approve|reject|defer ID --reason CODE
 * [--note TEXT] [--public-note TEXT]` (issue 28 item 3) and `review reestablish-position NAME --why CODE`, the one
 * command that writes a reviewer's remembered position without an append (issue 29 item 4). The library part is
 * capsules/review/ (decide.ts, positions.ts).
 */
import { join } from "node:path";
import {
  approvalsText,
  decisionTime,
  loadReviewerKey,
  loadReviewerRegistry,
  noteProblem,
  reasonProblem,
  recordDecision,
  REESTABLISH_REASONS,
  reestablishPosition,
  REVIEW_REASONS,
  ReviewError,
  reviewLayout,
  selectReviewerKey,
  VERB_DECISIONS,
  verifyReviewLog,
  withFileLock,
  type ReestablishReason,
  type ReviewReason,
  type ReviewVerb,
} from "../../../capsules/review/index.js";
import { keyLayout } from "../../../src/crypto/keys.js";
import { bytesToHex } from "../../../src/hash.js";
import { teamUrlFrom } from "../../team/database-url.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand } from "../context.js";
import { guarded, loadPack, oneId, openExisting, resolveId, VIEW_FLAGS, viewFrom, write } from "./review.js";

/** `--note` / `--public-note`: a string passing the note rule, or absent. */
function optionalNote(value: unknown, flag: string, command: string): string | undefined {
  if (value === undefined) return undefined;
  const problem = noteProblem(value);
  if (problem !== undefined) throw new CliError(`${command}: ${flag}: ${problem}`);
  return value as string;
}

function decisionCommand(verb: ReviewVerb): CliCommand {
  const decision = VERB_DECISIONS[verb];
  const command = `review ${verb}`;
  return {
    summary: `record ${decision} for a capsule's current candidate`,
    help: `usage: evidence-bridge [--home DIR] [--pack FILE] review ${verb} ID --reason CODE [--note TEXT]
                      [--public-note TEXT] [--reviewer NAME] [--include-typology-matches] [--include-clean]

Records ${decision} for the current candidate of capsule ID (the capsule id or a unique prefix of at least 6
hexadecimal digits) in the review log: the candidate's SHA-256, the capsule id, the decision, the reason code, the
salted digest of the private note, the public note, the reviewer's registered name and key fingerprint, the time
(local clock, UTC) and the previous record's digest, signed with the reviewer's Ed25519 key (create one with
'evidence-bridge keys init --reviewer NAME'; --reviewer chooses when there are several).

  --reason CODE        required: ${REVIEW_REASONS.join(", ")} (docs/review.md says what each means)
  --note TEXT          private: sealed in the store, shown to reviewers ('review show', the page), never exported
                       and never written unsealed; the signed record holds only a salted digest of it
  --public-note TEXT   the only free text that leaves with the export. A public note containing a private value
                       of any stored capsule (an IOC, a matched term, the message hash …) in any usual form
                       (docs/guard.md) is refused, naming its kind
  Notes: one line, at most 1000 characters, no control, format or bidi characters.
  --include-typology-matches / --include-clean   the candidate view being decided (as in 'review show')

Rejection is final for the same candidate bytes; approval is final once the review policy's number of distinct
reviewer keys approved them ('review policy'; default 1): until then another reviewer may add an approval or reject
them. NEEDS_MORE_EVIDENCE returns the candidate to the queue. A second decision by the same key on the same bytes,
an unknown id or a log that does not verify is an error (exit 2).`,
    async run(args, ctx) {
      if (teamUrlFrom(ctx.globalFlags.team, ctx.io.env) !== undefined) return (await import("./review-team.js")).teamDecide(verb, args, ctx);
      const { flags, positionals } = parseFlags(args, {
        reason: { type: "string" },
        note: { type: "string" },
        "public-note": { type: "string" },
        reviewer: { type: "string" },
        ...VIEW_FLAGS,
      });
      const given = oneId(positionals, command);
      if (flags.reason === undefined) throw new CliError(`${command}: --reason CODE is required (${REVIEW_REASONS.join(", ")})`);
      const rp = reasonProblem(flags.reason);
      if (rp !== undefined) throw new CliError(`${command}: --reason: ${rp}`);
      const reason = flags.reason as ReviewReason;
      const note = optionalNote(flags.note, "--note", command);
      const publicNote = optionalNote(flags["public-note"], "--public-note", command);
      return guarded(command, async () => {
        const pack = loadPack(ctx);
        const config = configFrom(ctx);
        const store = await openExisting(ctx, command);
        const id = resolveId(store, given, command);
        const reviewer = selectReviewerKey(config.home, flags.reviewer as string | undefined);
        const { entry, approvals } = recordDecision(
          config.home,
          store!,
          pack,
          { capsule_sha256: id, view: viewFrom(flags), decision, reason, ...(note === undefined ? {} : { note }), ...(publicNote === undefined ? {} : { publicNote }) },
          reviewer,
        );
        const four = decision === "APPROVED_FOR_RELEASE" && approvals.required > 1 ? `  ${approvalsText(approvals)}${approvals.met ? "" : " (not exported until the policy's approvals are complete)"}\n` : "";
        const notes = `  reason ${reason}; ${publicNote === undefined ? "no public note" : "public note recorded (leaves with the export)"}${note === undefined ? "" : "; private note sealed (never exported)"}\n`;
        await write(
          ctx,
          `${decision} capsule ${id}\n  candidate sha256:${entry.record.candidate_sha256}\n  record #${entry.record.seq} by ${reviewer.name} (${reviewer.key.fingerprint}) at ${entry.record.decided_at}\n${notes}${four}`,
        );
        return 0;
      });
    },
  };
}

export const approve = decisionCommand("approve");
export const reject = decisionCommand("reject");
export const defer = decisionCommand("defer");

export const reestablish: CliCommand = {
  summary: "write again a reviewer's missing or stale log position, saying why",
  help: `usage: evidence-bridge [--home DIR] review reestablish-position NAME --why ${REESTABLISH_REASONS.join("|")}
                      [--reviewer YOU]

Writes again the remembered position of reviewer NAME (keys/reviewers/<fingerprint>.position): NAME's last record
in the review log as it stands now, or, when the log holds none of NAME's records, NAME's enrolment (NAME's key
file must then be on this machine). 'review log --verify', 'review export' and the page refuse a log in which a
reviewer signed a record but has no position, since deleting that file would otherwise hide a rolled-back log.
Run this only once you know why the position is missing or does not match:

  interrupted-append   a decision was interrupted between the log write and the position write
  file-lost            the position file was deleted or damaged, and the log is known to be complete
  log-restored         review/ was deliberately restored from an earlier copy: later decisions are gone

The new position is signed with YOUR reviewer key (--reviewer chooses when there are several) and names you, the
reason and the time; the same signed line is appended to keys/reviewers/reestablished.jsonl, which 'review log
--verify' lists. Everything else the log check covers (chain, signatures, transitions, head file, the other
reviewers' positions) must already verify.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { why: { type: "string" }, reviewer: { type: "string" } });
    const command = "review reestablish-position";
    if (positionals.length !== 1) throw new CliError(`${command}: expected exactly one reviewer NAME`);
    if (!(REESTABLISH_REASONS as readonly unknown[]).includes(flags.why)) throw new CliError(`${command}: --why: expected one of ${REESTABLISH_REASONS.join(", ")}`);
    const why = flags.why as ReestablishReason;
    return guarded(command, async () => {
      const home = configFrom(ctx).home;
      const actor = selectReviewerKey(home, flags.reviewer as string | undefined);
      const registry = loadReviewerRegistry(home);
      const target = registry.byName(positionals[0].normalize("NFC"));
      if (target === undefined) throw new CliError(`${command}: no registered reviewer named ${positionals[0]} ('keys show' lists them)`);
      if (!registry.isKnown(actor.key.fingerprint)) throw new CliError(`${command}: your reviewer key ${actor.key.fingerprint} is not registered`);
      const layout = reviewLayout(home);
      const written = withFileLock(layout.lock, () => {
        const v = verifyReviewLog(home);
        const chainOk = v.records.length > 0 && (v.ok || v.failed === "positions");
        if (!chainOk) throw new ReviewError("broken-log", `the review log does not verify apart from positions: ${v.error ?? "it is empty"}`);
        const last = [...v.records].reverse().find((e) => e.record.reviewer.fingerprint === target.fingerprint);
        const dir = join(keyLayout(home).dir, "reviewers");
        if (last !== undefined) {
          reestablishPosition(dir, { entry: last }, actor, why, decisionTime(new Date()));
          return `record #${last.record.seq}`;
        }
        // No record of theirs in this log (any more): their enrolment, from the key file on this machine.
        const own = loadReviewerKey(home, target.name).key;
        reestablishPosition(dir, { enrolment: { fingerprint: own.fingerprint, public_key: bytesToHex(own.publicKey) } }, actor, why, decisionTime(new Date()));
        return "enrolment (no record of theirs in this log)";
      });
      const after = verifyReviewLog(home);
      await write(
        ctx,
        `re-established the position of ${target.name} (${target.fingerprint}) at ${written}, signed by ${actor.name} (${actor.key.fingerprint}): ${why}\n` +
          (after.ok ? `review log: verifies again (${after.records.length} records)\n` : `review log: still does not verify: ${after.error}\n`),
      );
      return after.ok ? 0 : 1;
    });
  },
};
