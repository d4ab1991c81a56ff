/** capsules/store/recorded.ts: lookups by message_sha256 / assessment_id (oldest first) and the pseudonym key. */
import { createHash } from "node:crypto";
import { rmSync } from "node:fs";
import { afterAll, expect, test } from "vitest";
import { assessAndSeal } from "../../../capsules/assess/assess.js";
import { checkJudgement } from "../../../capsules/assess/judgement.js";
import { fromJs } from "../../../capsules/capsule/js-input.js";
import { findRecorded, pseudonymKey } from "../../../capsules/store/recorded.js";
import { openOrCreateStore } from "../../../capsules/store/store.js";
import { loadPackFile } from "../../../published/pack/file.js";
import type { JsonValue } from "../../../src/json/value.js";
import { describeShared, sharedPath } from "../../helpers/shared.js";
import { tempHome } from "./synthetic.js";

const homes: string[] = [];
afterAll(() => homes.forEach((h) => rmSync(h, { recursive: true, force: true })));

describeShared("findRecorded", () => {
  test("finds capsules by message hash and by assessment id, oldest first; other messages do not match", async () => {
    const home = tempHome("recorded");
    homes.push(home);
    const store = await openOrCreateStore({ home, passphrase: undefined });
    const pack = loadPackFile(sharedPath("data/intelligence-pack/intelligence-pack-v1.json"));
    const judgement = checkJudgement(fromJs({ signals: ["account_rental_offer"], findings: [], surface: "offline_import", authorization: "operator_authorized" }) as JsonValue);
    const text = "account on rent, DM @recorded_desk";
    const a = assessAndSeal(store, pack, { message: text, judgement, now: new Date("2026-01-01T00:00:00Z") });
    const b = assessAndSeal(store, pack, { message: text, judgement, supersede: true, now: new Date("2026-01-02T00:00:00Z") });
    const other = assessAndSeal(store, pack, { message: `${text}!`, judgement, now: new Date("2026-01-03T00:00:00Z") });
    const hash = createHash("sha256").update(text).digest("hex");
    expect(findRecorded(store, { messageSha256: hash })).toEqual([a.capsuleId, b.capsuleId]);
    expect(b.supersedes).toEqual([a.capsuleId]);
    expect(findRecorded(store, { assessmentId: other.assessment!.assessment_id })).toEqual([other.capsuleId]);
    expect(findRecorded(store, { messageSha256: "0".repeat(64) })).toEqual([]);
    const again = assessAndSeal(store, pack, { message: text, judgement });
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
  });
});
