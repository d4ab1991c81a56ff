/**
 * The feed over worker threads gives exactly the single-thread outcome (lines, counts, withheld list, progress),
 * a failure in a worker still names the capsule and fails the whole feed (and leaves no buffer behind), and
 * workers that cannot start fall back to the single-thread feed.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { buildFeed, buildFeedParallel, FeedError, runFeed } from "../../../capsules/feed/index.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsules, leakGuardCapsule, lenientCapsule, PACK_FILE, removeHomes, storeWith, tempHome, testPack, text } from "./store-fixtures.js";

afterAll(removeHomes);

describeShared("parallel feed", () => {
  test.each([1, 2, 3])("%i worker thread(s) produce the single-thread outcome exactly", { timeout: 60_000 }, async (workers) => {
    const { store } = await storeWith("par", [...exampleCapsules(), leakGuardCapsule(), lenientCapsule()]);
    const view = { includeTypologyMatches: true, includeClean: false };
    const ticks: string[] = [];
    // Batches of two capsules: six batches shared by the workers.
    const parallel = await buildFeedParallel(store, testPack(), PACK_FILE, { ...view, onProgress: (d, t) => ticks.push(`${d}/${t}`) }, workers, 2);
    const single = buildFeed(store, testPack(), view);
    expect(parallel.workers).toBe(workers);
    expect({ ...parallel, spool: undefined, workers: 0 }).toEqual({ ...single, spool: undefined });
    expect(parallel.withheld).toHaveLength(2);
    expect(ticks.at(-1)).toBe("12/12");
    expect(await text(parallel)).toBe(await text(single));
  });

  test("a damaged capsule processed in a worker fails the whole feed, naming the capsule", { timeout: 60_000 }, async () => {
    const { store } = await storeWith("par", exampleCapsules());
    const victim = store.capsuleIds()[4];
    const file = join(store.layout.capsules, `${victim}.sealed`);
    const bytes = readFileSync(file);
    bytes[bytes.length - 1] ^= 2;
    writeFileSync(file, bytes);
    const tempRoot = tempHome("par-spool");
    let error: unknown;
    try {
      await buildFeedParallel(store, testPack(), PACK_FILE, { includeTypologyMatches: false, includeClean: true, spool: { memoryBytes: 10, tempRoot } }, 2, 3);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(FeedError);
    expect((error as FeedError).capsuleId).toBe(victim);
    expect((error as FeedError).message).toMatch(new RegExp(`^capsule ${victim}: sealed file failed authentication`));
    expect(readdirSync(tempRoot)).toEqual([]);
  });

  test("workers that cannot start (here: the pack file differs from the loaded pack) fall back to this thread", { timeout: 60_000 }, async () => {
    const { store } = await storeWith("par", exampleCapsules());
    const otherPack = join(tempHome("par-pack"), "pack.json");
    writeFileSync(otherPack, Buffer.concat([readFileSync(PACK_FILE), Buffer.from(" ")]));
    const view = { includeTypologyMatches: false, includeClean: true };
    const fallback = await runFeed(store, testPack(), { ...view, packFile: otherPack, workers: 2 });
    expect(fallback.workers).toBe(0);
    expect(await text(fallback)).toBe(await text(buildFeed(store, testPack(), view)));
    const small = await runFeed(store, testPack(), { ...view, packFile: PACK_FILE });
    expect(small.workers).toBe(0);
    small.spool.dispose();
  });
});
