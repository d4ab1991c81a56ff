/**
 * The team database's address (issue 34): `--team URL` or `EVIDENCE_BRIDGE_TEAM_URL`, parsed strictly into the
 * connection settings node-postgres is given, field by field (never the URL string itself, so `pg` reads no
 * `sslmode` of its own and no `PGSSLMODE` from the environment decides the transport).
 *
 * Accepted: `postgres://` or `postgresql://`, a host (name, IPv4 or [IPv6]), an optional port, optional user and
 * password, one database name, and only these query parameters, each at most once:
 * - `sslmode`: `disable` (no TLS), `require` (TLS, certificate NOT verified: libpq's meaning, which stops a
 *   passive listener but not an active one), `verify-ca` (TLS, the chain verified against the root, host name not
 *   checked), `verify-full` (TLS, chain and host name verified). `allow` and `prefer` are refused: they fall back
 *   to plain text silently. Absent: `disable` for a loopback host (127.0.0.0/8, ::1, localhost), otherwise an error
 *   asking for an explicit mode, so a remote database is never reached in plain text by default.
 * - `sslrootcert`: a PEM file of the roots to trust (with verify-ca/verify-full; `system`, or absent, means Node's
 *   built-in roots). `sslcert` + `sslkey`: a client certificate and its key (PEM files), both or neither.
 * - `connect_timeout`: seconds (1–600) to wait for a connection; 10 when absent.
 * Anything else (another parameter, a fragment, a unix-socket host, several hosts) is refused, naming it.
 *
 * The password never leaves this module except inside the `pg` settings: {@link TeamDatabase.display} is what error
 * lines and status print (`user@host:port/database`).
 */
import { readFileSync } from "node:fs";

export type SslMode = "disable" | "require" | "verify-ca" | "verify-full";

export interface TeamDatabase {
  host: string;
  port: number;
  database: string;
  user: string | undefined;
  password: string | undefined;
  sslmode: SslMode;
  sslrootcert: string | undefined;
  sslcert: string | undefined;
  sslkey: string | undefined;
  connectTimeoutMs: number;
  /** `user@host:port/database`: no password, safe to print. */
  display: string;
}

/** The environment variable that names the team database when `--team` is not given. */
export const TEAM_URL_ENV = "EVIDENCE_BRIDGE_TEAM_URL";

/** A team database URL that cannot be used; the message names the part and the rule, never the password. */
export class TeamUrlError extends Error {
  override name = "TeamUrlError";
}

const PARAMS = new Set(["sslmode", "sslrootcert", "sslcert", "sslkey", "connect_timeout"]);
const MODES: readonly SslMode[] = ["disable", "require", "verify-ca", "verify-full"];
const LOOPBACK = /^(?:127(?:\.\d{1,3}){3}|\[::1\]|localhost)$/i;

/** The URL from `--team` (wins) or the environment; undefined when neither names one. */
export function teamUrlFrom(flag: string | undefined, env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (flag !== undefined) return flag;
  const v = env[TEAM_URL_ENV];
  return v === undefined || v === "" ? undefined : v;
}

