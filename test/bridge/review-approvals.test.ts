/**
 * One way to show a review status (capsules/review/status.ts), on every surface that shows one: under a
 * two-approval policy a single approval reads "APPROVED_FOR_RELEASE (1 of 2 approvals)" with
 * `approvals: {counted: 1, required: 2, met: false}` in `review list`, `review show`, `capsule list`, the MCP tools
 * `list_capsules` and `get_candidates` (declared in their output schemas) and the review page; a second key's
 * approval makes it 2 of 2 everywhere. An approval by a key outside the signed reviewer registry never counts: it
 * cannot be recorded, and a log holding one is refused by every surface rather than shown as approved.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, expect, test } from "vitest";
import { getCandidatesOutput, listCapsulesOutput } from "../../bridge/mcp/tool-schemas.js";
import { reviewerRegistryPath } from "../../capsules/review/reviewer-registry.js";
import { loadReviewLog } from "../../capsules/review/log.js";
import { describeShared } from "../helpers/shared.js";
import { exampleCapsule, exampleCapsules, PACK_FILE, removeHomes, storeWith } from "../capsules/feed/store-fixtures.js";
import { cli } from "../capsules/review/cli-run.js";
import { reviewer } from "../capsules/review/review-fixtures.js";
import { configFor, startSession } from "./mcp/session.js";
import { http } from "./review-page/http.js";
import { startPage } from "./review-page/page-session.js";

afterAll(removeHomes);

const id = (prefix: string) => exampleCapsule(prefix).id;
const NOTE = "Matches the cited record.";

interface Approvals {
  counted: number;
  required: number;
  met: boolean;
}

/** Everything each surface says about capsule 01 (and capsule 03, never decided), read fresh. */
async function surfaces(home: string) {
  const eb = (...args: string[]) => cli(["--home", home, "--pack", PACK_FILE, ...args]);
  const showText = await eb("review", "show", id("01"));
  const showJson = await eb("review", "show", id("01"), "--json");
  const show03 = await eb("review", "show", id("03"), "--json");
  const listText = await eb("review", "list");
  const capsuleText = await eb("capsule", "list");
  const capsuleJson = await eb("capsule", "list", "--json");
  const s = await startSession(configFor({ home, pack: PACK_FILE }));
  try {
    const listed = (await s.call("list_capsules", {})).msg.result;
    const candidates = (await s.call("get_candidates", { limit: 50 })).msg.result;
    return { showText, showJson, show03, listText, capsuleText, capsuleJson, listed, candidates };
  } finally {
    await s.end();
  }
}

