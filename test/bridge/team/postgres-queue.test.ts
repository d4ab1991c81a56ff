/**
 * The team queue port on a real PostgreSQL server (issue 34; test/helpers/postgres.ts starts it once for this file,
 * one database per test): idempotent publishing, wraps, paging, the decision chain under concurrent writers (never
 * a fork), a server restart in the middle of work, membership versions, the schema version table, the one-line
 * errors (never the password), and the dump canary search able to fail.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { TeamObjectIn } from "../../../capsules/team/queue-port.js";
import { openTeamQueue, PostgresTeamQueue } from "../../../bridge/team/postgres-queue.js";
import { parseTeamUrl } from "../../../bridge/team/database-url.js";
import { TEAM_SCHEMA, TEAM_SCHEMA_VERSION } from "../../../bridge/team/schema.js";
import { canariesIn } from "../../helpers/dump-canaries.js";
import { databaseName, describePostgres, startPostgres, type PgServer } from "../../helpers/postgres.js";

const GENESIS = "0".repeat(64);
const A = "a1".repeat(32);
const B = "b2".repeat(32);
const HOUR = "2026-11-28T22:00:00Z";

const hex = (n: number) => randomBytes(n).toString("hex");
const sha = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

function object(recipients: string[], body = randomBytes(64)): TeamObjectIn {
  return { id: hex(16), kind: "capsule", hour: HOUR, body, wraps: recipients.map((r) => ({ recipient: r, wrapped: randomBytes(48) })) };
}

/** Appends `n` records on whatever the head is, retrying on conflict; returns how many conflicts it met. */
async function appendMany(q: PostgresTeamQueue, n: number, tag: string): Promise<number> {
  let conflicts = 0;
  for (let i = 0; i < n; i++) {
    for (;;) {
      const recs = await q.records(0);
      const head = recs.length === 0 ? GENESIS : recs[recs.length - 1].digest;
      const body = Buffer.from(`${tag}:${i}:${head}`);
      if ((await q.appendRecord(head, sha(body), body)) === "appended") break;
      conflicts++;
    }
  }
  return conflicts;
}

/** The records form one chain from the genesis: each prev is the digest before it. */
function expectOneChain(recs: { prev: string; digest: string; body: Uint8Array }[]): void {
  let head = GENESIS;
  for (const r of recs) {
    expect(r.prev).toBe(head);
    expect(sha(r.body)).toBe(r.digest);
    head = r.digest;
  }
}

