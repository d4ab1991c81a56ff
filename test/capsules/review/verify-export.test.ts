/**
 * What a recipient can check in an export: each line's canonical form and shape, the signature under the key the
 * record names, that the record approves exactly the candidate bytes on the line, the candidate's public shape,
 * and (optionally) that the key is trusted. Every tampering is named by line.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { canonicalBytes } from "../../../src/json/canonical.js";
import { sha256Hex } from "../../../src/hash.js";
import { buildExport } from "../../../capsules/review/export-lines.js";
import { appendDecision, loadReviewLog } from "../../../capsules/review/log.js";
import { recordFromJson, signRecord, type ReviewRecord, type ReviewRecordV2 } from "../../../capsules/review/record.js";
import { openReviewTarget } from "../../../capsules/review/review-target.js";
import type { ReviewerKeyFile } from "../../../capsules/review/reviewer-key.js";
import { parseTrustList, verifyExportBytes } from "../../../capsules/review/verify-export.js";
import { parseStrictJson } from "../../../src/json/parse.js";
import { StoredDerivations } from "../../../capsules/pipeline/stored.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsule, removeHomes, storeWith, testPack } from "../feed/store-fixtures.js";
import { reviewer } from "./review-fixtures.js";

afterAll(removeHomes);

type Line = { schema_version: string; candidate: Record<string, unknown>; decision: ReviewRecord };

describeShared("review verify-export", () => {
  let lines: string[];
  let checkpoint: string;
  let installation: string;
  let alice: ReviewerKeyFile;
  let bob: ReviewerKeyFile;
  let home: string;

  beforeAll(async () => {
    const made = await storeWith("vexp", [exampleCapsule("01"), exampleCapsule("32")]);
    const store = made.store;
    home = made.home;
    installation = store.keys.signing.fingerprint;
    alice = reviewer(home, "alice");
    bob = reviewer(home, "bob");
    for (const [prefix, who] of [
      ["01", alice],
      ["32", bob],
    ] as const) {
      const id = exampleCapsule(prefix).id;
      const r = openReviewTarget(new StoredDerivations(store, testPack()), id, { includeTypologyMatches: false, includeClean: false }).result;
      if (r.status !== "emitted") throw new Error("no candidate");
      appendDecision(home, { capsule_sha256: id, candidate_sha256: r.digest, typology_match_visible: false, decision: "APPROVED_FOR_RELEASE", reason: "corroborated", public_note: "ok" }, who);
    }
    const out = buildExport(store, testPack(), loadReviewLog(home));
    lines = out.lines.map((l) => Buffer.from(l).toString("utf8"));
    checkpoint = Buffer.from(out.checkpoint!).toString("utf8");
  });

  /** The export of these lines, ending with the signed checkpoint. */
  const bytesOf = (ls: string[]) => new TextEncoder().encode([...ls, checkpoint].join(""));
  const everyone = () => `${alice.key.fingerprint},${bob.key.fingerprint},${installation}`;
  const parse = (l: string) => JSON.parse(l) as Line;
  const serialise = (doc: Line) => `${new TextDecoder().decode(canonicalBytes(doc, "line"))}\n`;

  /** Edits a line and re-signs it correctly with `key` (digest recomputed): only the semantic checks remain. */
  function resigned(l: string, key: ReviewerKeyFile, edit: (doc: Line) => void): string {
    const doc = parse(l);
    edit(doc);
    doc.decision.candidate_sha256 = sha256Hex(canonicalBytes(doc.candidate, "candidate"));
    const { signature: _s, ...unsigned } = doc.decision;
    doc.decision = signRecord({ ...unsigned, reviewer: { name: key.name, fingerprint: key.key.fingerprint, public_key: Buffer.from(key.key.publicKey).toString("hex") } }, key.key);
    recordFromJson(parseStrictJson(JSON.stringify(doc.decision)));
    return serialise(doc);
  }

  function problemOf(ls: string[], trust?: string): string | undefined {
    const r = verifyExportBytes(bytesOf(ls), { trust: parseTrustList(trust ?? everyone()) });
    return r.lines.find((l) => !l.ok)?.problem;
  }

  test("an untouched export verifies when its keys are pinned, and lists its signing keys and checkpoint", () => {
    const r = verifyExportBytes(bytesOf(lines), { trust: parseTrustList(everyone()) });
    expect(r.ok).toBe(true);
    expect(r.lines.map((l) => [l.line, l.ok, l.reviewer?.name])).toEqual([
      [1, true, "alice"],
      [2, true, "bob"],
    ]);
    expect(r.keys).toEqual([
      { fingerprint: alice.key.fingerprint, names: ["alice"], trusted: true },
      { fingerprint: bob.key.fingerprint, names: ["bob"], trusted: true },
    ]);
    expect(r.checkpoint).toEqual({ ok: true, records: 2, head_sha256: loadReviewLog(home).head, signer: installation, pinned: true });
    expect(verifyExportBytes(new Uint8Array(0)).ok).toBe(false);
    expect(verifyExportBytes(new Uint8Array(0)).checkpoint.problem).toMatch(/no signed checkpoint/);
  });

  test("without a trust list nothing is verified: valid signatures by unpinned keys are reported as such", () => {
    const r = verifyExportBytes(bytesOf(lines));
    expect(r.ok).toBe(false);
    expect(r.lines.every((l) => !l.ok && l.unpinned === true)).toBe(true);
    expect(r.lines[0].problem).toBe(
      `valid signature by ${alice.key.fingerprint} (alice), a key you have not pinned: compare the fingerprint out of band, then pass it with --trust`,
    );
    expect(r.keys.map((k) => k.trusted)).toEqual([false, false]);
    expect(r.checkpoint.ok).toBe(false);
    expect(r.checkpoint.pinned).toBe(false);
  });

  test("a trust list accepts only the listed keys", () => {
    const r = verifyExportBytes(bytesOf(lines), { trust: parseTrustList(`${alice.key.fingerprint},${installation}`) });
    expect(r.ok).toBe(false);
    expect(r.lines[0].ok).toBe(true);
    expect(r.lines[1].unpinned).toBe(true);
    expect(r.keys.map((k) => k.trusted)).toEqual([true, false]);
    expect(verifyExportBytes(bytesOf(lines), { trust: parseTrustList(`${alice.key.fingerprint}, ${bob.key.fingerprint}`) }).ok).toBe(false);
    expect(verifyExportBytes(bytesOf(lines), { trust: parseTrustList(everyone()) }).ok).toBe(true);
    expect(() => parseTrustList(`${alice.key.fingerprint},ed25519:abc`)).toThrow("--trust: entry 2 is not a fingerprint (ed25519: and 64 lowercase hexadecimal digits)");
  });

  test.each<[string, (l: string) => string, string]>([
    [
      "a candidate edited after approval",
      (l) => serialise(Object.assign(parse(l), { candidate: { ...parse(l).candidate, origin_answer: "Confirmed criminal network." } })),
      "the candidate's SHA-256 differs from decision.candidate_sha256: the candidate is not the approved bytes",
    ],
    [
      "a damaged signature",
      (l) => l.replace(/"signature":"(.)/, (_m, c: string) => `"signature":"${c === "0" ? "1" : "0"}`),
      "decision: the signature does not verify with reviewer.public_key (the record was modified after signing, or signed with another key)",
    ],
    ["a pretty-printed line", (l) => `${JSON.stringify(JSON.parse(l), null, 0).replace('{"', '{ "')}\n`, "not in canonical form (the line was edited or re-serialised)"],
    ["an extra member", (l) => serialise(Object.assign(parse(l), { extra: 1 })), "expected exactly candidate, decision and schema_version"],
    ["another schema", (l) => serialise(Object.assign(parse(l), { schema_version: "x/v9" })), 'schema_version: expected "evidence-bridge-review-export/v1"'],
    ["not JSON", () => "{]\n", "not strict JSON (syntax)"],
    ["an empty line", () => "\n", "empty line"],
  ])("%s is named", (_what, edit, problem) => {
    expect(problemOf([edit(lines[0]), lines[1]])).toBe(problem);
  });

  test.each<[string, (doc: Line) => void, string]>([
    ["a rejection", (d) => (d.decision.decision = "REJECTED"), "decision.decision is REJECTED; an export holds approvals only"],
    ["another capsule", (d) => (d.candidate.capsule_sha256 = sha256Hex("other")), "candidate.capsule_sha256: differs from decision.capsule_sha256"],
    ["another view", (d) => (d.decision.typology_match_visible = true), "candidate.feed_policy.typology_match_visible: differs from decision.typology_match_visible"],
    ["automatic publication", (d) => ((d.candidate.feed_policy as Record<string, unknown>).automatic_publication = true), "candidate.feed_policy: expected {automatic_publication: false, typology_match_visible: true|false}"],
    ["an approved review status inside the candidate", (d) => (d.candidate.review_status = "APPROVED_FOR_RELEASE"), 'candidate.review_status: expected "HUMAN_REVIEW_REQUIRED"'],
    ["an exact timestamp", (d) => (d.candidate.created_at = "2026-08-20T09:07:01Z"), "candidate.created_at: expected a UTC hour, YYYY-MM-DDTHH:00:00Z"],
    ["a bidi control", (d) => (d.candidate.origin_answer = "a\u202eb"), "candidate.origin_answer contains U+202E"],
    ["an unknown candidate member", (d) => (d.candidate.raw_text = "x"), "candidate: unknown member (candidates are closed objects)"],
  ])("a correctly re-signed line with %s is still refused", (_what, edit, problem) => {
    expect(problemOf([resigned(lines[0], alice, edit), lines[1]])).toBe(problem);
  });

  test("a duplicated line and a cut file are named", () => {
    expect(problemOf([lines[0], lines[1], lines[0]])).toBe("the same approved candidate as line 1");
    const r = verifyExportBytes(new TextEncoder().encode([lines[0], lines[1].slice(0, -10)].join("")), { trust: parseTrustList(everyone()) });
    expect(r.lines[1]).toEqual({ line: 2, ok: false, problem: "incomplete last line (no final newline): the file was cut" });
    expect(r.checkpoint.problem).toMatch(/no signed checkpoint as its last line/);
  });

  test("a decision that is not the record at its position of the checkpointed log is refused", () => {
    const forged = resigned(lines[0], alice, (d) => ((d.decision as ReviewRecordV2).public_note = "changed after the export"));
    expect(problemOf([forged, lines[1]])).toBe("decision record #1 is not the record at that position of the log the checkpoint describes");
  });

  test("an edited checkpoint fails its signature; a missing one is named", () => {
    const edited = checkpoint.replace(/"records":2/, '"records":1').replace(/,"[0-9a-f]{64}"\]/, "]");
    const r = verifyExportBytes(new TextEncoder().encode([...lines, edited].join("")), { trust: parseTrustList(everyone()) });
    expect(r.ok).toBe(false);
    expect(r.checkpoint.problem).toMatch(/^checkpoint(\.head_sha256: is not the digest of the last record|: the signature does not verify)/);
    const none = verifyExportBytes(new TextEncoder().encode(lines.join("")), { trust: parseTrustList(everyone()) });
    expect(none.ok).toBe(false);
  });
});
