/**
 * A large batch through `putCapsulesConcurrently` (the scale bench's generator): the same sealed files and receipts as one put at a time, the same
 * idempotence and conflict rule, no temporary left behind, only ciphertext on disk, `afterPut` told of the batch.
 */
import { readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { StoreError } from "../../../capsules/store/errors.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { unseal, SealKind } from "../../../src/crypto/seal.js";
import { capsuleLabel } from "../../../capsules/store/layout.js";
import { CANARY, syntheticCapsule, tempHome } from "./synthetic.js";
import { storable } from "../../helpers/storable.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});
function home(tag: string): string {
  const h = tempHome(tag);
  homes.push(h);
  return h;
}

describe("putCapsulesConcurrently, batches of many capsules", () => {
  test("stores every capsule as putCapsule would: sealed under its name, receipts valid, modes 0600, no temporaries", async () => {
    const store = await openOrCreateStore({ home: home("batch"), passphrase: undefined });
    const caps = Array.from({ length: 70 }, (_, i) => syntheticCapsule(i));
    const told: string[] = [];
    store.afterPut = (stored) => told.push(...stored.map((c) => c.id));
    const results = await store.putCapsulesConcurrently(caps.map((c) => storable(c.bytes, c.id)));
    expect(results).toEqual(caps.map((c) => ({ id: c.id, stored: "new" })));
    expect(told).toEqual(caps.map((c) => c.id));
    const dir = store.layout.capsules;
    const names = readdirSync(dir);
    expect(names.filter((n) => n.startsWith("."))).toEqual([]);
    expect(names).toHaveLength(140);
    for (const c of caps) {
      const file = readFileSync(join(dir, `${c.id}.sealed`));
      expect(file.includes(Buffer.from(CANARY.handle))).toBe(false);
      expect(Buffer.from(unseal(file, store.keys.store, SealKind.capsule, capsuleLabel(c.id))).equals(Buffer.from(c.bytes))).toBe(true);
      expect(Buffer.from(store.getCapsule(c.id)).equals(Buffer.from(c.bytes))).toBe(true);
      expect(store.receipt(c.id).status).toBe("valid");
      expect(statSync(join(dir, `${c.id}.sealed`)).mode & 0o777).toBe(0o600);
      expect(statSync(join(dir, `${c.id}.receipt`)).mode & 0o777).toBe(0o600);
    }
    expect(store.receiptProblems()).toEqual([]);
    expect(store.rows()).toHaveLength(70);
  });

  test("idempotent with putCapsule, and different bytes under a stored id are refused with the stored copy kept", async () => {
    const store = await openOrCreateStore({ home: home("batch-conflict"), passphrase: undefined });
    const [a, b, c] = [syntheticCapsule(1), syntheticCapsule(2), syntheticCapsule(3)];
    store.putCapsule(storable(a.bytes, a.id));
    expect(await store.putCapsulesConcurrently([storable(a.bytes, a.id), storable(b.bytes, b.id)])).toEqual([
      { id: a.id, stored: "existing" },
      { id: b.id, stored: "new" },
    ]);
    const before = readFileSync(join(store.layout.capsules, `${a.id}.sealed`));
    const err = await store.putCapsulesConcurrently([storable(c.bytes, c.id), storable(a.prettyBytes, a.id)]).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(StoreError);
    expect((err as StoreError).code).toBe("conflict");
    expect(readFileSync(join(store.layout.capsules, `${a.id}.sealed`)).equals(before)).toBe(true);
    // The capsule before the conflict stays stored; nothing is left under a temporary name.
    expect(store.hasCapsule(c.id)).toBe(true);
    expect(readdirSync(store.layout.capsules).filter((n) => n.startsWith("."))).toEqual([]);
  });

  test("refuses anything that is not a pipeline value before writing", async () => {
    const store = await openOrCreateStore({ home: home("batch-refuse"), passphrase: undefined });
    const c = syntheticCapsule(4);
    await expect(store.putCapsulesConcurrently([{ bytes: c.bytes, id: c.id } as never])).rejects.toThrow(TypeError);
    expect(store.capsuleIds()).toEqual([]);
  });
});
