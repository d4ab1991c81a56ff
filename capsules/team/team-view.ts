/**
 * Reading the team queue as a member (issue 34 item 3): everything a client takes from the untrusted database is
 * verified here, once, into a {@link TeamView} that the commands use.
 *
 * 1. The objects addressed to this member (`objectsFor`, paged); epoch keys (`membership-keys` objects) are opened
 *    first and checked against their commitment (epoch-keys.ts).
 * 2. Every membership document, opened under its epoch, signature-checked, pinned to the team and admin key this
 *    member joined, versions without a gap (membership.ts); the latest must not be older than the one this member
 *    already verified, and must still list this member.
 * 3. The chain, every row from the first (team-chain.ts), then this member's signed position (team-state.ts): a
 *    shorter or different chain is a rollback. The position then moves to the verified head.
 * 4. Capsules and candidates: opened, id/kind/author checked (envelope.ts).
 *
 * Two modes. `cold` reads and verifies everything from the first row and opens every object (what `team sync`,
 * `team invite` and `review show` use: they need every data key or the candidate bytes). `warm` resumes from this
 * member's sealed view cache (view-cache.ts): only objects and chain rows stored after the cached ones are fetched,
 * opened and verified; the cached last row is fetched again and must be unchanged (else the whole chain is read and
 * verified again, and the signed position decides whether it was rolled back); memberships are always read and
 * verified in full. Both write the cache back.
 */
import { hexToBytes } from "../../src/hash.js";
import { TeamError } from "./errors.js";
import { EpochPurpose, openUnderEpoch, readEpochKeyPayload, type EpochKey } from "./epoch-keys.js";
import { openObject, type OpenedObject } from "./envelope.js";
import type { MemberKeys } from "./member-keys.js";
import { checkMembershipSequence, memberOf, readMembership, type Membership, type TeamMember } from "./membership.js";
import type { TeamObjectOut, TeamQueuePort } from "./queue-port.js";
import { verifyTeamChain, type TeamChain } from "./team-chain.js";
import { readViewCache, writeViewCache, type ViewCache } from "./view-cache.js";
import { checkPosition, readPosition, rememberMembership, writePosition, type TeamState } from "./team-state.js";
import { readPublication, type Publication } from "./publication.js";

const PAGE = 1000;

export interface TeamView {
  state: TeamState;
  self: TeamMember;
  /** The latest verified membership. */
  membership: Membership;
  memberships: readonly Membership[];
  epochs: ReadonlyMap<string, EpochKey>;
  chain: TeamChain;
  /** Opened capsule objects by object id (cold reads only; empty when warm). */
  capsules: Map<string, OpenedObject>;
  /** Opened publications (candidate objects), in queue order; candidate bytes only for objects opened by this read. */
  publications: Publication[];
  /** The objects opened by this read (every object addressed to this member when cold: for re-wrapping). */
  objects: OpenedObject[];
}

export type ViewMode = "cold" | "warm";

export async function allObjectsFor(port: TeamQueuePort, recipient: string, from = 0): Promise<TeamObjectOut[]> {
  const out: TeamObjectOut[] = [];
  let after = from;
  for (;;) {
    const page = await port.objectsFor(recipient, after, PAGE);
    for (const row of page) {
      if (row.seq <= after) throw new TeamError("forged", `the database served object row #${row.seq} after row #${after}: rows out of order`);
      after = row.seq;
      out.push(row);
    }
    if (page.length < PAGE) return out;
  }
}

