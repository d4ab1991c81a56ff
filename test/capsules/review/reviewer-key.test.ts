/** Reviewer keys: created 0600 under keys/reviewers, never replaced, exposed files refused, chosen by name. */
import { chmodSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { KeyError } from "../../../src/crypto/errors.js";
import { ReviewError } from "../../../capsules/review/errors.js";
import { createReviewerKey, loadReviewerKey, reviewerKeysDir, reviewerNames, selectReviewerKey } from "../../../capsules/review/reviewer-key.js";
import { removeHomes, tempHome } from "../feed/store-fixtures.js";

afterAll(removeHomes);

describe("reviewer keys", () => {
  test("creation writes a typed 0600 key file in a 0700 directory and loads back the same key", () => {
    const home = join(tempHome("rk"), "fresh-home");
    const k = createReviewerKey(home, "alice");
    expect(k.path).toBe(join(reviewerKeysDir(home), "alice.key"));
    expect(statSync(k.path).mode & 0o777).toBe(0o600);
    expect(statSync(reviewerKeysDir(home)).mode & 0o777).toBe(0o700);
    expect(readFileSync(k.path, "utf8")).toMatch(/^evidence-bridge reviewer-key v1\n[0-9a-f]{64}\n$/);
    expect(k.key.fingerprint).toMatch(/^ed25519:[0-9a-f]{64}$/);
    expect(loadReviewerKey(home, "alice").key.fingerprint).toBe(k.key.fingerprint);
  });

  test("an existing key is never replaced", () => {
    const home = tempHome("rk");
    const k = createReviewerKey(home, "alice");
    expect(() => createReviewerKey(home, "alice")).toThrow(new KeyError("exists", `a reviewer key for alice already exists (${k.path}); refusing to replace it`));
    expect(loadReviewerKey(home, "alice").key.fingerprint).toBe(k.key.fingerprint);
  });

  test("a key file readable by others is refused with the chmod that fixes it", () => {
    const home = tempHome("rk");
    const k = createReviewerKey(home, "alice");
    chmodSync(k.path, 0o644);
    expect(() => loadReviewerKey(home, "alice")).toThrow(`fix it with: chmod 600 ${k.path}`);
  });

  test("names are checked before any file is touched", () => {
    const home = tempHome("rk");
    for (const bad of ["../evil", "a b", "", ".hidden"]) {
      expect(() => createReviewerKey(home, bad)).toThrow(ReviewError);
    }
    expect(reviewerNames(home)).toEqual([]);
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
    expect(() => selectReviewerKey(home, "carol")).toThrow(/^no reviewer key for carol \(.*carol\.key\): create one with 'evidence-bridge keys init --reviewer carol'$/);
  });
});
