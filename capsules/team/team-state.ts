/**
 * What a member's data directory remembers about its team (issue 34), under `<home>/team/` (0700, files 0600):
 *
 * - `team.json`: `{"admin_key":…,"format":"evidence-bridge-team/v1","member":<own fingerprint>,"team_id":…}`, the
 *   pin written when joining (`team init` or `team join NAME.invitation`); never the database URL (it may hold a
 *   password);
 * - `membership.json`: the latest membership this member verified (canonical bytes, admin-signed): a database that
 *   serves an older one is caught;
 * - `position.json`: `{"format":"evidence-bridge-team-position/v1","member":…,"row_digest":…,"rows":n,
 *   "signature":…,"team_id":…}`, signed by the member's Ed25519 key over `"evidence-bridge team position v1\0"` +
 *   the canonical bytes without `signature`: the longest chain this member verified. A chain shorter than `rows`, or
 *   holding another digest at row `rows`, is a rollback (refused naming both). The file is written after every
 *   verified read and append; a file that does not verify is refused, never ignored;
 * - `last-sync`: the time of the last successful `team sync` (for `team status`).
 */
import { join } from "node:path";
import { canonicalBytes } from "../../src/json/canonical.js";
import { bytesToHex, hexToBytes } from "../../src/hash.js";
import { readRegularFileIfExists } from "../../src/crypto/safe-read.js";
import { ensurePrivateDir, replaceFile } from "../../src/crypto/safe-write.js";
import { prepareDataDir } from "../../src/crypto/data-dir.js";
import { verifySignature } from "../../src/crypto/sign.js";
import { TeamError } from "./errors.js";
import { domainBytes, exactObject, hexField, intField, malformed } from "./fields.js";
import { teamDir, type MemberKeys } from "./member-keys.js";
import { readMembership, type Membership, type TeamPin } from "./membership.js";

export const TEAM_STATE_FORMAT = "evidence-bridge-team/v1";
export const POSITION_FORMAT = "evidence-bridge-team-position/v1";
const POSITION_DOMAIN = "evidence-bridge team position v1\u0000";
const MAX = 1024 * 1024;

export interface TeamState extends TeamPin {
  member: string;
}

function write(home: string, name: string, bytes: Uint8Array): void {
  prepareDataDir(home);
  ensurePrivateDir(teamDir(home));
  replaceFile(teamDir(home), name, new Uint8Array([...bytes, 0x0a]));
}

function read(home: string, name: string): Uint8Array | undefined {
  const bytes = readRegularFileIfExists(join(teamDir(home), name), { maxBytes: MAX, label: join(teamDir(home), name) });
  if (bytes === undefined) return undefined;
  if (bytes[bytes.length - 1] !== 0x0a) throw new TeamError("state", `${join(teamDir(home), name)} does not end in a newline (an interrupted write?)`);
  return bytes.subarray(0, bytes.length - 1);
}

export function writeTeamState(home: string, s: TeamState, membership: Membership): void {
  write(home, "membership.json", membership.bytes);
  write(home, "team.json", canonicalBytes({ admin_key: s.adminKey, format: TEAM_STATE_FORMAT, member: s.member, team_id: s.teamId }, "team state"));
}

/** The team this data directory joined; a TeamError `state` naming `team join` when it joined none. */
export function readTeamState(home: string): { state: TeamState; membership: Membership } {
  const bytes = read(home, "team.json");
  if (bytes === undefined) throw new TeamError("state", `this data directory belongs to no team (${join(teamDir(home), "team.json")} is missing): run 'evidence-bridge team init' or 'team join NAME.invitation'`);
  const what = join(teamDir(home), "team.json");
  const o = exactObject(bytes, what, ["admin_key", "format", "member", "team_id"]);
  if (o.get("format") !== TEAM_STATE_FORMAT) throw malformed(`${what}.format`, `expected ${TEAM_STATE_FORMAT}`);
  const state = { adminKey: hexField(o, "admin_key", what, 64), member: hexField(o, "member", what, 64), teamId: hexField(o, "team_id", what, 32) };
  const mb = read(home, "membership.json");
  if (mb === undefined) throw new TeamError("state", `${join(teamDir(home), "membership.json")} is missing: join the team again with 'team join NAME.invitation'`);
  const membership = readMembership(mb, join(teamDir(home), "membership.json"));
  if (membership.teamId !== state.teamId || membership.adminKey !== state.adminKey) throw new TeamError("state", `${join(teamDir(home), "membership.json")} belongs to another team`);
  return { state, membership };
}

