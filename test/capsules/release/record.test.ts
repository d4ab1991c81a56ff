/**
 * Release records name their reviewer as registered (issue 32 item 2 with issue 28 item 4): a key registered under a
 * name from before the reviewer-name rule (`A-Z a-z 0-9 . _ -`) may still release, so a record with such a name reads
 * and verifies; a name under the rule reads too; anything else is refused naming `reviewer.name`. The reason is a
 * code of the one review reason list (capsules/review/text-rules.ts).
 */
import { describe, expect, test } from "vitest";
import { bytesToHex } from "../../../src/hash.js";
import { generateSigningSeed, signingKeyFromSeed } from "../../../src/crypto/sign.js";
import { RELEASE_RECORD_SCHEMA, releaseBytes, releaseCommitment, releaseFromBytes, releaseSignatureProblem, signRelease, type UnsignedRelease } from "../../../capsules/release/record.js";
import { REVIEW_REASONS } from "../../../capsules/review/text-rules.js";

const key = signingKeyFromSeed(generateSigningSeed());

function record(name: string, reason = "corroborated"): Uint8Array {
  const unsigned = {
    schema_version: RELEASE_RECORD_SCHEMA,
    capsule_sha256: "a".repeat(64),
    candidate_sha256: "b".repeat(64),
    kind: "wallets",
    index: 0,
    commitment: releaseCommitment("c".repeat(64), "wallets", "0x52908400098527886E0F7030069857D2E4169EE7"),
    reason,
    reviewer: { name, fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey) },
    decided_at: "2026-11-28T20:00:00Z",
  } as UnsignedRelease;
  return releaseBytes(signRelease(unsigned, key));
}

describe("release record reviewer names and reasons", () => {
  test("an older-style registered name and a name under the rule both read and verify", () => {
    for (const name of ["alice_1", "bob.smith-2", "Zoë O'Brien", "Alice Example"]) {
      const r = releaseFromBytes(record(name));
      expect([name, r.reviewer.name, releaseSignatureProblem(r)]).toEqual([name, name, undefined]);
    }
  });

  test("a name under neither rule is refused naming reviewer.name", () => {
    for (const name of ["alice@example.org", "+44 20 7946 0958", "", " Alice", "a".repeat(65), "_alice"]) {
      expect(() => releaseFromBytes(record(name)), name).toThrow(/^release\.reviewer\.name: /);
    }
  });

  test("every review reason code is accepted, and only those", () => {
    for (const reason of REVIEW_REASONS) expect(releaseFromBytes(record("alice", reason)).reason).toBe(reason);
    expect(() => releaseFromBytes(record("alice", "because"))).toThrow(/^release\.reason: expected one of corroborated, duplicate, insufficient-evidence, out-of-scope, false-positive, policy$/);
  });
});
