/**
 * Four-eyes review: the signed policy in the store, the one counting function (approvalsFor), finality once the
 * policy's approvals are complete, and an export that holds a candidate only when N distinct keys approved the
 * same digest and nobody rejected it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { approvalsFor, approvalsText } from "../../../capsules/review/approvals.js";
import { recordDecision } from "../../../capsules/review/decide.js";
import type { Decision } from "../../../capsules/review/decisions.js";
import { ReviewError } from "../../../capsules/review/errors.js";
import { buildExport } from "../../../capsules/review/export-lines.js";
import { appendDecision, loadReviewLog, verifyReviewLog } from "../../../capsules/review/log.js";
import { DEFAULT_POLICY, policyPath, readReviewPolicy, writeReviewPolicy } from "../../../capsules/review/policy.js";
import type { ReviewerKeyFile } from "../../../capsules/review/reviewer-key.js";
import { verifyExportBytes } from "../../../capsules/review/verify-export.js";
import type { SealedStore } from "../../../capsules/store/store.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsule, exampleCapsules, removeHomes, storeWith, tempHome, testPack } from "../feed/store-fixtures.js";
import { draft, minuteClock, reviewer } from "./review-fixtures.js";

afterAll(removeHomes);

function caught(f: () => unknown): ReviewError {
  try {
    f();
  } catch (e) {
    if (e instanceof ReviewError) return e;
    throw e;
  }
  throw new Error("expected a ReviewError");
}

describe("four-eyes in the log (synthetic digests)", () => {
  const two = { approvals: 2 };

  test("with 2 required: a second key may approve, the same key may not, and after two approvals the bytes are final", () => {
    const home = tempHome("4eyes");
    const [alice, bob, carol] = ["alice", "bob", "carol"].map((n) => reviewer(home, n));
    const now = minuteClock();
    appendDecision(home, draft(1), alice, { now, policy: two });
    const state1 = loadReviewLog(home).state;
    const c1 = approvalsFor(state1.recordsForDigest(draft(1).candidate_sha256), two);
    expect(approvalsText(c1)).toBe("1 of 2 approvals");
    expect(c1.met).toBe(false);
    const self = caught(() => appendDecision(home, draft(1), alice, { now, policy: two }));
    expect(self.message).toMatch(/was already APPROVED_FOR_RELEASE by alice .*\(record #1\); a decision on the same bytes is final$/);
    const defer = caught(() => appendDecision(home, draft(1, "NEEDS_MORE_EVIDENCE"), bob, { now, policy: two }));
    expect(defer.message).toMatch(/another reviewer may add an approval or reject it, not defer it$/);
    appendDecision(home, draft(1), bob, { now, policy: two });
    const c2 = approvalsFor(loadReviewLog(home).state.recordsForDigest(draft(1).candidate_sha256), two);
    expect(approvalsText(c2)).toBe("2 of 2 approvals");
    expect(c2.met).toBe(true);
    expect(c2.approvers.map((a) => a.reviewer.name)).toEqual(["alice", "bob"]);
    const late = caught(() => appendDecision(home, draft(1, "REJECTED"), carol, { now, policy: two }));
    expect(late.message).toMatch(/was already APPROVED_FOR_RELEASE by bob .*\(record #2\); a decision on the same bytes is final$/);
    expect(verifyReviewLog(home).ok).toBe(true);
  });

  test("a rejection by another key after one approval vetoes release; with 1 required the first approval is final", () => {
    const home = tempHome("4eyes");
    const [alice, bob] = ["alice", "bob"].map((n) => reviewer(home, n));
    appendDecision(home, draft(2), alice, { policy: two });
    appendDecision(home, draft(2, "REJECTED"), bob, { policy: two });
    const c = approvalsFor(loadReviewLog(home).state.recordsForDigest(draft(2).candidate_sha256), two);
    expect(c.rejected?.record.reviewer.name).toBe("bob");
    expect(c.met).toBe(false);
    expect(loadReviewLog(home).state.statusOf(draft(2).candidate_sha256)).toBe("REJECTED");
    appendDecision(home, draft(3), alice);
    expect(caught(() => appendDecision(home, draft(3), bob)).message).toMatch(/already APPROVED_FOR_RELEASE by alice .*a decision on the same bytes is final$/);
  });

  test("approvalsFor counts each key once and only keys the predicate knows", () => {
    const home = tempHome("4eyes");
    const [alice, bob] = ["alice", "bob"].map((n) => reviewer(home, n));
    appendDecision(home, draft(4), alice, { policy: { approvals: 3 } });
    appendDecision(home, draft(4), bob, { policy: { approvals: 3 } });
    const records = loadReviewLog(home).state.recordsForDigest(draft(4).candidate_sha256);
    expect(approvalsFor([...records, records[0]], { approvals: 2 }).approvers).toHaveLength(2);
    const onlyAlice = approvalsFor(records, { approvals: 2 }, (fp) => fp === alice.key.fingerprint);
    expect(onlyAlice.met).toBe(false);
    expect(onlyAlice.uncounted.map((e) => e.record.reviewer.name)).toEqual(["bob"]);
    expect(approvalsFor(records, DEFAULT_POLICY).met).toBe(true);
  });
});

describeShared("four-eyes policy and export over a real store", () => {
  let home: string;
  let store: SealedStore;
  let alice: ReviewerKeyFile;
  let bob: ReviewerKeyFile;
  const view = { includeTypologyMatches: false, includeClean: false };
  const decide = (prefix: string, who: ReviewerKeyFile, decision: Decision = "APPROVED_FOR_RELEASE") =>
    recordDecision(home, store, testPack(), { capsule_sha256: exampleCapsule(prefix).id, view, decision, reason: "corroborated", publicNote: "Checked against the cited record." }, who);

  beforeAll(async () => {
    ({ home, store } = await storeWith("4eyes-store", exampleCapsules()));
    alice = reviewer(home, "alice");
    bob = reviewer(home, "bob");
  });

  test("the policy defaults to 1, is stored signed, and an edited or foreign file is refused", () => {
    expect(readReviewPolicy(store)).toEqual({ approvals: 1 });
    writeReviewPolicy(store, { approvals: 2 });
    expect(readReviewPolicy(store)).toEqual({ approvals: 2 });
    const path = policyPath(store);
    const good = readFileSync(path, "utf8");
    expect(good).toMatch(/^\{"approvals":2,"schema_version":"evidence-bridge-review-policy\/v1","signature":"[0-9a-f]{128}"\}\n$/);
    writeFileSync(path, good.replace('"approvals":2', '"approvals":1'));
    expect(() => readReviewPolicy(store)).toThrow(/signature: does not verify with this installation's signing key/);
    writeFileSync(path, good.replace("}\n", ',"extra":1}\n'));
    expect(() => readReviewPolicy(store)).toThrow(/must have exactly the members approvals, schema_version, signature/);
    expect(caught(() => writeReviewPolicy(store, { approvals: 0 })).message).toBe("--approvals: expected an integer from 1 to 9");
    writeReviewPolicy(store, { approvals: 2 });
  });

  test("export holds a candidate only once two keys approved it, with one line per approval; a veto keeps it out", () => {
    const first = decide("01", alice);
    expect(approvalsText(first.approvals)).toBe("1 of 2 approvals");
    decide("03", alice);
    decide("03", bob, "REJECTED");
    let out = buildExport(store, testPack(), loadReviewLog(home));
    expect(out.lines).toHaveLength(0);
    expect(out.pending.map((p) => [p.capsule_sha256, approvalsText(p.approvals)])).toEqual([[exampleCapsule("01").id, "1 of 2 approvals"]]);
    const second = decide("01", bob);
    expect(approvalsText(second.approvals)).toBe("2 of 2 approvals");
    out = buildExport(store, testPack(), loadReviewLog(home));
    expect(out.exported.map((e) => [e.capsule_sha256, e.reviewer])).toEqual([
      [exampleCapsule("01").id, "alice"],
      [exampleCapsule("01").id, "bob"],
    ]);
    // As written by 'review export': the approval lines, then the signed checkpoint signed by the installation key.
    const written = Buffer.concat([...out.lines, out.checkpoint!]);
    const report = verifyExportBytes(written, { trust: new Set([alice.key.fingerprint, bob.key.fingerprint, store.keys.signing.fingerprint]) });
    expect(report.ok, JSON.stringify(report)).toBe(true);
    expect(report.lines).toHaveLength(2);
    // The same approval twice is still a duplicate.
    expect(verifyExportBytes(Buffer.concat([out.lines[0], out.lines[0]])).lines[1].problem).toBe("the same approved candidate as line 1");
    // Only registered keys count: with bob unknown the candidate is pending again.
    const onlyAlice = buildExport(store, testPack(), loadReviewLog(home), undefined, { isKnown: (fp) => fp === alice.key.fingerprint });
    expect(onlyAlice.lines).toHaveLength(0);
    expect(onlyAlice.pending).toHaveLength(1);
  });

  test("a page decision bound to a digest the candidate no longer has is refused and nothing is appended", () => {
    const before = loadReviewLog(home).records.length;
    const e = caught(() =>
      recordDecision(home, store, testPack(), { capsule_sha256: exampleCapsule("08").id, view, decision: "REJECTED", reason: "corroborated", publicNote: "n", expectedDigest: "0".repeat(64) }, alice),
    );
    expect(e.code).toBe("stale-candidate");
    expect(loadReviewLog(home).records).toHaveLength(before);
  });
});
