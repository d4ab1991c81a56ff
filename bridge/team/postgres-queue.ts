/**
 * The team queue port (capsules/team/queue-port.ts) on PostgreSQL through node-postgres (issue 34). The database is
 * untrusted: this module stores and returns opaque bytes and checks only their shape; every judgement about
 * contents (signatures, the chain, the membership) is the private side's.
 *
 * Every method is idempotent, so a call whose connection is lost (the server restarted, the link dropped) is tried
 * again on a fresh connection, for up to {@link RETRY_FOR_MS}, before its one-line error is thrown:
 * - `putObjects`, `addWraps`, `putMembership`: inserts that skip rows already there with the same bytes;
 * - `appendRecord`: a record already stored under the same `prev` with the same digest is reported "appended"
 *   (the first try committed before its answer was lost), one with another digest "conflict".
 * Several processes may use one database at once: `records.prev` is UNIQUE, so concurrent appends never fork.
 */
import pg from "pg";
import type { PoolClient } from "pg";
import { createHash } from "node:crypto";
import {
  TEAM_OBJECT_KINDS,
  type OpenTeamQueue,
  type TeamObjectIn,
  type TeamObjectKind,
  type TeamObjectOut,
  type TeamQueuePort,
  type TeamRecordOut,
} from "../../capsules/team/queue-port.js";
import { databaseError, isRetryable, TeamDatabaseError } from "./database-errors.js";
import { parseTeamUrl, tlsOptions, type TeamDatabase } from "./database-url.js";
import { ensureSchema, TEAM_SCHEMA as S, TEAM_SCHEMA_VERSION } from "./schema.js";

/** How long a call keeps trying after its connection is lost (a server restart takes a second or two). */
const RETRY_FOR_MS = 20_000;
/** How long opening keeps trying a server that refuses or is starting up (a fresh start fails fast). */
const OPEN_RETRY_FOR_MS = 3_000;
/** The most rows one `objectsFor` call returns. */
export const MAX_PAGE = 10_000;

/** An argument the private side should never pass (a bug there, not a database failure). */
export class TeamQueueInputError extends Error {
  override name = "TeamQueueInputError";
}

const HEX32 = /^[0-9a-f]{32}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const HOUR = /^\d{4}-\d\d-\d\dT\d\d:00:00Z$/;

function need(ok: boolean, message: string): void {
  if (!ok) throw new TeamQueueInputError(`team queue: ${message}`);
}

function hourEpoch(hour: string): number {
  const ms = Date.parse(hour);
  need(HOUR.test(hour) && Number.isFinite(ms) && new Date(ms).toISOString() === hour.replace("Z", ".000Z"), "hour must be an ISO UTC hour (2026-11-28T22:00:00Z)");
  return ms / 1000;
}

function epochHour(epoch: string | number): string {
  return new Date(Number(epoch) * 1000).toISOString().replace(".000Z", "Z");
}

function seqOf(v: string | number): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n)) throw new TeamDatabaseError("team database: a sequence number is out of range", false);
  return n;
}

function buf(b: Uint8Array): Buffer {
  return Buffer.isBuffer(b) ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength);
}

