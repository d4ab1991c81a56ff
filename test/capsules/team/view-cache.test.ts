/**
 * The sealed view cache (capsules/team/view-cache.ts): round trip; a flipped byte, another member's key or another
 * team makes it unreadable (ignored, never trusted); no candidate digest, capsule id or name in its bytes.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, expect, test } from "vitest";
import { newEpochKey } from "../../../capsules/team/epoch-keys.js";
import { readViewCache, writeViewCache, type ViewCache } from "../../../capsules/team/view-cache.js";
import { GENESIS_PREV } from "../../../capsules/review/record.js";
import { newMember, removeTempHomes, tempHome, TEAM_ID } from "./team-fixtures.js";

afterAll(removeTempHomes);

test("the view cache round-trips and refuses every other reader", () => {
  const home = tempHome();
  const me = newMember();
  const state = { teamId: TEAM_ID, adminKey: "a".repeat(64), member: me.fingerprint };
  const epoch = newEpochKey();
  const cache: ViewCache = {
    maxObjectSeq: 42,
    epochs: [epoch],
    capsuleObjects: new Map([["b".repeat(32), me.fingerprint]]),
    publications: [
      { objectId: "c".repeat(32), capsuleObject: "b".repeat(32), capsuleSha256: "d".repeat(64), candidateSha256: "e".repeat(64), typologyMatchVisible: false, author: me.fingerprint, hour: "2026-11-28T22:00:00Z" },
    ],
    chain: { records: [], decisionHead: GENESIS_PREV, rowHead: "f".repeat(64), rows: 3, membershipVersion: 2, lastSeq: 9, prevSeq: 7 },
  };
  writeViewCache(home, state, me, cache);
  const back = readViewCache(home, state, me)!;
  expect(back.maxObjectSeq).toBe(42);
  expect(back.epochs.map((e) => e.id)).toEqual([epoch.id]);
  expect(back.publications).toEqual(cache.publications);
  expect(back.chain).toMatchObject({ rows: 3, lastSeq: 9, prevSeq: 7, rowHead: "f".repeat(64), membershipVersion: 2 });

  const raw = readFileSync(`${home}/team/view-cache`);
  for (const secret of ["d".repeat(64), "e".repeat(64), Buffer.from(epoch.key).toString("hex")]) expect(raw.includes(Buffer.from(secret))).toBe(false);

  expect(readViewCache(home, state, newMember())).toBeUndefined();
  expect(readViewCache(home, { ...state, teamId: "1".repeat(32) }, me)).toBeUndefined();
  const flipped = Buffer.from(raw);
  flipped[20] ^= 1;
  writeFileSync(`${home}/team/view-cache`, flipped);
  expect(readViewCache(home, state, me)).toBeUndefined();
});
