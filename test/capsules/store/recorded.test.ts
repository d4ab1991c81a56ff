/** capsules/store/recorded.ts: lookups by message_sha256 / assessment_id (oldest first) and the pseudonym key. */
import { createHash } from "node:crypto";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { afterAll, expect, test } from "vitest";
import { assessAndSeal } from "../../../capsules/assess/assess.js";
import { checkJudgement } from "../../../capsules/assess/judgement.js";
import { checkMessageText } from "../../../capsules/assess/message-text.js";
import { fromJs } from "../../../capsules/capsule/js-input.js";
import { findRecorded, pseudonymKey } from "../../../capsules/store/recorded.js";
import { INDEX_LABEL } from "../../../capsules/store/layout.js";
import { ROW_INDEX_FORMAT } from "../../../capsules/store/row-index.js";
import { openOrCreateStore, type SealedStore } from "../../../capsules/store/store.js";
import { SealKind, seal, unseal } from "../../../src/crypto/seal.js";
import { loadPackFile } from "../../../published/pack/file.js";
import type { JsonValue } from "../../../src/json/value.js";
import { describeShared, sharedPath } from "../../helpers/shared.js";
import { tempHome } from "./synthetic.js";

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

/** The store's row index, unsealed: its format and packed entries. */
function readIndex(store: SealedStore): { format: string; entries: unknown[][] } {
  const file = readFileSync(join(store.layout.root, store.layout.indexName));
  return JSON.parse(Buffer.from(unseal(file, store.keys.store, SealKind.index, INDEX_LABEL, INDEX_LABEL)).toString("utf8"));
}

const JUDGEMENT = () => checkJudgement(fromJs({ signals: ["account_rental_offer"], findings: [], surface: "offline_import", authorization: "operator_authorized" }) as JsonValue);

