/**
 * Opening stored capsules with the store key alone (what a feed worker does): the same bytes, envelope and errors
 * as the store's own openCapsule, and nothing opens under another key.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { capsuleOpener, checkCapsuleId } from "../../../capsules/store/open-capsule.js";
import { StoreError } from "../../../capsules/store/errors.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { storeKey } from "../../../src/crypto/seal.js";
import { syntheticCapsule, tempHome } from "./synthetic.js";
import { storable } from "../../helpers/storable.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected an error");
}

describe("capsuleOpener", () => {
  test("opens what the store opens, and fails exactly as the store fails", async () => {
    const home = tempHome("opener");
    homes.push(home);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const caps = [1, 2, 3].map((i) => syntheticCapsule(i));
    store.putCapsules(caps.map((c) => storable(c.bytes, c.id)));
    const opener = capsuleOpener(home, storeKey(store.keys.store.bytes));
    for (const c of caps) {
      const opened = opener.openCapsule(c.id);
      expect(opened).toEqual(store.openCapsule(c.id));
      expect(Buffer.from(opened.bytes).equals(Buffer.from(c.bytes))).toBe(true);
    }

    const missing = "0".repeat(64);
    for (const id of [missing, "ABC", caps[0].id.toUpperCase()]) {
      const a = errorOf(() => opener.openCapsule(id));
      const b = errorOf(() => store.openCapsule(id));
      expect(a).toBeInstanceOf(StoreError);
      expect([a.constructor, a.message, (a as StoreError).code]).toEqual([b.constructor, b.message, (b as StoreError).code]);
    }

    const file = join(store.layout.capsules, `${caps[1].id}.sealed`);
    const bytes = readFileSync(file);
    bytes[bytes.length - 5] ^= 1;
    writeFileSync(file, bytes);
    const a = errorOf(() => opener.openCapsule(caps[1].id));
    expect([a.constructor, a.message]).toEqual([errorOf(() => store.openCapsule(caps[1].id)).constructor, errorOf(() => store.openCapsule(caps[1].id)).message]);
    expect(a.message).toMatch(/^sealed file failed authentication: store\/capsules\//);

    const foreign = capsuleOpener(home, storeKey(new Uint8Array(32).fill(7)));
    expect(errorOf(() => foreign.openCapsule(caps[0].id)).message).toMatch(/^sealed file failed authentication: .*wrong key or a damaged file/);
  });

  test("checkCapsuleId accepts 64 lowercase hex digits only and names what it checked", () => {
    expect(() => checkCapsuleId("a".repeat(64))).not.toThrow();
    expect(errorOf(() => checkCapsuleId("A".repeat(64))).message).toBe("capsule id must be 64 lowercase hexadecimal digits");
    expect(errorOf(() => checkCapsuleId("a".repeat(63), "message_sha256")).message).toBe("message_sha256 must be 64 lowercase hexadecimal digits");
  });
});