function checkSeq(n: number, what: string): void {
  need(Number.isSafeInteger(n) && n >= 0, `${what} must be a whole number ≥ 0`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class PostgresTeamQueue implements TeamQueuePort {
  private closed = false;

  private constructor(
    private readonly db: TeamDatabase,
    private readonly pool: pg.Pool,
  ) {}

  /** Connects, checks (and with `create`, creates or migrates) the schema. */
  static async open(db: TeamDatabase, options: { create: boolean; retryForMs?: number }): Promise<PostgresTeamQueue> {
    const pool = new pg.Pool({
      host: db.host,
      port: db.port,
      database: db.database,
      user: db.user,
      password: db.password,
      ssl: tlsOptions(db),
      connectionTimeoutMillis: db.connectTimeoutMs,
      max: 4,
      idleTimeoutMillis: 10_000,
      application_name: "evidence-bridge",
    });
    // An idle connection dropped by the server (a restart) is an event on the pool: the next call reconnects.
    pool.on("error", () => undefined);
    const q = new PostgresTeamQueue(db, pool);
    try {
      const state = await q.run("opening the team schema", (c) => ensureSchema(c, options.create), options.retryForMs ?? OPEN_RETRY_FOR_MS);
      if (!state.ok && state.reason === "missing") {
        throw new TeamDatabaseError(`team database ${db.display}: no team schema here; run \`team init --database URL\` first`, false);
      }
      if (!state.ok && state.reason === "newer") {
        throw new TeamDatabaseError(
          `team database ${db.display}: schema version ${state.version} is newer than this client's (${TEAM_SCHEMA_VERSION}); update evidence-bridge`,
          false,
        );
      }
      return q;
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw e;
    }
  }

  /** Runs `fn` on a pooled connection; a lost connection is retried on a fresh one for {@link RETRY_FOR_MS}. */
  private async run<T>(action: string, fn: (c: PoolClient) => Promise<T>, retryForMs = RETRY_FOR_MS): Promise<T> {
    if (this.closed) throw new TeamQueueInputError("team queue: used after close()");
    const deadline = Date.now() + retryForMs;
    for (let attempt = 0; ; attempt++) {
      let client: PoolClient | undefined;
      // The server ending the session between two statements (a restart) is an event on the checked-out client:
      // kept here and thrown by the next statement, instead of crashing the process as an unhandled event.
      const onError = () => undefined;
      try {
        client = await this.pool.connect();
        client.on("error", onError);
        const out = await fn(client);
        client.off("error", onError);
        client.release();
        return out;
      } catch (e) {
        // A connection that failed mid-statement is discarded, not returned to the pool.
        client?.off("error", onError);
        client?.release(e instanceof Error ? e : true);
        if (e instanceof TeamQueueInputError || e instanceof TeamDatabaseError) throw e;
        if (!isRetryable(e) || Date.now() >= deadline) throw databaseError(this.db, action, e);
        await sleep(Math.min(100 * 2 ** attempt, 1000));
      }
    }
  }

  /** Runs `fn` inside one transaction on one connection. */
  private tx<T>(action: string, fn: (c: PoolClient) => Promise<T>): Promise<T> {
    return this.run(action, async (c) => {
      await c.query("BEGIN");
      try {
        const out = await fn(c);
        await c.query("COMMIT");
        return out;
      } catch (e) {
        await c.query("ROLLBACK").catch(() => undefined);
        throw e;
      }
    });
  }

  async putObjects(objects: readonly TeamObjectIn[]): Promise<{ inserted: number; existing: number }> {
    if (objects.length === 0) return { inserted: 0, existing: 0 };
    const ids = new Set<string>();
    const wraps: { objectId: string; recipient: string; wrapped: Uint8Array }[] = [];
    for (const o of objects) {
      need(HEX32.test(o.id), "object id must be 32 lowercase hex digits");
      need(!ids.has(o.id), "an object id appears twice in one batch");
      ids.add(o.id);
      need((TEAM_OBJECT_KINDS as readonly string[]).includes(o.kind), `object kind must be one of ${TEAM_OBJECT_KINDS.join(", ")}`);
      hourEpoch(o.hour);
      need(o.body instanceof Uint8Array, "object body must be bytes");
      for (const w of o.wraps) wraps.push({ objectId: o.id, recipient: w.recipient, wrapped: w.wrapped });
    }
    checkWraps(wraps);
    const cols = [objects.map((o) => o.id), objects.map((o) => o.kind), objects.map((o) => hourEpoch(o.hour)), objects.map((o) => buf(o.body))];
    const wrapCols = [wraps.map((w) => w.objectId), wraps.map((w) => w.recipient), wraps.map((w) => buf(w.wrapped))];
    return this.tx("publishing objects", async (c) => {
      // One statement inserts the new objects and their wraps (a wrap of an object inserted here cannot exist yet).
      const ins = await c.query<{ inserted: number }>(
        `WITH ins AS (
           INSERT INTO ${S}.objects (id, kind, hour, size, body)
           SELECT id, kind, to_timestamp(epoch), octet_length(body), body
           FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bytea[]) WITH ORDINALITY AS t(id, kind, epoch, body, n)
           ORDER BY n
           ON CONFLICT (id) DO NOTHING
           RETURNING seq, id
         ), wins AS (
           INSERT INTO ${S}.wraps (recipient, object_seq, wrapped)
           SELECT w.recipient, ins.seq, w.wrapped
           FROM unnest($5::text[], $6::text[], $7::bytea[]) AS w(object_id, recipient, wrapped) JOIN ins ON ins.id = w.object_id
         )
         SELECT count(*)::int AS inserted FROM ins`,
        [...cols, ...wrapCols],
      );
      const inserted = ins.rows[0].inserted;
      if (inserted < objects.length) {
        // Some ids were there already (a re-publish after a crash): they must hold the same bytes, and their wraps
        // are added or compared like addWraps.
        const differ = await c.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM unnest($1::text[], $2::text[], $3::bigint[], $4::bytea[]) AS t(id, kind, epoch, body)
           JOIN ${S}.objects o ON o.id = t.id
           WHERE o.kind <> t.kind OR o.hour <> to_timestamp(t.epoch) OR o.body <> t.body`,
          cols,
        );
        if (differ.rows[0].n > 0) {
          throw new TeamDatabaseError(
            `team database ${this.db.display}: ${differ.rows[0].n} object id(s) already stored with a different kind, hour or body; nothing was written`,
            false,
          );
        }
        await insertWraps(c, this.db, wraps);
      }
      return { inserted, existing: objects.length - inserted };
    });
  }

  async addWraps(wraps: readonly { objectId: string; recipient: string; wrapped: Uint8Array }[]): Promise<void> {
    if (wraps.length === 0) return;
    checkWraps(wraps);
    await this.tx("adding wrapped keys", (c) => insertWraps(c, this.db, wraps));
  }

  async objectsFor(recipient: string, afterSeq: number, limit: number): Promise<TeamObjectOut[]> {
    need(HEX64.test(recipient), "recipient must be a 64-hex key fingerprint");
    checkSeq(afterSeq, "afterSeq");
    need(Number.isSafeInteger(limit) && limit >= 1 && limit <= MAX_PAGE, `limit must be from 1 to ${MAX_PAGE}`);
    const r = await this.run("reading objects", (c) =>
      c.query<{ seq: string; id: string; kind: string; epoch: string; body: Buffer; wrapped: Buffer }>(
        `SELECT o.seq::text AS seq, o.id, o.kind, extract(epoch FROM o.hour)::bigint::text AS epoch, o.body, w.wrapped
         FROM ${S}.wraps w JOIN ${S}.objects o ON o.seq = w.object_seq
         WHERE w.recipient = $1 AND w.object_seq > $2
         ORDER BY w.object_seq LIMIT $3`,
        [recipient, afterSeq, limit],
      ),
    );
    return r.rows.map((row) => ({
      seq: seqOf(row.seq),
      id: row.id,
      kind: row.kind as TeamObjectKind,
      hour: epochHour(row.epoch),
      body: row.body,
      wrapped: row.wrapped,
    }));
  }

  async appendRecord(prev: string, digest: string, body: Uint8Array): Promise<"appended" | "conflict"> {
    need(HEX64.test(prev), "prev must be 64 lowercase hex digits");
    need(HEX64.test(digest), "digest must be 64 lowercase hex digits");
    need(createHash("sha256").update(body).digest("hex") === digest, "digest is not the sha256 of body");
    return this.run("appending a decision record", async (c) => {
      const ins = await c.query(
        `INSERT INTO ${S}.records (prev, digest, size, body) VALUES ($1, $2, octet_length($3::bytea), $3) ON CONFLICT (prev) DO NOTHING`,
        [prev, digest, buf(body)],
      );
      if (ins.rowCount === 1) return "appended";
      // Someone holds this prev: ourselves (an earlier try whose answer was lost) or another writer.
      const held = await c.query<{ digest: string }>(`SELECT digest FROM ${S}.records WHERE prev = $1`, [prev]);
      return held.rows[0]?.digest === digest ? "appended" : "conflict";
    });
  }

  async records(afterSeq: number): Promise<TeamRecordOut[]> {
    checkSeq(afterSeq, "afterSeq");
    const r = await this.run("reading decision records", (c) =>
      c.query<{ seq: string; prev: string; digest: string; body: Buffer }>(
        `SELECT r.seq::text AS seq, r.prev, r.digest, r.body FROM ${S}.records r WHERE r.seq > $1 ORDER BY r.seq`,
        [afterSeq],
      ),
    );
    return r.rows.map((row) => ({ seq: seqOf(row.seq), prev: row.prev, digest: row.digest, body: row.body }));
  }

  async putMembership(version: number, body: Uint8Array): Promise<"stored" | "exists"> {
    need(Number.isSafeInteger(version) && version >= 1 && version <= 2 ** 31 - 1, "membership version must be a whole number from 1");
    return this.run("storing a membership", async (c) => {
      const ins = await c.query(`INSERT INTO ${S}.memberships (version, body) VALUES ($1, $2) ON CONFLICT (version) DO NOTHING`, [version, buf(body)]);
      if (ins.rowCount === 1) return "stored";
      const held = await c.query<{ same: boolean }>(`SELECT body = $2 AS same FROM ${S}.memberships WHERE version = $1`, [version, buf(body)]);
      if (held.rows[0]?.same === true) return "exists";
      throw new TeamDatabaseError(`team database ${this.db.display}: membership version ${version} is already stored with different bytes`, false);
    });
  }

  async memberships(): Promise<{ version: number; body: Uint8Array }[]> {
    const r = await this.run("reading memberships", (c) =>
      c.query<{ version: number; body: Buffer }>(`SELECT version, body FROM ${S}.memberships ORDER BY version`),
    );
    return r.rows.map((row) => ({ version: row.version, body: row.body }));
  }

  async counts(): Promise<{ objects: number; records: number }> {
    const r = await this.run("counting the queue", (c) =>
      c.query<{ objects: string; records: string }>(
        `SELECT (SELECT count(*) FROM ${S}.objects)::text AS objects, (SELECT count(*) FROM ${S}.records)::text AS records`,
      ),
    );
    return { objects: seqOf(r.rows[0].objects), records: seqOf(r.rows[0].records) };
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }
}

function checkWraps(wraps: readonly { objectId: string; recipient: string; wrapped: Uint8Array }[]): void {
  const seen = new Set<string>();
  for (const w of wraps) {
    need(HEX32.test(w.objectId), "wrap object id must be 32 lowercase hex digits");
    need(HEX64.test(w.recipient), "wrap recipient must be a 64-hex key fingerprint");
    need(w.wrapped instanceof Uint8Array, "wrapped key must be bytes");
    const key = `${w.objectId}:${w.recipient}`;
    need(!seen.has(key), "a recipient appears twice for one object");
    seen.add(key);
  }
}

/** Inserts wraps (skipping identical ones already stored) inside the caller's transaction. */
async function insertWraps(c: PoolClient, db: TeamDatabase, wraps: readonly { objectId: string; recipient: string; wrapped: Uint8Array }[]): Promise<void> {
  if (wraps.length === 0) return;
  const cols = [wraps.map((w) => w.objectId), wraps.map((w) => w.recipient), wraps.map((w) => buf(w.wrapped))];
  // Insert first, then compare: an insert that meets a row another transaction is writing waits for it, so the
  // comparison below sees every committed wrap, and a different one rolls the whole call back.
  await c.query(
    `INSERT INTO ${S}.wraps (recipient, object_seq, wrapped)
     SELECT t.recipient, o.seq, t.wrapped FROM unnest($1::text[], $2::text[], $3::bytea[]) AS t(object_id, recipient, wrapped)
     JOIN ${S}.objects o ON o.id = t.object_id
     ON CONFLICT (recipient, object_seq) DO NOTHING`,
    cols,
  );
  const check = await c.query<{ unknown: number; differ: number }>(
    `SELECT count(*) FILTER (WHERE o.seq IS NULL)::int AS unknown,
            count(*) FILTER (WHERE x.wrapped <> t.wrapped)::int AS differ
     FROM unnest($1::text[], $2::text[], $3::bytea[]) AS t(object_id, recipient, wrapped)
     LEFT JOIN ${S}.objects o ON o.id = t.object_id
     LEFT JOIN ${S}.wraps x ON x.object_seq = o.seq AND x.recipient = t.recipient`,
    cols,
  );
  const { unknown, differ } = check.rows[0];
  if (unknown > 0) throw new TeamDatabaseError(`team database ${db.display}: ${unknown} wrapped key(s) name an object that is not stored; nothing was written`, false);
  if (differ > 0) throw new TeamDatabaseError(`team database ${db.display}: ${differ} wrapped key(s) already stored with different bytes; nothing was written`, false);
}

/** The factory the CLI calls for `--team URL` / `EVIDENCE_BRIDGE_TEAM_URL` (capsules/team/queue-port.ts). */
export const openTeamQueue: OpenTeamQueue = (url, options) => PostgresTeamQueue.open(parseTeamUrl(url), options);
