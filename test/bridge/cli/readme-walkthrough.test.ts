/** The README's review walkthrough, command for command, on the synthetic example (keeps the README honest). */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { repoRoot } from "../../helpers/shared.js";

const dir = mkdtempSync(join(tmpdir(), "eb-readme-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("build → keys init --reviewer → list → show → approve → log --verify → export → verify-export", async () => {
  const ex = join(repoRoot, "examples/synthetic");
  const g = ["--home", join(dir, "home"), "--pack", join(ex, "intelligence-pack.json")];
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const prefix = /evidence-bridge review show ([0-9a-f]{6,})/.exec(readme)?.[1];
  expect(prefix, "README names a capsule id prefix").toBeDefined();

  const build = await runCli([...g, "capsule", "build", "--message-file", join(ex, "message.txt")], {
    stdin: readFileSync(join(ex, "assessment.json")),
  });
  expect(build.code, build.stderr).toBe(0);
  expect(JSON.parse(build.stdout).content_sha256.startsWith(prefix!), "README prefix matches the synthetic capsule").toBe(true);

  const alice = await runCli([...g, "keys", "init", "--reviewer", "alice"]);
  expect(alice.code).toBe(0);
  const aliceFp = /reviewer key: (ed25519:[0-9a-f]{64})/.exec(alice.stdout)![1];
  const installationFp = /signing key: (ed25519:[0-9a-f]{64})/.exec((await runCli([...g, "keys", "show"])).stdout)![1];
  const list = await runCli([...g, "review", "list"]);
  expect(list.stdout).toContain(prefix!);
  expect(list.stdout).toContain("HUMAN_REVIEW_REQUIRED");
  expect((await runCli([...g, "review", "show", prefix!])).code).toBe(0);
  const approve = await runCli([...g, "review", "approve", prefix!, "--reason", "corroborated", "--public-note", "Synthetic example checked"]);
  expect(approve.code, approve.stderr).toBe(0);
  expect((await runCli([...g, "review", "log", "--verify"])).code).toBe(0);
  const out = join(dir, "approved.jsonl");
  const exp = await runCli([...g, "review", "export", "--out", out]);
  expect(exp.code, exp.stderr).toBe(0);
  expect((await runCli([...g, "review", "verify-export", out])).code).toBe(1); // nothing pinned: nothing verified
  const verify = await runCli([...g, "review", "verify-export", out, "--trust", `${aliceFp},${installationFp}`]);
  expect(verify.code, verify.stderr).toBe(0);
  expect(verify.stdout).toContain("1 of 1 approved candidate verified");
});
