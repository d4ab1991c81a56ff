/**
 * `review serve --team` on a real PostgreSQL server (issue 34 item 3; test/helpers/postgres.ts), driven over HTTP on
 * 127.0.0.1 (no browser): the page lists the team queue; two members' pages approve the same candidate at the same
 * moment and both decisions land on the chain (the loser retries on the new head: no fork, four-eyes met); a
 * decision without its CSRF token, with a note, or from an investigator is refused; a decision made on the CLI shows
 * on the page; `review serve --team` through the CLI prints the team page's URL and stops at the end of stdin.
 */
import { afterAll, beforeAll, expect, test } from "vitest";
import { joinTeam, ok, teamCli } from "../../helpers/team-cli.js";
import { describePostgres, startPostgres, databaseName, type PgServer } from "../../helpers/postgres.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsules, removeHomes, storeWith, tempHome } from "../../capsules/feed/store-fixtures.js";
import { loadMemberKeys } from "../../../capsules/team/member-keys.js";
import { openTeamQueue } from "../../../bridge/team/postgres-queue.js";
import { startTeamReviewPage, type TeamReviewPage } from "../../../bridge/review-page/team-server.js";
import type { TeamQueuePort } from "../../../capsules/team/queue-port.js";
import { formFields, http, post } from "./http.js";

afterAll(removeHomes);

describePostgres("review serve --team", () => describeShared("with the example capsules", () => {
  let pg: PgServer;
  const closers: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    for (const c of closers.reverse()) await c();
    await pg?.close();
  });

  const cli = teamCli;

  async function pageFor(home: string, url: string): Promise<TeamReviewPage> {
    const port: TeamQueuePort = await openTeamQueue(url, { create: false });
    const page = await startTeamReviewPage({ home, port, keys: loadMemberKeys(home), listenPort: 0 });
    closers.push(async () => {
      await page.close();
      await port.close();
    });
    return page;
  }

  test("the queue, concurrent approvals from two pages, refusals, and the CLI", { timeout: 300_000 }, async () => {
    const url = await pg.database();
    const lead = tempHome("team-lead");
    ok(await cli(lead, undefined, "team", "init", "--database", url, "--name", "Lea Lead", "--approvals", "2"));
    const rita = tempHome("team-rita");
    await joinTeam(lead, url, rita, "Rita Reviewer", "reviewer");
    const rob = tempHome("team-rob");
    await joinTeam(lead, url, rob, "Rob Reviewer", "reviewer");
    const { home: ivan } = await storeWith("team-ivan", exampleCapsules());
    await joinTeam(lead, url, ivan, "Ivan Investigator", "investigator");
    ok(await cli(ivan, url, "team", "sync"));
    const rows = JSON.parse(ok(await cli(lead, url, "review", "list", "--json")).stdout) as { capsule_sha256: string; candidate_sha256: string }[];
    expect(rows.length).toBeGreaterThan(1);
    const [target, other] = rows;

    const ritaPage = await pageFor(rita, url);
    const robPage = await pageFor(rob, url);
    const ivanPage = await pageFor(ivan, url);
    const origin = (p: TeamReviewPage) => `http://127.0.0.1:${p.port}`;

    // the queue lists every candidate of the team queue
    const queue = await http(ritaPage.url);
    expect(queue.status).toBe(200);
    for (const r of rows) expect(queue.body).toContain(r.capsule_sha256.slice(0, 12));
    expect(queue.body).toContain(`${rows.length} candidate`);
    expect(queue.body).toContain("Rita Reviewer (reviewer)");

    // two members approve at once: both land, the chain does not fork, four-eyes is met
    const ritaForm = formFields((await http(`${ritaPage.url}c/${target.capsule_sha256}`)).body);
    const robForm = formFields((await http(`${robPage.url}c/${target.capsule_sha256}`)).body);
    expect(ritaForm.candidate).toBe(target.candidate_sha256);
    const [a, b] = await Promise.all([
      post(`${ritaPage.url}c/${target.capsule_sha256}/decide`, origin(ritaPage), { ...ritaForm, reason: "corroborated", decision: "approve" }),
      post(`${robPage.url}c/${target.capsule_sha256}/decide`, origin(robPage), { ...robForm, reason: "corroborated", decision: "approve" }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(`${a.body}${b.body}`).toMatch(/Recorded APPROVED_FOR_RELEASE as team decision #1 by (Rita|Rob) Reviewer/);
    expect(`${a.body}${b.body}`).toMatch(/Recorded APPROVED_FOR_RELEASE as team decision #2 by (Rita|Rob) Reviewer; 2 of 2 approvals/);
    const db = databaseName(url);
    const chain = await pg.sql<{ n: string; prevs: string }>(db, "SELECT count(*)::text AS n, count(DISTINCT prev)::text AS prevs FROM evidence_bridge_team.records");
    expect(chain[0].n).toBe(chain[0].prevs);
    const listed = JSON.parse(ok(await cli(lead, url, "review", "list", "--json")).stdout) as { capsule_sha256: string; status: string; approvals: { met: boolean; counted: number } }[];
    expect(listed.find((r) => r.capsule_sha256 === target.capsule_sha256)).toMatchObject({ status: "APPROVED_FOR_RELEASE", approvals: { met: true, counted: 2 } });
    expect((await http(`${ritaPage.url}c/${target.capsule_sha256}`)).body).toContain("Final for these candidate bytes (approved)");

    // refusals: no CSRF token, a note, an investigator, another origin
    const form = formFields((await http(`${ritaPage.url}c/${other.capsule_sha256}`)).body);
    const decideOther = `${ritaPage.url}c/${other.capsule_sha256}/decide`;
    expect((await post(decideOther, origin(ritaPage), { ...form, csrf: "", reason: "corroborated", decision: "approve" })).status).toBe(403);
    expect((await post(decideOther, origin(ritaPage), { ...form, reason: "corroborated", decision: "approve", public_note: "x" })).status).toBe(400);
    expect((await post(decideOther, "http://example.invalid", { ...form, reason: "corroborated", decision: "approve" })).status).toBe(403);
    const ivanForm = formFields((await http(`${ivanPage.url}c/${other.capsule_sha256}`)).body);
    const byIvan = await post(`${ivanPage.url}c/${other.capsule_sha256}/decide`, origin(ivanPage), { ...ivanForm, reason: "corroborated", decision: "approve" });
    expect(byIvan.status).toBe(409);
    expect(byIvan.body).toContain("only reviewers and leads decide");
    expect(JSON.parse(ok(await cli(lead, url, "review", "list", "--json")).stdout).find((r: { capsule_sha256: string }) => r.capsule_sha256 === other.capsule_sha256).status).toBe("HUMAN_REVIEW_REQUIRED");

    // a decision made on the CLI shows on the page
    ok(await cli(rob, url, "review", "defer", other.capsule_sha256.slice(0, 12), "--reason", "corroborated"));
    expect((await http(`${ritaPage.url}c/${other.capsule_sha256}`)).body).toContain("NEEDS_MORE_EVIDENCE");

    // the CLI serves the team page and stops at the end of stdin
    const served = await cli(rita, url, "review", "serve");
    expect(served.code).toBe(0);
    expect(served.stdout).toMatch(/^review page \(team queue\): http:\/\/127\.0\.0\.1:\d+\/[^/]+\/\n$/);
    expect((await cli(rita, url, "review", "serve", "--reviewer", "x")).stderr).toContain("--reviewer is not used with --team");
  });
}));
