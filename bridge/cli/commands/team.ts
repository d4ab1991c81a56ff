/**
 * The `team` commands (issue 34): `team init`, `team join`, `team invite`, `team remove`, `team status` and
 * `team sync`. The private side is capsules/team/ (everything sealed and verified there); the database is reached
 * only through the queue port, implemented on PostgreSQL in bridge/team/. The database URL comes from `--team URL`
 * (a global flag), `team init --database URL` or EVIDENCE_BRIDGE_TEAM_URL, and is never printed with its password.
 */
import { readRegularFile } from "../../../src/crypto/safe-read.js";
import { KeyError } from "../../../src/crypto/errors.js";
import { TeamError } from "../../../capsules/team/errors.js";
import { adminFingerprint, acceptInvitation } from "../../../capsules/team/invitation.js";
import { makeJoinRequest } from "../../../capsules/team/join-request.js";
import { loadMemberKeys, loadOrCreateMemberKeys } from "../../../capsules/team/member-keys.js";
import { TEAM_ROLES, type TeamRole } from "../../../capsules/team/membership.js";
import { alreadyQueued, enqueuePublication, flushOutbox, pendingCount, wrapForNewMembers } from "../../../capsules/team/outbox.js";
import type { TeamQueuePort } from "../../../capsules/team/queue-port.js";
import { initTeam, inviteMember, removeMember } from "../../../capsules/team/team-admin.js";
import { joinedTeam, readLastSync, readTeamState, writeLastSync, writeTeamState } from "../../../capsules/team/team-state.js";
import { readTeamView } from "../../../capsules/team/team-view.js";
import { MAX_APPROVALS, ReviewError } from "../../../capsules/review/index.js";
import { StoreError } from "../../../capsules/store/errors.js";
import { StoredDerivations } from "../../../capsules/pipeline/stored.js";
import { teamUrlFrom } from "../../team/database-url.js";
import { parseFlags, type FlagSpec } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { loadPack, openExisting, write } from "./review.js";

/** Runs a team command body, rendering the expected errors as one line prefixed by the command. */
export async function teamGuarded<T>(command: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof CliError) throw e;
    if (e instanceof TeamError || e instanceof KeyError || e instanceof ReviewError || e instanceof StoreError) throw new CliError(`${command}: ${e.message}`);
    if (e instanceof Error && /^(TeamDatabaseError|TeamUrlError|TeamQueueInputError|SealError|SafeWriteError|SafeReadError|DataDirError)$/.test(e.name)) {
      throw new CliError(`${command}: ${e.message}`);
    }
    throw e;
  }
}

/** The team database URL: `--team URL` (global flag) or EVIDENCE_BRIDGE_TEAM_URL; undefined when neither is set. */
export function teamUrl(ctx: CliContext): string | undefined {
  return teamUrlFrom(ctx.globalFlags.team, ctx.io.env);
}

/** Opens the team queue (bridge/team/, loaded only when a team command runs). */
export async function openTeamPort(url: string, create = false): Promise<TeamQueuePort> {
  const { openTeamQueue } = await import("../../team/postgres-queue.js");
  return openTeamQueue(url, { create });
}

function requireUrl(ctx: CliContext, command: string): string {
  const url = teamUrl(ctx);
  if (url === undefined) throw new CliError(`${command}: no team database: give --team URL or set EVIDENCE_BRIDGE_TEAM_URL`);
  return url;
}

async function withPort<T>(url: string, create: boolean, body: (port: TeamQueuePort) => Promise<T>): Promise<T> {
  const port = await openTeamPort(url, create);
  try {
    return await body(port);
  } finally {
    await port.close();
  }
}

function oneFile(positionals: string[], command: string, what: string): Uint8Array {
  if (positionals.length !== 1) throw new CliError(`${command}: expected exactly one ${what} file`);
  return readRegularFile(positionals[0], { maxBytes: 1024 * 1024, label: positionals[0] });
}

