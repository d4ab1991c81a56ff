/**
 * Four-eyes from the command line: `review policy` shows and sets the signed policy, `review list` shows
 * "1 of 2 approvals", `review approve` says how many approvals the candidate has, and `review export` writes a
 * candidate only after a second reviewer key approved the same digest (once per approving key).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsule, exampleCapsules, PACK_FILE, removeHomes, storeWith, tempHome } from "../../capsules/feed/store-fixtures.js";
import { cli } from "../../capsules/review/cli-run.js";
import { reviewer } from "../../capsules/review/review-fixtures.js";

afterAll(removeHomes);

describeShared("review policy and four-eyes in the CLI", () => {
  let home: string;
  let out: string;
  const eb = (...args: string[]) => cli(["--home", home, "--pack", PACK_FILE, ...args]);
  const id = (prefix: string) => exampleCapsule(prefix).id;

  beforeAll(async () => {
    ({ home } = await storeWith("cli-policy", exampleCapsules()));
    reviewer(home, "alice");
    reviewer(home, "bob");
    out = tempHome("cli-policy-out");
  });

  test("review policy shows the default, refuses bad values and sets a signed policy", async () => {
    expect((await eb("review", "policy")).stdout).toBe(
      "review policy: 1 approval per candidate digest before export\nrelease policy: channels, urls, wallets may be released as values, each by 1 reviewer\n",
    );
    for (const bad of ["0", "10", "two", "1.5"]) {
      const r = await eb("review", "policy", "--approvals", bad);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe("evidence-bridge: review policy: --approvals: expected an integer from 1 to 9\n");
    }
    const set = await eb("review", "policy", "--approvals", "2");
    expect(set.stdout).toBe(
      "review policy: 2 approvals by distinct reviewer keys per candidate digest before export (set)\nrelease policy: channels, urls, wallets may be released as values, each by 2 reviewers\n",
    );
    expect(JSON.parse((await eb("review", "policy", "--json")).stdout)).toEqual({ approvals: 2, release: ["channels", "urls", "wallets"], path: join(home, "store", "review-policy.json") });
  });

  test("one approval is 1 of 2: listed as such and not exported; a second key's approval releases it", async () => {
    const first = await eb("review", "approve", id("01"), "--reviewer", "alice", "--note", "Matches the mule rental pattern.");
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/\n {2}1 of 2 approvals \(not exported until the policy's approvals are complete\)\n$/);
    const list = await eb("review", "list");
    expect(list.stdout).toMatch(new RegExp(`^${id("01").slice(0, 12)} .*APPROVED_FOR_RELEASE \\(1 of 2 approvals\\)$`, "m"));
    const json = (JSON.parse((await eb("review", "list", "--json")).stdout) as { capsule_sha256: string; approvals: unknown }[]).find((e) => e.capsule_sha256 === id("01"));
    expect(json?.approvals).toEqual({ counted: 1, required: 2, met: false });
    const early = await eb("review", "export", "--out", join(out, "early.jsonl"));
    expect(early.code).toBe(0);
    expect(early.stdout).toMatch(/^exported 0 approved candidates \(0 approval lines, 2 approvals required\) to .*\n {2}pending: [0-9a-f]{64} candidate [0-9a-f]{12}: 1 of 2 approvals\n$/);
    // Nothing approved enough: the file holds only the signed checkpoint line that ends every export.
    const earlyLines = readFileSync(join(out, "early.jsonl"), "utf8").trim().split("\n");
    expect(earlyLines).toHaveLength(1);
    expect(Object.keys(JSON.parse(earlyLines[0]) as object)).not.toContain("decision");
    const self = await eb("review", "approve", id("01"), "--reviewer", "alice", "--note", "again");
    expect(self.code).toBe(2);
    expect(self.stderr).toMatch(/already APPROVED_FOR_RELEASE by alice .*a decision on the same bytes is final\n$/);
    const second = await eb("review", "approve", id("01"), "--reviewer", "bob", "--note", "Second look: agreed.");
    expect(second.stdout).toMatch(/\n {2}2 of 2 approvals\n$/);
    const done = await eb("review", "export", "--out", join(out, "done.jsonl"));
    expect(done.stdout).toMatch(/^exported 1 approved candidate \(2 approval lines, 2 approvals required\) to /);
    expect(readFileSync(join(out, "done.jsonl"), "utf8").trim().split("\n")).toHaveLength(3);
    const unpinned = await cli(["review", "verify-export", join(out, "done.jsonl")]);
    expect(unpinned.code).toBe(1);
    const keys = JSON.parse((await eb("keys", "show", "--json")).stdout) as { signing_key: { fingerprint: string }; reviewers: { fingerprint: string }[] };
    const trust = [keys.signing_key.fingerprint, ...keys.reviewers.map((r) => r.fingerprint)].join(",");
    const verified = await cli(["review", "verify-export", "--trust", trust, join(out, "done.jsonl")]);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
    expect(verified.stdout).toMatch(/: 2 of 2 approved candidates verified\n$/);
  });
});
