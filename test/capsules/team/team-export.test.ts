/**
 * `review export --team` on a real PostgreSQL server (issue 34 item 3; test/helpers/postgres.ts): the approved
 * candidates of the verified team chain under four-eyes, checked by `review verify-export` with the members' keys
 * pinned; a canary of every private value of every published capsule: none is in the export; a candidate planted by a
 * hostile member with a capsule's private value in it, approved by two reviewers: the export refuses (the form guard
 * over the team capsules in the library, the outward vocabulary first in the CLI) and writes nothing.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { joinTeam, ok, teamCli } from "../../helpers/team-cli.js";
import { describePostgres, startPostgres, type PgServer } from "../../helpers/postgres.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsules, removeHomes, storeWith, tempHome, testPack } from "../feed/store-fixtures.js";
import { capsulePrivateValues } from "../../../capsules/guard/private-values.js";
import { openCapsuleBytes } from "../../../capsules/pipeline/open.js";
import { loadMemberKeys } from "../../../capsules/team/member-keys.js";
import { enqueuePublication } from "../../../capsules/team/outbox.js";
import { readTeamState } from "../../../capsules/team/team-state.js";
import { readTeamView } from "../../../capsules/team/team-view.js";
import { buildTeamExport } from "../../../capsules/team/team-export.js";
import { ReviewError } from "../../../capsules/review/errors.js";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { openTeamQueue } from "../../../bridge/team/postgres-queue.js";

afterAll(removeHomes);

describePostgres("review export --team", () => describeShared("with the example capsules", () => {
  let pg: PgServer;
  beforeAll(async () => {
    pg = await startPostgres();
  }, 120_000);
  afterAll(async () => {
    await pg?.close();
  });

  const cli = teamCli;

  test("approved candidates under four-eyes, verified, no private value; a planted value refuses the export", { timeout: 300_000 }, async () => {
    const url = await pg.database();
    const lead = tempHome("team-lead");
    ok(await cli(lead, undefined, "team", "init", "--database", url, "--name", "Lea Lead", "--approvals", "2"));
    const rita = tempHome("team-rita");
    await joinTeam(lead, url, rita, "Rita Reviewer", "reviewer");
    const rob = tempHome("team-rob");
    await joinTeam(lead, url, rob, "Rob Reviewer", "reviewer");
    const capsules = exampleCapsules();
    const held = capsules[0];
    const { home: ivan } = await storeWith("team-ivan", capsules.slice(1));
    await joinTeam(lead, url, ivan, "Ivan Investigator", "investigator");
    ok(await cli(ivan, url, "team", "sync"));

    const rows = JSON.parse(ok(await cli(rita, url, "review", "list", "--json")).stdout) as { capsule_sha256: string; candidate_sha256: string }[];
    expect(rows.length).toBeGreaterThan(1);
    const [target, half] = rows;
    ok(await cli(rita, url, "review", "approve", target.capsule_sha256.slice(0, 12), "--reason", "corroborated"));
    ok(await cli(rob, url, "review", "approve", target.capsule_sha256.slice(0, 12), "--reason", "corroborated"));
    ok(await cli(rita, url, "review", "approve", half.capsule_sha256.slice(0, 12), "--reason", "corroborated"));

    const out = join(lead, "team.jsonl");
    const exported = ok(await cli(lead, url, "review", "export", "--out", out));
    expect(exported.stdout).toMatch(/^exported 1 approved candidate of team [0-9a-f]{12} \(2 approval line\(s\), 2 approval\(s\) required\)/);
    expect(exported.stdout).toContain(`  ${target.capsule_sha256} candidate ${target.candidate_sha256.slice(0, 12)} approved in team decision #1 by Rita Reviewer`);
    expect(exported.stdout).toContain(`  pending: ${half.capsule_sha256}`);
    const bytes = readFileSync(out);
    const lines = bytes.toString("utf8").trimEnd().split("\n");
    expect(lines).toHaveLength(3);
    for (const l of lines.slice(0, 2)) {
      const x = JSON.parse(l) as { decision: { candidate_sha256: string; decision: string } };
      expect(x.decision).toMatchObject({ candidate_sha256: target.candidate_sha256, decision: "APPROVED_FOR_RELEASE" });
    }

    // a recipient verifies it with the members' keys pinned (the reviewers' and the exporting lead's)
    const trust = [rita, rob, lead].map((h) => loadMemberKeys(h).sign.fingerprint).join(",");
    const verified = await cli(tempHome("recipient"), undefined, "review", "verify-export", out, "--trust", trust);
    expect(verified.stdout).toContain("2 of 2 approved candidates verified");
    expect(verified.code).toBe(0);
    const unpinned = await cli(tempHome("recipient"), undefined, "review", "verify-export", out, "--trust", loadMemberKeys(rita).sign.fingerprint);
    expect(unpinned.code).toBe(1);

    // canary: no private value of any published capsule is in the export, in any case
    const pack = testPack();
    const values = capsules.flatMap((c) => capsulePrivateValues(openCapsuleBytes(c.bytes, c.name).envelope, pack)).map((v) => v.value).filter((v) => v.length >= 6);
    expect(values.length).toBeGreaterThan(5);
    // the marked formats render the same approved candidate, checked the same way
    const stixOut = join(lead, "team.stix.json");
    expect(ok(await cli(lead, url, "review", "export", "--out", stixOut, "--format", "stix")).stdout).toMatch(/^exported 1 approved lead as a STIX 2\.1 bundle marked TLP:AMBER\+STRICT/);
    const csvOut = join(lead, "team.csv");
    expect(ok(await cli(lead, url, "review", "export", "--out", csvOut, "--format", "csv")).stdout).toMatch(/^exported 1 approved lead as CSV/);
    const mispOut = join(lead, "team-misp");
    expect(ok(await cli(lead, url, "review", "export", "--out", mispOut, "--format", "misp")).stdout).toMatch(/^exported 1 approved lead as a MISP feed/);
    const stixText = readFileSync(stixOut, "utf8");
    expect(stixText).toContain(loadMemberKeys(lead).sign.fingerprint.slice("ed25519:".length, 20));
    const manifest = readFileSync(join(mispOut, "manifest.json"), "utf8");
    const texts = [bytes.toString("utf8"), stixText, readFileSync(csvOut, "utf8"), manifest, ...Object.keys(JSON.parse(manifest) as object).map((k) => readFileSync(join(mispOut, `${k}.json`), "utf8"))];
    expect(texts.length).toBe(5);
    for (const t of texts.map((x) => x.toLowerCase())) for (const v of values) expect(t.includes(v.toLowerCase()), `a ${v.length}-character private value`).toBe(false);

    // a hostile investigator plants a candidate holding a private value of the capsule it publishes with it
    const planted = capsulePrivateValues(openCapsuleBytes(held.bytes, held.name).envelope, pack).find((v) => v.kind === "ioc_value" && v.value.length >= 8);
    expect(planted).toBeDefined();
    const ivanKeys = loadMemberKeys(ivan);
    const candidateBytes = canonicalBytes({ lead: `see ${planted!.value}`, schema_version: "planted" }, "candidate");
    expect(enqueuePublication(ivan, ivanKeys, readTeamState(ivan).membership, { capsuleSha256: held.id, capsuleBytes: held.bytes, candidate: { bytes: candidateBytes, typologyMatchVisible: false } })).toBe("queued");
    ok(await cli(ivan, url, "team", "sync"));
    const bad = (JSON.parse(ok(await cli(rita, url, "review", "list", "--json")).stdout) as { capsule_sha256: string }[]).filter((r) => r.capsule_sha256 === held.id);
    expect(bad).toHaveLength(1);
    ok(await cli(rita, url, "review", "approve", held.id.slice(0, 12), "--reason", "corroborated"));
    ok(await cli(rob, url, "review", "approve", held.id.slice(0, 12), "--reason", "corroborated"));

    // the library: the form guard over the team capsules refuses, naming the capsule and the kind, never the value
    const port = await openTeamQueue(url, { create: false });
    try {
      const view = await readTeamView(lead, port, loadMemberKeys(lead), readTeamState(lead), "cold");
      let refusal: unknown;
      try {
        buildTeamExport(view, loadMemberKeys(lead), pack);
      } catch (e) {
        refusal = e;
      }
      expect(refusal).toBeInstanceOf(ReviewError);
      const msg = (refusal as Error).message;
      expect(msg).toMatch(new RegExp(`^refused 1 of 3 approved candidates of the team queue, nothing was exported: capsule ${held.id} \\(candidate [0-9a-f]{12}\\): leak guard: ioc_value in export\\.line\\.candidate\\.lead$`));
      expect(msg).not.toContain(planted!.value);
    } finally {
      await port.close();
    }
    // the CLI: refused (the outward vocabulary runs first), the earlier file untouched, nothing new written
    const out2 = join(lead, "team2.jsonl");
    const refused = await cli(lead, url, "review", "export", "--out", out2);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/^evidence-bridge: review export: (outward vocabulary|refused)/);
    expect(refused.stderr).not.toContain(planted!.value);
    expect(existsSync(out2)).toBe(false);
    const stix2 = join(lead, "team2.stix.json");
    const refusedStix = await cli(lead, url, "review", "export", "--out", stix2, "--format", "stix");
    expect(refusedStix.code).not.toBe(0);
    expect(refusedStix.stderr).not.toContain(planted!.value);
    expect(existsSync(stix2)).toBe(false);
    expect(readFileSync(out).equals(bytes)).toBe(true);
  });
}));
