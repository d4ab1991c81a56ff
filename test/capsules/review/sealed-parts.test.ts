/**
 * Units of issue 28 item 3 and issue 29 item 4 that need no store of capsules: sealed private notes (the salted
 * digest, the seal, tampering), the export checkpoint (v2 with vetoes; v1 of older exports still read), and the
 * enrolment positions of new reviewer keys.
 */
import { readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { bytesToHex, sha256Hex } from "../../../src/hash.js";
import { storeKey } from "../../../src/crypto/seal.js";
import { generateSigningSeed, signingKeyFromSeed } from "../../../src/crypto/sign.js";
import { checkpointLine, extensionProblem, readCheckpoint, type Checkpoint } from "../../../capsules/review/checkpoint.js";
import { vetoesOf } from "../../../capsules/review/export-lines.js";
import { appendDecision, verifyReviewLog } from "../../../capsules/review/log.js";
import { openPrivateNote, privateNoteDigest, privateNotesDir, sealPrivateNote } from "../../../capsules/review/private-notes.js";
import { positionFileName } from "../../../capsules/review/positions.js";
import { reviewerKeysDir } from "../../../capsules/review/reviewer-key.js";
import { removeHomes, tempHome } from "../feed/store-fixtures.js";
import { draft, minuteClock, reviewer } from "./review-fixtures.js";

afterAll(removeHomes);

describe("sealed private notes", () => {
  const key = storeKey(new Uint8Array(32).fill(7));
  const other = storeKey(new Uint8Array(32).fill(8));

  test("the digest is salted: the same note gives another digest each time, and reveals nothing without the salt", () => {
    const home = tempHome("notes");
    const a = sealPrivateNote(home, key, "the same note");
    const b = sealPrivateNote(home, key, "the same note");
    expect(a).not.toBe(b);
    expect(a).not.toBe(sha256Hex("the same note"));
    expect(privateNoteDigest(new Uint8Array(32), "x")).toBe(privateNoteDigest(new Uint8Array(32), "x"));
    expect(privateNoteDigest(new Uint8Array(32), "x")).not.toBe(privateNoteDigest(new Uint8Array(32).fill(1), "x"));
    expect(openPrivateNote(home, key, a)).toEqual({ note: "the same note" });
    // On disk: sealed files only, named by the digest, no trace of the text.
    const files = readdirSync(privateNotesDir(home)).sort();
    expect(files).toEqual([`${a}.sealed`, `${b}.sealed`].sort());
    for (const f of files) expect(readFileSync(join(privateNotesDir(home), f)).includes(Buffer.from("same note"))).toBe(false);
  });

  test("a wrong key, a file moved to another digest, a damaged or missing file each give a problem, never text", () => {
    const home = tempHome("notes-bad");
    const a = sealPrivateNote(home, key, "first secret");
    const b = sealPrivateNote(home, key, "second secret");
    expect(openPrivateNote(home, other, a)).toEqual({ problem: expect.stringMatching(/failed authentication/) });
    const dir = privateNotesDir(home);
    // Swap the two files: each is authenticated under its own name.
    renameSync(join(dir, `${a}.sealed`), join(dir, "tmp"));
    renameSync(join(dir, `${b}.sealed`), join(dir, `${a}.sealed`));
    renameSync(join(dir, "tmp"), join(dir, `${b}.sealed`));
    for (const d of [a, b]) {
      const r = openPrivateNote(home, key, d);
      expect(r).toEqual({ problem: expect.any(String) });
      expect(JSON.stringify(r)).not.toMatch(/secret/);
    }
    const bytes = readFileSync(join(dir, `${a}.sealed`));
    bytes[bytes.length - 1] ^= 1;
    writeFileSync(join(dir, `${a}.sealed`), bytes);
    expect(openPrivateNote(home, key, a)).toEqual({ problem: expect.stringMatching(/failed authentication/) });
    rmSync(join(dir, `${a}.sealed`));
    expect(openPrivateNote(home, key, a)).toEqual({ problem: `the sealed note review/notes/${a}.sealed is missing` });
    expect(openPrivateNote(home, key, "../x")).toEqual({ problem: "private_note_sha256 is not a digest" });
  });
});

describe("the export checkpoint", () => {
  const signer = signingKeyFromSeed(generateSigningSeed());
  const digests = [sha256Hex("r1"), sha256Hex("r2"), sha256Hex("r3")];
  const veto = { seq: 2, capsule_sha256: sha256Hex("capsule"), candidate_sha256: sha256Hex("candidate") };
  const text = (b: Uint8Array) => Buffer.from(b).toString("utf8").trimEnd();

  test("v2 carries the log head and the vetoes, signed; an edited veto list fails", () => {
    const line = checkpointLine(digests, [veto], signer);
    const c = readCheckpoint(line.subarray(0, -1)) as Checkpoint;
    expect(c).toMatchObject({ version: 2, records: 3, head_sha256: digests[2], vetoes: [veto] });
    const doc = JSON.parse(text(line));
    doc.checkpoint.vetoes = [];
    expect(readCheckpoint(canonicalBytes(doc, "c"))).toBe("checkpoint: the signature does not verify (the checkpoint was changed)");
    const bad = JSON.parse(text(line));
    bad.checkpoint.vetoes = [{ ...veto, seq: 9 }];
    expect(readCheckpoint(canonicalBytes(bad, "c"))).toBe("checkpoint.vetoes[0].seq: expected a record of the checkpointed log after the first");
  });

  test("a v1 checkpoint of an older export is still read (no vetoes) and can be the OLDER of --after", () => {
    const pub = bytesToHex(signer.publicKey);
    const body = { schema_version: "evidence-bridge-review-checkpoint/v1", checkpoint: { records: 2, head_sha256: digests[1], digests: digests.slice(0, 2) }, signer: { fingerprint: signer.fingerprint, public_key: pub } };
    const msg = new Uint8Array([...new TextEncoder().encode("evidence-bridge review checkpoint v1\u0000"), ...canonicalBytes(body, "c")]);
    const v1 = canonicalBytes({ ...body, signature: bytesToHex(signer.sign(msg)) }, "c");
    const older = readCheckpoint(v1) as Checkpoint;
    expect(older).toMatchObject({ version: 1, records: 2, vetoes: [] });
    const newer = readCheckpoint(checkpointLine(digests, [veto], signer).subarray(0, -1)) as Checkpoint;
    expect(extensionProblem(newer, older)).toBeUndefined();
  });

  test("vetoes are the rejections of digests an earlier record approved, in log order", () => {
    const home = tempHome("vetoes");
    const alice = reviewer(home, "Alice Example");
    const bob = reviewer(home, "Bob Example");
    const now = minuteClock();
    const policy = { approvals: 2 };
    appendDecision(home, draft(1), alice, { now, policy }); // #1 approve 1
    appendDecision(home, draft(2, "REJECTED"), alice, { now, policy }); // #2 reject 2 (nothing approved before: no veto)
    appendDecision(home, draft(1, "REJECTED"), bob, { now, policy }); // #3 veto of 1
    const v = verifyReviewLog(home);
    expect(v.ok).toBe(true);
    expect(vetoesOf(v.records)).toEqual([{ seq: 3, capsule_sha256: draft(1).capsule_sha256, candidate_sha256: draft(1).candidate_sha256 }]);
  });
});

describe("enrolment positions", () => {
  test("keys init enrols the new key; deleting that file is refused; an enrolment is not a position of a record", () => {
    const home = tempHome("enrol");
    const alice = reviewer(home, "Alice Example");
    const position = join(reviewerKeysDir(home), positionFileName(alice.key.fingerprint));
    expect(JSON.parse(readFileSync(position, "utf8"))).toMatchObject({ format: "evidence-bridge-reviewer-position/v1", seq: 0, record_sha256: "0".repeat(64) });
    expect(verifyReviewLog(home).ok).toBe(true);
    const enrolment = readFileSync(position);
    rmSync(position);
    expect(verifyReviewLog(home).error).toMatch(/^reviewer Alice Example \(ed25519:[0-9a-f]{64}\) was created on this machine but has no position record/);
    writeFileSync(position, enrolment);
    appendDecision(home, draft(1), alice);
    expect(verifyReviewLog(home).ok).toBe(true);
    // Her record's position replaced back by the enrolment (a position that names no record): refused.
    writeFileSync(position, enrolment);
    expect(verifyReviewLog(home).error).toMatch(/^reviewer Alice Example \(ed25519:[0-9a-f]{64}\) signed record #1 of this log but has no position record/);
    // An enrolment that names a record is malformed.
    const doc = JSON.parse(enrolment.toString("utf8"));
    writeFileSync(position, JSON.stringify({ ...doc, record_sha256: sha256Hex("x") }));
    expect(verifyReviewLog(home).error).toMatch(/an enrolment \(seq 0\) names no record/);
  });
});
