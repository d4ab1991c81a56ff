/** `evidence-bridge readings check-ledger --manifest FILE --ledger FILE` over the published files and tampered copies. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, expect, test } from "vitest";
import { checkLedger } from "../../../bridge/cli/commands/readings.js";
import { CliError, type CliIo } from "../../../bridge/cli/context.js";
import { describeShared, readShared, sharedPath } from "../../helpers/shared.js";

const dir = mkdtempSync(join(tmpdir(), "eb-readings-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const M = () => sharedPath("data", "published", "readings", "china-econ-observations-latest.json");
const L = () => sharedPath("data", "published", "readings", "china-econ-observations.jsonl");

async function run(args: string[], env: NodeJS.ProcessEnv = {}, globalFlags: Record<string, string> = {}) {
  const stdout = new PassThrough();
  const chunks: Buffer[] = [];
  stdout.on("data", (d: Buffer) => chunks.push(d));
  const io: CliIo = { stdin: new PassThrough(), stdout, stderr: new PassThrough(), env };
  const code = await checkLedger.run(args, { io, globalFlags });
  await new Promise((r) => setImmediate(r));
  return { code, stdout: Buffer.concat(chunks).toString("utf8") };
}

describeShared("readings check-ledger", () => {
  test("the published manifest and ledger verify: exit 0", async () => {
    const r = await run(["--manifest", M(), "--ledger", L()]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/: verified against .*: 1958 rows, 1719467 bytes, sha256 507c98e3[0-9a-f]+f9b8\n/);
    expect(r.stdout).toContain("byte consistency only, not publisher authentication");
    const json = JSON.parse((await run(["--manifest", M(), "--ledger", L(), "--json"])).stdout);
    expect(json).toMatchObject({ ok: true, source: { rows: 1958, checksum_integrity: "verified_against_fixed_manifest" }, pinned_base_source: "manifest" });
  });

  test("a tampered copy: exit 1, the stage and the server's message", async () => {
    const tampered = Buffer.from(readShared("data", "published", "readings", "china-econ-observations.jsonl"));
    tampered[100] ^= 1;
    const file = join(dir, "tampered.jsonl");
    writeFileSync(file, tampered);
    const r = await run(["--manifest", M(), "--ledger", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(`${file}: FAILED (receipt): observation ledger SHA-256 does not match the fixed manifest\n`);
    const json = JSON.parse((await run(["--manifest", M(), "--ledger", file, "--json"])).stdout);
    expect(json).toEqual({
      ok: false,
      error: { type: "economic_checksum_integrity_failed", stage: "receipt", message: "observation ledger SHA-256 does not match the fixed manifest" },
      checksum_integrity: "failed",
      no_partial_rows: true,
    });
  });

  test("the pinned base: the flag, then the configured --base-url, else the manifest's own", async () => {
    const mirror = await run(["--manifest", M(), "--ledger", L(), "--pinned-base", "https://mirror.example/"]);
    expect(mirror.code).toBe(1);
    expect(mirror.stdout).toContain("FAILED (manifest): observation manifest pins an unexpected artifact URL");
    expect((await run(["--manifest", M(), "--ledger", L()], { EVIDENCE_BRIDGE_BASE_URL: "http://127.0.0.1:9" })).code).toBe(1);
    expect((await run(["--manifest", M(), "--ledger", L()], {}, { "base-url": "http://127.0.0.1:9" })).code).toBe(1);
  });

  test("an oversized ledger fails the check with the server's size message, reading only past the cap", async () => {
    const big = join(dir, "big.jsonl");
    writeFileSync(big, Buffer.alloc(9_000_000, 0x20));
    const r = await run(["--manifest", M(), "--ledger", big]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("FAILED (receipt): published observation ledger exceeds 8388608 bytes");
  });

  test("usage errors and unreadable files: exit 2", async () => {
    const err = async (args: string[]) => {
      const e = await run(args).then(
        () => undefined,
        (x: unknown) => x,
      );
      expect(e).toBeInstanceOf(CliError);
      expect((e as CliError).exitCode).toBe(2);
      return (e as Error).message;
    };
    expect(await err(["--manifest", M()])).toMatch(/--manifest FILE and --ledger FILE are required/);
    expect(await err(["--manifest", M(), "--ledger", join(dir, "none.jsonl")])).toMatch(/none\.jsonl: cannot read: ENOENT$/);
    expect(await err(["--manifest", M(), "--ledger", L(), "--pinned-base", "ftp://x.example"])).toBe("--pinned-base: only http and https URLs are allowed");
    expect(await err(["--manifest", M(), "--ledger", L(), "extra"])).toMatch(/extra/);
  });
});
