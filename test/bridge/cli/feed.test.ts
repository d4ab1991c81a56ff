/**
 * `evidence-bridge feed` end to end (in process): JSONL on stdout in the documented order, exit 0/1/2, withheld
 * capsules reported on stderr (text or JSON), nothing on stdout after an error, progress only on a terminal.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { deriveCandidate } from "../../helpers/derive.js";
import { describeShared } from "../../helpers/shared.js";
import { exampleCapsules, leakGuardCapsule, PACK_FILE, removeHomes, storeWith, tempHome, testPack } from "../../capsules/feed/store-fixtures.js";
import { cli } from "../../capsules/review/cli-run.js";

afterAll(removeHomes);

function expectedFeed(includeTypologyMatches: boolean, includeClean: boolean): string {
  const lines = exampleCapsules()
    .map((c) => deriveCandidate(c.bytes, testPack(), { includeTypologyMatches, includeClean }))
    .flatMap((r) => (r.status === "emitted" ? [{ key: `${r.candidate.created_at}\0${r.candidate.capsule_sha256}`, text: new TextDecoder().decode(r.bytes) }] : []));
  return lines
    .sort((a, b) => (a.key < b.key ? -1 : 1))
    .map((l) => `${l.text}\n`)
    .join("");
}

describeShared("feed command", () => {
  test("prints every candidate as canonical JSONL in created_at-hour then capsule-id order; CLEAN excluded is noted on stderr", async () => {
    const { home } = await storeWith("cli-feed", exampleCapsules());
    const r = await cli(["--home", home, "--pack", PACK_FILE, "feed"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedFeed(false, false));
    expect(r.stdout.split("\n")).toHaveLength(10);
    expect(r.stderr).toBe("feed: 9 candidates emitted from 10 capsules; 1 CLEAN excluded (--include-clean shows them); 0 withheld\n");
  });

  test("--include-typology-matches and --include-clean select the analyst view and the CLEAN candidates", async () => {
    const { home } = await storeWith("cli-feed", exampleCapsules());
    const r = await cli(["--home", home, "--pack", PACK_FILE, "feed", "--include-typology-matches", "--include-clean"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedFeed(true, true));
    expect(r.stderr).toBe("");
  });

  test("withheld candidates are left out, counted and explained on stderr, exit 1; --json-errors gives one JSON object", async () => {
    const leaky = leakGuardCapsule();
    const { home } = await storeWith("cli-feed", [...exampleCapsules(), leaky]);
    const r = await cli(["--home", home, "--pack", PACK_FILE, "feed", "--include-clean"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(expectedFeed(false, true));
    expect(r.stderr).toBe(
      "feed: 10 candidates emitted from 11 capsules; 0 CLEAN excluded; 1 withheld\n" +
        `feed: withheld 1: leak guard: ioc_value in candidate.limitations[0] (capsule ${leaky.id.slice(0, 12)})\n`,
    );
    const j = await cli(["--home", home, "--pack", PACK_FILE, "feed", "--json-errors"]);
    expect(j.code).toBe(1);
    expect(j.stdout).toBe(expectedFeed(false, false));
    expect(JSON.parse(j.stderr)).toEqual({
      status: "withheld",
      capsules: 11,
      emitted: 9,
      excluded_clean: 1,
      withheld: [{ reason: "leak guard: ioc_value in candidate.limitations[0]", capsules: [leaky.id] }],
    });
    expect(j.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr + j.stderr).not.toMatch(/analytical|usdt_kitchen|98765/i);
  });

  test("a damaged sealed capsule: nothing on stdout, exit 2, one stderr line naming the capsule (also as JSON)", async () => {
    const { home, store } = await storeWith("cli-feed", exampleCapsules());
    const victim = store.capsuleIds()[8];
    const file = join(store.layout.capsules, `${victim}.sealed`);
    const bytes = readFileSync(file);
    bytes[60] ^= 1;
    writeFileSync(file, bytes);
    const r = await cli(["--home", home, "--pack", PACK_FILE, "feed"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")).toHaveLength(2);
    expect(r.stderr).toMatch(new RegExp(`^evidence-bridge: feed: capsule ${victim}: .*; nothing was printed\\n$`));
    const j = await cli(["--home", home, "--pack", PACK_FILE, "feed", "--json-errors"]);
    expect(j.code).toBe(2);
    expect(j.stdout).toBe("");
    const doc = JSON.parse(j.stderr) as { status: string; capsule_sha256: string; error: string };
    expect(doc.status).toBe("error");
    expect(doc.capsule_sha256).toBe(victim);
    expect(doc.error).toContain(victim);
  });

  test("no store yet: empty output, exit 0; no pack: exit 2 with the reason", async () => {
    const home = tempHome("cli-feed");
    expect(await cli(["--home", home, "--pack", PACK_FILE, "feed"])).toEqual({ code: 0, stdout: "", stderr: "" });
    // The data directory now remembers that pack (published/pack/home-pack.ts), so no flag is needed any more.
    expect(await cli(["--home", home, "feed"])).toEqual({ code: 0, stdout: "", stderr: "" });
    const r = await cli(["--home", tempHome("cli-feed-nopack"), "feed"]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/^evidence-bridge: feed: no intelligence pack in the data directory .*: run 'evidence-bridge pack fetch'/);
    const bad = await cli(["--home", home, "--pack", join(home, "missing.json"), "feed"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^evidence-bridge: feed: intelligence pack: pack: cannot read intelligence pack/);
  });

  test("progress goes to stderr only when it is a terminal; stdout is unchanged", async () => {
    const { home } = await storeWith("cli-feed", exampleCapsules());
    const r = await cli(["--home", home, "--pack", PACK_FILE, "feed", "--include-clean"], { stderrTTY: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(expectedFeed(false, true));
    expect(r.stderr).toBe("\r\x1b[Kfeed: 10/10 capsules\r\x1b[K");
  });

  test("usage errors and help", async () => {
    const r = await cli(["feed", "--limit", "3"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^evidence-bridge: Unknown option '--limit'/);
    const h = await cli(["feed", "--help"]);
    expect(h.code).toBe(0);
    expect(h.stdout).toContain("Order: by created_at (already truncated to the hour, UTC), oldest first, then by capsule_sha256.");
  });
});
