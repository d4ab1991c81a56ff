/**
 * Issue 29 item 4, the two "Why" bullets, through the CLI and the page on the synthetic example (no ../shared):
 *
 * 1. `review/` rolled back to an earlier copy and one reviewer's position file deleted: `review log --verify`,
 *    `review export` and the page used to pass. Now a reviewer who signed a record of the log but has no position
 *    makes all three refuse, naming the reviewer and `review reestablish-position`, which writes the position again
 *    signed by whoever ran it, with why, and leaves a trace every verification lists.
 * 2. A lead one reviewer approved and a later reviewer rejected, copied from an older export into a newer one, used to
 *    pass `verify-export --after OLDER`. Now the newer export's signed checkpoint lists the veto: the copied line is
 *    refused, and the older export's lead is reported as withdrawn.
 */
import { cpSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { http } from "../../bridge/review-page/http.js";
import { startPage } from "../../bridge/review-page/page-session.js";
import { buildCapsule, cli, iocs, MESSAGE_A, MESSAGE_B, MESSAGE_C, removeHomes, SYNTHETIC_PACK_FILE, tempHome } from "../exports/synthetic-store.js";

afterAll(removeHomes);

const VIEW = "--include-typology-matches";

describe("rollback detection that deleting a file does not switch off", () => {
  let home: string;
  let ids: { a: string; b: string; c: string };
  const fp: Record<string, string> = {};
  const eb = (...args: string[]) => cli(home, args);

  beforeAll(async () => {
    home = tempHome("rollback");
    ids = {
      a: await buildCapsule(home, MESSAGE_A, iocs({ handles: ["@synthetic_recruiter_demo"] })),
      b: await buildCapsule(home, MESSAGE_B, iocs({ handles: ["@another_synthetic_broker"] })),
      c: await buildCapsule(home, MESSAGE_C, iocs({ handles: ["@third_synthetic_desk"] })),
    };
    for (const name of ["Alice Example", "Bob Example"]) {
      const r = await eb("keys", "init", "--reviewer", name);
      fp[name] = /reviewer key: (ed25519:[0-9a-f]{64})/.exec(r.stdout)![1];
    }
  }, 120_000);

  test("a restored review/ with a deleted position file is refused by log --verify, export and the page until re-established", { timeout: 120_000 }, async () => {
    const decide = async (verb: string, id: string, who: string) => expect((await eb("review", verb, id, VIEW, "--reviewer", who, "--reason", "corroborated")).code).toBe(0);
    await decide("approve", ids.a, "Alice Example"); // #1
    await decide("defer", ids.b, "Bob Example"); // #2
    const copy = `${home}-review-copy`;
    cpSync(join(home, "review"), copy, { recursive: true });
    await decide("reject", ids.b, "Bob Example"); // #3: the decision a rollback would drop
    expect((await eb("review", "log", "--verify")).code).toBe(0);

    rmSync(join(home, "review"), { recursive: true });
    cpSync(copy, join(home, "review"), { recursive: true });
    const bobPosition = join(home, "keys", "reviewers", `${fp["Bob Example"].slice("ed25519:".length)}.position`);
    rmSync(bobPosition);

    const named = /reviewer Bob Example \(ed25519:[0-9a-f]{64}\) signed record #2 of this log but has no position record .*'evidence-bridge review reestablish-position "Bob Example" --why interrupted-append\|file-lost\|log-restored'/;
    const verify = await eb("review", "log", "--verify");
    expect(verify.code).toBe(1);
    expect(verify.stderr).toMatch(named);
    const exported = await eb("review", "export", "--out", join(`${home}-out.jsonl`));
    expect(exported.code).toBe(2);
    expect(exported.stderr).toMatch(named);
    const page = await startPage(["--home", home, "--pack", SYNTHETIC_PACK_FILE, "review", "serve", "--reviewer", "Alice Example"]);
    try {
      const queue = await http(page.url);
      expect(queue.status).toBe(500);
      expect(queue.body).toMatch(/reviewer Bob Example \(ed25519:[0-9a-f]{64}\) signed record #2 of this log but has no position record/);
    } finally {
      await page.stop();
    }
    // Nothing can be appended either.
    expect((await eb("review", "approve", ids.c, VIEW, "--reviewer", "Alice Example", "--reason", "corroborated")).stderr).toMatch(named);

    // Re-established, deliberately: signed by Alice (who did it), with why.
    const badWhy = await eb("review", "reestablish-position", "Bob Example", "--why", "because", "--reviewer", "Alice Example");
    expect([badWhy.code, badWhy.stderr]).toEqual([2, "evidence-bridge: review reestablish-position: --why: expected one of interrupted-append, file-lost, log-restored\n"]);
    const fixed = await eb("review", "reestablish-position", "Bob Example", "--why", "log-restored", "--reviewer", "Alice Example");
    expect(fixed.code, fixed.stderr).toBe(0);
    expect(fixed.stdout).toBe(
      `re-established the position of Bob Example (${fp["Bob Example"]}) at record #2, signed by Alice Example (${fp["Alice Example"]}): log-restored\nreview log: verifies again (2 records)\n`,
    );
    const again = await eb("review", "log", "--verify");
    expect(again.code).toBe(0);
    expect(again.stderr).toMatch(new RegExp(`review log: warning: the position of ${fp["Bob Example"]} was re-established at record #2 by Alice Example \\(${fp["Alice Example"]}\\) at \\S+Z: log-restored\\n`));
    const history = readFileSync(join(home, "keys", "reviewers", "reestablished.jsonl"), "utf8").trim().split("\n");
    expect(history).toHaveLength(1);
    expect(JSON.parse(history[0])).toMatchObject({ format: "evidence-bridge-reviewer-position/v2", seq: 2, reestablished: { why: "log-restored", by: { name: "Alice Example", fingerprint: fp["Alice Example"] } } });
    // A position that was edited by hand (say, to say someone else did it) fails its signature.
    const forged = readFileSync(bobPosition, "utf8").replace('"log-restored"', '"file-lost"');
    writeFileSync(bobPosition, forged);
    expect((await eb("review", "log", "--verify")).stderr).toMatch(/the signature does not verify \(the file was changed\)/);
    writeFileSync(bobPosition, forged.replace('"file-lost"', '"log-restored"'));
    expect((await eb("review", "log", "--verify")).code).toBe(0);
    // Bob's next decision replaces the re-established position with his own; key and position files are named by
    // fingerprint only.
    await decide("reject", ids.b, "Bob Example");
    expect((await eb("review", "log", "--verify")).code).toBe(0);
    expect(readdirSync(join(home, "keys", "reviewers")).filter((f) => !/^[0-9a-f]{64}\.(key|position)$/.test(f))).toEqual(["reestablished.jsonl"]);
    rmSync(copy, { recursive: true });
  });

  test("a rollback past every decision of a reviewer created here, with the position deleted, is refused too (enrolment)", { timeout: 120_000 }, async () => {
    const h = tempHome("rollback-enrolled");
    const local = (...args: string[]) => cli(h, args);
    const a = await buildCapsule(h, MESSAGE_A, iocs({ handles: ["@synthetic_recruiter_demo"] }));
    const fps: Record<string, string> = {};
    for (const name of ["Alice Example", "Bob Example"]) fps[name] = /reviewer key: (ed25519:[0-9a-f]{64})/.exec((await local("keys", "init", "--reviewer", name)).stdout)![1];
    // keys init wrote an enrolment position for each new key (it has signed nothing yet).
    const bobPosition = join(h, "keys", "reviewers", `${fps["Bob Example"].slice("ed25519:".length)}.position`);
    expect(JSON.parse(readFileSync(bobPosition, "utf8"))).toMatchObject({ seq: 0, record_sha256: "0".repeat(64), fingerprint: fps["Bob Example"] });
    expect((await local("review", "policy", "--approvals", "2")).code).toBe(0);
    expect((await local("review", "approve", a, VIEW, "--reviewer", "Alice Example", "--reason", "corroborated")).code).toBe(0); // #1
    const copy = `${h}-review-copy`;
    cpSync(join(h, "review"), copy, { recursive: true });
    expect((await local("review", "reject", a, VIEW, "--reviewer", "Bob Example", "--reason", "false-positive")).code).toBe(0); // #2, Bob's only record
    rmSync(join(h, "review"), { recursive: true });
    cpSync(copy, join(h, "review"), { recursive: true });
    rmSync(bobPosition);
    // Bob appears nowhere in the restored log, but his key was created here: the missing position is refused.
    const verify = await local("review", "log", "--verify");
    expect(verify.code).toBe(1);
    expect(verify.stderr).toMatch(/reviewer Bob Example \(ed25519:[0-9a-f]{64}\) was created on this machine but has no position record .*'evidence-bridge review reestablish-position "Bob Example" --why /);
    expect((await local("review", "export", "--out", `${h}-x.jsonl`)).code).toBe(2);
    const fixed = await local("review", "reestablish-position", "Bob Example", "--why", "log-restored", "--reviewer", "Alice Example");
    expect(fixed.stdout).toContain(`re-established the position of Bob Example (${fps["Bob Example"]}) at enrolment (no record of theirs in this log), signed by Alice Example`);
    expect((await local("review", "log", "--verify")).stderr).toContain(`the position of ${fps["Bob Example"]} was re-established at enrolment (no record) by Alice Example`);
    rmSync(copy, { recursive: true });
  });

  test("an approval vetoed later, copied from an older export into a newer one, is refused by verify-export --after", { timeout: 120_000 }, async () => {
    const h = tempHome("veto");
    const local = (...args: string[]) => cli(h, args);
    const a = await buildCapsule(h, MESSAGE_A, iocs({ handles: ["@synthetic_recruiter_demo"] }));
    const b = await buildCapsule(h, MESSAGE_B, iocs({ handles: ["@another_synthetic_broker"] }));
    const keys: string[] = [];
    for (const name of ["Alice Example", "Bob Example"]) keys.push(/reviewer key: (ed25519:[0-9a-f]{64})/.exec((await local("keys", "init", "--reviewer", name)).stdout)![1]);
    keys.push(/signing key: (ed25519:[0-9a-f]{64})/.exec((await local("keys", "show")).stdout)![1]);
    const trust = keys.join(",");
    const ok = async (...args: string[]) => {
      const r = await local(...args);
      expect(r.code, r.stderr).toBe(0);
      return r;
    };
    await ok("review", "approve", a, VIEW, "--reviewer", "Alice Example", "--reason", "corroborated", "--public-note", "Share."); // #1
    const older = join(h, "..", `${h.split("/").pop()}-older.jsonl`);
    await ok("review", "export", "--out", older);
    // Four-eyes from now on: Alice's single approval is no longer final, and Bob vetoes it.
    await ok("review", "policy", "--approvals", "2");
    await ok("review", "reject", a, VIEW, "--reviewer", "Bob Example", "--reason", "false-positive", "--public-note", "Not a recruiter."); // #2: the veto
    await ok("review", "approve", b, VIEW, "--reviewer", "Alice Example", "--reason", "corroborated"); // #3
    await ok("review", "approve", b, VIEW, "--reviewer", "Bob Example", "--reason", "corroborated"); // #4
    const newer = join(h, "..", `${h.split("/").pop()}-newer.jsonl`);
    await ok("review", "export", "--out", newer);
    const newerLines = readFileSync(newer, "utf8").split(/(?<=\n)/);
    const checkpoint = JSON.parse(newerLines.at(-1)!) as { schema_version: string; checkpoint: { head_sha256: string; records: number; vetoes: unknown[] } };
    expect(checkpoint.schema_version).toBe("evidence-bridge-review-checkpoint/v2");
    expect(checkpoint.checkpoint.records).toBe(4);
    expect(checkpoint.checkpoint.vetoes).toEqual([{ seq: 2, capsule_sha256: a, candidate_sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(newerLines.some((l) => l.includes(`"capsule_sha256":"${a}"`) && l.includes('"decision":"APPROVED_FOR_RELEASE"') && !l.includes('"checkpoint"'))).toBe(false);

    // The honest newer export verifies on its own; against the older one it reports the older lead as withdrawn.
    expect((await local("review", "verify-export", newer, "--trust", trust)).code).toBe(0);
    const after = await local("review", "verify-export", newer, "--trust", trust, "--after", older);
    expect(after.code).toBe(1);
    expect(after.stdout).toContain(`--after: WITHDRAWN: capsule ${a} candidate `);
    expect(after.stdout).toContain(`approved in record #1 of ${older}, was vetoed by record #2`);

    // The attack: the older export's approval line of `a`, copied into the newer export before its checkpoint.
    const copied = readFileSync(older, "utf8").split(/(?<=\n)/)[0];
    expect(copied).toContain(`"capsule_sha256":"${a}"`);
    const forged = join(h, "..", `${h.split("/").pop()}-forged.jsonl`);
    writeFileSync(forged, [...newerLines.slice(0, -1), copied, newerLines.at(-1)!].join(""));
    for (const args of [[], ["--after", older]]) {
      const r = await local("review", "verify-export", forged, "--trust", trust, ...args);
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^line 3: FAILED: the approval in record #1 was vetoed by record #2 \(a rejection of the same candidate, listed in the export's signed checkpoint\)/m);
    }
  });
});
