/**
 * `review list|show|approve|reject|defer` against the team queue (issue 34 item 3), when `--team URL` or
 * EVIDENCE_BRIDGE_TEAM_URL is given: review.ts and review-decide.ts hand over to these functions. The queue is read
 * and verified by capsules/team/team-view.ts (memberships, the whole chain, this member's position) on every run;
 * a decision is appended by capsules/team/team-review.ts with retry on a lost head.
 *
 * `review export --team` writes the JSON Lines export of the verified team chain (capsules/team/team-export.ts),
 * checked by the closed outward vocabulary first and the outward guard over every team capsule this member can open
 * second; the marked formats (`--format stix|misp|csv`) render those lines and are checked the same way.
 *
 * `review serve --team` is bridge/review-page/team-server.ts (started by review-serve.ts).
 *
 * Not yet against the team queue: `review release` (it refuses `--team` with one line), private and public notes
 * (refused with `--team`), `--include-typology-matches` views (a member publishes the default view).
 */
import { approvalsText, REVIEW_REASONS, reasonProblem, VERB_DECISIONS, type ReviewReason, type ReviewVerb } from "../../../capsules/review/index.js";
import { loadMemberKeys } from "../../../capsules/team/member-keys.js";
import { decideOnTeam, findPublication, teamQueue } from "../../../capsules/team/team-review.js";
import { readTeamState } from "../../../capsules/team/team-state.js";
import { readTeamView, type TeamView, type ViewMode } from "../../../capsules/team/team-view.js";
import { buildTeamExport } from "../../../capsules/team/team-export.js";
import { vocabularyRefusal } from "../../../capsules/exports/vocabulary-check.js";
import { OutputFileError, writeOutputFile } from "../../../src/output-file.js";
import { resolve } from "node:path";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliContext } from "../context.js";
import { loadPack, write } from "./review.js";
import { FORMAT_FLAGS, formatChoice, writeMarkedExport } from "./review-formats.js";
import { openTeamPort, teamGuarded, teamUrl } from "./team.js";

async function withView<T>(ctx: CliContext, mode: ViewMode, body: (view: TeamView, home: string) => Promise<T>): Promise<T> {
  const { home } = configFrom(ctx);
  const port = await openTeamPort(teamUrl(ctx)!);
  try {
    return await body(await readTeamView(home, port, loadMemberKeys(home), readTeamState(home), mode), home);
  } finally {
    await port.close();
  }
}

function short(hex: string): string {
  return hex.slice(0, 12);
}

export async function teamList(args: string[], ctx: CliContext): Promise<number> {
  const { flags, positionals } = parseFlags(args, { json: { type: "boolean" } });
  if (positionals.length > 0) throw new CliError(`review list: unexpected argument ${JSON.stringify(positionals[0])}`);
  return teamGuarded("review list", () =>
    withView(ctx, "warm", async (view) => {
      const entries = teamQueue(view);
      if (flags.json === true) {
        const rows = entries.map((e) => ({
          capsule_sha256: e.publication.capsuleSha256,
          candidate_sha256: e.publication.candidateSha256,
          status: e.status,
          approvals: { counted: e.approvals.approvers.length, required: e.approvals.required, met: e.approvals.met },
          published_hour: e.publication.hour,
        }));
        await write(ctx, `${JSON.stringify(rows)}\n`);
        return 0;
      }
      const lines = entries.map((e) => `${short(e.publication.capsuleSha256)}  ${e.status.padEnd(22)}  ${approvalsText(e.approvals).padEnd(18)}  published ${e.publication.hour}`);
      await write(ctx, `${["capsule       status                  approvals           ", ...lines].join("\n")}\n${entries.length} candidate(s) in team ${view.state.teamId.slice(0, 12)}; chain verified (${view.chain.rows} record(s))\n`);
      return 0;
    }),
  );
}

export async function teamShow(args: string[], ctx: CliContext): Promise<number> {
  const { positionals } = parseFlags(args, { json: { type: "boolean" } });
  if (positionals.length !== 1) throw new CliError("review show: expected exactly one capsule id (a unique prefix of at least 8 hexadecimal digits)");
  return teamGuarded("review show", () =>
    withView(ctx, "cold", async (view) => {
      const p = findPublication(view, positionals[0]);
      const entry = teamQueue(view).find((e) => e.publication.objectId === p.objectId)!;
      const decisions = view.chain.state.recordsForDigest(p.candidateSha256).map((e) => `  #${e.record.seq} ${e.record.decided_at} ${e.record.decision} by ${e.record.reviewer.name}`);
      if (p.candidateBytes === undefined) throw new CliError("review show: the candidate's bytes were not read");
      const candidate = JSON.stringify(JSON.parse(Buffer.from(p.candidateBytes).toString("utf8")), null, 2);
      await write(
        ctx,
        [`capsule ${p.capsuleSha256}`, `candidate ${p.candidateSha256}`, `status ${entry.status} (${approvalsText(entry.approvals)})`, "decisions:", ...(decisions.length ? decisions : ["  none"]), candidate].join("\n") + "\n",
      );
      return 0;
    }),
  );
}

