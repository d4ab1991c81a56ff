/**
 * The review log: appends are signed, chained and checked against the state machine; verification names the first
 * bad record for a deleted, reordered, modified or badly signed record, a cut tail and a torn line; a broken log is
 * never appended to.
 */
import { readdirSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { bytesToHex } from "../../../src/hash.js";
import { ReviewError } from "../../../capsules/review/errors.js";
import { readHead, writeHead } from "../../../capsules/review/head.js";
import { reviewLayout } from "../../../capsules/review/layout.js";
import { appendDecision, loadReviewLog, verifyReviewLog } from "../../../capsules/review/log.js";
import { GENESIS_PREV, recordBytes, recordFromBytes, REVIEW_RECORD_SCHEMA, signRecord, type ReviewRecord, type ReviewRecordV2 } from "../../../capsules/review/record.js";
import { removeHomes, tempHome } from "../feed/store-fixtures.js";
import { draft, logLines, minuteClock, reviewer, writeLogLines } from "./review-fixtures.js";

afterAll(removeHomes);

/** A data directory whose log holds `n` approvals of synthetic capsules 1..n by alice. */
function logOf(n: number): { home: string; alice: ReturnType<typeof reviewer> } {
  const home = tempHome("log");
  const alice = reviewer(home);
  const now = minuteClock();
  for (let i = 1; i <= n; i++) appendDecision(home, draft(i), alice, { now });
  return { home, alice };
}

function errorOf(home: string): string | undefined {
  return verifyReviewLog(home).error;
}

function caught(f: () => unknown): ReviewError {
  try {
    f();
  } catch (e) {
    if (e instanceof ReviewError) return e;
    throw e;
  }
  throw new Error("expected a ReviewError");
}

describe("appending", () => {
  test("records are numbered, chained to the previous digest, signed by the reviewer, in 0600 files under a 0700 directory", () => {
    const { home, alice } = logOf(3);
    const v = verifyReviewLog(home);
    expect(v.ok).toBe(true);
    expect(v.warnings).toEqual([]);
    expect(v.records.map((e) => e.record.seq)).toEqual([1, 2, 3]);
    expect(v.records[0].record.prev_sha256).toBe(GENESIS_PREV);
    expect(v.records[1].record.prev_sha256).toBe(v.records[0].digest);
    expect(v.records[2].record.prev_sha256).toBe(v.records[1].digest);
    expect(v.records[0].record.reviewer).toEqual({ name: "alice", fingerprint: alice.key.fingerprint, public_key: bytesToHex(alice.key.publicKey) });
    expect(v.records.map((e) => e.record.decided_at)).toEqual(["2026-09-01T10:01:00Z", "2026-09-01T10:02:00Z", "2026-09-01T10:03:00Z"]);
    expect(readHead(reviewLayout(home).head)).toEqual({ records: 3, head_sha256: v.head });
    const layout = reviewLayout(home);
    expect(statSync(layout.dir).mode & 0o777).toBe(0o700);
    expect(statSync(layout.log).mode & 0o777).toBe(0o600);
    expect(statSync(layout.head).mode & 0o777).toBe(0o600);
    for (const line of logLines(home)) expect(new TextDecoder().decode(recordBytes(recordFromBytes(Buffer.from(line.slice(0, -1)))))).toBe(line.slice(0, -1));
  });

  test("an empty or absent log verifies with no records", () => {
    const home = tempHome("log");
    const v = verifyReviewLog(home);
    expect(v.ok).toBe(true);
    expect(v.records).toEqual([]);
    expect(v.head).toBe(GENESIS_PREV);
  });

  test("approval and rejection are final for the same digest; a deferral can be approved or rejected once", () => {
    const { home, alice } = logOf(0);
    appendDecision(home, draft(1, "APPROVED_FOR_RELEASE"), alice);
    for (const d of ["APPROVED_FOR_RELEASE", "REJECTED", "NEEDS_MORE_EVIDENCE"] as const) {
      const e = caught(() => appendDecision(home, draft(1, d), alice));
      expect(e.code).toBe("double-decision");
      expect(e.message).toMatch(/^candidate [0-9a-f]{12} of capsule [0-9a-f]{12} was already APPROVED_FOR_RELEASE by alice at .* \(record #1\); a decision on the same bytes is final$/);
    }
    appendDecision(home, draft(2, "NEEDS_MORE_EVIDENCE"), alice);
    const again = caught(() => appendDecision(home, draft(2, "NEEDS_MORE_EVIDENCE"), alice));
    expect(again.message).toMatch(/is already NEEDS_MORE_EVIDENCE by alice .*\(record #2\); approve or reject it, or change the evidence$/);
    appendDecision(home, draft(2, "REJECTED"), alice);
    expect(caught(() => appendDecision(home, draft(2, "APPROVED_FOR_RELEASE"), alice)).message).toMatch(/was already REJECTED .*\(record #3\)/);
    const stolen = { ...draft(3), candidate_sha256: draft(1).candidate_sha256 };
    expect(caught(() => appendDecision(home, stolen, alice)).message).toMatch(/^candidate [0-9a-f]{12} was recorded for capsule [0-9a-f]{12} in record #1, not for capsule/);
    expect(verifyReviewLog(home).records).toHaveLength(3);
  });

  test.each([
    ["a control character", "ok\u0000", "--public-note: contains U+0000 (control, format, bidi and line-break characters are not allowed)"],
    ["a line break", "one\ntwo", "--public-note: contains U+000A"],
    ["a bidi override", "abc\u202edef", "--public-note: contains U+202E"],
    ["nothing", " ", "--public-note: must not be empty or blank"],
  ])("a note with %s is refused and nothing is appended", (_what, note, message) => {
    const { home, alice } = logOf(1);
    const e = caught(() => appendDecision(home, draft(2, "REJECTED", note), alice));
    expect(e.code).toBe("invalid-note");
    expect(e.message).toContain(message);
    expect(verifyReviewLog(home).records).toHaveLength(1);
  });
});

describe("tamper evidence", () => {
  test("a deleted record in the middle is named", () => {
    const { home } = logOf(5);
    const lines = logLines(home);
    lines.splice(2, 1);
    writeLogLines(home, lines);
    expect(errorOf(home)).toBe("record #3 (line 3): seq is 4 where 3 is expected: a record was deleted, inserted or reordered before this one");
  });

  test("a deleted first record is named", () => {
    const { home } = logOf(3);
    writeLogLines(home, logLines(home).slice(1));
    expect(errorOf(home)).toMatch(/^record #1 \(line 1\): seq is 2 where 1 is expected/);
  });

  test("reordered records are named", () => {
    const { home } = logOf(4);
    const lines = logLines(home);
    [lines[1], lines[2]] = [lines[2], lines[1]];
    writeLogLines(home, lines);
    expect(errorOf(home)).toMatch(/^record #2 \(line 2\): seq is 3 where 2 is expected/);
  });

  test("records renumbered after a deletion still break the chain", () => {
    const { home, alice } = logOf(4);
    const records = logLines(home).map((l) => recordFromBytes(Buffer.from(l.slice(0, -1))));
    records.splice(1, 1);
    const resigned = records.map((r, i) => (i === 0 ? r : signRecord({ ...r, seq: i + 1 }, alice.key)));
    writeLogLines(home, resigned.map((r) => `${new TextDecoder().decode(recordBytes(r))}\n`));
    expect(errorOf(home)).toMatch(/^record #2 \(line 2\): prev_sha256 does not match the digest of record #1/);
  });

  test("a modified record fails its signature; the same record re-signed by a key holder breaks the next link", () => {
    const { home, alice } = logOf(4);
    const lines = logLines(home);
    const r = recordFromBytes(Buffer.from(lines[1].slice(0, -1)));
    const edited = { ...r, public_note: "edited later" } as ReviewRecord;
    writeLogLines(home, [lines[0], `${new TextDecoder().decode(recordBytes(edited))}\n`, ...lines.slice(2)]);
    expect(errorOf(home)).toBe(
      "record #2 (line 2): the signature does not verify with reviewer.public_key (the record was modified after signing, or signed with another key)",
    );
    const resigned = signRecord(edited, alice.key);
    writeLogLines(home, [lines[0], `${new TextDecoder().decode(recordBytes(resigned))}\n`, ...lines.slice(2)]);
    expect(errorOf(home)).toMatch(/^record #3 \(line 3\): prev_sha256 does not match the digest of record #2: the previous record was modified/);
  });

  test("a bad signature is named", () => {
    const { home } = logOf(3);
    const lines = logLines(home);
    lines[2] = lines[2].replace(/"signature":"(.)/, (_m, c: string) => `"signature":"${c === "0" ? "1" : "0"}`);
    writeLogLines(home, lines);
    expect(errorOf(home)).toMatch(/^record #3 \(line 3\): the signature does not verify/);
  });

  test("a record edited out of canonical form, an empty line and a torn last line are named", () => {
    const { home } = logOf(3);
    const lines = logLines(home);
    writeLogLines(home, [lines[0], lines[1].replace('{"candidate_sha256"', '{ "candidate_sha256"'), lines[2]]);
    expect(errorOf(home)).toBe("record #2 (line 2): record: not in canonical form (the line was edited or re-serialised) (a modified record)");
    writeLogLines(home, [lines[0], "\n", ...lines.slice(1)]);
    expect(errorOf(home)).toBe("record #2 (line 2): empty line (the log holds one record per line)");
    writeLogLines(home, [lines[0], lines[1], lines[2].slice(0, 40)]);
    expect(errorOf(home)).toBe("record #3 (line 3): incomplete last line (no final newline): an interrupted write, or the file was cut");
  });

  test("records cut from the end are caught by the head file, without it by the reviewer's position, and without both by the missing position", () => {
    const { home } = logOf(4);
    writeLogLines(home, logLines(home).slice(0, 3));
    expect(errorOf(home)).toBe("the head file names 4 records but the log ends after record #3: records were deleted from the end of the log");
    unlinkSync(reviewLayout(home).head);
    expect(errorOf(home)).toMatch(/^the log ends after record #3, but reviewer \w+ \(ed25519:[0-9a-f]{64}\) signed record #4 \(keys\/reviewers\/[0-9a-f]{64}\.position\): the log was rolled back or records were removed$/);
    for (const f of readdirSync(join(home, "keys", "reviewers"))) if (f.endsWith(".position")) unlinkSync(join(home, "keys", "reviewers", f));
    // The reviewer signed records #1 to #3 of what is left: a missing position is itself a refusal (issue 29 item 4).
    expect(errorOf(home)).toMatch(/^reviewer alice \(ed25519:[0-9a-f]{64}\) signed record #3 of this log but has no position record .*'evidence-bridge review reestablish-position "alice" --why /);
    expect(verifyReviewLog(home).failed).toBe("positions");
  });

  test("a head file lagging behind the log is a warning; a head naming another digest is an error", () => {
    const { home } = logOf(3);
    const v = verifyReviewLog(home);
    writeHead(reviewLayout(home).dir, { records: 2, head_sha256: v.records[1].digest });
    expect(verifyReviewLog(home).warnings).toEqual(["the head file lags by 1 record(s) (an interrupted append); the next append updates it"]);
    writeHead(reviewLayout(home).dir, { records: 2, head_sha256: v.records[2].digest });
    expect(errorOf(home)).toBe("the head file's digest does not match record #2: records at the end were replaced");
    writeFileSync(reviewLayout(home).head, "{}");
    expect(errorOf(home)).toBe("the head file is not a v1 head file");
  });

  test("a correctly chained and signed record that decides the same bytes twice is named as an invalid transition", () => {
    const { home, alice } = logOf(2);
    const v = verifyReviewLog(home);
    const first = v.records[0].record;
    const forged = signRecord(
      { ...(first as ReviewRecordV2), seq: 3, prev_sha256: v.head, decision: "REJECTED", decided_at: "2026-09-01T11:00:00Z" },
      alice.key,
    );
    writeFileSync(reviewLayout(home).log, `${readFileSync(reviewLayout(home).log, "utf8")}${new TextDecoder().decode(recordBytes(forged))}\n`);
    expect(errorOf(home)).toMatch(/^record #3 \(line 3\): invalid transition: candidate [0-9a-f]{12} of capsule [0-9a-f]{12} was already APPROVED_FOR_RELEASE by alice/);
  });

  test("a broken log is never appended to, and loading it names the first bad record", () => {
    const { home, alice } = logOf(3);
    const lines = logLines(home);
    lines.splice(1, 1);
    writeLogLines(home, lines);
    const before = readFileSync(reviewLayout(home).log);
    const e = caught(() => appendDecision(home, draft(9), alice));
    expect(e.code).toBe("broken-log");
    expect(e.message).toMatch(/does not verify: record #2 \(line 2\): seq is 3 where 2 is expected.*; run 'evidence-bridge review log --verify'$/);
    expect(readFileSync(reviewLayout(home).log).equals(before)).toBe(true);
    expect(() => loadReviewLog(home)).toThrow(/record #2 \(line 2\)/);
  });
});