describeShared("approvals shown on every surface under a two-approval policy", () => {
  let home: string;
  const eb = (...args: string[]) => cli(["--home", home, "--pack", PACK_FILE, ...args]);

  beforeAll(async () => {
    ({ home } = await storeWith("approvals-shown", exampleCapsules()));
    reviewer(home, "alice");
    reviewer(home, "bob");
    expect((await eb("review", "policy", "--approvals", "2")).code).toBe(0);
    expect((await eb("review", "approve", id("01"), "--reviewer", "alice", "--reason", "corroborated", "--public-note", NOTE)).code).toBe(0);
  });

  test("one approval: 1 of 2 in review show (text and JSON), review list, capsule list and both MCP tools", async () => {
    const v = await surfaces(home);
    const oneOfTwo: Approvals = { counted: 1, required: 2, met: false };

    expect(v.showText.code, v.showText.stderr).toBe(0);
    expect(v.showText.stdout).toMatch(/^status {5}APPROVED_FOR_RELEASE \(1 of 2 approvals\)$/m);
    const show = JSON.parse(v.showJson.stdout) as { status: string; approvals: Approvals };
    expect(show.status).toBe("APPROVED_FOR_RELEASE");
    expect(show.approvals).toEqual(oneOfTwo);
    // Undecided: its status as it is, and no approval counted yet.
    expect((JSON.parse(v.show03.stdout) as { status: string; approvals: Approvals }).approvals).toEqual({ counted: 0, required: 2, met: false });

    expect(v.listText.stdout).toMatch(new RegExp(`^${id("01").slice(0, 12)} .*APPROVED_FOR_RELEASE \\(1 of 2 approvals\\)$`, "m"));
    expect(v.capsuleText.stdout).toMatch(new RegExp(`^${id("01")} .*APPROVED_FOR_RELEASE \\(1 of 2 approvals\\)$`, "m"));
    expect(v.capsuleText.stdout).toMatch(new RegExp(`^${id("03")} .*HUMAN_REVIEW_REQUIRED$`, "m"));
    const rows = JSON.parse(v.capsuleJson.stdout) as { id: string; review_status: string; approvals: Approvals }[];
    expect(rows.find((r) => r.id === id("01"))).toMatchObject({ review_status: "APPROVED_FOR_RELEASE", approvals: oneOfTwo });
    expect(rows.find((r) => r.id === id("03"))).toMatchObject({ review_status: "HUMAN_REVIEW_REQUIRED", approvals: { counted: 0, required: 2, met: false } });

    // MCP: structuredContent has the member next to review_status, and it is what the declared schema allows.
    expect(v.listed.isError).toBeUndefined();
    expect(listCapsulesOutput.safeParse(v.listed.structuredContent).success).toBe(true);
    const row = (v.listed.structuredContent.rows as { id: string; review_status: string; approvals: Approvals }[]).find((r) => r.id === id("01"));
    expect(row).toMatchObject({ review_status: "APPROVED_FOR_RELEASE", approvals: oneOfTwo });
    expect(v.listed.content[0].text).toContain("short of the review policy's approvals (1 of 2 approvals): not released");
    expect(v.candidates.isError).toBeUndefined();
    expect(getCandidatesOutput.safeParse(v.candidates.structuredContent).success).toBe(true);
    const c = (v.candidates.structuredContent.candidates as { capsule_id: string; review_status: string; approvals: Approvals }[]).find((x) => x.capsule_id === id("01"));
    expect(c).toMatchObject({ review_status: "APPROVED_FOR_RELEASE", approvals: oneOfTwo });
    expect(v.candidates.content[0].text).toContain("(1 of 2 approvals): not released");
  });

  test("the MCP tools declare approvals next to review_status in their output schemas", async () => {
    const s = await startSession(configFor({ home, pack: PACK_FILE }));
    try {
      const tools = (await s.request("tools/list")).msg.result.tools as { name: string; outputSchema: { properties: Record<string, { items: { properties: Record<string, unknown>; required: string[] } }> } }[];
      const item = (name: string, member: string) => tools.find((t) => t.name === name)!.outputSchema.properties[member].items;
      for (const [name, member] of [["list_capsules", "rows"], ["get_candidates", "candidates"]]) {
        const it = item(name, member);
        expect(it.required).toEqual(expect.arrayContaining(["review_status", "approvals"]));
        expect(Object.keys((it.properties.approvals as { properties: object }).properties).sort()).toEqual(["counted", "met", "required"]);
      }
    } finally {
      await s.end();
    }
  });

  test("the review page shows the same 1 of 2, never as releasable", async () => {
    const page = await startPage(["--home", home, "--pack", PACK_FILE, "review", "serve", "--reviewer", "bob"]);
    try {
      const queue = await http(page.url);
      expect(queue.status).toBe(200);
      expect(queue.body).toContain('<span class="status s-APPROVED_FOR_RELEASE">APPROVED_FOR_RELEASE</span> <span class="approvals">1 of 2 approvals</span>');
      const one = await http(`${page.url}c/${id("01")}`);
      expect(one.body).toContain("<dt>approvals</dt><dd>1 of 2 approvals</dd>");
    } finally {
      expect((await page.stop()).code).toBe(0);
    }
  });

  test("a second registered key's approval: 2 of 2 and met everywhere", async () => {
    expect((await eb("review", "approve", id("01"), "--reviewer", "bob", "--reason", "corroborated", "--public-note", NOTE)).code).toBe(0);
    const v = await surfaces(home);
    const twoOfTwo: Approvals = { counted: 2, required: 2, met: true };
    expect(v.showText.stdout).toMatch(/^status {5}APPROVED_FOR_RELEASE \(2 of 2 approvals\)$/m);
    expect((JSON.parse(v.showJson.stdout) as { approvals: Approvals }).approvals).toEqual(twoOfTwo);
    expect(v.listText.stdout).toMatch(new RegExp(`^${id("01").slice(0, 12)} .*APPROVED_FOR_RELEASE \\(2 of 2 approvals\\)$`, "m"));
    expect(v.capsuleText.stdout).toMatch(new RegExp(`^${id("01")} .*APPROVED_FOR_RELEASE \\(2 of 2 approvals\\)$`, "m"));
    expect((JSON.parse(v.capsuleJson.stdout) as { id: string; approvals: Approvals }[]).find((r) => r.id === id("01"))?.approvals).toEqual(twoOfTwo);
    expect((v.listed.structuredContent.rows as { id: string; approvals: Approvals }[]).find((r) => r.id === id("01"))?.approvals).toEqual(twoOfTwo);
    expect(v.listed.content[0].text).not.toContain("short of");
    expect((v.candidates.structuredContent.candidates as { capsule_id: string; approvals: Approvals }[]).find((x) => x.capsule_id === id("01"))?.approvals).toEqual(twoOfTwo);
  });
});