describeShared("findRecorded", () => {
  test("finds capsules by message hash and by assessment id, oldest first; other messages do not match", async () => {
    const home = tempHome("recorded");
    homes.push(home);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const pack = loadPackFile(sharedPath("data/intelligence-pack/intelligence-pack-v1.json"));
    const judgement = checkJudgement(fromJs({ signals: ["account_rental_offer"], findings: [], surface: "offline_import", authorization: "operator_authorized" }) as JsonValue);
    const text = "account on rent, DM @recorded_desk";
    const a = assessAndSeal(store, pack, { message: checkMessageText(text), judgement, now: new Date("2026-01-01T00:00:00Z") });
    const b = assessAndSeal(store, pack, { message: checkMessageText(text), judgement, supersede: true, now: new Date("2026-01-02T00:00:00Z") });
    const other = assessAndSeal(store, pack, { message: checkMessageText(`${text}!`), judgement, now: new Date("2026-01-03T00:00:00Z") });
    const hash = createHash("sha256").update(text).digest("hex");
    expect(findRecorded(store, { messageSha256: hash })).toEqual([a.capsuleId, b.capsuleId]);
    expect(b.supersedes).toEqual([a.capsuleId]);
    expect(findRecorded(store, { assessmentId: other.assessment!.assessment_id })).toEqual([other.capsuleId]);
    expect(findRecorded(store, { messageSha256: "0".repeat(64) })).toEqual([]);
    const again = assessAndSeal(store, pack, { message: checkMessageText(text), judgement });
    expect(again.status).toBe("already_recorded");
    expect(again.capsuleId).toBe(b.capsuleId);
  });

  test("the pseudonym key is stable per store, differs between stores, and is not the store key", async () => {
    const h1 = tempHome("pk1");
    const h2 = tempHome("pk2");
    homes.push(h1, h2);
    const s1 = await openOrCreateStore({ home: h1, passphrase: undefined });
    const s2 = await openOrCreateStore({ home: h2, passphrase: undefined });
    expect(pseudonymKey(s1)).toMatch(/^[0-9a-f]{64}$/);
    expect(pseudonymKey(s1)).toBe(pseudonymKey(await openOrCreateStore({ home: h1, passphrase: undefined })));
    expect(pseudonymKey(s1)).not.toBe(pseudonymKey(s2));
    expect(pseudonymKey(s1)).not.toBe(Buffer.from(s1.keys.store.bytes).toString("hex"));
    // The derivation is fixed (pseudonyms already sealed must stay comparable): HMAC-SHA256 of the domain string
    // under the store key, cross-checked with the portable implementation.
    const domain = new TextEncoder().encode("evidence-bridge/source-pseudonym-key/v1");
    expect(pseudonymKey(s2)).toBe(bytesToHex(hmac(sha256, s2.keys.store.bytes, domain)));
  });

  test("a row index of the previous format (v2, no recorded keys) is rebuilt once and still finds what was recorded before", async () => {
    const home = tempHome("recorded-v2");
    homes.push(home);
    const pack = loadPackFile(sharedPath("data/intelligence-pack/intelligence-pack-v1.json"));
    const before = await openOrCreateStore({ home, passphrase: undefined });
    const text = "account on rent before the upgrade, DM @old_index_desk";
    const first = assessAndSeal(before, pack, { message: checkMessageText(text), judgement: JUDGEMENT(), now: new Date("2026-02-01T00:00:00Z") });
    const other = assessAndSeal(before, pack, { message: checkMessageText(`${text} (other)`), judgement: JUDGEMENT(), now: new Date("2026-02-02T00:00:00Z") });
    before.rows(); // writes the current index
    // What the previous version wrote: the same entries without the two recorded keys, under the v2 format name,
    // each still matching its capsule file's size and mtime (so only the format tells it apart).
    const current = readIndex(before);
    expect(current.format).toBe(ROW_INDEX_FORMAT);
    const v2 = { format: "evidence-bridge-row-index/v2", entries: current.entries.map((e) => e.slice(0, 10)) };
    const plain = new TextEncoder().encode(JSON.stringify(v2));
    writeFileSync(join(before.layout.root, before.layout.indexName), seal(plain, before.keys.store, SealKind.index, INDEX_LABEL));

    // A new process (a fresh store instance, nothing in memory) upgraded to v3.
    const after = await openOrCreateStore({ home, passphrase: undefined });
    const hash = createHash("sha256").update(text).digest("hex");
    expect(findRecorded(after, { messageSha256: hash })).toEqual([first.capsuleId]);
    expect(findRecorded(after, { assessmentId: other.assessment!.assessment_id })).toEqual([other.capsuleId]);
    const rebuilt = readIndex(after);
    expect(rebuilt.format).toBe(ROW_INDEX_FORMAT);
    expect(rebuilt.entries.find((e) => e[0] === first.capsuleId)?.slice(10, 12)).toEqual([hash, first.assessment!.assessment_id]);
    const again = assessAndSeal(await openOrCreateStore({ home, passphrase: undefined }), pack, { message: checkMessageText(text), judgement: JUDGEMENT() });
    expect(again.status).toBe("already_recorded");
    expect(again.capsuleId).toBe(first.capsuleId);
    expect(after.capsuleIds().sort()).toEqual([first.capsuleId, other.capsuleId].sort());
  });

  test("a capsule sealed by another store instance on the same home (another process) is found by both keys", async () => {
    const home = tempHome("recorded-other");
    homes.push(home);
    const pack = loadPackFile(sharedPath("data/intelligence-pack/intelligence-pack-v1.json"));
    const mine = await openOrCreateStore({ home, passphrase: undefined });
    const theirs = await openOrCreateStore({ home, passphrase: undefined });
    const ownText = "own message: account on rent, DM @mine_desk";
    const otherText = "their message: account on rent, DM @theirs_desk";
    const own = assessAndSeal(mine, pack, { message: checkMessageText(ownText), judgement: JUDGEMENT(), now: new Date("2026-03-01T00:00:00Z") });
    // `mine` has looked up (and remembered) the store as it was before the other instance seals.
    expect(findRecorded(mine, { messageSha256: createHash("sha256").update(otherText).digest("hex") })).toEqual([]);
    const theirsOut = assessAndSeal(theirs, pack, { message: checkMessageText(otherText), judgement: JUDGEMENT(), now: new Date("2026-03-02T00:00:00Z") });
    expect(theirsOut.status).toBe("new");

    expect(findRecorded(mine, { assessmentId: theirsOut.assessment!.assessment_id })).toEqual([theirsOut.capsuleId]);
    const repeat = assessAndSeal(mine, pack, { message: checkMessageText(otherText), judgement: JUDGEMENT() });
    expect(repeat).toMatchObject({ status: "already_recorded", capsuleId: theirsOut.capsuleId });
    const back = assessAndSeal(theirs, pack, { message: checkMessageText(ownText), judgement: JUDGEMENT() });
    expect(back).toMatchObject({ status: "already_recorded", capsuleId: own.capsuleId });
    expect(mine.capsuleIds()).toHaveLength(2);
  });
});