const INIT_FLAGS: FlagSpec = { database: { type: "string" }, name: { type: "string" }, approvals: { type: "string" } };

export const init: CliCommand = {
  summary: "create a team: schema, admin key, membership v1 (admin)",
  help: `usage: evidence-bridge [--home DIR] team init --database URL --name NAME [--approvals N]

Creates the team's schema in the PostgreSQL database at URL (postgres://user[:password]@host[:port]/db, with
?sslmode=verify-full&sslrootcert=FILE for a managed server), a team id, the team admin key (team/admin.key, mode
0600) and this data directory's member key (team/member.key), and signs membership v1 with this member as the
team's lead under NAME. --approvals N (1 to ${MAX_APPROVALS}, default 2) is the team's four-eyes policy: distinct
reviewer or lead members who must approve a candidate. Prints the admin key fingerprint, which joining members
compare over another channel. Runs once per database.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, INIT_FLAGS);
    if (positionals.length > 0) throw new CliError(`team init: unexpected argument ${JSON.stringify(positionals[0])}`);
    const url = (flags.database as string | undefined) ?? teamUrl(ctx);
    if (url === undefined) throw new CliError("team init: --database URL is required");
    if (typeof flags.name !== "string") throw new CliError("team init: --name NAME is required (the lead's name, signed into decisions)");
    const approvals = flags.approvals === undefined ? 2 : Number(flags.approvals);
    if (!Number.isSafeInteger(approvals) || approvals < 1 || approvals > MAX_APPROVALS) throw new CliError(`team init: --approvals: expected an integer from 1 to ${MAX_APPROVALS}`);
    const { home } = configFrom(ctx);
    return teamGuarded("team init", async () => {
      const m = await withPort(url, true, (port) => initTeam(home, port, { name: flags.name as string, approvals }));
      await write(ctx, `team ${m.teamId} created; admin key fingerprint ${adminFingerprint(m.adminKey)}\nmembership v1: ${m.members[0].name} (lead); ${approvals} approval(s) release a candidate\n`);
      return 0;
    });
  },
};

const JOIN_FLAGS: FlagSpec = { name: { type: "string" }, admin: { type: "string" } };

export const join: CliCommand = {
  summary: "print a join request, or join with an invitation file",
  help: `usage: evidence-bridge [--home DIR] team join --name NAME > NAME.request
       evidence-bridge [--home DIR] team join NAME.invitation [--admin FINGERPRINT]

With --name, prints a join request: this data directory's public member keys (X25519 for sealing, Ed25519 for
signing, created on first use in team/member.key, mode 0600) and NAME, self-signed. Send it to the team's admin,
and read your member fingerprint (printed on stderr) to them over another channel.

With an invitation file (what the admin's 'team invite' printed), checks it: the admin-signed membership verifies,
lists this member's keys, and (with --admin) is signed by the admin key of that fingerprint; then remembers the team
in team/team.json. Prints the team id, the admin key fingerprint to compare, and this member's role.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, JOIN_FLAGS);
    const { home } = configFrom(ctx);
    return teamGuarded("team join", async () => {
      if (typeof flags.name === "string") {
        if (positionals.length > 0) throw new CliError("team join: give either --name NAME or an invitation file, not both");
        const keys = loadOrCreateMemberKeys(home);
        await write(ctx, makeJoinRequest(keys, flags.name));
        ctx.io.stderr.write(`member fingerprint ${keys.fingerprint}\n`);
        return 0;
      }
      const bytes = oneFile(positionals, "team join", "invitation");
      if (joinedTeam(home)) throw new TeamError("state", "this data directory already belongs to a team ('team status' shows it)");
      const keys = loadMemberKeys(home);
      const { invitation, self } = acceptInvitation(bytes, keys, flags.admin as string | undefined);
      const m = invitation.membership;
      writeTeamState(home, { teamId: m.teamId, adminKey: m.adminKey, member: keys.fingerprint }, m);
      await write(ctx, `joined team ${m.teamId} as ${self.name} (${self.role}); admin key fingerprint ${adminFingerprint(m.adminKey)}: compare it with the admin's\n`);
      return 0;
    });
  },
};