describeShared("an approval by a key outside the reviewer registry never counts", () => {
  let home: string;
  let mallory: string;
  let registryBefore: Buffer;
  const eb = (...args: string[]) => cli(["--home", home, "--pack", PACK_FILE, ...args]);

  beforeAll(async () => {
    ({ home } = await storeWith("approvals-unregistered", exampleCapsules()));
    reviewer(home, "alice");
    registryBefore = readFileSync(reviewerRegistryPath(home));
    // Mallory's key file exists, but the registry is the one signed before it: her key is not registered.
    mallory = reviewer(home, "mallory").key.fingerprint;
    writeFileSync(reviewerRegistryPath(home), registryBefore);
    expect((await eb("review", "policy", "--approvals", "2")).code).toBe(0);
    expect((await eb("review", "approve", id("01"), "--reviewer", "alice", "--reason", "corroborated", "--public-note", NOTE)).code).toBe(0);
  });

  test("an unregistered key cannot add an approval: refused, nothing appended, still 1 of 2", async () => {
    const r = await eb("review", "approve", id("01"), "--reviewer", "mallory", "--reason", "corroborated", "--public-note", NOTE);
    expect(r.code).toBe(2);
    // Names come from the signed registry only: a key file alone names nobody.
    expect(r.stderr).toContain("no registered reviewer named mallory");
    expect(loadReviewLog(home).records).toHaveLength(1);
    const v = await surfaces(home);
    expect(v.showText.stdout).toMatch(/^status {5}APPROVED_FOR_RELEASE \(1 of 2 approvals\)$/m);
    expect((JSON.parse(v.showJson.stdout) as { approvals: Approvals }).approvals).toEqual({ counted: 1, required: 2, met: false });
    expect((v.listed.structuredContent.rows as { id: string; approvals: Approvals }[]).find((r) => r.id === id("01"))?.approvals.counted).toBe(1);
  });

  test("an approval whose key is no longer registered: every surface refuses the log instead of counting it", async () => {
    // Registered (keys trust), mallory's approval completes the policy...
    expect((await eb("keys", "trust", mallory, "--name", "mallory")).code).toBe(0);
    expect((await eb("review", "approve", id("01"), "--reviewer", "mallory", "--reason", "corroborated", "--public-note", NOTE)).code).toBe(0);
    expect((await eb("review", "show", id("01"))).stdout).toMatch(/^status {5}APPROVED_FOR_RELEASE \(2 of 2 approvals\)$/m);
    // ...then the registry signed without her key is back: her record is the approval of an unregistered key.
    writeFileSync(reviewerRegistryPath(home), registryBefore);
    const v = await surfaces(home);
    const named = new RegExp(`signed by ${mallory} \\(named mallory\\), which is not a registered reviewer of this store`);
    for (const r of [v.showText, v.showJson, v.listText, v.capsuleText, v.capsuleJson]) {
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(named);
      expect(r.stdout).not.toMatch(/2 of 2|"met": true/);
    }
    for (const result of [v.listed, v.candidates]) {
      expect(result.isError).toBe(true);
      expect(result.structuredContent).toBeUndefined();
      expect(result.content[0].text).toMatch(named);
    }
    const exported = await eb("review", "export", "--out", `${home}/export.jsonl`);
    expect(exported.code).not.toBe(0);
    expect(exported.stderr).toMatch(named);
  });
});
