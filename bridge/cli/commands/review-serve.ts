/**
 * `review serve`: starts the local review page (bridge/review-page/) and prints its URL with the session token.
 * Stops on Ctrl-C (SIGINT), SIGTERM, or the end of stdin (Ctrl-D, or the parent closing the pipe).
 */
import { ReviewError, selectReviewerKey } from "../../../capsules/review/index.js";
import { StoreError } from "../../../capsules/store/errors.js";
import { openStore } from "../../../capsules/store/store.js";
import { KeyError } from "../../../src/crypto/errors.js";
import { startReviewPage } from "../../review-page/server.js";
import { LOOPBACK } from "../../review-page/guard.js";
import { intFlag, parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { loadPack } from "./review.js";
import { openTeamPort, teamGuarded, teamUrl } from "./team.js";
import { loadMemberKeys } from "../../../capsules/team/member-keys.js";

const help = `usage: evidence-bridge [--home DIR] [--pack FILE] review serve [--port N] [--reviewer NAME] [--host 127.0.0.1]

Serves the review page on http://127.0.0.1:PORT/ (another --host is refused: the page is for this machine only)
and prints its URL, which holds a random session token: open exactly that URL. The page shows the queue (status,
tiers, families, IOC counts, age, decisions so far, approvals under the review policy) and one candidate at a time
with why it exists, and records approve / reject / defer with a note, signed with the reviewer key (--reviewer
NAME, or the only one), exactly as 'review approve|reject|defer' do. It never shows IOC values or message content.

  --port N   port on 127.0.0.1 (default 0: a free port chosen by the system)

Requests with another Host or Origin, cross-site requests, requests without the token and decisions without their
form's CSRF token are refused. Stop with Ctrl-C or by ending stdin (Ctrl-D).

With --team URL (or EVIDENCE_BRIDGE_TEAM_URL) the page shows the team queue instead, verified on every request
(memberships, the whole decision chain, this member's position), and appends approve / reject / defer to the team
chain signed with this data directory's member key (retrying when another member appended first). No notes, views,
IOC values or releases on the team page yet (docs/team.md "Limits").`;

const command: CliCommand = { summary: "serve the local review page on 127.0.0.1 with a session token",
  help,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { port: { type: "string" }, reviewer: { type: "string" }, host: { type: "string" } });
    if (positionals.length > 0) throw new CliError(`review serve: unexpected argument ${JSON.stringify(positionals[0])}`);
    if (flags.host !== undefined && flags.host !== LOOPBACK) {
      throw new CliError(`review serve: --host: only ${LOOPBACK} is allowed (the review page never listens on another address)`);
    }
    const port = intFlag("port", flags.port as string | undefined, 0, 0);
    if (port > 65535) throw new CliError("review serve: --port: expected an integer from 0 to 65535");
    const config = configFrom(ctx);
    const url = teamUrl(ctx);
    if (url !== undefined) {
      if (flags.reviewer !== undefined) throw new CliError("review serve: --reviewer is not used with --team: decisions are signed with this data directory's team member key");
      return teamGuarded("review serve", async () => {
        const queuePort = await openTeamPort(url);
        try {
          const { startTeamReviewPage } = await import("../../review-page/team-server.js");
          const page = await startTeamReviewPage({ home: config.home, port: queuePort, keys: loadMemberKeys(config.home), listenPort: port }).catch((e: unknown) => {
            const code = (e as NodeJS.ErrnoException).code;
            if (code === "EADDRINUSE" || code === "EACCES") throw new CliError(`review serve: cannot listen on ${LOOPBACK}:${port}: ${code}`);
            throw e;
          });
          ctx.io.stdout.write(`review page (team queue): ${page.url}\n`);
          await untilStopped(ctx);
          await page.close();
        } finally {
          await queuePort.close();
        }
        ctx.io.stderr.write("review serve: stopped\n");
        return 0;
      });
    }
    const pack = loadPack(ctx);
    let page;
    try {
      const reviewer = selectReviewerKey(config.home, flags.reviewer as string | undefined);
      const store = await openStore({ home: config.home, passphrase: config.passphrase });
      page = await startReviewPage({ home: config.home, store, pack, reviewer, port });
    } catch (e) {
      if (e instanceof ReviewError || e instanceof StoreError || e instanceof KeyError) throw new CliError(`review serve: ${e.message}`);
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EADDRINUSE" || code === "EACCES") throw new CliError(`review serve: cannot listen on ${LOOPBACK}:${port}: ${code}`);
      throw e;
    }
    ctx.io.stdout.write(`review page: ${page.url}\n`);
    await untilStopped(ctx);
    await page.close();
    ctx.io.stderr.write("review serve: stopped\n");
    return 0;
  },
};

/** Waits for Ctrl-C, SIGTERM or the end of stdin. */
async function untilStopped(ctx: CliContext): Promise<void> {
  ctx.io.stderr.write("review serve: stop with Ctrl-C or Ctrl-D\n");
  let stop: () => void = () => undefined;
  await new Promise<void>((resolve) => {
    stop = resolve;
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    ctx.io.stdin.once("end", stop);
    ctx.io.stdin.once("close", stop);
    ctx.io.stdin.resume();
  });
  process.off("SIGINT", stop);
  process.off("SIGTERM", stop);
  ctx.io.stdin.pause();
}

export default command;