const INVITE_FLAGS: FlagSpec = { role: { type: "string" } };

export const invite: CliCommand = {
  summary: "admit a join request's member; print the invitation (admin)",
  help: `usage: evidence-bridge [--home DIR] [--team URL] team invite NAME.request [--role ROLE] > NAME.invitation

Checks the join request's self-signature, prints the member's fingerprint on stderr (compare it with the one the
member reads out to you), signs the next membership version with the member in it (ROLE: ${TEAM_ROLES.join(", ")};
default reviewer), records the change in the team chain, re-wraps every data key of the queue for the new member,
and prints the invitation. Running it again for the same request prints the same membership's invitation.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, INVITE_FLAGS);
    const role = (flags.role ?? "reviewer") as TeamRole;
    if (!(TEAM_ROLES as readonly string[]).includes(role)) throw new CliError(`team invite: --role: expected one of ${TEAM_ROLES.join(", ")}`);
    const bytes = oneFile(positionals, "team invite", "join request");
    const { home } = configFrom(ctx);
    const url = requireUrl(ctx, "team invite");
    return teamGuarded("team invite", async () => {
      const out = await withPort(url, false, (port) => inviteMember(home, port, bytes, role));
      ctx.io.stderr.write(`member ${out.member.name} (${out.member.role}) fingerprint ${out.member.fingerprint}; membership v${out.version}; ${out.rewrapped} data key(s) wrapped for them\n`);
      await write(ctx, out.invitation);
      return 0;
    });
  },
};

export const remove: CliCommand = {
  summary: "remove a member from the team (admin)",
  help: `usage: evidence-bridge [--home DIR] [--team URL] team remove NAME|FINGERPRINT

Signs the next membership version without the member (named, or by at least 12 digits of fingerprint), under a new
epoch key that is not wrapped to them, and records the removal in the team chain: from then on nothing new is sealed
to them and a decision signed by them is refused by every client. What they already read stays read (docs/team.md).`,
  async run(args, ctx) {
    const { positionals } = parseFlags(args, {});
    if (positionals.length !== 1) throw new CliError("team remove: expected exactly one member name or fingerprint");
    const { home } = configFrom(ctx);
    const url = requireUrl(ctx, "team remove");
    return teamGuarded("team remove", async () => {
      const out = await withPort(url, false, (port) => removeMember(home, port, positionals[0]));
      await write(ctx, `removed ${out.removed.name} (${out.removed.fingerprint.slice(0, 16)}…) in membership v${out.version}\n`);
      return 0;
    });
  },
};

export const status: CliCommand = {
  summary: "members, queue depth, outbox and last sync",
  help: `usage: evidence-bridge [--home DIR] [--team URL] team status

Shows the team id, the membership this member verified (members, roles, fingerprints, the four-eyes policy), the
capsules waiting in the local outbox and the time of the last 'team sync'. With a team database, reads and verifies
the queue first (every membership, the whole chain, this member's position) and shows its depth.`,
  async run(args, ctx) {
    const { positionals } = parseFlags(args, {});
    if (positionals.length > 0) throw new CliError(`team status: unexpected argument ${JSON.stringify(positionals[0])}`);
    const { home } = configFrom(ctx);
    const url = teamUrl(ctx);
    return teamGuarded("team status", async () => {
      let local = readTeamState(home);
      const lines: string[] = [`team ${local.state.teamId}; admin key fingerprint ${adminFingerprint(local.state.adminKey)}`];
      if (url !== undefined) {
        await withPort(url, false, async (port) => {
          const view = await readTeamView(home, port, loadMemberKeys(home), local, "warm");
          const counts = await port.counts();
          lines.push(`queue: ${view.publications.length} candidate(s), ${view.chain.records.length} decision(s), ${counts.objects} object(s) and ${counts.records} chain record(s) in the database; verified`);
        });
        local = readTeamState(home);
      }
      const m = local.membership;
      lines.push(`membership v${m.version}: ${m.approvals} approval(s) release a candidate`);
      for (const x of m.members) lines.push(`  ${x.name} (${x.role}) ${x.fingerprint.slice(0, 16)}…${x.fingerprint === local.state.member ? " (this member)" : ""}`);
      if (m.removed.length > 0) lines.push(`  removed: ${m.removed.map((fp) => `${fp.slice(0, 16)}…`).join(", ")}`);
      lines.push(`outbox: ${pendingCount(home)} capsule(s) waiting; last sync: ${readLastSync(home) ?? "never"}`);
      await write(ctx, `${lines.join("\n")}\n`);
      return 0;
    });
  },
};

export const sync: CliCommand = {
  summary: "publish the store's capsules to the team queue; verify it",
  help: `usage: evidence-bridge [--home DIR] [--pack FILE] [--team URL] team sync

Seals every capsule of this data directory's store not yet published (however it was recorded: capsule build,
capsule assess, MCP) with its candidate to every current member, queues it in the local outbox (team/outbox/,
nothing unsealed), publishes the outbox, and reads and verifies the queue. Without the database, capsules wait in the
outbox. Safe to interrupt at any point (kill -9 included): the next run publishes what is left, nothing twice.`,
  async run(args, ctx) {
    const { positionals } = parseFlags(args, {});
    if (positionals.length > 0) throw new CliError(`team sync: unexpected argument ${JSON.stringify(positionals[0])}`);
    const { home } = configFrom(ctx);
    return teamGuarded("team sync", async () => {
      const local = readTeamState(home);
      const keys = loadMemberKeys(home);
      const queued = await queueStoreCapsules(ctx, home, keys, local.membership);
      const url = teamUrl(ctx);
      if (url === undefined) {
        await write(ctx, `queued ${queued} capsule(s); ${pendingCount(home)} waiting in the outbox: no team database (--team URL or EVIDENCE_BRIDGE_TEAM_URL)\n`);
        return 0;
      }
      await withPort(url, false, async (port) => {
        const before = await readTeamView(home, port, keys, local);
        const flushed = await flushOutbox(home, port, keys, before.membership);
        const view = await readTeamView(home, port, keys, readTeamState(home));
        await wrapForNewMembers(port, keys, before.membership, view);
        writeLastSync(home, new Date());
        await write(ctx, `queued ${queued}, published ${flushed.files} capsule(s) (${flushed.inserted} object(s) new, ${flushed.existing} already there); queue verified: ${view.publications.length} candidate(s), ${view.chain.records.length} decision(s)\n`);
      });
      return 0;
    });
  },
};

/** Queues every capsule of the store this member has not queued yet; returns how many. */
async function queueStoreCapsules(ctx: CliContext, home: string, keys: ReturnType<typeof loadMemberKeys>, membership: ReturnType<typeof readTeamState>["membership"]): Promise<number> {
  const store = await openExisting(ctx, "team sync");
  if (store === undefined) return 0;
  const ids = store.capsuleIds().filter((id) => !alreadyQueued(home, keys, id));
  if (ids.length === 0) return 0;
  const derivations = new StoredDerivations(store, loadPack(ctx));
  let n = 0;
  for (const id of ids) {
    const r = derivations.candidate(id, { includeTypologyMatches: false, includeClean: false });
    const candidate = r.status === "emitted" ? { bytes: r.bytes, typologyMatchVisible: false } : undefined;
    if (enqueuePublication(home, keys, membership, { capsuleSha256: id, capsuleBytes: store.getCapsule(id), candidate }) === "queued") n++;
  }
  derivations.save();
  return n;
}
