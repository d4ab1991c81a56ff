/**
 * Old review logs keep verifying (issue 28 items 3–4; docs/review.md "Migration"): a store written before v2 records,
 * with a reviewer registered under a name of the older rule, a key file and a position file named by that name, and
 * v1 records (plaintext note, no reason). It verifies as it is; the key file is renamed to its fingerprint on first
 * use; the old name cannot sign a new decision until `keys trust FINGERPRINT --name NEW` renames it; new records are
 * v2 and chain after the v1 ones.
 */
import { existsSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { bytesToHex, sha256Hex } from "../../../src/hash.js";
import { createKeyFile } from "../../../src/crypto/key-files.js";
import { loadOrCreateKeyFileKeysSync } from "../../../src/crypto/keys.js";
import { ensurePrivateDir } from "../../../src/crypto/safe-write.js";
import { generateSigningSeed, signingKeyFromSeed } from "../../../src/crypto/sign.js";
import { writeHead } from "../../../capsules/review/head.js";
import { reviewLayout } from "../../../capsules/review/layout.js";
import { appendDecision, verifyReviewLog } from "../../../capsules/review/log.js";
import { positionFileName, writePosition } from "../../../capsules/review/positions.js";
import { GENESIS_PREV, publicNoteOf, recordBytes, recordDigest, REVIEW_RECORD_SCHEMA, REVIEW_RECORD_SCHEMA_V1, signLegacyRecordForTests } from "../../../capsules/review/record.js";
import { REGISTRY_DOMAIN, REVIEWER_REGISTRY_FORMAT, registerReviewer, loadReviewerRegistry } from "../../../capsules/review/reviewer-registry.js";
import { REVIEWER_KEY_TYPE, reviewerKeyFileName, reviewerKeysDir, selectReviewerKey } from "../../../capsules/review/reviewer-key.js";
import { removeHomes, tempHome } from "../feed/store-fixtures.js";
import { draft } from "./review-fixtures.js";

afterAll(removeHomes);

describe("a review log from before v2 records and the name rule", () => {
  test("verifies, migrates its key files, refuses the old name for new decisions until renamed, and continues with v2", () => {
    const home = tempHome("migrate");
    const installation = loadOrCreateKeyFileKeysSync(home, { allowCreate: true });
    const seed = generateSigningSeed();
    const key = signingKeyFromSeed(seed);
    const dir = reviewerKeysDir(home);
    ensurePrivateDir(dir);
    // The old layout: keys/reviewers/alice_1.key, a registry entry "alice_1" (signed as the old code signed it).
    expect(createKeyFile(dir, "alice_1.key", REVIEWER_KEY_TYPE, seed)).toBe(true);
    const reviewers = [{ fingerprint: key.fingerprint, name: "alice_1", origin: "created" }];
    const installationKey = bytesToHex(installation.signing.publicKey);
    const body = canonicalBytes({ format: REVIEWER_REGISTRY_FORMAT, installation_key: installationKey, reviewers }, "registry");
    const signature = bytesToHex(installation.signing.sign(new Uint8Array([...new TextEncoder().encode(REGISTRY_DOMAIN), ...body])));
    writeFileSync(join(home, "keys", "reviewers.json"), new Uint8Array([...canonicalBytes({ format: REVIEWER_REGISTRY_FORMAT, installation_key: installationKey, reviewers, signature }, "registry"), 0x0a]));
    expect(loadReviewerRegistry(home).byName("alice_1")?.fingerprint).toBe(key.fingerprint);
    // Two v1 records, the head file, and alice_1's position named by her name.
    const layout = reviewLayout(home);
    ensurePrivateDir(layout.dir);
    let prev = GENESIS_PREV;
    const lines: string[] = [];
    for (const [seq, decision] of [[1, "NEEDS_MORE_EVIDENCE"], [2, "APPROVED_FOR_RELEASE"]] as const) {
      const r = signLegacyRecordForTests(
        {
          schema_version: REVIEW_RECORD_SCHEMA_V1,
          seq,
          prev_sha256: prev,
          capsule_sha256: sha256Hex("capsule 1"),
          candidate_sha256: sha256Hex("candidate 1"),
          typology_match_visible: false,
          decision,
          note: `v1 note ${seq}`,
          reviewer: { name: "alice_1", fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey) },
          decided_at: `2026-09-01T10:0${seq}:00Z`,
        },
        key,
      );
      lines.push(`${new TextDecoder().decode(recordBytes(r))}\n`);
      prev = recordDigest(r);
      if (seq === 2) {
        writePosition(dir, key, { record: r, digest: prev, line: seq });
        renameSync(join(dir, positionFileName(key.fingerprint)), join(dir, "alice_1.position"));
      }
    }
    writeFileSync(layout.log, lines.join(""));
    writeHead(layout.dir, { records: 2, head_sha256: prev });

    // Old logs keep verifying, including against the name-named position file.
    const v = verifyReviewLog(home);
    expect([v.ok, v.error]).toEqual([true, undefined]);
    expect(v.records.map((e) => [e.record.schema_version, publicNoteOf(e.record)])).toEqual([
      [REVIEW_RECORD_SCHEMA_V1, "v1 note 1"],
      [REVIEW_RECORD_SCHEMA_V1, "v1 note 2"],
    ]);
    // ...and a rollback is still caught through it.
    writeFileSync(layout.log, lines[0]);
    writeHead(layout.dir, { records: 1, head_sha256: recordDigest(v.records[0].record) });
    expect(verifyReviewLog(home).error).toMatch(/^the log ends after record #1, but reviewer alice_1 .* signed record #2 \(keys\/reviewers\/alice_1\.position\)/);
    writeFileSync(layout.log, lines.join(""));
    writeHead(layout.dir, { records: 2, head_sha256: prev });

    // First use renames the key file to its fingerprint; the old name cannot sign a v2 record.
    const alice = selectReviewerKey(home, "alice_1");
    expect(existsSync(join(dir, "alice_1.key"))).toBe(false);
    expect(existsSync(join(dir, reviewerKeyFileName(key.fingerprint)))).toBe(true);
    expect(() => appendDecision(home, draft(2), alice)).toThrow(/^reviewer name: contains a character other than letters/);
    // Renamed with keys trust (the registry keeps the origin), the key decides again; the new record is v2.
    expect(registerReviewer(home, installation, { fingerprint: key.fingerprint, name: "Alice One", origin: "trusted" })).toEqual({ fingerprint: key.fingerprint, name: "Alice One", origin: "created" });
    expect(() => registerReviewer(home, installation, { fingerprint: key.fingerprint, name: "Alice Two", origin: "trusted" })).toThrow(/already registered as Alice One/);
    // Registration checks the name rule too (keys trust, keys init): no digits, addresses or paths.
    const stranger = signingKeyFromSeed(generateSigningSeed()).fingerprint;
    for (const bad of ["bob2", "bob@example.org", "x/y", "a:b"]) {
      expect(() => registerReviewer(home, installation, { fingerprint: stranger, name: bad, origin: "trusted" })).toThrow(/^reviewer name: /);
    }
    expect(loadReviewerRegistry(home).isKnown(stranger)).toBe(false);
    const renamed = selectReviewerKey(home, "Alice One");
    const e = appendDecision(home, draft(2), renamed);
    expect(e.record.schema_version).toBe(REVIEW_RECORD_SCHEMA);
    expect(e.record.prev_sha256).toBe(prev);
    const after = verifyReviewLog(home);
    expect([after.ok, after.records.length]).toEqual([true, 3]);
    // The position is now named by the fingerprint; the name-named one is gone.
    expect(readdirSync(dir).filter((f) => f.endsWith(".position"))).toEqual([positionFileName(key.fingerprint)]);
  });
});
