/**
 * The put's durable steps (capsules/store/store.ts `putSteps`, docs/store.md "Syncs"): the first set syncs the data of
 * the sealed capsule, its receipt and (at a store's first seal) `store-key-id`, with the directories that gained
 * `store/` and `capsules/`; only then is anything linked into place, and the put returns after the second set synced
 * the directories. The concurrent put (what one-shot commands await) stores exactly what the synchronous put stores.
 */
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { syncSetSync, type SyncSet } from "../../../src/crypto/sync-set.js";
import { storable } from "../../helpers/storable.js";
import { syntheticCapsule, tempHome } from "./synthetic.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

describe("put steps", () => {
  test("nothing is linked before its data is synced; the directories are synced before the put returns", async () => {
    const home = tempHome("put-steps");
    homes.push(home);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const c = syntheticCapsule(1);
    const steps = store.putSteps([storable(c.bytes, c.id)]);
    const first = steps.next();
    const set1 = first.value as SyncSet;
    expect(first.done).toBe(false);
    // capsule + receipt + store-key-id, and the parents of the two directories this first seal created
    expect(set1.files).toHaveLength(3);
    expect(set1.dirs).toEqual([home, store.layout.root]);
    const finals = () => (existsSync(store.layout.capsules) ? readdirSync(store.layout.capsules).filter((n) => !n.startsWith(".")) : []);
    expect(finals()).toEqual([]);
    expect(existsSync(join(store.layout.root, "store-key-id"))).toBe(false);
    syncSetSync(set1);
    const second = steps.next();
    expect(second.done).toBe(false);
    expect((second.value as SyncSet).dirs).toEqual([store.layout.root, store.layout.capsules]);
    expect(finals().sort()).toEqual([`${c.id}.receipt`, `${c.id}.sealed`]);
    expect(existsSync(join(store.layout.root, "store-key-id"))).toBe(true);
    syncSetSync(second.value as SyncSet);
    const done = steps.next();
    expect(done).toEqual({ done: true, value: [{ id: c.id, stored: "new" }] });
    expect(readdirSync(store.layout.capsules).filter((n) => n.startsWith("."))).toEqual([]);

    // A later put into the same store: no store-key-id and no new directory, so two files and one directory.
    const d = syntheticCapsule(2);
    const later = store.putSteps([storable(d.bytes, d.id)]);
    const l1 = later.next().value as SyncSet;
    expect(l1.files).toHaveLength(2);
    expect(l1.dirs).toEqual([]);
    syncSetSync(l1);
    expect((later.next().value as SyncSet).dirs).toEqual([store.layout.capsules]);
  });

  test("the concurrent put stores what the synchronous put stores, and both are idempotent", async () => {
    const a = tempHome("put-sync");
    const b = tempHome("put-concurrent");
    homes.push(a, b);
    const one = await openOrCreateStore({ home: a, passphrase: undefined });
    const two = await openOrCreateStore({ home: b, passphrase: undefined });
    const items = [3, 4, 5].map((i) => syntheticCapsule(i)).map((c) => storable(c.bytes, c.id));
    expect(one.putCapsules(items).map((r) => r.stored)).toEqual(["new", "new", "new"]);
    expect((await two.putCapsulesConcurrently(items)).map((r) => r.stored)).toEqual(["new", "new", "new"]);
    expect((await two.putCapsulesConcurrently(items)).map((r) => r.stored)).toEqual(["existing", "existing", "existing"]);
    expect(readdirSync(two.layout.capsules).sort()).toEqual(readdirSync(one.layout.capsules).sort());
    for (const it of items) expect(Buffer.from(two.getCapsule(it.id)).equals(Buffer.from(one.getCapsule(it.id)))).toBe(true);
    expect(two.receipt(items[0].id).status).toBe("valid");
  });
});