export async function teamDecide(verb: ReviewVerb, args: string[], ctx: CliContext): Promise<number> {
  const command = `review ${verb}`;
  const { flags, positionals } = parseFlags(args, { reason: { type: "string" }, note: { type: "string" }, "public-note": { type: "string" }, reviewer: { type: "string" } });
  if (positionals.length !== 1) throw new CliError(`${command}: expected exactly one capsule id`);
  if (flags.note !== undefined || flags["public-note"] !== undefined) {
    throw new CliError(`${command}: --note and --public-note are not supported with --team yet (docs/team.md "Limits")`);
  }
  if (flags.reason === undefined) throw new CliError(`${command}: --reason CODE is required (${REVIEW_REASONS.join(", ")})`);
  const rp = reasonProblem(flags.reason);
  if (rp !== undefined) throw new CliError(`${command}: --reason: ${rp}`);
  const { home } = configFrom(ctx);
  return teamGuarded(command, async () => {
    const port = await openTeamPort(teamUrl(ctx)!);
    try {
      const out = await decideOnTeam(home, port, loadMemberKeys(home), { id: positionals[0], decision: VERB_DECISIONS[verb], reason: flags.reason as ReviewReason });
      const r = out.entry.record;
      await write(ctx, `recorded ${r.decision} for capsule ${short(r.capsule_sha256)} (candidate ${short(r.candidate_sha256)}) as team decision #${r.seq} by ${r.reviewer.name}; ${approvalsText(out.approvals)}\n`);
      return 0;
    } finally {
      await port.close();
    }
  });
}

export async function teamExport(args: string[], ctx: CliContext): Promise<number> {
  const { flags, positionals } = parseFlags(args, { out: { type: "string" }, ...FORMAT_FLAGS });
  if (positionals.length > 0) throw new CliError(`review export: unexpected argument ${JSON.stringify(positionals[0])}`);
  if (typeof flags.out !== "string" || flags.out === "") throw new CliError("review export: --out FILE is required");
  const out = resolve(flags.out);
  const marked = formatChoice(flags, ctx);
  const pack = loadPack(ctx);
  return teamGuarded("review export", () =>
    withView(ctx, "cold", async (view, home) => {
      const keys = loadMemberKeys(home);
      const result = buildTeamExport(view, keys, pack);
      if (marked !== undefined) {
        // The marked formats: their render passes the outward vocabulary, then the guard over the team capsules.
        const done = writeMarkedExport(ctx, marked, out, undefined, pack, { records: view.chain.records }, result, undefined, { fingerprint: keys.sign.fingerprint, secrets: result.guard });
        await write(ctx, `${done.join("\n")}\n`);
        return 0;
      }
      // First line: every string of the lines is from the closed outward vocabulary; the form guard ran second
      // (inside buildTeamExport, over every team capsule's private values).
      const unlisted = vocabularyRefusal(pack, [...result.lines, result.checkpoint]);
      if (unlisted !== undefined) throw new CliError(`review export: ${unlisted}`);
      const bytes = Buffer.concat([...result.lines, result.checkpoint].map((l) => Buffer.from(l.buffer, l.byteOffset, l.length)));
      try {
        writeOutputFile(out, bytes);
      } catch (e) {
        if (e instanceof OutputFileError) throw new CliError(`review export: ${e.message}`);
        throw e;
      }
      const candidates = new Set(result.exported.map((x) => x.candidate_sha256)).size;
      const head = `exported ${candidates} approved candidate${candidates === 1 ? "" : "s"} of team ${view.state.teamId.slice(0, 12)} (${result.exported.length} approval line(s), ${result.approvals} approval(s) required) to ${out}; checkpoint signed by member ${view.self.name} (ed25519:${view.self.fingerprint})`;
      const lines = result.exported.map((x) => `  ${x.capsule_sha256} candidate ${short(x.candidate_sha256)} approved in team decision #${x.seq} by ${x.reviewer}`);
      const pending = result.pending.map((x) => `  pending: ${x.capsule_sha256} candidate ${short(x.candidate_sha256)}: ${approvalsText(x.approvals)}`);
      await write(ctx, [head, ...lines, ...pending].join("\n") + "\n");
      return 0;
    }),
  );
}
