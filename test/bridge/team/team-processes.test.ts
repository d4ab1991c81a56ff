/**
 * The team queue end to end with separate processes of the built CLI (dist/bundle/bin.js) on a real PostgreSQL
 * server (issue 34 "Tests"): a lead, two investigators and three reviewers, each its own data directory; 1,000
 * capsules published by the two investigators at once, one of them killed with SIGKILL in the middle of publishing
 * and the database restarted in the middle of the other's; three reviewers approving the same candidates at once
 * (no lost decision, no fork, four-eyes held); a reviewer killed in the middle of a decision; the database dump
 * searched for the canary values of every private class; a row forged by the database owner, a rolled-back table
 * and a removed member, each detected with a message naming what happened.
 *
 * The tests of this file run in order on one server and one team (each builds on the state the previous one left).
 * Capsules are the feed benchmark's synthetic capsules (distinct private values each, from example 03 of
 * ../shared), so the group needs ../shared as well as PostgreSQL.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { syntheticCapsule } from "../../../bench/feed.bench.js";
import { capsulePrivateValues } from "../../../capsules/guard/private-values.js";
import { openCapsuleBytes } from "../../../capsules/pipeline/open.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { loadAdminKey, loadMemberKeys } from "../../../capsules/team/member-keys.js";
import { publishedDir } from "../../../capsules/team/outbox.js";
import { readTeamState } from "../../../capsules/team/team-state.js";
import { readTeamView } from "../../../capsules/team/team-view.js";
import { openTeamQueue } from "../../../bridge/team/postgres-queue.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import type { JsonObject } from "../../../src/json/value.js";
import { BUNDLE, ensureBuilt } from "../mcp/compiled.js";
import { canariesIn } from "../../helpers/dump-canaries.js";
import { databaseName, describePostgres, startPostgres, type PgServer } from "../../helpers/postgres.js";
import { describeShared, sharedPath } from "../../helpers/shared.js";
import { childEnv } from "../../helpers/test-env.js";

const CAPSULES = 1000;
const PACK_FILE = sharedPath("data/intelligence-pack/intelligence-pack-v1.json");
const TEMPLATE = sharedPath("data/bridge-examples/valid/03-usdt-inr-kitchen-sink-iocs.json");
const S = "evidence_bridge_team";

interface Run {
  child: ChildProcess;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>;
}

/** Starts one CLI process for the member in `home` against the team database at `url` (when given). */
function start(home: string, url: string | undefined, args: string[]): Run {
  const child = spawn(process.execPath, [BUNDLE!, "--home", home, ...(url === undefined ? [] : ["--team", url]), ...args], {
    env: childEnv({ EVIDENCE_BRIDGE_PACK: PACK_FILE }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr!.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

async function run(home: string, url: string | undefined, ...args: string[]) {
  return start(home, url, args).done;
}

/** Exit 0 and no stderr beyond the join request's fingerprint line. */
async function ok(home: string, url: string | undefined, ...args: string[]): Promise<string> {
  const r = await run(home, url, ...args);
  expect({ code: r.code, stderr: r.stderr.replace(/^member (fingerprint|.*\) fingerprint) .*\n$/, "") }).toEqual({ code: 0, stderr: "" });
  return r.stdout;
}

const T0 = Date.now();
/** One line on stderr per step with the seconds since the file started (where a slow run spends its time). */
function step(what: string): void {
  process.stderr.write(`team e2e: ${((Date.now() - T0) / 1000).toFixed(1)} s ${what}\n`);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(what: string, cond: () => boolean | Promise<boolean>, timeoutMs = 240_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(25);
  }
}

function publishedCount(home: string): number {
  try {
    return readdirSync(publishedDir(home)).length;
  } catch {
    return 0;
  }
}

interface Row {
  capsule_sha256: string;
  candidate_sha256: string;
  status: string;
  approvals: { met: boolean; count?: number };
}

describePostgres("team queue: separate processes on a real PostgreSQL server", () =>
  describeShared("with synthetic capsules from the reference example", () => {
    let pg: PgServer;
    let url = "";
    let db = "";
    let root = "";
    const homes: Record<string, string> = {};
    const capsules: { id: string; bytes: Uint8Array }[] = [];

    beforeAll(async () => {
      ensureBuilt();
      pg = await startPostgres();
      url = await pg.database();
      db = databaseName(url);
      root = mkdtempSync(join(tmpdir(), "eb-team-e2e-"));
      const template = parseStrictJson(readFileSync(TEMPLATE)) as JsonObject;
      for (let i = 0; i < CAPSULES; i++) capsules.push(syntheticCapsule(template, i));
      step("capsules built");
      // Each investigator records half of the capsules in its own store.
      for (const [name, part] of [["ivy", capsules.slice(0, CAPSULES / 2)], ["ian", capsules.slice(CAPSULES / 2)]] as const) {
        homes[name] = join(root, name);
        const store = await openOrCreateStore({ home: homes[name], passphrase: undefined });
        store.putCapsules(part.map((c) => openCapsuleBytes(c.bytes, "synthetic capsule", c.id)));
      }
      for (const name of ["lea", "rita", "rob", "rae"]) homes[name] = join(root, name);
      step("stores written");
    }, 300_000);
    afterAll(async () => {
      await pg?.close();
      if (root !== "") rmSync(root, { recursive: true, force: true });
    });

    test("a lead creates the team; two investigators and three reviewers join by request and invitation", { timeout: 300_000 }, async () => {
      expect(await ok(homes.lea, undefined, "team", "init", "--database", url, "--name", "Lea Lead", "--approvals", "2")).toMatch(/^team [0-9a-f]{32} created/);
      const roles: [string, string, string][] = [["ivy", "Ivy Investigator", "investigator"], ["ian", "Ian Investigator", "investigator"], ["rita", "Rita Reviewer", "reviewer"], ["rob", "Rob Reviewer", "reviewer"], ["rae", "Rae Reviewer", "reviewer"]];
      const requests = await Promise.all(roles.map(([h, name]) => ok(homes[h], undefined, "team", "join", "--name", name)));
      for (const [i, [h, , role]] of roles.entries()) {
        writeFileSync(join(root, `${h}.request`), requests[i]);
        writeFileSync(join(root, `${h}.invitation`), await ok(homes.lea, url, "team", "invite", join(root, `${h}.request`), "--role", role));
      }
      const joined = await Promise.all(roles.map(([h]) => ok(homes[h], undefined, "team", "join", join(root, `${h}.invitation`))));
      for (const [i, [, name, role]] of roles.entries()) expect(joined[i]).toMatch(new RegExp(`^joined team [0-9a-f]{32} as ${name} \\(${role}\\)`));
      expect(await ok(homes.rae, url, "team", "status")).toMatch(/membership v6: 2 approval\(s\) release a candidate/);
      step("team joined");
    });

    test("1,000 capsules published by two investigators at once: one killed with SIGKILL mid-publish, the database restarted mid-publish; nothing lost, nothing twice", { timeout: 600_000 }, async () => {
      const ivy = start(homes.ivy, url, ["team", "sync"]);
      const ian = start(homes.ian, url, ["team", "sync"]);
      // Ivy is killed once she has published some capsules and not all.
      await until("ivy to publish", () => publishedCount(homes.ivy) >= 10);
      ivy.child.kill("SIGKILL");
      const killed = await ivy.done;
      expect(killed.signal).toBe("SIGKILL");
      const ivyBefore = publishedCount(homes.ivy);
      step(`ivy killed after ${ivyBefore} capsules`);
      expect(ivyBefore).toBeLessThan(CAPSULES / 2);
      // The server restarts while Ian is publishing: his sync rides over it.
      await until("ian to publish", () => publishedCount(homes.ian) >= 10);
      expect(publishedCount(homes.ian)).toBeLessThan(CAPSULES / 2);
      await pg.stop();
      await sleep(300);
      await pg.start();
      step("database restarted");
      const ianDone = await ian.done;
      step("ian's sync done");
      expect({ code: ianDone.code, stderr: ianDone.stderr }).toEqual({ code: 0, stderr: "" });
      expect(ianDone.stdout).toMatch(new RegExp(`^queued ${CAPSULES / 2}, published ${CAPSULES / 2} capsule\\(s\\)`));
      // Ivy runs again: what was left is published, nothing twice.
      const again = await ok(homes.ivy, url, "team", "sync");
      expect(again).toMatch(new RegExp(`published ${CAPSULES / 2 - ivyBefore} capsule\\(s\\)`));
      step("ivy's second sync done");
      expect(await ok(homes.ivy, url, "team", "sync")).toMatch(/^queued 0, published 0 capsule\(s\)/);

      step("idle syncs done");
      const rows = JSON.parse(await ok(homes.rita, url, "review", "list", "--json")) as Row[];
      step("review list (cold) done");
      expect(rows).toHaveLength(CAPSULES);
      expect(new Set(rows.map((r) => r.capsule_sha256))).toEqual(new Set(capsules.map((c) => c.id)));
      const objects = await pg.sql<{ kind: string; n: number }>(db, `SELECT kind, count(*)::int AS n FROM ${S}.objects GROUP BY kind ORDER BY kind`);
      expect(objects.filter((o) => o.kind !== "membership-keys")).toEqual([
        { kind: "candidate", n: CAPSULES },
        { kind: "capsule", n: CAPSULES },
      ]);
    });

    test("three reviewers approving the same candidates at once: no lost decision, no fork, four-eyes held", { timeout: 600_000 }, async () => {
      const rows = JSON.parse(await ok(homes.lea, url, "review", "list", "--json")) as Row[];
      const targets = rows.slice(0, 3).map((r) => r.capsule_sha256);
      const reviewers = ["rita", "rob", "rae"];
      const outcomes = await Promise.all(
        reviewers.map(async (who) => {
          const mine: { id: string; code: number | null; stdout: string; stderr: string }[] = [];
          for (const id of targets) mine.push({ id, ...(await run(homes[who], url, "review", "approve", id.slice(0, 16), "--reason", "corroborated")) });
          return mine;
        }),
      );
      const all = outcomes.flat();
      step("concurrent approvals done");
      for (const id of targets) {
        const mine = all.filter((o) => o.id === id);
        const accepted = mine.filter((o) => o.code === 0);
        const refused = mine.filter((o) => o.code !== 0);
        // Two distinct reviewers release it; the third is told the decision is final (never a silent loss).
        expect(accepted.map((o) => o.stdout.match(/(\d) of 2 approvals/)?.[1]).sort()).toEqual(["1", "2"]);
        expect(refused).toHaveLength(1);
        expect(refused[0].stderr).toMatch(/final/);
      }
      // The chain as a member verifies it: one line, every accepted decision in it, two per candidate.
      const keys = loadMemberKeys(homes.lea);
      const port = await openTeamQueue(url, { create: false });
      try {
        const view = await readTeamView(homes.lea, port, keys, readTeamState(homes.lea));
        const decided = view.chain.records.map((r) => r.record);
        expect(decided).toHaveLength(2 * targets.length);
        for (const id of targets) {
          const on = decided.filter((r) => r.capsule_sha256 === id);
          expect(new Set(on.map((r) => r.reviewer.fingerprint)).size).toBe(2);
        }
        const records = await port.records(0);
        expect(new Set(records.map((r) => r.prev)).size).toBe(records.length);
      } finally {
        await port.close();
      }
      const after = JSON.parse(await ok(homes.lea, url, "review", "list", "--json")) as Row[];
      for (const id of targets) expect(after.find((r) => r.capsule_sha256 === id)).toMatchObject({ status: "APPROVED_FOR_RELEASE", approvals: { met: true } });
    });

    test("a reviewer killed with SIGKILL in the middle of a decision: the decision is there once or not at all, and a new run settles it", { timeout: 600_000 }, async () => {
      const rows = JSON.parse(await ok(homes.rae, url, "review", "list", "--json")) as Row[];
      const pending = rows.filter((r) => r.status !== "APPROVED_FOR_RELEASE");
      // How long one decision takes here, to kill the next ones at different points of it.
      const t0 = Date.now();
      await ok(homes.rae, url, "review", "defer", pending[0].capsule_sha256.slice(0, 16), "--reason", "insufficient-evidence");
      const span = Date.now() - t0;
      step(`one decision took ${span} ms`);
      const killedIds: string[] = [];
      for (const [i, fraction] of [0.6, 0.85, 0.97].entries()) {
        const id = pending[i + 1].capsule_sha256;
        const r = start(homes.rae, url, ["review", "approve", id.slice(0, 16), "--reason", "corroborated"]);
        await sleep(span * fraction);
        r.child.kill("SIGKILL");
        const k = await r.done;
        if (k.signal === "SIGKILL") killedIds.push(id);
        // Settle: run it again. Either it lands now, or the first one had landed and this one is refused as final.
        const again = await run(homes.rae, url, "review", "approve", id.slice(0, 16), "--reason", "corroborated");
        if (again.code !== 0) expect(again.stderr).toMatch(/final/);
      }
      expect(killedIds.length).toBeGreaterThan(0);
      step("killed decisions settled");
      const port = await openTeamQueue(url, { create: false });
      try {
        const view = await readTeamView(homes.rae, port, loadMemberKeys(homes.rae), readTeamState(homes.rae));
        for (const id of pending.slice(1, 4).map((p) => p.capsule_sha256)) {
          const mine = view.chain.records.filter((r) => r.record.capsule_sha256 === id && r.record.decision === "APPROVED_FOR_RELEASE");
          expect(mine).toHaveLength(1);
        }
      } finally {
        await port.close();
      }
    });

    test("the database dump holds no canary of any private class", { timeout: 300_000 }, async () => {
      const canaries: Record<string, string> = {};
      // Every private value the guard knows in 40 capsules (IOCs, message hashes, pseudonyms), every capsule id.
      for (const [i, c] of capsules.entries()) {
        canaries[`capsule id ${i}`] = c.id;
        if (i % 25 !== 0) continue;
        const envelope = parseStrictJson(c.bytes) as JsonObject;
        for (const [j, v] of capsulePrivateValues(envelope).entries()) canaries[`capsule ${i} ${v.kind}${v.ioc === undefined ? "" : ` ${v.ioc}`} #${j}`] = v.value;
      }
      const rows = JSON.parse(await ok(homes.lea, url, "review", "list", "--json")) as Row[];
      for (const [i, r] of rows.entries()) canaries[`candidate digest ${i}`] = r.candidate_sha256;
      for (const name of ["Lea Lead", "Ivy Investigator", "Ian Investigator", "Rita Reviewer", "Rob Reviewer", "Rae Reviewer"]) canaries[`member name ${name}`] = name;
      for (const [who, home] of Object.entries(homes)) {
        const k = loadMemberKeys(home);
        canaries[`${who} signing seed`] = Buffer.from(k.sign.seed).toString("hex");
        canaries[`${who} sealing secret`] = Buffer.from(k.box.secretKey).toString("hex");
      }
      canaries["admin seed"] = Buffer.from(loadAdminKey(homes.lea).seed).toString("hex");
      const port = await openTeamQueue(url, { create: false });
      try {
        const view = await readTeamView(homes.lea, port, loadMemberKeys(homes.lea), readTeamState(homes.lea));
        for (const [id, e] of view.epochs) canaries[`epoch key ${id}`] = Buffer.from(e.key).toString("hex");
        for (const o of view.objects.slice(0, 50)) canaries[`data key of ${o.id}`] = Buffer.from(o.dataKey).toString("hex");
        const signed = view.chain.records[0].record;
        canaries["a decision's signature"] = signed.signature;
      } finally {
        await port.close();
      }
      const dump = pg.dump(db);
      step(`dump of ${dump.length} characters`);
      expect(dump).toContain(`COPY ${S}.objects`); // the dump holds the queue ...
      expect(canariesIn(dump, canaries)).toEqual([]); // ... and none of the canaries, in any form
      step(`${Object.keys(canaries).length} canaries searched`);
    });

    test("a forged object, a forged chain row, a rolled-back table and a removed member are each detected, naming what happened", { timeout: 300_000 }, async () => {
      const fail = async (home: string, ...args: string[]) => {
        const r = await run(home, url, ...args);
        expect(r.code).not.toBe(0);
        return r.stderr;
      };
      const rita = loadMemberKeys(homes.rita);
      // The owner adds an object addressed to Rita: it does not open with her key.
      const forgedId = "f0".repeat(16);
      await pg.sql(db, `INSERT INTO ${S}.objects (id, kind, hour, size, body) VALUES ($1, 'candidate', date_trunc('hour', now()), 300, $2)`, [forgedId, Buffer.alloc(300, 7)]);
      await pg.sql(db, `INSERT INTO ${S}.wraps (recipient, object_seq, wrapped) SELECT $1, seq, $2 FROM ${S}.objects WHERE id = $3`, [rita.fingerprint, Buffer.alloc(104, 9), forgedId]);
      expect(await fail(homes.rita, "review", "list")).toMatch(new RegExp(`object ${forgedId}.*(wrap|forged|does not open)`));
      await pg.sql(db, `DELETE FROM ${S}.wraps WHERE object_seq = (SELECT seq FROM ${S}.objects WHERE id = $1)`, [forgedId]);
      await pg.sql(db, `DELETE FROM ${S}.objects WHERE id = $1`, [forgedId]);
      await ok(homes.rita, url, "review", "list");

      // The owner appends a chain row of its own on the head.
      const [head] = await pg.sql<{ digest: string; n: number }>(db, `SELECT digest, (SELECT count(*)::int FROM ${S}.records) AS n FROM ${S}.records ORDER BY seq DESC LIMIT 1`);
      const body = Buffer.concat([Buffer.from([1]), Buffer.alloc(200, 3)]);
      await pg.sql(db, `INSERT INTO ${S}.records (prev, digest, size, body) VALUES ($1, encode(sha256($2::bytea), 'hex'), octet_length($2::bytea), $2::bytea)`, [head.digest, body]);
      expect(await fail(homes.rita, "review", "list")).toMatch(new RegExp(`chain record #${head.n + 1}`));
      await pg.sql(db, `DELETE FROM ${S}.records WHERE prev = $1`, [head.digest]);
      await ok(homes.rita, url, "review", "list");

      // The owner rolls the records table back by one row: Rita's signed position says she saw it.
      const [last] = await pg.sql<{ prev: string; digest: string; size: number; body: Buffer }>(db, `SELECT prev, digest, size, body FROM ${S}.records ORDER BY seq DESC LIMIT 1`);
      await pg.sql(db, `DELETE FROM ${S}.records WHERE digest = $1`, [last.digest]);
      expect(await fail(homes.rita, "review", "list")).toMatch(/rolled back/);
      await pg.sql(db, `INSERT INTO ${S}.records (prev, digest, size, body) VALUES ($1, $2, $3, $4)`, [last.prev, last.digest, last.size, last.body]);
      await ok(homes.rita, url, "review", "list");

      // The lead removes Rae: her client stops, and what is published afterwards is not wrapped for her.
      const raeKeys = loadMemberKeys(homes.rae);
      const [{ n: before }] = await pg.sql<{ n: number }>(db, `SELECT max(seq)::int AS n FROM ${S}.objects`);
      expect(await ok(homes.lea, url, "team", "remove", "Rae Reviewer")).toMatch(/^removed Rae Reviewer/);
      expect(await fail(homes.rae, "review", "list")).toMatch(/removed/);
      const rows = JSON.parse(await ok(homes.rob, url, "review", "list", "--json")) as Row[];
      expect(await fail(homes.rae, "review", "approve", rows[20].capsule_sha256.slice(0, 16), "--reason", "corroborated")).toMatch(/removed/);
      // Ivy records one more capsule and publishes it.
      const late = syntheticCapsule(parseStrictJson(readFileSync(TEMPLATE)) as JsonObject, CAPSULES);
      (await openOrCreateStore({ home: homes.ivy, passphrase: undefined })).putCapsules([openCapsuleBytes(late.bytes, "synthetic capsule", late.id)]);
      expect(await ok(homes.ivy, url, "team", "sync")).toMatch(/published 1 capsule\(s\)/);
      const wrapsAfter = await pg.sql<{ recipient: string; n: number }>(
        db,
        `SELECT w.recipient, count(*)::int AS n FROM ${S}.wraps w WHERE w.object_seq > $1 GROUP BY w.recipient`,
        [before],
      );
      const forRita = wrapsAfter.find((w) => w.recipient === rita.fingerprint);
      expect(forRita?.n).toBeGreaterThanOrEqual(3); // the new epoch key, the capsule and its candidate
      expect(wrapsAfter.find((w) => w.recipient === raeKeys.fingerprint)).toBeUndefined();
      expect((JSON.parse(await ok(homes.rita, url, "review", "list", "--json")) as Row[]).map((r) => r.capsule_sha256)).toContain(late.id);
    });
  }),
);