export function joinedTeam(home: string): boolean {
  return read(home, "team.json") !== undefined;
}

/** Remembers a newer verified membership (never an older one). */
export function rememberMembership(home: string, m: Membership, known: Membership): void {
  if (m.version > known.version) write(home, "membership.json", m.bytes);
}

export interface TeamPosition {
  rows: number;
  rowDigest: string;
}

function positionUnsigned(s: TeamState, p: TeamPosition): Uint8Array {
  return canonicalBytes({ format: POSITION_FORMAT, member: s.member, row_digest: p.rowDigest, rows: p.rows, team_id: s.teamId }, "team position");
}

export function writePosition(home: string, s: TeamState, keys: MemberKeys, p: TeamPosition): void {
  const signature = bytesToHex(keys.sign.sign(domainBytes(POSITION_DOMAIN, positionUnsigned(s, p))));
  write(home, "position.json", canonicalBytes({ format: POSITION_FORMAT, member: s.member, row_digest: p.rowDigest, rows: p.rows, signature, team_id: s.teamId }, "team position"));
}

/** The signed position, or undefined when this member never read the chain. */
export function readPosition(home: string, s: TeamState, keys: MemberKeys): TeamPosition | undefined {
  const bytes = read(home, "position.json");
  if (bytes === undefined) return undefined;
  const what = join(teamDir(home), "position.json");
  const o = exactObject(bytes, what, ["format", "member", "row_digest", "rows", "signature", "team_id"]);
  if (o.get("format") !== POSITION_FORMAT) throw malformed(`${what}.format`, `expected ${POSITION_FORMAT}`);
  const p = { rows: intField(o, "rows", what, 0, Number.MAX_SAFE_INTEGER), rowDigest: hexField(o, "row_digest", what, 64) };
  if (hexField(o, "member", what, 64) !== s.member || hexField(o, "team_id", what, 32) !== s.teamId) throw new TeamError("state", `${what} belongs to another member or team`);
  if (!verifySignature(keys.sign.publicKey, domainBytes(POSITION_DOMAIN, positionUnsigned(s, p)), hexToBytes(hexField(o, "signature", what, 128)))) {
    throw new TeamError("state", `${what}: the signature does not verify with this member's key (the file was edited)`);
  }
  return p;
}

/**
 * Refuses a chain that is shorter than, or differs at, the remembered position. `digestAt(n)` is row n's digest as
 * served, or null when row n lies inside a prefix this member already verified and did not fetch again.
 */
export function checkPosition(p: TeamPosition | undefined, rows: number, digestAt: (n: number) => string | null | undefined): void {
  if (p === undefined || p.rows === 0) return;
  if (rows < p.rows) {
    throw new TeamError("rollback", `the team database serves ${rows} chain records where this member already verified ${p.rows}: the records table was rolled back (or rows are withheld)`);
  }
  const served = digestAt(p.rows);
  if (served !== null && served !== p.rowDigest) {
    throw new TeamError("rollback", `chain record #${p.rows} is not the one this member verified before: the database serves another history`);
  }
}

export function writeLastSync(home: string, at: Date): void {
  write(home, "last-sync", new TextEncoder().encode(at.toISOString()));
}

export function readLastSync(home: string): string | undefined {
  const b = read(home, "last-sync");
  return b === undefined ? undefined : Buffer.from(b).toString("utf8");
}
