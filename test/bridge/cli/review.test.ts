/**
 * The review commands end to end (in process): keys init --reviewer, list → show → approve/reject/defer → log
 * --verify → export → verify-export, and every bad input with its precise error and exit status.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { reviewLayout } from "../../../capsules/review/layout.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsule, exampleCapsules, PACK_FILE, removeHomes, storeWith, tempHome } from "../../capsules/feed/store-fixtures.js";
import { cli } from "../../capsules/review/cli-run.js";

afterAll(removeHomes);

/** Private values of example 03 (IOCs, message hash prefix, pseudonym): never printed by any review command. */
const PRIVATE_03 = ["@usdt_kitchen_sink", "98765 01234", "9123456780", "ops@usdt-desk.example", "TmcD3cQqkpT9P5aXLUff69yRPBEn1ce2p3", "6c18f5cf1a92f917", "2a03e167de54e6928d11b52f"];

describeShared("review commands", () => {
  let home: string;
  let outDir: string;
  let alice: string;
  let bob: string;
  const eb = (...args: string[]) => cli(["--home", home, "--pack", PACK_FILE, ...args]);
  const id = (prefix: string) => exampleCapsule(prefix).id;

  beforeAll(async () => {
    ({ home } = await storeWith("cli-review", exampleCapsules()));
    outDir = tempHome("cli-review-out");
    const a = await eb("keys", "init", "--reviewer", "alice");
    expect(a.code).toBe(0);
    const m = /^created reviewer key for alice\nreviewer key: (ed25519:[0-9a-f]{64}) \((.*)\)\nregistered in (.*)\n$/.exec(a.stdout);
    expect(m).not.toBeNull();
    alice = m![1];
    expect(m![2]).toBe(join(home, "keys", "reviewers", `${alice.slice("ed25519:".length)}.key`));
    expect(m![3]).toBe(join(home, "keys", "reviewers.json"));
    bob = /reviewer key: (ed25519:[0-9a-f]{64})/.exec((await eb("keys", "init", "--reviewer", "bob")).stdout)![1];
  });

  test("keys init --reviewer refuses a second key of the same name and a bad name", async () => {
    const again = await eb("keys", "init", "--reviewer", "alice");
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^evidence-bridge: a reviewer named alice is already registered \(key ed25519:[0-9a-f]{64}\); refusing to create another\n$/);
    for (const name of ["../x", "alice2", "bob@example.org", "x:y"]) {
      const bad = await eb("keys", "init", "--reviewer", name);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain("reviewer name: ");
      expect(bad.stderr).toContain("no digits, '@', '/', ':' or other symbols");
    }
  });

  test("review list: the queue with status, tiers, families, IOC counts and age; no private values", async () => {
    const r = await eb("review", "list");
    expect(r.code).toBe(0);
    const rows = r.stdout.trim().split("\n");
    expect(rows[0]).toMatch(/^CAPSULE\s+CREATED\s+AGE\s+TIER\s+FAMILIES\s+IOCS\s+HYP\s+STATUS$/);
    expect(rows).toHaveLength(11);
    expect(rows[10]).toBe("9 candidates (9 awaiting a decision); 1 CLEAN excluded; 0 withheld");
    const row03 = rows.find((l) => l.startsWith(id("03").slice(0, 12)))!;
    expect(row03).toMatch(/2026-08-20T09:00:00Z\s+\S+\s+CONFIRMED_PATTERN\s+ACCOUNT,RATE\s+handles=1,phones=2,channels=1,wallets=3,emails=1,urls=1\s+0\s+HUMAN_REVIEW_REQUIRED$/);
    for (const v of PRIVATE_03) expect(r.stdout).not.toContain(v);
    const j = await eb("review", "list", "--json", "--include-clean");
    const doc = JSON.parse(j.stdout) as { capsule_sha256: string; status: string; tiers: { overall: string }; ioc_counts: Record<string, number> }[];
    expect(doc).toHaveLength(10);
    expect(doc.find((d) => d.capsule_sha256 === id("03"))).toMatchObject({ status: "HUMAN_REVIEW_REQUIRED", tiers: { overall: "CONFIRMED_PATTERN" }, ioc_counts: { wallets: 3 } });
    const bad = await eb("review", "list", "--status", "DONE");
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe("evidence-bridge: review list: --status: expected one of HUMAN_REVIEW_REQUIRED, APPROVED_FOR_RELEASE, REJECTED, NEEDS_MORE_EVIDENCE\n");
  });

  test("review show: the candidate, its digest and the reasons it exists; never IOC values", async () => {
    const r = await eb("review", "show", id("03").slice(0, 8));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`capsule    ${id("03")}\n`);
    expect(r.stdout).toMatch(/candidate  sha256:[0-9a-f]{64} \(default view\)\nstatus     HUMAN_REVIEW_REQUIRED\n/);
    expect(r.stdout).toContain("  - IOCs: handles=1, phones=2, channels=1, wallets=3, emails=1, urls=1 (counts only; the values stay in the sealed store)");
    expect(r.stdout).toContain("  - 1 TYPOLOGY_MATCH hypothesis is hidden by the default feed policy (--include-typology-matches reviews them)");
    for (const v of PRIVATE_03) expect(r.stdout).not.toContain(v);
    const j = JSON.parse((await eb("review", "show", id("32"), "--json")).stdout) as { reasons: string[]; candidate: { hypotheses: unknown[] }; status: string };
    expect(j.status).toBe("HUMAN_REVIEW_REQUIRED");
    expect(j.reasons).toContain("hypothesis illegal-wildlife-trade (predicate_offence): CORROBORATED_LEAD, 3 independent backers, support recomputed from the pack rules");
  });

  test.each([
    [["review", "show", "abcdef"], "evidence-bridge: review show: unknown candidate: no stored capsule id starts with abcdef\n"],
    [["review", "approve", "xyz", "--reason", "corroborated", "--public-note", "n"], "evidence-bridge: review approve: unknown candidate: capsule id must be 6 to 64 lowercase hexadecimal digits\n"],
    [["review", "approve", "--reason", "corroborated", "--public-note", "n"], "evidence-bridge: review approve: expected exactly one capsule id (64 hexadecimal digits, or a unique prefix of at least 6)\n"],
    [["review", "reject", "abcdef"], "evidence-bridge: review reject: --reason CODE is required (corroborated, duplicate, insufficient-evidence, out-of-scope, false-positive, policy)\n"],
    [["review", "reject", "abcdef", "--reason", "gut-feeling"], "evidence-bridge: review reject: --reason: expected one of corroborated, duplicate, insufficient-evidence, out-of-scope, false-positive, policy\n"],
    [["review", "reject", "abcdef", "--reason", "duplicate", "--note", "bell\u0007"], "evidence-bridge: review reject: --note: contains U+0007 (control, format, bidi and line-break characters are not allowed)\n"],
    [["review", "defer", "abcdef", "--reason", "corroborated", "--public-note", "bell\u0007"], "evidence-bridge: review defer: --public-note: contains U+0007 (control, format, bidi and line-break characters are not allowed)\n"],
    [["review", "approve", "abcdef", "--reason", "corroborated", "--public-note", "two\nlines"], "evidence-bridge: review approve: --public-note: contains U+000A (control, format, bidi and line-break characters are not allowed)\n"],
    [["review", "approve", "abcdef", "--reason", "corroborated", "--public-note", "x".repeat(1001)], "evidence-bridge: review approve: --public-note: has 1001 characters; at most 1000 are allowed\n"],
  ])("bad input %j is refused precisely (exit 2)", async (args, stderr) => {
    const before = existsSync(reviewLayout(home).log) ? readFileSync(reviewLayout(home).log) : undefined;
    const r = await eb(...args);
    expect(r).toEqual({ code: 2, stdout: "", stderr });
    const after = existsSync(reviewLayout(home).log) ? readFileSync(reviewLayout(home).log) : undefined;
    expect(after).toEqual(before);
  });

  test("a CLEAN capsule has no candidate unless --include-clean", async () => {
    const r = await eb("review", "approve", id("22"), "--reason", "corroborated", "--public-note", "n", "--reviewer", "alice");
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`evidence-bridge: review approve: capsule ${id("22")} has no outward candidate: overall tier is CLEAN (use --include-clean)\n`);
  });

  test("decisions: reviewer selection, a leaking note refused, double decisions refused, deferral returns to review", async () => {
    const several = await eb("review", "approve", id("01"), "--reason", "corroborated", "--public-note", "ok");
    expect(several.stderr).toBe("evidence-bridge: review approve: several reviewer keys (alice, bob): choose one with --reviewer NAME\n");
    const leak = await eb("review", "approve", id("03"), "--reviewer", "alice", "--reason", "corroborated", "--public-note", "desk reachable at @USDT_kitchen_sink");
    expect(leak.code).toBe(2);
    expect(leak.stderr).toBe(
      "evidence-bridge: review approve: --public-note refused: leak guard: ioc_value in the public note; the public note leaves with the export: keep private details in --note (sealed, never exported)\n",
    );
    // A value of ANOTHER stored capsule (03's handle, without "@", in upper case) is refused on 01's note too.
    const wide = await eb("review", "approve", id("01"), "--reviewer", "alice", "--reason", "corroborated", "--public-note", "same desk as USDT_KITCHEN_SINK");
    expect(wide.code).toBe(2);
    // (The store-wide guard also holds the matched terms the pack does not make public; "USDT" has fewer than 8
    // letters and digits, so it is found only as a whole word, not inside USDT_KITCHEN_SINK: docs/guard.md.)
    expect(wide.stderr).toBe(
      "evidence-bridge: review approve: --public-note refused: leak guard: ioc_value in the public note; the public note leaves with the export: keep private details in --note (sealed, never exported)\n",
    );
    const ok = await eb("review", "approve", id("01"), "--reviewer", "alice", "--reason", "corroborated", "--public-note", "Matches the mule rental pattern; share.");
    expect(ok.code).toBe(0);
    expect(ok.stdout).toMatch(new RegExp(`^APPROVED_FOR_RELEASE capsule ${id("01")}\\n  candidate sha256:[0-9a-f]{64}\\n  record #1 by alice \\(${alice}\\) at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\n  reason corroborated; public note recorded \\(leaves with the export\\)\\n$`));
    const twice = await eb("review", "reject", id("01"), "--reviewer", "bob", "--reason", "corroborated", "--public-note", "no");
    expect(twice.code).toBe(2);
    expect(twice.stderr).toMatch(/^evidence-bridge: review reject: candidate [0-9a-f]{12} of capsule [0-9a-f]{12} was already APPROVED_FOR_RELEASE by alice at .* \(record #1\); a decision on the same bytes is final\n$/);
    expect((await eb("review", "defer", id("34"), "--reviewer", "bob", "--reason", "corroborated", "--public-note", "Need the cited sanctions record.")).code).toBe(0);
    const deferTwice = await eb("review", "defer", id("34"), "--reviewer", "bob", "--reason", "corroborated", "--public-note", "still");
    expect(deferTwice.stderr).toMatch(/is already NEEDS_MORE_EVIDENCE by bob .*\(record #2\); approve or reject it, or change the evidence\n$/);
    expect((await eb("review", "approve", id("34"), "--reviewer", "bob", "--reason", "corroborated", "--public-note", "Record checked.")).code).toBe(0);
    expect((await eb("review", "reject", id("08"), "--reviewer", "alice", "--reason", "corroborated", "--public-note", "Too thin.")).code).toBe(0);
    expect((await eb("review", "approve", id("32"), "--reviewer", "bob", "--include-typology-matches", "--reason", "corroborated", "--public-note", "Corroborated.")).code).toBe(0);
    const list = await eb("review", "list", "--json");
    const statuses = Object.fromEntries((JSON.parse(list.stdout) as { capsule_sha256: string; status: string }[]).map((d) => [d.capsule_sha256, d.status]));
    expect(statuses[id("01")]).toBe("APPROVED_FOR_RELEASE");
    expect(statuses[id("34")]).toBe("APPROVED_FOR_RELEASE");
    expect(statuses[id("08")]).toBe("REJECTED");
    expect(statuses[id("32")]).toBe("APPROVED_FOR_RELEASE");
    expect((await eb("review", "list", "--status", "REJECTED")).stdout).toContain("9 candidates (5 awaiting a decision), 1 REJECTED;");
  });

  test("review log lists the records; --verify checks them; a deleted record is named with exit 1", async () => {
    const r = await eb("review", "log");
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toMatch(/^SEQ\s+DECIDED\s+DECISION\s+CAPSULE\s+CANDIDATE\s+REVIEWER\s+REASON\s+PUBLIC NOTE$/);
    expect(r.stdout).toContain("Need the cited sanctions record.");
    const v = await eb("review", "log", "--verify");
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/^review log .*log\.jsonl: 5 records; chain, signatures and transitions verified; head sha256:[0-9a-f]{64}\n$/);
    const path = reviewLayout(home).log;
    const original = readFileSync(path, "utf8");
    const lines = original.split(/(?<=\n)/);
    writeFileSync(path, [lines[0], ...lines.slice(2)].join(""));
    const broken = await eb("review", "log", "--verify");
    expect(broken.code).toBe(1);
    expect(broken.stdout).toBe("");
    expect(broken.stderr).toBe(`evidence-bridge: review log: ${path} is broken: record #2 (line 2): seq is 3 where 2 is expected: a record was deleted, inserted or reordered before this one\n`);
    const blocked = await eb("review", "approve", id("05"), "--reviewer", "alice", "--reason", "corroborated", "--public-note", "x");
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toContain("does not verify: record #2 (line 2)");
    const j = JSON.parse((await eb("review", "log", "--verify", "--json")).stdout) as { ok: boolean; error: string };
    expect(j.ok).toBe(false);
    writeFileSync(path, original);
    expect((await eb("review", "log", "--verify")).code).toBe(0);
  });

  test("review export writes the approved candidates with their signed decisions; verify-export checks them", async () => {
    const out = join(outDir, "approved.jsonl");
    const r = await eb("review", "export", "--out", out);
    expect(r.code).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe(`exported 3 approved candidates to ${out}`);
    const all = readFileSync(out, "utf8").trim().split("\n");
    expect(JSON.parse(all.at(-1)!).schema_version).toBe("evidence-bridge-review-checkpoint/v2");
    const lines = all.slice(0, -1).map((l) => JSON.parse(l) as { candidate: { capsule_sha256: string }; decision: { decision: string; reviewer: { name: string } } });
    expect(lines.map((l) => l.candidate.capsule_sha256)).toEqual([id("01"), id("34"), id("32")]);
    expect(lines.every((l) => l.decision.decision === "APPROVED_FOR_RELEASE")).toBe(true);
    expect(readFileSync(out, "utf8")).not.toContain("Too thin.");
    const installation = /signing key: (ed25519:[0-9a-f]{64})/.exec((await eb("keys", "show")).stdout)![1];
    const unpinned = await cli(["review", "verify-export", out]);
    expect(unpinned.code).toBe(1);
    expect(unpinned.stdout).toContain(`line 1: UNPINNED: valid signature by ${alice} (alice), a key you have not pinned`);
    expect(unpinned.stdout).toContain(`checkpoint: UNPINNED: valid checkpoint signature by installation key ${installation}`);
    expect(unpinned.stdout.trim().split("\n").at(-1)).toBe(`${out}: 0 of 3 approved candidates verified; 3 signed by keys you have not pinned; the export does not verify`);
    const v = await cli(["review", "verify-export", out, "--trust", `${alice},${bob},${installation}`]);
    expect(v.code).toBe(0);
    expect(v.stdout).toContain(`line 1: ok: capsule ${id("01")} candidate`);
    expect(v.stdout).toContain(`key ${alice} (alice): pinned`);
    expect(v.stdout).toMatch(/checkpoint: \d+ log records, head sha256:[0-9a-f]{64}, signed by pinned installation key/);
    expect(v.stdout.trim().split("\n").at(-1)).toBe(`${out}: 3 of 3 approved candidates verified`);
    const untrusted = await cli(["review", "verify-export", out, "--trust", `${alice},${installation}`]);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stdout).toContain(`line 2: UNPINNED: valid signature by ${bob} (bob), a key you have not pinned`);
    expect(untrusted.stdout).toContain(`key ${bob} (bob): NOT pinned`);
    const same = await eb("review", "export", "--out", out);
    expect(same.code).toBe(0);
    writeFileSync(join(outDir, "other.jsonl"), "x\n");
    const clash = await eb("review", "export", "--out", join(outDir, "other.jsonl"));
    expect(clash.stderr).toBe(`evidence-bridge: review export: ${join(outDir, "other.jsonl")} already exists with different content; refusing to overwrite it\n`);
    const tampered = join(outDir, "tampered.jsonl");
    writeFileSync(tampered, readFileSync(out, "utf8").replace("Mexico-based cartel drug proceeds", "Confirmed criminal network"));
    const t = await cli(["review", "verify-export", tampered]);
    expect(t.code).toBe(1);
    expect(t.stdout).toContain("line 2: FAILED: the candidate's SHA-256 differs from decision.candidate_sha256: the candidate is not the approved bytes");
    expect((await cli(["review", "verify-export", join(outDir, "missing.jsonl")])).code).toBe(2);
    expect((await cli(["review", "verify-export", out, "--trust", "nope"])).stderr).toBe(
      "evidence-bridge: review verify-export: --trust: entry 1 is not a fingerprint (ed25519: and 64 lowercase hexadecimal digits)\n",
    );
  });

  test("list and export show progress on stderr only when it is a terminal", async () => {
    const list = await cli(["--home", home, "--pack", PACK_FILE, "review", "list"], { stderrTTY: true });
    expect(list.code).toBe(0);
    expect(list.stderr).toBe("\r\x1b[Kreview list: 10/10\r\x1b[K");
    const out = join(outDir, "progress.jsonl");
    const r = await cli(["--home", home, "--pack", PACK_FILE, "review", "export", "--out", out], { stderrTTY: true });
    expect(r.code).toBe(0);
    expect(r.stderr).toBe("\r\x1b[Kreview export: 0/3\r\x1b[Kreview export: 3/3\r\x1b[K");
    expect((await eb("review", "export", "--out", join(outDir, "quiet.jsonl"))).stderr).toBe("");
  });

  test("after the pack changes, approved candidates no longer match: list shows them back in review and export refuses, naming them", async () => {
    const changedPack = join(outDir, "pack-changed.json");
    writeFileSync(changedPack, Buffer.concat([readFileSync(PACK_FILE), Buffer.from("\n")]));
    const list = await cli(["--home", home, "--pack", changedPack, "review", "list", "--json"]);
    const d01 = (JSON.parse(list.stdout) as { capsule_sha256: string; status: string; superseded: { seq: number } | null }[]).find((d) => d.capsule_sha256 === id("01"))!;
    expect(d01.status).toBe("HUMAN_REVIEW_REQUIRED");
    expect(d01.superseded?.seq).toBe(1);
    const out = join(outDir, "after-pack-change.jsonl");
    const r = await cli(["--home", home, "--pack", changedPack, "review", "export", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(new RegExp(`^evidence-bridge: review export: refused 3 of 3 approved candidates, nothing was exported: capsule ${id("01")} \\(approved in record #1\\): the re-derived candidate [0-9a-f]{12} differs from the approved digest`));
    expect(existsSync(out)).toBe(false);
  });

  test("a reviewer name that is a private value of the store is refused when deciding, before it is signed into the log", async () => {
    // 03's handle without "@" (the guard names the first kind it finds in it: the stored matched term "USDT", a whole
    // word here, before the handle itself): a name chosen so, or by mistake, would be
    // printed, logged and exported with the decision.
    // (Names are names now, so the handle is written with spaces.)
    expect((await eb("keys", "init", "--reviewer", "USDT kitchen sink")).code).toBe(0);
    const before = readFileSync(reviewLayout(home).log);
    const r = await eb("review", "defer", id("32"), "--reviewer", "USDT kitchen sink", "--reason", "corroborated", "--public-note", "Need the cited record.");
    expect(r).toEqual({
      code: 2,
      stdout: "",
      stderr:
        "evidence-bridge: review defer: reviewer name refused: leak guard: matched_term in the reviewer name; the name is signed into the log and exported with every decision: make a reviewer key with another name (keys init --reviewer NAME)\n",
    });
    expect(readFileSync(reviewLayout(home).log)).toEqual(before);
  });
});
