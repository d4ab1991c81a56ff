/**
 * Issue 28 item 3, done-when: a reviewer's private note (`--note`) is sealed, shown to reviewers, and never leaves:
 * not in any export format (JSONL, STIX, MISP, CSV), not on the stdout of `review export`, not in the page's export
 * preview, not in any unsealed file of the data directory or the output directory. The public note is the only free
 * text that leaves, and rewritten private values are refused there. Runs on the synthetic example (no ../shared).
 */
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { SEAL_MAGIC } from "../../../src/crypto/seal.js";
import { openStore } from "../../../capsules/store/store.js";
import { loadReviewLog } from "../../../capsules/review/log.js";
import { openPrivateNote } from "../../../capsules/review/private-notes.js";
import { privateNoteDigestOf } from "../../../capsules/review/record.js";
import { buildCapsule, cli, iocs, MESSAGE_A, MESSAGE_B, MESSAGE_C, removeHomes, tempHome } from "../exports/synthetic-store.js";
import { http } from "../../bridge/review-page/http.js";
import { startPage } from "../../bridge/review-page/page-session.js";
import { SYNTHETIC_PACK_FILE } from "../exports/synthetic-store.js";

afterAll(removeHomes);

const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";

/** Every regular file under `dir` that is not a sealed file, with its bytes. */
function unsealedFiles(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    if (st.isDirectory()) out.push(...unsealedFiles(path));
    else if (st.isFile()) {
      const bytes = readFileSync(path);
      if (bytes.subarray(0, SEAL_MAGIC.length).equals(Buffer.from(SEAL_MAGIC))) continue;
      out.push({ path, text: bytes.toString("utf8") });
    }
  }
  return out;
}

