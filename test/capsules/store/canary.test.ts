/**
 * Issue 4 test 5(d): a canary message and canary IOC values go through the store; afterwards a byte search of
 * the whole data directory finds none of them (nor any other plaintext capsule marker), in both key modes.
 */
import { rmSync } from "node:fs";
import { afterAll, describe, expect, test } from "vitest";
import { openOrCreateStore, openStore } from "../../../capsules/store/store.js";
import { CANARY, filesContaining, PLAINTEXT_MARKERS, syntheticCapsule, tempHome } from "./synthetic.js";
import { storable } from "../../helpers/storable.js";

const homes: string[] = [];
afterAll(() => {
  for (const h of homes) rmSync(h, { recursive: true, force: true });
});

const NEEDLES = [...PLAINTEXT_MARKERS, CANARY.wallet, CANARY.email, CANARY.message.slice(0, 30), "message SHA-256"];

describe.each([
  ["key files", undefined],
  ["passphrase", "canary passphrase q7x2vz"],
] as const)("canaries through the store (%s)", (_mode, passphrase) => {
  test("no canary or plaintext marker anywhere under the data directory", async () => {
    const home = tempHome("canary");
    homes.push(home);
    const store = await openOrCreateStore({ home, passphrase }, { kdfCost: { n: 1024, r: 8, p: 1 } });
    const caps = Array.from({ length: 12 }, (_, i) => syntheticCapsule(100 + i));
    store.putCapsules(caps.map((c) => storable(c.bytes, c.id)));
    for (const c of caps) store.putMessage(c.message, c.messageSha256);
    const rows = store.rows();
    expect(rows.length).toBe(12);
    // The values really are in the store (opening returns them) ...
    expect(Buffer.from(store.getCapsule(caps[0].id)).includes(Buffer.from(CANARY.handle))).toBe(true);
    expect(Buffer.from((await openStore({ home, passphrase })).getMessage(caps[0].messageSha256)).toString()).toBe(caps[0].message);
    // ... and nowhere on disk in the clear, nor any message hash.
    expect(filesContaining(home, [...NEEDLES, passphrase ?? "unused-needle-x", ...caps.map((c) => c.messageSha256)])).toEqual([]);
    expect(JSON.stringify(rows)).not.toContain(CANARY.handle);
  });
});