describePostgres("team queue port on PostgreSQL", () => {
  let server: PgServer;
  const opened: PostgresTeamQueue[] = [];
  beforeAll(async () => {
    server = await startPostgres();
  });
  afterAll(async () => {
    for (const q of opened) await q.close().catch(() => undefined);
    await server?.close();
  });
  async function queue(url: string, create = true): Promise<PostgresTeamQueue> {
    const q = await PostgresTeamQueue.open(parseTeamUrl(url), { create });
    opened.push(q);
    return q;
  }

  test("publishing is idempotent on id; a different body under a stored id writes nothing of its batch", async () => {
    const q = await queue(await server.database());
    const batch = Array.from({ length: 30 }, () => object([A, B]));
    expect(await q.putObjects(batch)).toEqual({ inserted: 30, existing: 0 });
    expect(await q.putObjects(batch)).toEqual({ inserted: 0, existing: 30 });
    expect(await q.putObjects([...batch.slice(0, 5), object([A])])).toEqual({ inserted: 1, existing: 5 });
    const fresh = object([A]);
    const changed = { ...batch[3], body: randomBytes(64) };
    await expect(q.putObjects([fresh, changed])).rejects.toThrow(/1 object id\(s\) already stored with a different kind, hour or body; nothing was written/);
    await expect(q.putObjects([{ ...batch[4], kind: "candidate" }])).rejects.toThrow(/different kind, hour or body/);
    await expect(q.putObjects([{ ...batch[4], hour: "2026-11-28T21:00:00Z" }])).rejects.toThrow(/different kind, hour or body/);
    expect(await q.counts()).toEqual({ objects: 31, records: 0 });
    // Shapes the port refuses before any statement.
    await expect(q.putObjects([{ ...object([A]), id: "XYZ" }])).rejects.toThrow(/object id must be 32 lowercase hex/);
    await expect(q.putObjects([{ ...object([A]), hour: "2026-11-28T22:30:00Z" }])).rejects.toThrow(/ISO UTC hour/);
    await expect(q.putObjects([{ ...object([A]), kind: "note" as never }])).rejects.toThrow(/object kind must be one of/);
    await expect(q.putObjects([{ ...object(["c".repeat(63)]) }])).rejects.toThrow(/64-hex key fingerprint/);
  });

  test("wraps: idempotent, unknown objects and different bytes refused; objectsFor pages in seq order per recipient", async () => {
    const q = await queue(await server.database());
    const objs = Array.from({ length: 25 }, (_, i) => object(i % 2 === 0 ? [A, B] : [B]));
    await q.putObjects(objs);
    // B sees all 25, page by page.
    const pages: number[][] = [];
    let after = 0;
    for (;;) {
      const page = await q.objectsFor(B, after, 10);
      if (page.length === 0) break;
      pages.push(page.map((o) => o.seq));
      after = page[page.length - 1].seq;
    }
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    const all = pages.flat();
    expect([...all].sort((x, y) => x - y)).toEqual(all);
    const seen = await q.objectsFor(B, 0, 100);
    expect(seen.map((o) => o.id)).toEqual(objs.map((o) => o.id));
    expect(Buffer.from(seen[7].body).equals(Buffer.from(objs[7].body))).toBe(true);
    expect(Buffer.from(seen[7].wrapped).equals(Buffer.from(objs[7].wraps[0].wrapped))).toBe(true);
    expect(seen[7]).toMatchObject({ kind: "capsule", hour: HOUR });
    // A sees only the even ones, each with A's own wrap.
    const forA = await q.objectsFor(A, 0, 100);
    expect(forA.map((o) => o.id)).toEqual(objs.filter((_, i) => i % 2 === 0).map((o) => o.id));
    expect(Buffer.from(forA[1].wrapped).equals(Buffer.from(objs[2].wraps[0].wrapped))).toBe(true);
    // Adding A to the odd ones (a member added: their data keys re-wrapped), twice: the second changes nothing.
    const rewraps = objs.filter((_, i) => i % 2 === 1).map((o) => ({ objectId: o.id, recipient: A, wrapped: randomBytes(48) }));
    await q.addWraps(rewraps);
    await q.addWraps(rewraps);
    expect((await q.objectsFor(A, 0, 100)).map((o) => o.id)).toEqual(objs.map((o) => o.id));
    await expect(q.addWraps([{ ...rewraps[0], wrapped: randomBytes(48) }])).rejects.toThrow(/already stored with different bytes/);
    await expect(q.addWraps([{ objectId: hex(16), recipient: A, wrapped: randomBytes(48) }])).rejects.toThrow(/name an object that is not stored/);
    await expect(q.objectsFor(A, 0, 0)).rejects.toThrow(/limit must be from 1/);
    expect(await q.objectsFor("c3".repeat(32), 0, 10)).toEqual([]);
  });

  test("decision chain: writers on the same head, one wins; many writers from separate connections never fork", async () => {
    const url = await server.database();
    const writers = await Promise.all(Array.from({ length: 5 }, () => queue(url)));
    // Five bodies on the genesis at once: exactly one is appended.
    const bodies = writers.map((_, i) => Buffer.from(`first ${i}`));
    const outcomes = await Promise.all(writers.map((w, i) => w.appendRecord(GENESIS, sha(bodies[i]), bodies[i])));
    expect(outcomes.filter((o) => o === "appended")).toHaveLength(1);
    expect(outcomes.filter((o) => o === "conflict")).toHaveLength(4);
    // The winner asking again (its answer lost) hears "appended"; a loser still hears "conflict".
    const winner = outcomes.indexOf("appended");
    expect(await writers[0].appendRecord(GENESIS, sha(bodies[winner]), bodies[winner])).toBe("appended");
    const loser = outcomes.indexOf("conflict");
    expect(await writers[0].appendRecord(GENESIS, sha(bodies[loser]), bodies[loser])).toBe("conflict");
    // Then every writer appends 12 records on whatever head it reads, retrying on conflict.
    const conflicts = await Promise.all(writers.map((w, i) => appendMany(w, 12, `writer ${i}`)));
    const recs = await writers[0].records(0);
    expect(recs).toHaveLength(1 + 5 * 12);
    expectOneChain(recs);
    expect(new Set(recs.map((r) => r.prev)).size).toBe(recs.length);
    for (let i = 0; i < 5; i++) expect(recs.filter((r) => Buffer.from(r.body).toString().startsWith(`writer ${i}:`))).toHaveLength(12);
    expect(conflicts.reduce((a, b) => a + b, 0)).toBeGreaterThan(0); // they really did race
    expect((await writers[1].records(recs[40].seq)).map((r) => r.seq)).toEqual(recs.slice(41).map((r) => r.seq));
    // The database itself refuses a record whose digest is not its body's (a second line behind the port's check).
    await expect(server.sql(databaseName(url), `INSERT INTO ${TEAM_SCHEMA}.records (prev, digest, size, body) VALUES ($1, $2, 1, '\\x01')`, [hex(32), hex(32)])).rejects.toThrow(
      /check constraint/,
    );
    await expect(writers[0].appendRecord(recs.at(-1)!.digest, hex(32), Buffer.from("x"))).rejects.toThrow(/digest is not the sha256 of body/);
  });

  test("the server restarted in the middle of publishing and appending: every call completes, nothing twice", async () => {
    const url = await server.database();
    const q = await queue(url);
    const objs = Array.from({ length: 40 }, () => object([A]));
    let batches = 0;
    const work = (async () => {
      for (let i = 0; i < objs.length; i += 4) {
        await q.putObjects(objs.slice(i, i + 4));
        await appendMany(q, 1, `batch ${i}`);
        batches++;
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    while (batches < 2) await new Promise((r) => setTimeout(r, 10));
    await server.stop();
    expect(batches).toBeLessThan(10); // the work really was cut in the middle
    await new Promise((r) => setTimeout(r, 400));
    await server.start();
    await work;
    expect(await q.counts()).toEqual({ objects: 40, records: 10 });
    expect((await q.objectsFor(A, 0, 100)).map((o) => o.id)).toEqual(objs.map((o) => o.id));
    expectOneChain(await q.records(0));
  });

  test("membership versions: written once; the same bytes again are 'exists', different bytes an error", async () => {
    const q = await queue(await server.database());
    expect(await q.memberships()).toEqual([]);
    const v1 = randomBytes(200);
    expect(await q.putMembership(1, v1)).toBe("stored");
    expect(await q.putMembership(1, Buffer.from(v1))).toBe("exists");
    await expect(q.putMembership(1, randomBytes(200))).rejects.toThrow(/membership version 1 is already stored with different bytes/);
    const v3 = randomBytes(10);
    const v2 = randomBytes(30);
    expect(await q.putMembership(3, v3)).toBe("stored");
    expect(await q.putMembership(2, v2)).toBe("stored");
    const all = await q.memberships();
    expect(all.map((m) => m.version)).toEqual([1, 2, 3]);
    expect(all.map((m) => Buffer.from(m.body).toString("hex"))).toEqual([v1, v2, v3].map((b) => b.toString("hex")));
    await expect(q.putMembership(0, v1)).rejects.toThrow(/membership version must be a whole number from 1/);
  });

  test("schema: created once (idempotent), missing without create, newer than this client refused", async () => {
    const url = await server.database();
    const db = databaseName(url);
    await expect(openTeamQueue(url, { create: false })).rejects.toThrow(/no team schema here; run `team init --database URL` first/);
    const [first, second] = await Promise.all([queue(url), queue(url)]); // two clients creating at once
    await first.putObjects([object([A])]);
    expect(await second.counts()).toEqual({ objects: 1, records: 0 });
    expect(await server.sql(db, `SELECT version FROM ${TEAM_SCHEMA}.schema_version`)).toEqual([{ version: TEAM_SCHEMA_VERSION }]);
    expect((await queue(url, false)).constructor).toBe(PostgresTeamQueue);
    await server.sql(db, `UPDATE ${TEAM_SCHEMA}.schema_version SET version = 99`);
    await expect(openTeamQueue(url, { create: true })).rejects.toThrow(
      new RegExp(`schema version 99 is newer than this client's \\(${TEAM_SCHEMA_VERSION}\\); update evidence-bridge`),
    );
  });

  test("errors are one line naming what failed, never the password", async () => {
    const url = await server.database();
    const badPassword = "wrongpass-zq81-secret";
    const wrong = new URL(url);
    wrong.password = badPassword;
    const auth = await openTeamQueue(wrong.href, { create: true }).catch((e: Error) => e);
    expect(String(auth)).toMatch(/^TeamDatabaseError: team database postgres@127\.0\.0\.1:\d+\/t\w+: authentication failed while opening the team schema \(user or password refused\)$/);
    expect(String(auth)).not.toContain(badPassword);
    expect(String(auth)).not.toContain(server.password);
    const closed = new URL(url);
    closed.port = "1"; // nothing listens on port 1
    const refused = await PostgresTeamQueue.open(parseTeamUrl(closed.href), { create: true, retryForMs: 0 }).catch((e: Error) => e);
    expect(String(refused)).toMatch(/^TeamDatabaseError: team database postgres@127\.0\.0\.1:1\/t\w+: connection refused while opening the team schema/);
    expect(String(refused)).not.toContain(server.password);
    const missing = new URL(url);
    missing.pathname = "/no_such_db";
    const nodb = await openTeamQueue(missing.href, { create: true }).catch((e: Error) => e);
    expect(String(nodb)).toBe(`TeamDatabaseError: team database postgres@127.0.0.1:${server.port}/no_such_db: the database does not exist`);
    // The TLS side: a server without TLS asked for it.
    const tls = await openTeamQueue(`${url}?sslmode=require`, { create: true }).catch((e: Error) => e);
    expect(String(tls)).toMatch(/TLS refused while opening the team schema: the server does not offer TLS \(sslmode=require\)$/);
  });

  test("the dump canary search finds a plaintext canary in a bytea column, and none in opaque bodies", async () => {
    const url = await server.database();
    const q = await queue(url);
    const canaries = { handle: "@zqDumpCanary91", phone: "+91 97531 86420", digest: sha(Buffer.from("canary message zq")) };
    await q.putObjects(Array.from({ length: 20 }, () => object([A, B])));
    expect(canariesIn(server.dump(databaseName(url)), canaries)).toEqual([]);
    // Stored in the clear, each is found (so the search above could have failed).
    await q.putObjects([object([A], Buffer.from(`x ${canaries.handle} y`))]);
    await q.putObjects([object([A], Buffer.from(JSON.stringify({ p: Buffer.from(canaries.phone).toString("base64") })))]);
    // The digest's bytes inside a body, cut short: only its hex windows are there.
    await q.putObjects([object([A], Buffer.concat([randomBytes(7), Buffer.from(canaries.digest, "hex").subarray(5, 20), randomBytes(3)]))]);
    expect(canariesIn(server.dump(databaseName(url)), canaries)).toEqual(["handle: UTF-8 hex", "phone: base64 as hex", "digest: hex window at 12"]);
  });
});
