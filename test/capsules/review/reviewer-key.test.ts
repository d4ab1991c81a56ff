/**
 * Reviewer keys: created 0600 under keys/reviewers, named by fingerprint (never by the reviewer's name), never
 * replaced, exposed files refused, chosen by the registered name; name-named key files of older stores migrate.
 */
import { chmodSync, existsSync, readdirSync, readFileSync, renameSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { KeyError } from "../../../src/crypto/errors.js";
import { ReviewError } from "../../../capsules/review/errors.js";
import {
  createReviewerKey,
  loadReviewerKey,
  migrateReviewerKeyFiles,
  reviewerKeyFileName,
  reviewerKeysDir,
  reviewerNames,
  selectReviewerKey,
} from "../../../capsules/review/reviewer-key.js";
import { loadReviewerRegistry } from "../../../capsules/review/reviewer-registry.js";
import { removeHomes, tempHome } from "../feed/store-fixtures.js";

afterAll(removeHomes);

describe("reviewer keys", () => {
  test("creation writes a typed 0600 key file named by its fingerprint in a 0700 directory and loads back the same key", () => {
    const home = join(tempHome("rk"), "fresh-home");
    const k = createReviewerKey(home, "Anne-Marie O'Neil");
    expect(k.path).toBe(join(reviewerKeysDir(home), `${k.key.fingerprint.slice("ed25519:".length)}.key`));
    expect(reviewerKeyFileName(k.key.fingerprint)).toMatch(/^[0-9a-f]{64}\.key$/);
    expect(readdirSync(reviewerKeysDir(home)).join(" ")).not.toContain("Anne");
    expect(statSync(k.path).mode & 0o777).toBe(0o600);
    expect(statSync(reviewerKeysDir(home)).mode & 0o777).toBe(0o700);
    expect(readFileSync(k.path, "utf8")).toMatch(/^evidence-bridge reviewer-key v1\n[0-9a-f]{64}\n$/);
    expect(k.key.fingerprint).toMatch(/^ed25519:[0-9a-f]{64}$/);
    expect(loadReviewerKey(home, "Anne-Marie O'Neil").key.fingerprint).toBe(k.key.fingerprint);
    expect(loadReviewerRegistry(home).get(k.key.fingerprint)?.name).toBe("Anne-Marie O'Neil");
  });

  test("a registered name is never given a second key", () => {
    const home = tempHome("rk");
    const k = createReviewerKey(home, "alice");
    expect(() => createReviewerKey(home, "alice")).toThrow(
      new KeyError("exists", `a reviewer named alice is already registered (key ${k.key.fingerprint}); refusing to create another`),
    );
    expect(loadReviewerKey(home, "alice").key.fingerprint).toBe(k.key.fingerprint);
    expect(readdirSync(reviewerKeysDir(home)).filter((f) => f.endsWith(".key"))).toHaveLength(1);
  });

  test("a key file readable by others is refused with the chmod that fixes it", () => {
    const home = tempHome("rk");
    const k = createReviewerKey(home, "alice");
    chmodSync(k.path, 0o644);
    expect(() => loadReviewerKey(home, "alice")).toThrow(`fix it with: chmod 600 ${k.path}`);
  });

  test("names are names: checked before any file is touched (issue 28 item 4)", () => {
    const home = tempHome("rk");
    for (const bad of ["../evil", "a/b", "", ".hidden", "alice2", "bob@example.org", "x:y", "alice_b", "+91 98765 01234"]) {
      expect(() => createReviewerKey(home, bad)).toThrow(ReviewError);
    }
    expect(existsSync(reviewerKeysDir(home))).toBe(false);
    expect(reviewerNames(home)).toEqual([]);
    // A name typed in decomposed form is taken in NFC.
    expect(createReviewerKey(home, "Zoe\u0308").name).toBe("Zo\u00eb");
  });

  test("selection: the named key, the only key, or a precise error", () => {
    const home = tempHome("rk");
    expect(() => selectReviewerKey(home, undefined)).toThrow("no reviewer key: create one with 'evidence-bridge keys init --reviewer NAME'");
    createReviewerKey(home, "bob");
    expect(selectReviewerKey(home, undefined).name).toBe("bob");
    createReviewerKey(home, "alice");
    expect(reviewerNames(home)).toEqual(["alice", "bob"]);
    expect(() => selectReviewerKey(home, undefined)).toThrow("several reviewer keys (alice, bob): choose one with --reviewer NAME");
    expect(selectReviewerKey(home, "alice").name).toBe("alice");
    expect(() => selectReviewerKey(home, "carol")).toThrow(/^no registered reviewer named carol: create a key with 'evidence-bridge keys init --reviewer NAME'/);
  });

  test("key files of older stores, named by the reviewer's name, are renamed to their fingerprint on first use", () => {
    const home = tempHome("rk");
    const k = createReviewerKey(home, "alice");
    const legacy = join(reviewerKeysDir(home), "alice.key");
    renameSync(k.path, legacy);
    expect(existsSync(k.path)).toBe(false);
    expect(selectReviewerKey(home, "alice").key.fingerprint).toBe(k.key.fingerprint);
    expect(existsSync(legacy)).toBe(false);
    expect(existsSync(k.path)).toBe(true);
    expect(statSync(k.path).mode & 0o777).toBe(0o600);
    migrateReviewerKeyFiles(home);
    expect(readdirSync(reviewerKeysDir(home)).filter((f) => f.endsWith(".key"))).toEqual([reviewerKeyFileName(k.key.fingerprint)]);
  });
});
