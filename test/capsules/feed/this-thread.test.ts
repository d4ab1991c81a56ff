/**
 * The feed with this thread deriving next to its workers (what runFeed does): the same outcome as the
 * single-thread feed whichever thread derived which batch, a failure in this thread's share still names the
 * capsule and leaves nothing behind, and workers that cannot start are left out while this thread does the work.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { buildFeed, buildFeedParallel, FeedError } from "../../../capsules/feed/index.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsules, leakGuardCapsule, lenientCapsule, PACK_FILE, removeHomes, storeWith, tempHome, testPack, text } from "./store-fixtures.js";

afterAll(removeHomes);

describeShared("feed in this thread and worker threads", () => {
  test.each([0, 1, 2])("this thread and %i worker(s) produce the single-thread outcome exactly", { timeout: 60_000 }, async (workers) => {
    const { store } = await storeWith("here", [...exampleCapsules(), leakGuardCapsule(), lenientCapsule()]);
    const view = { includeTypologyMatches: true, includeClean: false };
    const ticks: string[] = [];
    const opts = { ...view, thisThread: true, onProgress: (d: number, t: number) => ticks.push(`${d}/${t}`) };
    const outcome = await buildFeedParallel(store, testPack(), PACK_FILE, opts, workers, 1);
    const single = buildFeed(store, testPack(), view);
    expect(outcome.workers).toBeLessThanOrEqual(workers);
    expect({ ...outcome, spool: undefined, workers: 0 }).toEqual({ ...single, spool: undefined });
    expect(outcome.withheld).toHaveLength(2);
    expect(ticks).toEqual(Array.from({ length: 12 }, (_, i) => `${i + 1}/12`));
    expect(await text(outcome)).toBe(await text(single));
  });

  test("a damaged capsule in this thread's share fails the whole feed, naming the capsule", { timeout: 60_000 }, async () => {
    const { store } = await storeWith("here", exampleCapsules());
    // This thread takes the first batch at once: damage a capsule in it.
    const victim = store.capsuleIds()[1];
    const file = join(store.layout.capsules, `${victim}.sealed`);
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] ^= 2;
    writeFileSync(file, bytes);
    const tempRoot = tempHome("here-spool");
    const opts = { includeTypologyMatches: false, includeClean: true, thisThread: true, spool: { memoryBytes: 10, tempRoot } };
    const error = await buildFeedParallel(store, testPack(), PACK_FILE, opts, 1, 3).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FeedError);
    expect((error as FeedError).capsuleId).toBe(victim);
    expect((error as FeedError).message).toMatch(new RegExp(`^capsule ${victim}: sealed file failed authentication`));
    expect(readdirSync(tempRoot)).toEqual([]);
  });

  test("workers that cannot start (the pack file differs) are left out: this thread derives everything", { timeout: 60_000 }, async () => {
    const { store } = await storeWith("here", exampleCapsules());
    const otherPack = join(tempHome("here-pack"), "pack.json");
    writeFileSync(otherPack, Buffer.concat([readFileSync(PACK_FILE), Buffer.from(" ")]));
    const view = { includeTypologyMatches: false, includeClean: true };
    const outcome = await buildFeedParallel(store, testPack(), otherPack, { ...view, thisThread: true }, 2, 1);
    expect(outcome.workers).toBe(0);
    expect(await text(outcome)).toBe(await text(buildFeed(store, testPack(), view)));
  });
});
