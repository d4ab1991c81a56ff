/** The quick-start main job: the synthetic example goes through the whole private pipeline and nothing leaks. */
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { expect, test } from "vitest";
import type { CliIo } from "../../../bridge/cli/context.js";
import { main } from "../../../bridge/cli/main.js";
import { sha256Hex } from "../../../src/hash.js";
import { repoRoot } from "../../helpers/shared.js";

function capture(): { io: CliIo; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const o: Buffer[] = [];
  const e: Buffer[] = [];
  stdout.on("data", (c: Buffer) => o.push(c));
  stderr.on("data", (c: Buffer) => e.push(c));
  return {
    io: { stdin: new PassThrough(), stdout, stderr, env: {} },
    out: () => Buffer.concat(o).toString("utf8"),
    err: () => Buffer.concat(e).toString("utf8"),
  };
}

test("demo builds, verifies, seals and prints a HUMAN_REVIEW_REQUIRED candidate without private values", async () => {
  const { io, out, err } = capture();
  expect(await main(["demo"], io)).toBe(0);
  const text = out();
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
    expect(err().toLowerCase()).not.toContain(secret.toLowerCase());
  }
});
