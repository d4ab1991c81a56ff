/**
 * What an attacker with write access to the data directory (but not the installation's keys) tried, and what now
 * catches it: an approval signed by a freshly generated key, a rewritten reviewer registry, a `review/` directory
 * rolled back to an earlier copy, and an export whose log does not extend an earlier export's log.
 */
import { cpSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { generateSigningSeed, signingKeyFromSeed } from "../../../src/crypto/sign.js";
import { bytesToHex } from "../../../src/hash.js";
import { buildExport } from "../../../capsules/review/export-lines.js";
import { writeHead } from "../../../capsules/review/head.js";
import { reviewLayout } from "../../../capsules/review/layout.js";
import { appendDecision, loadReviewLog, verifyReviewLog } from "../../../capsules/review/log.js";
import { recordBytes, signRecord, REVIEW_RECORD_SCHEMA, recordDigest } from "../../../capsules/review/record.js";
import { openReviewTarget } from "../../../capsules/review/review-target.js";
import { loadReviewerKey } from "../../../capsules/review/reviewer-key.js";
import { reestablishPosition } from "../../../capsules/review/positions.js";
import { isKnownReviewer, loadReviewerRegistry, reviewerRegistryPath } from "../../../capsules/review/reviewer-registry.js";
import { verifyExportBytes } from "../../../capsules/review/verify-export.js";
import type { SealedStore } from "../../../capsules/store/store.js";
import { StoredDerivations } from "../../../capsules/pipeline/stored.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsule, removeHomes, storeWith, testPack } from "../feed/store-fixtures.js";
import { exportFingerprints, minuteClock, reviewer } from "./review-fixtures.js";

afterAll(removeHomes);

function candidateOf(store: SealedStore, prefix: string): { id: string; digest: string } {
  const id = exampleCapsule(prefix).id;
  const r = openReviewTarget(new StoredDerivations(store, testPack()), id, { includeTypologyMatches: false, includeClean: false }).result;
  if (r.status !== "emitted") throw new Error("no candidate");
  return { id, digest: r.digest };
}

describeShared("review integrity against a writer of the data directory", () => {
  let home: string;
  let store: SealedStore;

  beforeAll(async () => {
    ({ home, store } = await storeWith("integrity", [exampleCapsule("01"), exampleCapsule("32"), exampleCapsule("34")]));
  });

  test("the registry knows the reviewer keys this store created, and nothing else", () => {
    const alice = reviewer(home, "alice");
    const reg = loadReviewerRegistry(home);
    expect(reg.present).toBe(true);
    expect(reg.reviewers).toEqual([{ fingerprint: alice.key.fingerprint, name: "alice", origin: "created" }]);
    expect(isKnownReviewer(home, alice.key.fingerprint)).toBe(true);
    expect(isKnownReviewer(home, signingKeyFromSeed(generateSigningSeed()).fingerprint)).toBe(false);
  });

  test("an approval signed by a fresh key, with the head rewritten, is named and refused everywhere", () => {
    const c = candidateOf(store, "32");
    const genuine = candidateOf(store, "34");
    appendDecision(home, { capsule_sha256: genuine.id, candidate_sha256: genuine.digest, typology_match_visible: false, decision: "NEEDS_MORE_EVIDENCE", reason: "corroborated", public_note: "more" }, loadReviewerKey(home, "alice"));
    const log = loadReviewLog(home);
    const fresh = signingKeyFromSeed(generateSigningSeed());
    const forged = signRecord(
      {
        schema_version: REVIEW_RECORD_SCHEMA,
        seq: log.records.length + 1,
        prev_sha256: log.head,
        capsule_sha256: c.id,
        candidate_sha256: c.digest,
        typology_match_visible: false,
        decision: "APPROVED_FOR_RELEASE",
        reason: "corroborated",
        private_note_sha256: null,
        public_note: "looks fine",
        reviewer: { name: "alice", fingerprint: fresh.fingerprint, public_key: bytesToHex(fresh.publicKey) },
        decided_at: "2026-09-01T10:00:00Z",
      },
      fresh,
    );
    const layout = reviewLayout(home);
    const before = readFileSync(layout.log);
    const beforeHead = readFileSync(layout.head);
    writeFileSync(layout.log, Buffer.concat([before, Buffer.from(recordBytes(forged)), Buffer.from("\n")]));
    writeHead(layout.dir, { records: forged.seq, head_sha256: recordDigest(forged) });
    const v = verifyReviewLog(home);
    expect(v.ok).toBe(false);
    expect(v.error).toBe(
      `record #${forged.seq} (line ${forged.seq}): signed by ${fresh.fingerprint} (named alice), which is not a registered reviewer of this store: a forged record, or a key never registered ('evidence-bridge keys trust FINGERPRINT --name NAME' registers a key you trust)`,
    );
    expect(() => loadReviewLog(home)).toThrow(/not a registered reviewer/);
    expect(() => buildExport(store, testPack(), v)).toThrow(/does not verify/);
    writeFileSync(layout.log, before);
    writeFileSync(layout.head, beforeHead);
  });

  test("a registry rewritten to add a key, or signed by another installation, does not verify", () => {
    const path = reviewerRegistryPath(home);
    const original = readFileSync(path, "utf8");
    const fresh = signingKeyFromSeed(generateSigningSeed());
    const doc = JSON.parse(original);
    doc.reviewers.push({ fingerprint: fresh.fingerprint, name: "mallory", origin: "trusted" });
    writeFileSync(path, JSON.stringify(doc));
    expect(() => loadReviewerRegistry(home)).toThrow(/signature does not verify|not sorted/);
    expect(verifyReviewLog(home).ok).toBe(false);
    const other = JSON.parse(original);
    other.installation_key = bytesToHex(fresh.publicKey);
    writeFileSync(path, JSON.stringify(other));
    expect(() => loadReviewerRegistry(home)).toThrow(/signed for another installation key|not strict JSON|canonical/);
    writeFileSync(path, original);
    expect(loadReviewerRegistry(home).present).toBe(true);
  });

  test("an unregistered reviewer key cannot append", () => {
    const stranger = { name: "stranger", key: signingKeyFromSeed(generateSigningSeed()) };
    const c = candidateOf(store, "34");
    expect(() => appendDecision(home, { capsule_sha256: c.id, candidate_sha256: c.digest, typology_match_visible: false, decision: "REJECTED", reason: "corroborated", public_note: "no" }, stranger)).toThrow(
      /is not registered in this store/,
    );
  });

  test("restoring an earlier copy of review/ (dropping a later rejection) is caught by the reviewer's position", () => {
    const alice = reviewer(home, "Alice Second");
    const positionFile = join(home, "keys", "reviewers", `${alice.key.fingerprint.slice("ed25519:".length)}.position`);
    const clock = minuteClock();
    const a = candidateOf(store, "01");
    appendDecision(home, { capsule_sha256: a.id, candidate_sha256: a.digest, typology_match_visible: false, decision: "NEEDS_MORE_EVIDENCE", reason: "corroborated", public_note: "wait" }, alice, { now: clock });
    const copy = join(home, "..", `${home.split("/").pop()}-review-copy`);
    cpSync(reviewLayout(home).dir, copy, { recursive: true });
    const older = buildExport(store, testPack(), loadReviewLog(home));
    appendDecision(home, { capsule_sha256: a.id, candidate_sha256: a.digest, typology_match_visible: false, decision: "REJECTED", reason: "corroborated", public_note: "no" }, alice, { now: clock });
    expect(verifyReviewLog(home).ok).toBe(true);
    const newer = buildExport(store, testPack(), loadReviewLog(home));
    rmSync(reviewLayout(home).dir, { recursive: true });
    cpSync(copy, reviewLayout(home).dir, { recursive: true });
    const v = verifyReviewLog(home);
    expect(v.ok).toBe(false);
    expect(v.error).toMatch(/^the log ends after record #\d+, but reviewer Alice Second \(ed25519:[0-9a-f]{64}\) signed record #\d+ \(keys\/reviewers\/[0-9a-f]{64}\.position\): the log was rolled back or records were removed$/);
    expect(() => appendDecision(home, { capsule_sha256: a.id, candidate_sha256: a.digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: "ok" }, alice)).toThrow(/rolled back/);

    // Exports: the newer export extends the older one; an export taken from the rolled-back log and then rewritten
    // with a different decision at the same position does not extend the newer one.
    const bytes = (o: typeof older) => Buffer.concat([...o.lines, o.checkpoint!]);
    const trust = new Set([...exportFingerprints(bytes(newer)), store.keys.signing.fingerprint]);
    expect(verifyExportBytes(bytes(newer), { trust, after: bytes(older) }).ok).toBe(true);
    const back = verifyExportBytes(bytes(older), { trust, after: bytes(newer) });
    expect(back.ok).toBe(false);
    expect(back.checkpoint.problem).toMatch(/^--after: the newer export's log has \d+ records, the older one's \d+: the log was rolled back$/);
    rmSync(reviewLayout(home).dir, { recursive: true });
    cpSync(copy, reviewLayout(home).dir, { recursive: true });
    // Deleting the position file as well no longer switches the check off (issue 29 item 4): the reviewer signed a
    // record of the restored log, so every reader refuses, naming the reviewer and the command that re-establishes it.
    rmSync(positionFile);
    const missing = verifyReviewLog(home);
    expect(missing.ok).toBe(false);
    expect(missing.error).toMatch(
      /^reviewer Alice Second \(ed25519:[0-9a-f]{64}\) signed record #\d+ of this log but has no position record \(keys\/reviewers\/[0-9a-f]{64}\.position is missing\): .* re-establish it with 'evidence-bridge review reestablish-position "Alice Second" --why interrupted-append\|file-lost\|log-restored'/,
    );
    expect(() => buildExport(store, testPack(), missing)).toThrow(/has no position record/);
    expect(() => appendDecision(home, { capsule_sha256: a.id, candidate_sha256: a.digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated" }, alice)).toThrow(/has no position record/);
    // Re-established deliberately: signed by the reviewer who did it, naming why; listed by every verification.
    const restored = missing.records.filter((e) => e.record.reviewer.fingerprint === alice.key.fingerprint).pop()!;
    reestablishPosition(join(home, "keys", "reviewers"), { entry: restored }, alice, "log-restored", "2026-09-01T12:00:00Z");
    const again = verifyReviewLog(home);
    expect(again.ok).toBe(true);
    expect(again.warnings).toContain(`the position of ${alice.key.fingerprint} was re-established at record #${restored.record.seq} by Alice Second (${alice.key.fingerprint}) at 2026-09-01T12:00:00Z: log-restored`);
    appendDecision(home, { capsule_sha256: a.id, candidate_sha256: a.digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: "ok now" }, alice, { now: clock });
    const forked = buildExport(store, testPack(), loadReviewLog(home));
    const f = verifyExportBytes(bytes(forked), { trust, after: bytes(newer) });
    expect(f.ok).toBe(false);
    expect(f.checkpoint.problem).toMatch(/^--after: record #\d+ differs between the two exports' logs: the log was rolled back and rewritten, or forked$/);
    rmSync(copy, { recursive: true });
  });
});
