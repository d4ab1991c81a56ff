/**
 * The review queue and the export over a real sealed store: statuses follow the log, a changed candidate is back
 * to review, and the export writes exactly the approved bytes with their signed decisions, refusing (and naming)
 * an approval whose candidate changed, a capsule that is gone, a note that leaks, or a log that does not verify.
 */
import { unlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { sha256Hex } from "../../../src/hash.js";
import type { SealedStore } from "../../../capsules/store/store.js";
import type { Decision } from "../../../capsules/review/decisions.js";
import { ReviewError } from "../../../capsules/review/errors.js";
import { buildExport } from "../../../capsules/review/export-lines.js";
import { appendDecision, loadReviewLog, verifyReviewLog } from "../../../capsules/review/log.js";
import { queueEntry, reviewQueue } from "../../../capsules/review/queue.js";
import { guardOutward, openReviewTarget } from "../../../capsules/review/review-target.js";
import type { ReviewerKeyFile } from "../../../capsules/review/reviewer-key.js";
import { verifyExportBytes } from "../../../capsules/review/verify-export.js";
import { StoredDerivations } from "../../../capsules/pipeline/stored.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsule, exampleCapsules, removeHomes, storeWith, testPack } from "../feed/store-fixtures.js";
import { exportFingerprints, logLines, minuteClock, reviewer, writeLogLines } from "./review-fixtures.js";

afterAll(removeHomes);

const DEFAULT_VIEW = { includeTypologyMatches: false, includeClean: false };

describeShared("review queue and export", () => {
  let home: string;
  let store: SealedStore;
  let alice: ReviewerKeyFile;
  const now = minuteClock();

  /** Decides the current candidate of `prefix` (derived in `view`) the way the CLI does. */
  function decide(prefix: string, decision: Decision, view = DEFAULT_VIEW, note = "checked against the cited record"): string {
    const id = exampleCapsule(prefix).id;
    const r = openReviewTarget(new StoredDerivations(store, testPack()), id, view).result;
    if (r.status !== "emitted") throw new Error(`no candidate for ${prefix}`);
    appendDecision(home, { capsule_sha256: id, candidate_sha256: r.digest, typology_match_visible: view.includeTypologyMatches, decision, reason: "corroborated", public_note: note }, alice, { now });
    return r.digest;
  }

  function statuses(view = DEFAULT_VIEW): Record<string, string> {
    const q = reviewQueue(new StoredDerivations(store, testPack()), loadReviewLog(home).state, view);
    return Object.fromEntries(q.entries.map((e) => [exampleCapsules().find((c) => c.id === e.capsule_sha256)?.name.slice(0, 2) ?? e.capsule_sha256, e.status]));
  }

  beforeAll(async () => {
    ({ home, store } = await storeWith("queue", exampleCapsules()));
    alice = reviewer(home);
  });

  test("the queue starts with every candidate awaiting review; CLEAN only with --include-clean", () => {
    const q = reviewQueue(new StoredDerivations(store, testPack()), loadReviewLog(home).state, DEFAULT_VIEW);
    expect(q.entries).toHaveLength(9);
    expect(q.excludedClean).toBe(1);
    expect(q.entries.every((e) => e.status === "HUMAN_REVIEW_REQUIRED" && e.decision === undefined)).toBe(true);
    const keys = q.entries.map((e) => `${e.candidate.created_at} ${e.capsule_sha256}`);
    expect(keys).toEqual([...keys].sort());
    expect(reviewQueue(new StoredDerivations(store, testPack()), loadReviewLog(home).state, { ...DEFAULT_VIEW, includeClean: true }).entries).toHaveLength(10);
  });

  test("decisions show in the queue; a decision in the analyst view covers that view's bytes", () => {
    decide("01", "APPROVED_FOR_RELEASE");
    decide("03", "REJECTED");
    decide("05", "NEEDS_MORE_EVIDENCE");
    decide("34", "APPROVED_FOR_RELEASE", { includeTypologyMatches: true, includeClean: false });
    decide("22", "APPROVED_FOR_RELEASE", { includeTypologyMatches: false, includeClean: true });
    const s = statuses();
    expect(s).toMatchObject({
      "01": "APPROVED_FOR_RELEASE",
      "03": "REJECTED",
      "05": "NEEDS_MORE_EVIDENCE",
      "34": "APPROVED_FOR_RELEASE",
      "22": "APPROVED_FOR_RELEASE",
      "08": "HUMAN_REVIEW_REQUIRED",
    });
    const e34 = queueEntry(new StoredDerivations(store, testPack()), loadReviewLog(home).state, exampleCapsule("34").id, DEFAULT_VIEW);
    expect(e34.status === "entry" && e34.entry.candidate.feed_policy.typology_match_visible).toBe(true);
  });

  test("a deferred candidate returns to the queue and can then be approved", () => {
    decide("05", "APPROVED_FOR_RELEASE");
    expect(statuses()["05"]).toBe("APPROVED_FOR_RELEASE");
  });

  test("the export holds exactly the approved candidates (latest decision per capsule) with their signed records", () => {
    const log = loadReviewLog(home);
    const out = buildExport(store, testPack(), log);
    expect(out.exported.map((x) => exampleCapsules().find((c) => c.id === x.capsule_sha256)!.name.slice(0, 2))).toEqual(["01", "34", "22", "05"]);
    const bytes = Buffer.concat([...out.lines, out.checkpoint!]);
    const report = verifyExportBytes(bytes, { trust: exportFingerprints(bytes) });
    expect(report.ok).toBe(true);
    expect(verifyExportBytes(bytes).ok).toBe(false);
    expect(report.lines).toHaveLength(4);
    for (const [i, line] of out.lines.entries()) {
      const doc = JSON.parse(Buffer.from(line).toString("utf8")) as { candidate: unknown; decision: { candidate_sha256: string; seq: number } };
      expect(sha256Hex(canonicalBytes(doc.candidate, "candidate"))).toBe(doc.decision.candidate_sha256);
      expect(doc.decision.seq).toBe(out.exported[i].seq);
      expect(Buffer.from(line).toString("utf8")).toBe(`${new TextDecoder().decode(canonicalBytes(doc, "x"))}\n`);
    }
  });

  test("a candidate whose bytes changed after approval is back to review and refuses the export, naming the capsule", () => {
    const id = exampleCapsule("08").id;
    appendDecision(
      home,
      { capsule_sha256: id, candidate_sha256: sha256Hex("the candidate as it was under an older pack"), typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: "ok" },
      alice,
      { now },
    );
    const e = queueEntry(new StoredDerivations(store, testPack()), loadReviewLog(home).state, id, DEFAULT_VIEW);
    expect(e.status === "entry" && e.entry.status).toBe("HUMAN_REVIEW_REQUIRED");
    expect(e.status === "entry" && e.entry.superseded?.record.decision).toBe("APPROVED_FOR_RELEASE");
    let error: unknown;
    try {
      buildExport(store, testPack(), loadReviewLog(home));
    } catch (x) {
      error = x;
    }
    expect(error).toBeInstanceOf(ReviewError);
    expect((error as ReviewError).code).toBe("export-refused");
    expect((error as ReviewError).message).toMatch(
      new RegExp(`^refused 1 of 5 approved candidates, nothing was exported: capsule ${id} \\(approved in record #\\d+\\): the re-derived candidate [0-9a-f]{12} differs from the approved digest [0-9a-f]{12} \\(the capsule, the pack or the rules changed after review\\): review it again$`),
    );
    // Reviewing the current bytes again supersedes the stale approval.
    decide("08", "REJECTED");
    expect(buildExport(store, testPack(), loadReviewLog(home)).exported).toHaveLength(4);
  });

  test("the leak guard catches a note carrying a private value of that capsule, case-insensitively and across separators", () => {
    const c03 = openReviewTarget(new StoredDerivations(store, testPack()), exampleCapsule("03").id, DEFAULT_VIEW);
    expect(guardOutward(c03, "checked the cited record, fine", "the note")).toBeUndefined();
    expect(guardOutward(c03, "seller is @USDT_KITCHEN_SINK", "the note")).toBe("leak guard: ioc_value in the note");
    expect(guardOutward(c03, "call +91 98765-01234", "the note")).toBe("leak guard: ioc_value in the note");
    expect(guardOutward(c03, "hash 6c18f5cf1a92f917", "the note")).toBe("leak guard: message_sha256 in the note");
    // A value of another capsule is not this capsule's secret.
    const c36 = openReviewTarget(new StoredDerivations(store, testPack()), exampleCapsule("36").id, DEFAULT_VIEW);
    expect(guardOutward(c36, "seller is @usdt_kitchen_sink", "the note")).toBeUndefined();
  });

  test("through the capsule's probe, a clean note is checked against none of its values and a leaking one against those it may hold", () => {
    const derivations = new StoredDerivations(store, testPack());
    const c03 = openReviewTarget(derivations, exampleCapsule("03").id, DEFAULT_VIEW);
    const all = derivations.values(exampleCapsule("03").id).privateValues!;
    expect(all.length).toBeGreaterThan(5);
    expect(c03.secretsFor("checked the cited record, fine")!.size).toBe(0);
    const leaking = c03.secretsFor("seller is usdt kitchen sink");
    expect(leaking!.size).toBeGreaterThan(0);
    expect(leaking!.size).toBeLessThan(all.length);
    expect(leaking!.checkText("seller is usdt kitchen sink")).toEqual({ kind: "ioc_value" });
    // Strings the check exempts are not looked at either: the exempt hash alone narrows to nothing.
    const hash = all.find((v) => v.kind === "message_sha256")!.value;
    expect(c03.secretsFor({ a: hash }, { isPublic: (s) => s === hash })!.size).toBe(0);
    expect(c03.secretsFor({ a: hash })!.size).toBeGreaterThan(0);
  });

  test("an approval whose note leaks a value refuses the export; so does a capsule missing from the store", async () => {
    const local = await storeWith("export", [exampleCapsule("03"), exampleCapsule("01")]);
    const bob = reviewer(local.home, "bob");
    const c03 = openReviewTarget(new StoredDerivations(local.store, testPack()), exampleCapsule("03").id, DEFAULT_VIEW).result;
    if (c03.status !== "emitted") throw new Error("no candidate");
    appendDecision(
      local.home,
      { capsule_sha256: exampleCapsule("03").id, candidate_sha256: c03.digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: "wallet TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3 seen before" },
      bob,
    );
    expect(() => buildExport(local.store, testPack(), loadReviewLog(local.home))).toThrow(
      `refused 1 of 1 approved candidate, nothing was exported: capsule ${exampleCapsule("03").id} (approved in record #1): leak guard: ioc_value in export.decision.public_note`,
    );
    const c01 = openReviewTarget(new StoredDerivations(local.store, testPack()), exampleCapsule("01").id, { includeTypologyMatches: false, includeClean: false }).result;
    if (c01.status !== "emitted") throw new Error("no candidate");
    appendDecision(local.home, { capsule_sha256: exampleCapsule("01").id, candidate_sha256: c01.digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: "ok" }, bob);
    unlinkSync(join(local.store.layout.capsules, `${exampleCapsule("01").id}.sealed`));
    expect(() => buildExport(local.store, testPack(), loadReviewLog(local.home))).toThrow(
      new RegExp(`refused 2 of 2 approved candidates.*capsule ${exampleCapsule("01").id} \\(approved in record #2\\): the capsule is no longer in the store`),
    );
  });

  test("with several approvals, the decision that leaks its own capsule's value refuses the export, and only it is named", async () => {
    const local = await storeWith("export-several", [exampleCapsule("03"), exampleCapsule("01")]);
    const derivations = new StoredDerivations(local.store, testPack());
    const dana = reviewer(local.home, "dana");
    const approve = (prefix: string, note: string) => {
      const r = openReviewTarget(derivations, exampleCapsule(prefix).id, DEFAULT_VIEW).result;
      if (r.status !== "emitted") throw new Error("no candidate");
      appendDecision(local.home, { capsule_sha256: exampleCapsule(prefix).id, candidate_sha256: r.digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: note }, dana);
    };
    approve("01", "checked the rates");
    expect(buildExport(local.store, testPack(), loadReviewLog(local.home)).exported).toHaveLength(1);
    approve("03", "wallet TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3 seen before");
    expect(() => buildExport(local.store, testPack(), loadReviewLog(local.home))).toThrow(
      `refused 1 of 2 approved candidates, nothing was exported: capsule ${exampleCapsule("03").id} (approved in record #2): leak guard: ioc_value in export.decision.public_note`,
    );
  });

  test("a refused line names the capsule's latest decision, also when that decision is not a counted approval", async () => {
    const local = await storeWith("export-latest", [exampleCapsule("03")]);
    const r = openReviewTarget(new StoredDerivations(local.store, testPack()), exampleCapsule("03").id, DEFAULT_VIEW).result;
    if (r.status !== "emitted") throw new Error("no candidate");
    const erin = reviewer(local.home, "erin");
    const frank = reviewer(local.home, "frank");
    // While the log is written only Frank's key counts, so Erin's approval (record #1) leaves room for his (#2).
    const approve = (key: ReviewerKeyFile, note: string) =>
      appendDecision(
        local.home,
        { capsule_sha256: exampleCapsule("03").id, candidate_sha256: r.digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: note },
        key,
        { isKnown: (f) => f === frank.key.fingerprint },
      );
    approve(erin, "wallet TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3 seen before");
    approve(frank, "ok");
    // The export counts only Erin's key: her approval (whose note leaks) is exported, Frank's latest record is not.
    expect(() => buildExport(local.store, testPack(), loadReviewLog(local.home), undefined, { isKnown: (f) => f === erin.key.fingerprint })).toThrow(
      `refused 1 of 1 approved candidate, nothing was exported: capsule ${exampleCapsule("03").id} (approved in record #2): leak guard: ioc_value in export.decision.public_note`,
    );
  });

  test("an export is refused when a decision's note or reviewer name carries a private value of ANOTHER stored capsule", async () => {
    const local = await storeWith("export-wide", [exampleCapsule("03"), exampleCapsule("01")]);
    const id01 = exampleCapsule("01").id;
    const t01 = openReviewTarget(new StoredDerivations(local.store, testPack()), id01, DEFAULT_VIEW);
    if (t01.result.status !== "emitted") throw new Error("no candidate");
    const digest = t01.result.digest;
    // A handle of capsule 03, written without "@" and in upper case: not capsule 01's value, so its own guard passes.
    const note = "same desk as USDT_KITCHEN_SINK";
    expect(guardOutward(t01, note, "the note")).toBeUndefined();
    appendDecision(local.home, { capsule_sha256: id01, candidate_sha256: digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: note }, reviewer(local.home, "carol"));
    expect(() => buildExport(local.store, testPack(), loadReviewLog(local.home))).toThrow(
      `refused 1 of 1 approved candidate, nothing was exported: capsule ${id01} (approved in record #1): leak guard: ioc_value in export.decision.public_note`,
    );
    // The same through the reviewer's name, with a clean note.
    const other = await storeWith("export-wide-name", [exampleCapsule("03"), exampleCapsule("01")]);
    appendDecision(other.home, { capsule_sha256: id01, candidate_sha256: digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: "ok" }, reviewer(other.home, "Usdt Kitchen Sink"));
    expect(() => buildExport(other.store, testPack(), loadReviewLog(other.home))).toThrow(
      `refused 1 of 1 approved candidate, nothing was exported: capsule ${id01} (approved in record #1): leak guard: ioc_value in export.decision.reviewer.name`,
    );
    // A clean note and name export.
    const clean = await storeWith("export-wide-clean", [exampleCapsule("03"), exampleCapsule("01")]);
    appendDecision(clean.home, { capsule_sha256: id01, candidate_sha256: digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: "checked the rates" }, reviewer(clean.home, "carol"));
    expect(buildExport(clean.store, testPack(), loadReviewLog(clean.home)).exported).toHaveLength(1);
  });

  test("an export over a log that does not verify (a bad signature) is refused", () => {
    const lines = logLines(home);
    lines[0] = lines[0].replace(/"signature":"(.)/, (_m, c: string) => `"signature":"${c === "0" ? "1" : "0"}`);
    writeLogLines(home, lines);
    const v = verifyReviewLog(home);
    expect(v.ok).toBe(false);
    expect(() => buildExport(store, testPack(), v)).toThrow(/does not verify: record #1 \(line 1\): the signature does not verify.*nothing was exported$/);
  });
});
