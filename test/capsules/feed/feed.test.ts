/**
 * buildFeed over a sealed store: every capsule's candidate exactly as deriveCandidate derives it, in the documented
 * order, CLEAN excluded unless asked, withheld capsules reported by id and reason, and all or nothing on failure.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Writable } from "node:stream";
import { afterAll, expect, test } from "vitest";
import { deriveCandidate } from "../../helpers/derive.js";
import { buildFeed, FeedError, feedSummaryJson, feedSummaryLines, type FeedOutcome } from "../../../capsules/feed/index.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsules, leakGuardCapsule, lenientCapsule, removeHomes, storeWith, tempHome, testPack } from "./store-fixtures.js";

afterAll(removeHomes);

async function text(outcome: FeedOutcome): Promise<string> {
  const chunks: Buffer[] = [];
  const out = new Writable({
    write(c, _e, cb) {
      chunks.push(Buffer.from(c));
      cb();
    },
  });
  await outcome.spool.writeSorted(out);
  outcome.spool.dispose();
  return Buffer.concat(chunks).toString("utf8");
}

function expectedLines(opts: { includeTypologyMatches: boolean; includeClean: boolean }): string[] {
  const lines: { key: string; line: string }[] = [];
  for (const c of exampleCapsules()) {
    const r = deriveCandidate(c.bytes, testPack(), opts);
    if (r.status === "emitted") lines.push({ key: `${r.candidate.created_at} ${c.id}`, line: `${new TextDecoder().decode(r.bytes)}\n` });
  }
  return lines.sort((a, b) => (a.key < b.key ? -1 : 1)).map((l) => l.line);
}

describeShared("feed over the sealed store", () => {
  test.each([
    { includeTypologyMatches: false, includeClean: false },
    { includeTypologyMatches: true, includeClean: false },
    { includeTypologyMatches: false, includeClean: true },
    { includeTypologyMatches: true, includeClean: true },
  ])("every example capsule yields its derived candidate, ordered by created_at hour then capsule id (%o)", async (opts) => {
    const { store } = await storeWith("feed", exampleCapsules());
    const outcome = buildFeed(store, testPack(), opts);
    expect(outcome.total).toBe(10);
    expect(outcome.emitted).toBe(opts.includeClean ? 10 : 9);
    expect(outcome.excludedClean).toBe(opts.includeClean ? 0 : 1);
    expect(outcome.withheld).toEqual([]);
    const lines = (await text(outcome)).split(/(?<=\n)/);
    expect(lines).toEqual(expectedLines(opts));
    const keys = lines.map((l) => {
      const c = JSON.parse(l) as { created_at: string; capsule_sha256: string; feed_policy: { typology_match_visible: boolean } };
      expect(c.feed_policy.typology_match_visible).toBe(opts.includeTypologyMatches);
      return `${c.created_at} ${c.capsule_sha256}`;
    });
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys.map((k) => k.slice(0, 20))).size).toBeGreaterThan(1);
  });

  test("withheld capsules produce no line; each is reported with its id and a reason without values", async () => {
    const leaky = leakGuardCapsule();
    const lenient = lenientCapsule();
    const { store } = await storeWith("feed", [...exampleCapsules(), leaky, lenient]);
    const outcome = buildFeed(store, testPack(), { includeTypologyMatches: false, includeClean: false });
    expect(outcome.emitted).toBe(9);
    const byId = new Map(outcome.withheld.map((w) => [w.capsule_sha256, w.reason]));
    expect([...byId.keys()].sort()).toEqual([leaky.id, lenient.id].sort());
    expect(byId.get(leaky.id)).toBe("leak guard: ioc_value in candidate.limitations[0]");
    expect(byId.get(lenient.id)).toMatch(/^assessment artifact: assessment\.assessment_id: does not match/);
    const out = await text(outcome);
    expect(out).not.toContain(leaky.id);
    expect(out).not.toContain(lenient.id);
    const summary = feedSummaryLines(outcome).join("\n");
    expect(summary).toContain("9 candidates emitted from 12 capsules; 1 CLEAN excluded (--include-clean shows them); 2 withheld");
    expect(summary).toContain(`feed: withheld 1: leak guard: ioc_value in candidate.limitations[0] (capsule ${leaky.id.slice(0, 12)})`);
    expect(summary).not.toMatch(/leaky|90000|analytical/i);
    expect(feedSummaryJson(outcome)).toMatchObject({
      status: "withheld",
      capsules: 12,
      emitted: 9,
      excluded_clean: 1,
      withheld: expect.arrayContaining([{ reason: "leak guard: ioc_value in candidate.limitations[0]", capsules: [leaky.id] }]),
    });
  });

  test("a sealed file that fails authentication stops the feed with an error naming the capsule; the buffer is removed", async () => {
    const capsules = exampleCapsules();
    const { store } = await storeWith("feed", capsules);
    const victim = [...capsules].sort((a, b) => (a.id < b.id ? -1 : 1))[6];
    const file = join(store.layout.capsules, `${victim.id}.sealed`);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] ^= 0x40;
    writeFileSync(file, bytes);
    const tempRoot = tempHome("feed-spool");
    let error: unknown;
    try {
      buildFeed(store, testPack(), { includeTypologyMatches: false, includeClean: true, spool: { memoryBytes: 100, tempRoot } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FeedError);
    expect((error as FeedError).capsuleId).toBe(victim.id);
    expect((error as FeedError).message).toMatch(new RegExp(`^capsule ${victim.id}: `));
    expect(readdirSync(tempRoot)).toEqual([]);
  });

  test("no store yet: an empty feed; progress is reported once per capsule", async () => {
    const empty = buildFeed(undefined, testPack(), { includeTypologyMatches: false, includeClean: false });
    expect(empty.total).toBe(0);
    expect(await text(empty)).toBe("");
    const { store } = await storeWith("feed", exampleCapsules().slice(0, 3));
    const ticks: string[] = [];
    const outcome = buildFeed(store, testPack(), { includeTypologyMatches: false, includeClean: false, onProgress: (d, t) => ticks.push(`${d}/${t}`) });
    outcome.spool.dispose();
    expect(ticks).toEqual(["1/3", "2/3", "3/3"]);
  });
});