/** Parses a team database URL (see the module comment for what is accepted). */
export function parseTeamUrl(text: string): TeamDatabase {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new TeamUrlError("team database URL: not a URL (expected postgres://user:password@host:port/database?sslmode=verify-full)");
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new TeamUrlError(`team database URL: the scheme must be postgres:// or postgresql://, not ${url.protocol}//`);
  }
  if (url.hostname === "") throw new TeamUrlError("team database URL: no host (unix sockets are not supported; give a host name or address)");
  if (url.hash !== "") throw new TeamUrlError("team database URL: a fragment (#...) is not allowed");
  if (url.host.includes(",")) throw new TeamUrlError("team database URL: several hosts are not supported; give one");
  const port = url.port === "" ? 5432 : Number(url.port);
  const path = decodeURIComponent(url.pathname.replace(/^\//, ""));
  if (path === "" || path.includes("/")) throw new TeamUrlError("team database URL: the path must be one database name (postgres://host/DATABASE)");

  const seen = new Set<string>();
  for (const [k] of url.searchParams) {
    if (!PARAMS.has(k)) throw new TeamUrlError(`team database URL: unknown parameter "${k}" (allowed: ${[...PARAMS].join(", ")})`);
    if (seen.has(k)) throw new TeamUrlError(`team database URL: parameter "${k}" given twice`);
    seen.add(k);
  }
  const q = (k: string): string | undefined => url.searchParams.get(k) ?? undefined;
  const loopback = LOOPBACK.test(url.hostname);
  const modeText = q("sslmode");
  let sslmode: SslMode;
  if (modeText === undefined) {
    if (!loopback) {
      throw new TeamUrlError(
        `team database URL: sslmode is required for a host that is not loopback (${url.hostname}); use sslmode=verify-full (or require, which does not verify the server)`,
      );
    }
    sslmode = "disable";
  } else if ((MODES as readonly string[]).includes(modeText)) sslmode = modeText as SslMode;
  else if (modeText === "allow" || modeText === "prefer") {
    throw new TeamUrlError(`team database URL: sslmode=${modeText} may fall back to plain text silently; use disable, require, verify-ca or verify-full`);
  } else throw new TeamUrlError(`team database URL: unknown sslmode (allowed: ${MODES.join(", ")})`);

  const sslrootcert = q("sslrootcert");
  const sslcert = q("sslcert");
  const sslkey = q("sslkey");
  if (sslmode === "disable" && (sslrootcert ?? sslcert ?? sslkey) !== undefined) {
    throw new TeamUrlError("team database URL: sslrootcert, sslcert and sslkey need sslmode=require, verify-ca or verify-full");
  }
  if (sslrootcert !== undefined && sslmode === "require") {
    throw new TeamUrlError("team database URL: sslrootcert with sslmode=require would not be checked; use sslmode=verify-full (or verify-ca)");
  }
  if ((sslcert === undefined) !== (sslkey === undefined)) throw new TeamUrlError("team database URL: sslcert and sslkey go together");
  const timeoutText = q("connect_timeout");
  const timeout = timeoutText === undefined ? 10 : Number(timeoutText);
  if (!/^\d{1,3}$/.test(timeoutText ?? "10") || timeout < 1 || timeout > 600) {
    throw new TeamUrlError("team database URL: connect_timeout must be whole seconds from 1 to 600");
  }
  const user = url.username === "" ? undefined : decodeURIComponent(url.username);
  const password = url.password === "" ? undefined : decodeURIComponent(url.password);
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return {
    host,
    port,
    database: path,
    user,
    password,
    sslmode,
    sslrootcert,
    sslcert,
    sslkey,
    connectTimeoutMs: timeout * 1000,
    display: `${user === undefined ? "" : `${user}@`}${url.hostname}:${port}/${path}`,
  };
}

/** What node-postgres's `ssl` option is for this address: false, or the TLS options (files read here). */
export function tlsOptions(db: TeamDatabase): false | { rejectUnauthorized: boolean; ca?: string; cert?: string; key?: string; checkServerIdentity?: () => undefined } {
  if (db.sslmode === "disable") return false;
  const read = (what: string, file: string): string => {
    try {
      return readFileSync(file, "utf8");
    } catch (e) {
      throw new TeamUrlError(`team database URL: cannot read ${what} file (${(e as NodeJS.ErrnoException).code ?? "error"})`);
    }
  };
  const client = db.sslcert !== undefined && db.sslkey !== undefined ? { cert: read("sslcert", db.sslcert), key: read("sslkey", db.sslkey) } : {};
  if (db.sslmode === "require") return { rejectUnauthorized: false, ...client };
  const ca = db.sslrootcert === undefined || db.sslrootcert === "system" ? {} : { ca: read("sslrootcert", db.sslrootcert) };
  // verify-ca: the chain is verified, the host name is not (libpq's meaning).
  const identity = db.sslmode === "verify-ca" ? { checkServerIdentity: () => undefined } : {};
  return { rejectUnauthorized: true, ...ca, ...client, ...identity };
}
