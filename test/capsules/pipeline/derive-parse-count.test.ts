/**
 * Issue 14: each input is strictly parsed at most once per command. The CLI runs in process with an observer on
 * parseStrictJson; texts are told apart by a digest prefix and named in messages by their length only, never their
 * content. Covered: feed, review show, review approve and review export (JSONL and STIX), on a store without derivation rows (every
 * capsule derived once) and again over the cache (no capsule parsed at all).
 * The intelligence pack is one of the inputs: it too is parsed once.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { observeStrictParses } from "../../../src/json/parse.js";
import { describeShared } from "../../helpers/shared.js";
import { runCli } from "../../helpers/cli.js";
import { exampleCapsule, exampleCapsules, PACK_FILE, removeHomes, storeWith, tempHome } from "../feed/store-fixtures.js";
import { cli } from "../review/cli-run.js";

afterAll(removeHomes);

const tag = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 12);

interface Counted {
  code: number;
  stderr: string;
  /** Texts parsed more than once, as `<length> B ×<n>`. */
  repeated: string[];
  /** Parses of stored capsule texts (each capsule file of the fixture store). */
  capsuleParses: number;
}

describeShared("one strict parse per input and command", () => {
  test("feed, review show, approve and export parse each text at most once, and no capsule over the cache", { timeout: 120_000 }, async () => {
    const capsules = exampleCapsules();
    const capsuleTags = new Set(capsules.map((c) => tag(new TextDecoder().decode(c.bytes))));
    const { home } = await storeWith("parse-count", capsules);
    expect((await cli(["--home", home, "keys", "init", "--reviewer", "alice"])).code).toBe(0);
    const out = tempHome("parse-count-out");

    async function counted(args: string[]): Promise<Counted> {
      const seen = new Map<string, { length: number; n: number }>();
      observeStrictParses((text) => {
        const t = tag(text);
        const e = seen.get(t) ?? { length: text.length, n: 0 };
        e.n++;
        seen.set(t, e);
      });
      let r;
      try {
        r = await runCli(["--home", home, "--pack", PACK_FILE, ...args]);
      } finally {
        observeStrictParses(undefined);
      }
      const repeated = [...seen].filter(([t, e]) => e.n > 1).map(([, e]) => `${e.length} B ×${e.n}`);
      const capsuleParses = [...seen].filter(([t]) => capsuleTags.has(t)).reduce((n, [, e]) => n + e.n, 0);
      return { code: r.code, stderr: r.stderr.slice(0, 300), repeated, capsuleParses };
    }

    const id = exampleCapsule("03").id;
    // No derivation rows yet: review show derives the capsule once (both views from one derivation).
    const coldShow = await counted(["review", "show", id]);
    expect(coldShow).toMatchObject({ code: 0, repeated: [] });
    expect(coldShow.capsuleParses).toBe(1);

    const coldFeed = await counted(["feed"]);
    expect(coldFeed).toMatchObject({ code: 0, repeated: [] });
    // Nine capsules derived now; the one review show derived was saved to the cache.
    expect(coldFeed.capsuleParses).toBe(capsules.length - 1);

    for (const args of [
      ["feed"],
      ["feed", "--include-typology-matches", "--include-clean"],
      ["review", "show", id],
      ["review", "approve", id, "--reviewer", "alice", "--reason", "corroborated", "--public-note", "checked against the pack"],
      ["review", "export", "--out", join(out, "export.jsonl")],
      ["review", "export", "--format", "stix", "--out", join(out, "bundle.json")],
    ]) {
      const r = await counted(args);
      const command = args.slice(0, 2).join(" ");
      expect({ command, code: r.code, repeated: r.repeated, capsuleParses: r.capsuleParses }, r.stderr).toEqual({ command, code: 0, repeated: [], capsuleParses: 0 });
    }
  });
});
