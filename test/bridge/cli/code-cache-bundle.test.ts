/**
 * The published bin with its code cache (docs/startup.md): the cache lands in `<tmpdir>/evidence-bridge-code-cache-*`,
 * a run with the cache prints exactly what the run that wrote it printed, EVIDENCE_BRIDGE_CODE_CACHE=0 leaves
 * nothing behind, and the cache files hold compiled code only: a canary message's text and IOCs never reach them.
 * Needs `npm run build` first (the bundle is what runs).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { describeShared, repoRoot, sharedPath } from "../../helpers/shared.js";
import { childEnv } from "../../helpers/test-env.js";

const BIN = join(repoRoot, "dist/bundle/bin.js");
const PACK = sharedPath("data/intelligence-pack/intelligence-pack-v1.json");
const ASSESSMENT = sharedPath("data/bridge-examples/valid/03-usdt-inr-kitchen-sink-iocs.json");
const CANARY_HANDLE = "@canary_cache_5519";
const CANARY_WALLET = "0x9b1f00c0ffee00000000000000000000000a5519";
const CANARY_TEXT = `CANARY-CACHE-5519 bank accounts on rent 3% commission, DM ${CANARY_HANDLE}, pay ${CANARY_WALLET}`;
const JUDGEMENT = JSON.stringify({
  signals: ["account_rental_offer", "account_sourcing_demand", "commission_share_terms"],
  findings: [],
  surface: "private_submission",
  authorization: "user_submitted",
});

const work = mkdtempSync(join(tmpdir(), "eb-code-cache-bundle-"));
beforeAll(() => {
  if (!existsSync(BIN)) throw new Error("run npm run build first: dist/bundle/bin.js is missing");
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

let n = 0;
function run(args: string[], input: string | Buffer, env: Record<string, string> = {}): { tmp: string; stdout: Buffer } {
  const tmp = join(work, `tmp-${n++}`);
  mkdirSync(tmp);
  return { tmp, stdout: runIn(tmp, args, input, env) };
}

function runIn(tmp: string, args: string[], input: string | Buffer, env: Record<string, string> = {}): Buffer {
  return execFileSync(process.execPath, [BIN, ...args], { input, env: childEnv({ TMPDIR: tmp, ...env }), stdio: ["pipe", "pipe", "pipe"] });
}

function cacheFiles(tmp: string): string[] {
  const dirs = readdirSync(tmp).filter((d) => d.startsWith("evidence-bridge-code-cache"));
  return dirs.flatMap((d) => readdirSync(join(tmp, d)).map((f) => join(tmp, d, f)));
}

describeShared("the bundle's code cache", () => {
  test("capsule build --no-store writes its cache on the first run and prints the same capsule with it", () => {
    const input = readFileSync(ASSESSMENT);
    const args = ["--home", join(work, "home-build"), "--pack", PACK, "capsule", "build", "--no-store"];
    const { tmp, stdout: first } = run(args, input);
    const files = cacheFiles(tmp);
    expect(files.map((f) => f.slice(f.lastIndexOf("/") + 1))).toEqual([expect.stringMatching(/^capsule-build-[0-9a-f]{12}-[0-9a-f]{32}\.v8$/)]);
    const written = statSync(files[0]).ino;
    expect(runIn(tmp, args, input).equals(first)).toBe(true);
    // The second run used the cache: it did not write it again (a write renames a new file into place).
    expect(statSync(files[0]).ino).toBe(written);
    expect(cacheFiles(tmp)).toEqual(files);
  });

  test("EVIDENCE_BRIDGE_CODE_CACHE=0: no cache directory, same output", () => {
    const input = readFileSync(ASSESSMENT);
    const args = ["--home", join(work, "home-off"), "--pack", PACK, "capsule", "build", "--no-store"];
    const { tmp, stdout } = run(args, input, { EVIDENCE_BRIDGE_CODE_CACHE: "0" });
    expect(readdirSync(tmp)).toEqual([]);
    expect(stdout.equals(run(args, input).stdout)).toBe(true);
  });

  test("a canary message's text, handle and wallet never reach the cache files", () => {
    const message = join(work, "canary.txt");
    writeFileSync(message, CANARY_TEXT);
    const args = ["--home", join(work, "home-canary"), "--pack", PACK, "capsule", "assess", "--message-file", message];
    const { tmp } = run(args, JUDGEMENT);
    runIn(tmp, [...args, "--supersede"], JUDGEMENT);
    const files = cacheFiles(tmp);
    expect(files.length).toBe(1);
    const bytes = readFileSync(files[0]);
    expect(bytes.length).toBeGreaterThan(10_000);
    for (const needle of ["CANARY-CACHE-5519", CANARY_HANDLE, CANARY_WALLET, "canary_cache_5519"]) {
      for (const encoding of ["utf8", "utf16le"] as const) expect(bytes.includes(Buffer.from(needle, encoding)), `${needle} (${encoding})`).toBe(false);
    }
    // The scan can fail: the cache does hold the bundle's own string literals.
    expect(bytes.includes(Buffer.from("evidence-bridge"))).toBe(true);
  });
});