/** Reads and verifies the whole queue for `keys`. Moves this member's signed position to the verified head. */
export async function readTeamView(
  home: string,
  port: TeamQueuePort,
  keys: MemberKeys,
  local: { state: TeamState; membership: Membership },
  mode: ViewMode = "cold",
): Promise<TeamView> {
  const { state } = local;
  const cache = mode === "warm" ? readViewCache(home, state, keys) : undefined;
  const rows = await allObjectsFor(port, keys.fingerprint, cache?.maxObjectSeq ?? 0);
  // Epoch keys are authored by the admin's member key; any member the client already trusts may author one, and the
  // commitment in the signed membership decides whether it is used at all.
  const trusted = new Map(local.membership.members.map((m) => [m.fingerprint, hexToBytes(m.signKey)]));
  const epochs = new Map<string, EpochKey>((cache?.epochs ?? []).map((k) => [k.id, k]));
  for (const row of rows) {
    if (row.kind !== "membership-keys") continue;
    const opened = openObject(row, keys, (fp) => trusted.get(fp));
    const k = readEpochKeyPayload(opened.payload);
    epochs.set(k.id, k);
  }
  const docs = (await port.memberships()).map((d) => {
    const label = `membership v${d.version}`;
    let opened: Uint8Array;
    try {
      opened = openUnderEpoch(d.body, epochs, EpochPurpose.membership, label);
    } catch (e) {
      if (e instanceof TeamError && e.code === "not-member" && d.version > local.membership.version) {
        throw new TeamError("not-member", `${label} is sealed under an epoch key this member was not given: this member was removed from the team (or the database withholds the key object)`);
      }
      throw e;
    }
    const m = readMembership(opened, label);
    if (m.version !== d.version) throw new TeamError("forged", `${label}: the database serves the signed membership v${m.version} under version ${d.version}`);
    return m;
  });
  const latest = checkMembershipSequence(docs, state);
  for (const m of docs) {
    if (!epochs.has(m.epoch) && memberOf(m, keys.fingerprint) !== undefined) throw new TeamError("forged", `membership v${m.version}: its epoch key ${m.epoch} is withheld by the database`);
  }
  if (latest.version < local.membership.version) {
    throw new TeamError("rollback", `the team database serves membership v${latest.version} where this member already verified v${local.membership.version}: the memberships table was rolled back`);
  }
  const known = docs[local.membership.version - 1];
  if (known.sha256 !== local.membership.sha256) throw new TeamError("forged", `the team database serves another membership v${known.version} than the one this member verified`);
  if (latest.removed.includes(keys.fingerprint)) throw new TeamError("not-member", `this member was removed from the team in membership v${latest.version}`);
  const self = memberOf(latest, keys.fingerprint);
  if (self === undefined) throw new TeamError("not-member", `membership v${latest.version} does not list this member's key ${keys.fingerprint.slice(0, 12)}`);
  rememberMembership(home, latest, local.membership);

  const { chain, digestAt, servedRows } = await readChain(port, docs, epochs, state, cache);
  checkPosition(readPosition(home, state, keys), servedRows, digestAt);
  writePosition(home, state, keys, { rows: chain.rows, rowDigest: chain.rowHead });

  // Authors: anyone who was ever a member (a removed member's earlier capsules stay readable).
  const authors = new Map<string, Uint8Array>();
  for (const m of docs) for (const x of m.members) authors.set(x.fingerprint, hexToBytes(x.signKey));
  const capsules = new Map<string, OpenedObject>();
  const capsuleAuthors = new Map<string, string>(cache?.capsuleObjects ?? []);
  const fresh: Publication[] = [];
  const objects: OpenedObject[] = [];
  for (const row of rows) {
    const opened = row.kind === "membership-keys" ? openObject(row, keys, (fp) => trusted.get(fp)) : openObject(row, keys, (fp) => authors.get(fp));
    objects.push(opened);
    if (opened.kind === "capsule") {
      capsules.set(opened.id, opened);
      capsuleAuthors.set(opened.id, opened.author);
    } else if (opened.kind === "candidate") fresh.push(readPublication(opened, row.hour));
  }
  for (const p of fresh) {
    const author = capsuleAuthors.get(p.capsuleObject);
    if (author === undefined) throw new TeamError("forged", `candidate object ${p.objectId}: its capsule object ${p.capsuleObject} is withheld by the database`);
    if (author !== p.author) throw new TeamError("forged", `candidate object ${p.objectId}: published by another member than its capsule object`);
  }
  // An object served again under a new store seq (deleted and inserted again) is already in the cache: kept once.
  const cachedIds = new Set((cache?.publications ?? []).map((p) => p.objectId));
  const publications: Publication[] = [...(cache?.publications ?? []), ...fresh.filter((p) => !cachedIds.has(p.objectId))];
  const maxObjectSeq = rows.length > 0 ? rows[rows.length - 1].seq : (cache?.maxObjectSeq ?? 0);
  if (cache === undefined || rows.length > 0 || chain.rows !== cache.chain.rows) {
    writeViewCache(home, state, keys, {
      maxObjectSeq,
      epochs: [...epochs.values()],
      capsuleObjects: capsuleAuthors,
      publications,
      chain: { records: chain.records, decisionHead: chain.decisionHead, rowHead: chain.rowHead, rows: chain.rows, membershipVersion: chain.membership.version, lastSeq: chain.lastSeq, prevSeq: chain.prevSeq },
    });
  }
  return { state, self, membership: latest, memberships: docs, epochs, chain, capsules, publications, objects };
}

/**
 * The chain: every row (no cache), or the cached last row again plus the rows after it. Returns the verified chain,
 * the number of rows the database serves, and the digest of row n where this read knows it (for the position check).
 */
async function readChain(
  port: TeamQueuePort,
  docs: readonly Membership[],
  epochs: ReadonlyMap<string, EpochKey>,
  pin: TeamState,
  cache: ViewCache | undefined,
): Promise<{ chain: TeamChain; servedRows: number; digestAt: (n: number) => string | null | undefined }> {
  const cold = async () => {
    const all = await port.records(0);
    const chain = verifyTeamChain({ rows: all, memberships: docs, epochs, pin });
    return { chain, servedRows: all.length, digestAt: (n: number) => all[n - 1]?.digest };
  };
  if (cache === undefined || cache.chain.rows === 0) return cold();
  const start = cache.chain;
  const served = await port.records(start.prevSeq);
  const again = served[0];
  // Store seqs are the database's, not part of anything signed: a row deleted and inserted again with the same bytes
  // gets a new one. When the cached last row is not where the cache expects it, the whole chain is read and verified
  // again, and this member's signed position decides whether anything was rolled back.
  if (again === undefined || again.seq !== start.lastSeq || again.digest !== start.rowHead) return cold();
  const fresh = served.slice(1);
  const chain = verifyTeamChain({ rows: fresh, from: start, memberships: docs, epochs, pin });
  // Rows before the cached last one were verified by the read that wrote the (authenticated) cache: null, not known here.
  const digestAt = (n: number): string | null | undefined => (n < start.rows ? null : n === start.rows ? start.rowHead : fresh[n - start.rows - 1]?.digest);
  return { chain, servedRows: start.rows + fresh.length, digestAt };
}
