/** The quick-start main job: the synthetic example goes through the whole private pipeline and nothing leaks. */
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, utimesSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { sha256Hex } from "../../../src/hash.js";
import { repoRoot } from "../../helpers/shared.js";


/** The candidate JSON inside the labelled `review show` output the demo prints (indented by four spaces). */
function shownBlock(text: string): string {
  const lines = text.split("\n");
  const from = lines.findIndex((l) => l.startsWith("    capsule "));
  const to = lines.findIndex((l, i) => i > from && l === "");
  return lines.slice(from, to).map((l) => l.slice(4)).join("\n");
}

function shownCandidate(text: string): Record<string, unknown> {
  const block = shownBlock(text);
  return JSON.parse(block.slice(block.indexOf("\n{") + 1)) as Record<string, unknown>;
}

test("demo builds, verifies, seals and prints a HUMAN_REVIEW_REQUIRED candidate without private values", async () => {
  const r = await runCli(["demo"]);
  expect(r.code).toBe(0);
  const text = r.stdout;
  expect(text).toContain("verification: ok=true");
  expect(text).toContain("receipt valid");
  const candidate = shownCandidate(text);
  expect(candidate.review_status).toBe("HUMAN_REVIEW_REQUIRED");
  expect(candidate.ioc_counts).toMatchObject({ handles: 1 });

  const message = readFileSync(`${repoRoot}/examples/synthetic/message.txt`, "utf8");
  const assessment = JSON.parse(readFileSync(`${repoRoot}/examples/synthetic/assessment.json`, "utf8"));
  const secrets = [
    message,
    "@synthetic_recruiter_demo",
    "synthetic_recruiter_demo",
    sha256Hex(message),
    assessment.message_sha256 as string,
    assessment.collection.source_pseudonym as string,
    "Rent your bank account",
  ];
  for (const secret of secrets) {
    expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
    expect(r.stderr.toLowerCase()).not.toContain(secret.toLowerCase());
  }
});

test("demo prints the candidate exactly as 'review show' does by default; --keep leaves a directory where capsule list, feed and review list work", async () => {
  const r = await runCli(["demo", "--keep"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/as a reviewer sees it by default/);
  const home = /^kept the demo data directory \(synthetic pack installed\): (.+)$/m.exec(r.stdout)![1];
  try {
    expect(r.stdout).toContain(`export EVIDENCE_BRIDGE_HOME=${home}`);
    const env = { EVIDENCE_BRIDGE_HOME: home };
    const id = /^2\. capsule +([0-9a-f]{64})$/m.exec(r.stdout)![1];
    const shown = await runCli(["review", "show", id.slice(0, 6)], { env });
    expect(shown.code).toBe(0);
    expect(`${shownBlock(r.stdout)}\n`).toBe(shown.stdout);
    expect(shownCandidate(r.stdout).feed_policy).toMatchObject({ typology_match_visible: false });
    for (const args of [["capsule", "list"], ["feed"], ["review", "list"]]) {
      const c = await runCli(args, { env });
      expect(c.code, `${args.join(" ")}: ${c.stderr}`).toBe(0);
      expect(c.stdout).toMatch(id.slice(0, 12));
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});

test("npm run demo does not rebuild when the bundle is newer than every source", () => {
  const bundle = join(repoRoot, "dist/bundle/bin.js");
  const future = new Date(Date.now() + 60_000);
  utimesSync(bundle, future, future);
  const r = spawnSync(process.execPath, [join(repoRoot, "scripts/demo.mjs")], { cwd: repoRoot, encoding: "utf8", env: { ...process.env } });
  expect(r.status).toBe(0);
  expect(r.stderr).not.toMatch(/demo: building/);
  expect(r.stdout).toMatch(/evidence-bridge demo: synthetic example/);
});
