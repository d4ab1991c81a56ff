/**
 * The team queue's tables in PostgreSQL 13 or newer (issue 34), in their own schema `evidence_bridge_team`, and the
 * migrations that create them. Every column is one of: ciphertext (bytea), a random id, a size, an hour-truncated
 * time, a member key fingerprint, a sequence number, or a digest of ciphertext. Nothing else is stored: no IOC, no
 * message hash, no candidate field, no name, no typology (the private side seals them before they get here).
 *
 * `schema_version` holds one row: the number of migrations applied. A client applies the ones it lacks, under a
 * transaction-scoped advisory lock (two clients opening at once apply each migration once), and refuses a database
 * whose version is newer than the migrations it knows (an older client must not write into a newer layout).
 *
 * `records.prev` is UNIQUE: two writers appending on the same head both try to insert the same `prev`, one of the
 * two inserts fails, so the decision chain can never fork (capsules/team/queue-port.ts `appendRecord`).
 * CHECK constraints make the database refuse malformed rows from any client (hex ids, the closed kinds, whole
 * hours, a record digest that is the sha256 of its body).
 */
import type { PoolClient } from "pg";

export const TEAM_SCHEMA = "evidence_bridge_team";

/** The migrations, in order; the schema's version is how many have been applied. Never edit a published one. */
const MIGRATIONS: readonly string[] = [
  `CREATE TABLE ${TEAM_SCHEMA}.objects (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     id text NOT NULL UNIQUE CHECK (id ~ '^[0-9a-f]{32}$'),
     kind text NOT NULL CHECK (kind IN ('capsule', 'candidate', 'membership-keys')),
     hour timestamptz NOT NULL CHECK (extract(epoch FROM hour) = floor(extract(epoch FROM hour) / 3600) * 3600),
     size integer NOT NULL CHECK (size = octet_length(body)),
     body bytea NOT NULL
   );
   CREATE TABLE ${TEAM_SCHEMA}.wraps (
     recipient text NOT NULL CHECK (recipient ~ '^[0-9a-f]{64}$'),
     object_seq bigint NOT NULL REFERENCES ${TEAM_SCHEMA}.objects (seq),
     wrapped bytea NOT NULL,
     PRIMARY KEY (recipient, object_seq)
   );
   CREATE TABLE ${TEAM_SCHEMA}.records (
     seq bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
     prev text NOT NULL UNIQUE CHECK (prev ~ '^[0-9a-f]{64}$'),
     digest text NOT NULL CHECK (digest = encode(sha256(body), 'hex')),
     size integer NOT NULL CHECK (size = octet_length(body)),
     body bytea NOT NULL
   );
   CREATE TABLE ${TEAM_SCHEMA}.memberships (
     version integer PRIMARY KEY CHECK (version >= 1),
     body bytea NOT NULL
   );`,
];

/** The schema version this client writes and reads. */
export const TEAM_SCHEMA_VERSION = MIGRATIONS.length;

/** An arbitrary constant naming the advisory lock taken while migrating (any client of this schema uses it). */
const MIGRATION_LOCK = 0x65627465616d; // "ebteam"

export type SchemaState = { ok: true; applied: number } | { ok: false; reason: "missing" } | { ok: false; reason: "newer"; version: number };

/** Reads the schema version (undefined when the schema is absent). */
async function versionOf(client: PoolClient): Promise<number | undefined> {
  const t = await client.query<{ present: boolean }>(
    "SELECT to_regclass($1) IS NOT NULL AS present",
    [`${TEAM_SCHEMA}.schema_version`],
  );
  if (!t.rows[0].present) return undefined;
  const r = await client.query<{ version: number }>(`SELECT version FROM ${TEAM_SCHEMA}.schema_version`);
  return r.rows.length === 1 ? r.rows[0].version : 0;
}

/**
 * Brings the schema to {@link TEAM_SCHEMA_VERSION}: creates it when absent and `create` is set, applies missing
 * migrations, all in one transaction. Reports a missing schema (when `create` is not set) or a newer one.
 */
export async function ensureSchema(client: PoolClient, create: boolean): Promise<SchemaState> {
  // A quick look without the lock: the common case (current schema) costs one round trip and no lock.
  const seen = await versionOf(client);
  if (seen === TEAM_SCHEMA_VERSION) return { ok: true, applied: 0 };
  if (seen !== undefined && seen > TEAM_SCHEMA_VERSION) return { ok: false, reason: "newer", version: seen };
  if (seen === undefined && !create) return { ok: false, reason: "missing" };
  await client.query("BEGIN");
  try {
    await client.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${TEAM_SCHEMA}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${TEAM_SCHEMA}.schema_version (one boolean PRIMARY KEY DEFAULT true CHECK (one), version integer NOT NULL)`,
    );
    const version = (await versionOf(client)) ?? 0;
    if (version > TEAM_SCHEMA_VERSION) {
      await client.query("ROLLBACK");
      return { ok: false, reason: "newer", version };
    }
    for (let v = version; v < TEAM_SCHEMA_VERSION; v++) await client.query(MIGRATIONS[v]);
    await client.query(
      `INSERT INTO ${TEAM_SCHEMA}.schema_version (one, version) VALUES (true, $1) ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version`,
      [TEAM_SCHEMA_VERSION],
    );
    await client.query("COMMIT");
    return { ok: true, applied: TEAM_SCHEMA_VERSION - version };
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw e;
  }
}
