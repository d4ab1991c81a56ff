/**
 * One line naming what failed when talking to the team database: connection refused, host not found, timeout, TLS
 * (which check), authentication, a missing database or schema, a schema newer than this client, or a refused
 * statement. Built from the error's code and the address's printable form only: the URL's password never appears,
 * and neither does any server text that could quote a statement's parameters.
 */
import type { TeamDatabase } from "./database-url.js";

/** A failure of the team database (environment/IO in the house's terms): `message` is the one line to print. */
export class TeamDatabaseError extends Error {
  override name = "TeamDatabaseError";
  constructor(
    message: string,
    /** true when trying the same call again may succeed (the connection dropped, the server restarted). */
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

const TLS_CODES: Record<string, string> = {
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate does not name this host (sslmode=verify-full)",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's certificate is self-signed and not among the trusted roots (sslrootcert)",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's certificate chain ends in a root that is not trusted (sslrootcert)",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's certificate is not signed by a trusted root (sslrootcert)",
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: "the server's certificate is not signed by a trusted root (sslrootcert)",
  UNABLE_TO_GET_ISSUER_CERT: "the server's certificate is not signed by a trusted root (sslrootcert)",
  CERT_HAS_EXPIRED: "the server's certificate has expired",
  CERT_NOT_YET_VALID: "the server's certificate is not yet valid",
  CERT_SIGNATURE_FAILURE: "the server's certificate signature does not verify",
};

/** Connection-level codes after which a new connection may work (server restart, dropped link). */
const RETRYABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "57P01", "57P02", "57P03", "08000", "08003", "08006", "08001", "08004"]);

/** True for a failure of the link rather than of the statement (node-postgres's own wording for a lost link). */
function linkLost(e: { code?: string; message?: string }): boolean {
  if (e.code !== undefined && RETRYABLE_CODES.has(e.code)) return true;
  const m = e.message ?? "";
  return /Connection terminated|Client has encountered a connection error|connection timeout|timeout expired/i.test(m);
}

/** The one-line error for a failure of `action` (e.g. "connecting", "appending a record") against `db`. */
export function databaseError(db: Pick<TeamDatabase, "display" | "sslmode">, action: string, cause: unknown): TeamDatabaseError {
  if (cause instanceof TeamDatabaseError) return cause;
  const e = (typeof cause === "object" && cause !== null ? cause : {}) as { code?: string; message?: string; routine?: string };
  const at = `team database ${db.display}`;
  const code = e.code ?? "";
  const tls = TLS_CODES[code];
  if (tls !== undefined) return new TeamDatabaseError(`${at}: TLS refused while ${action}: ${tls}`, false);
  if (code === "ECONNREFUSED") return new TeamDatabaseError(`${at}: connection refused while ${action} (is the server running and listening there?)`, true);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new TeamDatabaseError(`${at}: host not found while ${action}`, code === "EAI_AGAIN");
  if (code === "28P01" || code === "28000") return new TeamDatabaseError(`${at}: authentication failed while ${action} (user or password refused)`, false);
  if (code === "3D000") return new TeamDatabaseError(`${at}: the database does not exist`, false);
  if (code === "42501") return new TeamDatabaseError(`${at}: permission denied while ${action} (the user lacks a privilege on the team schema)`, false);
  if (/does not support SSL/i.test(e.message ?? "")) {
    return new TeamDatabaseError(`${at}: TLS refused while ${action}: the server does not offer TLS (sslmode=${db.sslmode})`, false);
  }
  if (code === "" && /SSL|TLS|certificate/i.test(e.message ?? "")) {
    return new TeamDatabaseError(`${at}: TLS failed while ${action}`, false);
  }
  if (linkLost(e)) return new TeamDatabaseError(`${at}: the connection was lost while ${action} (${code || "closed"})`, true);
  if (/^[0-9A-Z]{5}$/.test(code)) return new TeamDatabaseError(`${at}: the server refused ${action} (SQLSTATE ${code})`, false);
  return new TeamDatabaseError(`${at}: ${action} failed (${code || (e as Error).name || "error"})`, false);
}

/** True when `cause` is a lost link that a fresh connection may get past. */
export function isRetryable(cause: unknown): boolean {
  if (cause instanceof TeamDatabaseError) return cause.retryable;
  return typeof cause === "object" && cause !== null && linkLost(cause as { code?: string; message?: string });
}
