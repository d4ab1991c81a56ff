/** `capsule verify` says whether this installation holds a valid detached receipt; --json stays the exact report. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, test } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { repoRoot } from "../../helpers/shared.js";

const dir = mkdtempSync(join(tmpdir(), "eb-verify-receipt-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const ex = join(repoRoot, "examples/synthetic");
const home = join(dir, "home");

async function buildInto(h: string): Promise<{ file: string; id: string }> {
  const r = await runCli(["--home", h, "--pack", join(ex, "intelligence-pack.json"), "capsule", "build"], {
    stdin: readFileSync(join(ex, "assessment.json")),
  });
  expect(r.code, r.stderr).toBe(0);
  const file = join(dir, "capsule.json");
  writeFileSync(file, r.out);
  return { file, id: JSON.parse(r.stdout).content_sha256 as string };
}

test("valid receipt in the store that built it; none elsewhere; INVALID when tampered", async () => {
  const { file, id } = await buildInto(home);
  const here = await runCli(["--home", home, "capsule", "verify", file]);
  expect(here.code).toBe(0);
  expect(here.stdout).toContain("receipt: valid, signed by this installation (sealed in this store)");

  const elsewhere = await runCli(["--home", join(dir, "other"), "capsule", "verify", file]);
  expect(elsewhere.code).toBe(0);
  expect(elsewhere.stdout).toMatch(/receipt: not available: no store keys/);

  const receipt = join(home, "store", "capsules", `${id}.receipt`);
  const bytes = readFileSync(receipt);
  bytes[bytes.length - 3] ^= 0x01;
  writeFileSync(receipt, bytes);
  const tampered = await runCli(["--home", home, "capsule", "verify", file]);
  expect(tampered.stdout).toContain("receipt: INVALID");

  rmSync(receipt);
  const missing = await runCli(["--home", home, "capsule", "verify", file]);
  expect(missing.stdout).toContain("receipt: none from this installation (sealed in this store)");

  const json = await runCli(["--home", home, "capsule", "verify", "--json", file]);
  expect(json.stdout).not.toContain("receipt");
  expect(Object.keys(JSON.parse(json.stdout))[0]).toBe("ok");
});
