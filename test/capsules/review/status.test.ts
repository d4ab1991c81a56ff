/**
 * The one way to show a review status (status.ts): the approvals of the decided bytes under the policy, counting
 * only keys that isKnown (the signed reviewer registry, countedKeys) admits, and a rejection's veto.
 */
import { describe, expect, test } from "vitest";
import type { LoggedRecord } from "../../../capsules/review/state.js";
import { shownStatus } from "../../../capsules/review/status.js";

describe("the status lens counts only what isKnown admits", () => {
  test("shownStatus: an approval by a key the registry does not know is not counted, not met, still 1 of 2", () => {
    const record = (fingerprint: string, decision: "APPROVED_FOR_RELEASE" | "REJECTED") =>
      ({ record: { decision, reviewer: { name: fingerprint, fingerprint, public_key: "" } } }) as unknown as LoggedRecord;
    const decisions = [record("ed25519:alice", "APPROVED_FOR_RELEASE"), record("ed25519:mallory", "APPROVED_FOR_RELEASE")];
    const onlyAlice = (fp: string) => fp === "ed25519:alice";
    const s = shownStatus("APPROVED_FOR_RELEASE", decisions, { approvals: 2 }, onlyAlice);
    expect(s).toEqual({ status: "APPROVED_FOR_RELEASE", approvals: { counted: 1, required: 2, met: false }, count: "1 of 2 approvals", rejected: false, text: "APPROVED_FOR_RELEASE (1 of 2 approvals)" });
    expect(shownStatus("APPROVED_FOR_RELEASE", decisions, { approvals: 2 }, () => true).approvals).toEqual({ counted: 2, required: 2, met: true });
    const vetoed = shownStatus("REJECTED", [...decisions, record("ed25519:alice", "REJECTED")], { approvals: 2 }, () => true);
    expect([vetoed.text, vetoed.rejected, vetoed.approvals.met]).toEqual(["REJECTED", true, false]);
  });
});
