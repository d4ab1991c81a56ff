/** The quick-start main job: the synthetic example goes through the whole private pipeline and nothing leaks. */
import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { sha256Hex } from "../../../src/hash.js";
import { repoRoot } from "../../helpers/shared.js";


test("demo builds, verifies, seals and prints a HUMAN_REVIEW_REQUIRED candidate without private values", async () => {
  const r = await runCli(["demo"]);
  expect(r.code).toBe(0);
  const text = r.stdout;
  expect(text).toContain("verification: ok=true");
  expect(text).toContain("receipt valid");
  const candidateLine = text.trim().split("\n").at(-1)!;
  const candidate = JSON.parse(candidateLine) as Record<string, unknown>;
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