describe("private review notes never leave; public notes are guarded", () => {
  test("a private note is shown to reviewers and found in no export, export stdout, page export preview or unsealed file", { timeout: 180_000 }, async () => {
    const home = tempHome("private-note");
    const outDir = tempHome("private-note-out");
    const ids = {
      a: await buildCapsule(home, MESSAGE_A, iocs({ handles: ["@synthetic_recruiter_demo"], wallets: [WALLET] })),
      b: await buildCapsule(home, MESSAGE_B, iocs({ handles: ["@another_synthetic_broker"], phones: ["+44 20 7946 0958"] })),
      c: await buildCapsule(home, MESSAGE_C, iocs({ handles: ["@third_synthetic_desk"] })),
    };
    const canary = `pnc${randomBytes(8).toString("hex")}`;
    const stdout: string[] = [];
    const eb = async (...args: string[]) => {
      const r = await cli(home, args);
      stdout.push(r.stdout, r.stderr);
      return r;
    };
    expect((await eb("keys", "init", "--reviewer", "Alice Example")).code).toBe(0);
    expect((await eb("keys", "init", "--reviewer", "Bob Example")).code).toBe(0);
    const decide = async (verb: string, id: string, reviewer: string, reason: string, note: string, publicNote?: string) => {
      const r = await eb("review", verb, id, "--include-typology-matches", "--reviewer", reviewer, "--reason", reason, "--note", note, ...(publicNote ? ["--public-note", publicNote] : []));
      expect(r.code, r.stderr).toBe(0);
      return r;
    };
    // A private note may hold anything, a private value included: it is sealed, not guarded.
    const approved = await decide("approve", ids.a, "Alice Example", "corroborated", `${canary}-a called ${WALLET} back`, "Matches the pack's account-rental typology.");
    expect(approved.stdout).toContain("reason corroborated; public note recorded (leaves with the export); private note sealed (never exported)");
    await decide("approve", ids.b, "Bob Example", "policy", `${canary}-b second source`);
    await decide("reject", ids.c, "Alice Example", "false-positive", `${canary}-c not a recruiter`, "Not a lead.");

    // Shown to reviewers: review show opens the sealed note.
    const shown = await eb("review", "show", ids.a, "--include-typology-matches");
    expect(shown.stdout).toContain(`private note (never exported): ${canary}-a called ${WALLET} back`);
    expect(shown.stdout).toContain("public note (leaves with the export): Matches the pack's account-rental typology.");
    const shownJson = JSON.parse((await eb("review", "show", ids.c, "--json", "--include-typology-matches")).stdout) as { decisions: { private_note: string; reason: string }[] };
    expect(shownJson.decisions.at(-1)).toMatchObject({ reason: "false-positive", private_note: `${canary}-c not a recruiter` });
    // The log signs a salted digest, and the sealed note opens to the text.
    const store = await openStore({ home, passphrase: undefined });
    const digests = loadReviewLog(home).records.map((e) => privateNoteDigestOf(e.record)!);
    expect(digests).toHaveLength(3);
    expect(openPrivateNote(home, store.keys.store, digests[0])).toEqual({ note: `${canary}-a called ${WALLET} back` });

    // Every export format, and everything they print.
    const out = (n: string) => join(outDir, n);
    for (const args of [["--out", out("leads.jsonl")], ["--format", "stix", "--out", out("bundle.json")], ["--format", "misp", "--out", out("feed")], ["--format", "csv", "--out", out("leads.csv")]]) {
      const r = await eb("review", "export", ...args);
      expect(r.code, r.stderr).toBe(0);
    }
    await eb("review", "log");
    await eb("review", "log", "--json");
    expect((await eb("review", "log", "--verify")).code).toBe(0);
    await eb("review", "list", "--json", "--include-typology-matches");
    expect(readFileSync(out("leads.jsonl"), "utf8")).toContain("Matches the pack's account-rental typology.");
    expect(readFileSync(out("leads.csv"), "utf8")).toContain("Matches the pack's account-rental typology.");
    // The exports' current forms carry the reason and the public note where each format puts the lead: the CSV's
    // review_reason / review_public_note columns, the STIX note's text, the MISP lead `text` attribute (no MISP Note).
    const csvHead = readFileSync(out("leads.csv"), "utf8").split("\r\n")[0].split(",");
    expect(csvHead).toEqual(expect.arrayContaining(["review_reason", "review_public_note", "indicator_kind", "indicator_value", "released_by"]));
    expect(csvHead).not.toContain("review_note");
    const leadLines = ["review reason: corroborated", "reviewer's public note: Matches the pack's account-rental typology."];
    const bundle = JSON.parse(readFileSync(out("bundle.json"), "utf8")) as { objects: { type: string; content?: string }[] };
    const stixNotes = bundle.objects.filter((o) => o.type === "note").map((o) => o.content ?? "");
    expect(stixNotes.some((c) => leadLines.every((l) => c.includes(l)))).toBe(true);
    const feed = readdirSync(out("feed"));
    expect(feed).toEqual(expect.arrayContaining(["manifest.json", "hashes.csv"]));
    const events = feed.filter((n) => n !== "manifest.json" && n !== "hashes.csv").map((n) => JSON.parse(readFileSync(join(out("feed"), n), "utf8")) as { Event: Record<string, unknown> });
    expect(events).toHaveLength(2);
    for (const e of events) expect(Object.keys(e.Event)).not.toContain("Note");
    const leadTexts = events.flatMap((e) => (e.Event.Attribute as { type: string; category: string; value: string }[]).filter((a) => a.type === "text" && a.category === "Other").map((a) => a.value));
    expect(leadTexts.some((t) => leadLines.every((l) => t.includes(l)))).toBe(true);
    expect(leadTexts.some((t) => t.includes("review reason: policy") && !t.includes("public note"))).toBe(true);

    // The page: the reviewer sees the private note; its export preview shows the signed records without it.
    const page = await startPage(["--home", home, "--pack", SYNTHETIC_PACK_FILE, "review", "serve", "--reviewer", "Alice Example"]);
    let candidatePage: string;
    let queuePage: string;
    try {
      candidatePage = (await http(`${page.url}c/${ids.a}?tm=1`)).body;
      queuePage = (await http(page.url)).body;
    } finally {
      await page.stop();
    }
    expect(candidatePage).toContain(`${canary}-a called ${WALLET} back`);
    const preview = /<pre class="export-preview">([\s\S]*?)<\/pre>/.exec(candidatePage);
    expect(preview).not.toBeNull();
    expect(preview![1]).toContain("private_note_sha256");
    expect(preview![1]).toContain("Matches the pack&#39;s account-rental typology.");
    expect(preview![1]).not.toContain(canary);
    expect(queuePage).not.toContain(canary);

    // Nowhere outside the sealed store: every printed line, every export file, every unsealed file of the data
    // directory (the log, the head, positions, the registry, keys, the derivation cache, …).
    const files = [...unsealedFiles(home), ...unsealedFiles(outDir)];
    expect(files.map((f) => f.path)).toEqual(
      expect.arrayContaining([join(home, "review", "log.jsonl"), out("leads.jsonl"), out("leads.csv"), out("bundle.json"), join(out("feed"), "manifest.json"), join(out("feed"), "hashes.csv")]),
    );
    expect(readdirSync(join(home, "review", "notes"))).toHaveLength(3);
    const leaks = files.filter((f) => f.text.includes(canary)).map((f) => f.path);
    expect(leaks).toEqual([]);
    expect(stdout.filter((s) => s.includes(canary)).length).toBe(2); // exactly the two review show runs
  });

  test("rewritten private values of any stored capsule are refused as public notes, never echoed", { timeout: 120_000 }, async () => {
    const home = tempHome("public-note");
    const a = await buildCapsule(home, MESSAGE_A, iocs({ handles: ["@synthetic_recruiter_demo"], wallets: [WALLET] }));
    const b = await buildCapsule(home, MESSAGE_B, iocs({ handles: ["@another_synthetic_broker"], phones: ["+44 20 7946 0958"] }));
    expect((await cli(home, ["keys", "init", "--reviewer", "Alice Example"])).code).toBe(0);
    const before = () => {
      try {
        return readFileSync(join(home, "review", "log.jsonl"));
      } catch {
        return Buffer.alloc(0);
      }
    };
    const log = before();
    for (const [id, rewritten] of [
      [a, "desk SYNTHETIC_RECRUITER_DEMO again"], // case changed, "@" dropped
      [a, `fee wallet ${WALLET.toLowerCase()}`], // case folded
      [b, `same wallet as ${WALLET.slice(2)}`], // prefix dropped, on another capsule's decision
      [b, "call +44 (20) 7946-0958"], // other separators
      [b, "call 442079460958"], // no separators
      [a, "broker: another synthetic broker"], // another capsule's handle, underscores as spaces
    ]) {
      const r = await cli(home, ["review", "approve", id, "--include-typology-matches", "--reason", "corroborated", "--public-note", rewritten]);
      expect([rewritten, r.code]).toEqual([rewritten, 2]);
      expect(r.stderr).toMatch(/^evidence-bridge: review approve: --public-note refused: leak guard: \w+ in the public note/);
      for (const part of rewritten.split(" ").filter((w) => w.length > 8)) expect(r.stderr).not.toContain(part);
    }
    expect(before()).toEqual(log);
    // The same text as a private note is accepted (sealed, not guarded), and the public note stays clean.
    const ok = await cli(home, ["review", "approve", a, "--include-typology-matches", "--reason", "corroborated", "--note", "desk SYNTHETIC_RECRUITER_DEMO again", "--public-note", "Consistent with the cited typology."]);
    expect(ok.code, ok.stderr).toBe(0);
    expect(readdirSync(join(home, "review", "notes"))).toHaveLength(1);
    // A decision the log refuses (the same bytes again) leaves no sealed note behind.
    const again = await cli(home, ["review", "approve", a, "--include-typology-matches", "--reason", "corroborated", "--note", "a second thought"]);
    expect(again.stderr).toContain("a decision on the same bytes is final");
    expect(readdirSync(join(home, "review", "notes"))).toHaveLength(1);
  });
});
