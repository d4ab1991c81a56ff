/**
 * `review release ID --kind KIND --index N --reason CODE` (issue 32 item 2): one reviewer's signed release of one IOC
 * value of an approved candidate. The library part is capsules/release/; `review policy --release KINDS` (review.ts)
 * sets which kinds may be released. Never prints a value.
 */
import { IOC_KINDS, type IocKind } from "../../../published/pack/vocabulary.js";
import { recordRelease, ReleaseError } from "../../../capsules/release/index.js";
import { REVIEW_REASONS, reasonProblem, type ReviewReason } from "../../../capsules/review/text-rules.js";
import { ReviewError, selectReviewerKey } from "../../../capsules/review/index.js";
import { StoreError } from "../../../capsules/store/errors.js";
import { openStore } from "../../../capsules/store/store.js";
import { KeyError } from "../../../src/crypto/errors.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand } from "../context.js";
import { loadPack } from "./review.js";
import { teamUrlFrom } from "../../team/database-url.js";

export const release: CliCommand = {
  help: `usage: evidence-bridge [--home DIR] [--pack FILE] review release ID --kind KIND --index N --reason CODE
                      [--reviewer NAME]

Releases one IOC value of an approved candidate (ID: the capsule id, or a unique prefix of at least 6 hexadecimal
digits): the value at position N (from 0) among the capsule's values of KIND (${IOC_KINDS.join(", ")}), in the
order the assessment records them ('review serve' shows them, hidden until revealed). The candidate must be
approved with the review policy's approvals complete, and KIND must be one the store's release policy names
('review policy --release KINDS'; default channels, urls, wallets). CODE: ${REVIEW_REASONS.join(", ")}.

The reviewer signs a release record binding the value to the candidate digest (a commitment under a sealed random
nonce: the record, kept in review/releases.jsonl, reveals nothing of the value). The value is released, and every
export format carries it, once the review policy's number of distinct reviewers released it (four-eyes: 2).
Never prints the value.`,
  async run(args, ctx) {
    if (teamUrlFrom(ctx.globalFlags.team, ctx.io.env) !== undefined) {
      throw new CliError(
        'review release: not available against the team queue yet (--team or EVIDENCE_BRIDGE_TEAM_URL is set): the team chain holds decisions only, no release records, so a team export carries no released values (docs/team.md "Limits")',
      );
    }
    const { flags, positionals } = parseFlags(args, { kind: { type: "string" }, index: { type: "string" }, reason: { type: "string" }, reviewer: { type: "string" } });
    if (positionals.length !== 1) throw new CliError("review release: expected exactly one capsule id (64 hexadecimal digits, or a unique prefix of at least 6)");
    const kind = flags.kind;
    if (typeof kind !== "string" || !(IOC_KINDS as readonly string[]).includes(kind)) throw new CliError(`review release: --kind: expected one of ${IOC_KINDS.join(", ")}`);
    const indexText = flags.index;
    if (typeof indexText !== "string" || !/^[0-9]{1,4}$/.test(indexText)) throw new CliError("review release: --index: expected an integer from 0 to 9999");
    const reason = flags.reason;
    const rp = reasonProblem(reason);
    if (rp !== undefined) throw new CliError(`review release: --reason: ${rp}`);
    const config = configFrom(ctx);
    try {
      const pack = loadPack(ctx);
      const store = await openStore({ home: config.home, passphrase: config.passphrase });
      const id = store.resolveCapsuleId(positionals[0].toLowerCase());
      const reviewer = selectReviewerKey(config.home, flags.reviewer as string | undefined);
      const { record, count } = recordRelease(config.home, store, pack, { capsule_sha256: id, kind: kind as IocKind, index: Number(indexText), reason: reason as ReviewReason }, reviewer);
      const state =
        count.released >= count.required
          ? `RELEASED: ${count.released} of ${count.required} release${count.required === 1 ? "" : "s"} (${count.reviewers.join(", ")}); exports now carry the value`
          : `pending: ${count.released} of ${count.required} releases (${count.reviewers.join(", ")}); exports carry the value once ${count.required} reviewers released it`;
      ctx.io.stdout.write(
        `released ${kind} #${record.index} of capsule ${id}\n  candidate sha256:${record.candidate_sha256}\n  by ${reviewer.name} (${reviewer.key.fingerprint}) at ${record.decided_at}, reason ${record.reason}\n  ${state}\n`,
      );
      return 0;
    } catch (e) {
      if (e instanceof CliError) throw e;
      if (e instanceof ReleaseError || e instanceof ReviewError || e instanceof StoreError || e instanceof KeyError) throw new CliError(`review release: ${e.message}`);
      if (e instanceof Error && /^(SealError|SafeWriteError|DataDirError)$/.test(e.name)) throw new CliError(`review release: ${e.message}`);
      throw e;
    }
  },
};
