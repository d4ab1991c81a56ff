/**
 * Issue 4 test 5(c): tampering with stored files. Headers, nonces, ciphertext, names (moved and swapped files),
 * truncation, a foreign key, a future format version and plaintext dropped into the store: every one is a
 * precise error naming the file, never garbage.
 */
import { copyFileSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { openOrCreateStore, type SealedStore } from "../../../capsules/store/store.js";
import { SealError } from "../../../src/crypto/errors.js";
import { SealKind, seal } from "../../../src/crypto/seal.js";
import { syntheticCapsule, tempHome } from "./synthetic.js";
import { storable } from "../../helpers/storable.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

async function filledStore(tag: string): Promise<{ store: SealedStore; ids: string[]; path: (id: string) => string }> {
  const home = tempHome(tag);
  homes.push(home);
  const store = await openOrCreateStore({ home, passphrase: undefined });
  const caps = [1, 2].map((i) => syntheticCapsule(i));
  store.putCapsules(caps.map((c) => storable(c.bytes, c.id)));
  return { store, ids: caps.map((c) => c.id), path: (id) => join(store.layout.capsules, `${id}.sealed`) };
}

function sealErrorOf(fn: () => unknown): SealError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SealError);
    return e as SealError;
  }
  throw new Error("expected a SealError");
}

describe("stored capsule files", () => {
  test("a flipped bit in magic, version, kind, reserved, key id, nonce or ciphertext", async () => {
    const { store, ids, path } = await filledStore("bits");
    const [id] = ids;
    const original = readFileSync(path(id));
    const label = `store/capsules/${id}.sealed`;
    const offsets = [0, 7, 8, 9, 10, 11, 12, 19, 20, 43, 44, 60, 200, original.length - 1];
    for (const off of offsets) {
      for (const bit of [0, 3, 7]) {
        const bad = Buffer.from(original);
        bad[off] ^= 1 << bit;
        writeFileSync(path(id), bad);
        const e = sealErrorOf(() => store.getCapsule(id));
        expect(e.code, `offset ${off} bit ${bit}`).toBe("auth");
        expect(e.message.startsWith(`sealed file failed authentication: ${label}`)).toBe(true);
      }
    }
    writeFileSync(path(id), original);
    expect(store.getCapsule(id).length).toBeGreaterThan(0);
  });

  test("truncated and extended files", async () => {
    const { store, ids, path } = await filledStore("trunc");
    const [id] = ids;
    const original = readFileSync(path(id));
    for (const len of [0, 8, 43, 44, 59, 60, original.length - 1]) {
      writeFileSync(path(id), original.subarray(0, len));
      expect(sealErrorOf(() => store.getCapsule(id)).code).toBe("auth");
    }
    writeFileSync(path(id), Buffer.concat([original, Buffer.from([0])]));
    expect(sealErrorOf(() => store.getCapsule(id)).message).toBe(`sealed file failed authentication: store/capsules/${id}.sealed`);
  });

  test("a file moved to another capsule's name, and two files swapped", async () => {
    const { store, ids, path } = await filledStore("names");
    const [a, b] = ids;
    const fileA = readFileSync(path(a));
    const fileB = readFileSync(path(b));
    writeFileSync(path(a), fileB);
    writeFileSync(path(b), fileA);
    expect(sealErrorOf(() => store.getCapsule(a)).message).toBe(`sealed file failed authentication: store/capsules/${a}.sealed`);
    expect(sealErrorOf(() => store.getCapsule(b)).message).toBe(`sealed file failed authentication: store/capsules/${b}.sealed`);
    const fresh = "f".repeat(64);
    renameSync(path(a), path(fresh));
    expect(sealErrorOf(() => store.getCapsule(fresh)).code).toBe("auth");
  });

  test("a capsule sealed by another installation (another key)", async () => {
    const mine = await filledStore("mine");
    const theirs = await filledStore("theirs");
    const [id] = mine.ids;
    copyFileSync(theirs.path(id), mine.path(id));
    const e = sealErrorOf(() => mine.store.getCapsule(id));
    expect(e.message).toBe(
      `sealed file failed authentication: store/capsules/${id}.sealed (sealed under key id ${theirs.store.keys.store.idHex}, this installation's key id is ${mine.store.keys.store.idHex}: wrong key or a damaged file)`,
    );
  });

  test("plaintext dropped under a final name, and a sealed message renamed into the capsules", async () => {
    const { store, ids, path } = await filledStore("plain");
    const [id] = ids;
    writeFileSync(path(id), syntheticCapsule(1).bytes);
    expect(sealErrorOf(() => store.getCapsule(id)).message).toBe(
      `sealed file failed authentication: store/capsules/${id}.sealed (not an evidence-bridge sealed file)`,
    );
    writeFileSync(path(id), seal(syntheticCapsule(1).bytes, store.keys.store, SealKind.message, `store/capsules/${id}.sealed`));
    expect(sealErrorOf(() => store.getCapsule(id)).message).toBe(
      `sealed file failed authentication: store/capsules/${id}.sealed (not a capsule file)`,
    );
  });

  test("a well-formed sealed file of a future format version", async () => {
    const { store, ids, path } = await filledStore("future");
    const [id] = ids;
    const future = readFileSync(path(id));
    future[8] = 2;
    future[9] = 0xfd;
    writeFileSync(path(id), future);
    const e = sealErrorOf(() => store.getCapsule(id));
    expect(e.code).toBe("version");
    expect(e.message).toBe(
      `sealed file store/capsules/${id}.sealed uses format version 2; this build reads version 1 only: upgrade evidence-bridge to open it`,
    );
  });

  test("a correctly sealed file whose content does not hash to its name", async () => {
    const { store, ids, path } = await filledStore("hash");
    const [a, b] = ids;
    // Sealed with the right key and name, but holding capsule b: authentication passes, the identity check fails.
    writeFileSync(path(a), seal(store.getCapsule(b), store.keys.store, SealKind.capsule, `store/capsules/${a}.sealed`));
    expect(() => store.getCapsule(a)).toThrow(
      `sealed capsule store/capsules/${a}.sealed: recomputed content_sha256 ${b} does not equal the capsule id ${a}`,
    );
  });
});

describe("retained message files", () => {
  test("tampering and renaming fail authentication; the error never names the message hash", async () => {
    const { store } = await filledStore("msg");
    const c = syntheticCapsule(3);
    const d = syntheticCapsule(4);
    store.putMessage(c.message, c.messageSha256);
    store.putMessage(d.message, d.messageSha256);
    const p = (sha: string) => join(store.layout.messages, `${store.messageName(sha)}.sealed`);
    const original = readFileSync(p(c.messageSha256));
    const bad = Buffer.from(original);
    bad[50] ^= 4;
    writeFileSync(p(c.messageSha256), bad);
    const e = sealErrorOf(() => store.getMessage(c.messageSha256));
    expect(e.message).toBe(`sealed file failed authentication: store/messages/${store.messageName(c.messageSha256)}.sealed`);
    expect(e.message).not.toContain(c.messageSha256);
    writeFileSync(p(c.messageSha256), readFileSync(p(d.messageSha256)));
    expect(sealErrorOf(() => store.getMessage(c.messageSha256)).code).toBe("auth");
  });
});
