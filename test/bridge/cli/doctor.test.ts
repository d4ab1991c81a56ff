/** `doctor`: reports configuration, keys, pack and upstream drift without printing secrets. */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, expect, test } from "vitest";
import type { CliIo } from "../../../bridge/cli/context.js";
import { main } from "../../../bridge/cli/main.js";
import { startHostedDouble, type HostedDouble } from "../../double/hosted-server.js";
import { describeShared, repoRoot } from "../../helpers/shared.js";

function capture(env: NodeJS.ProcessEnv = {}): { io: CliIo; out: () => string; err: () => string } {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const o: Buffer[] = [];
  const e: Buffer[] = [];
  stdout.on("data", (c: Buffer) => o.push(c));
  stderr.on("data", (c: Buffer) => e.push(c));
  return { io: { stdin: new PassThrough(), stdout, stderr, env }, out: () => Buffer.concat(o).toString(), err: () => Buffer.concat(e).toString() };
}

const home = mkdtempSync(join(tmpdir(), "eb-doctor-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

test("without configuration every optional part says 'not configured' and the exit code is 0", async () => {
  const { io, out } = capture();
  expect(await main(["--home", join(home, "absent"), "doctor"], io)).toBe(0);
  expect(out()).toContain("[not-configured] hosted tool server");
  expect(out()).toContain("[not-configured] intelligence pack");
  expect(out()).toContain("[not-configured] data directory and keys");
});

test("keys are described by fingerprint and mode; no key bytes are printed", async () => {
  const c = capture();
  expect(await main(["--home", home, "keys", "init"], c.io)).toBe(0);
  const { io, out } = capture();
  expect(await main(["--home", home, "--pack", join(repoRoot, "examples/synthetic/intelligence-pack.json"), "doctor"], io)).toBe(0);
  expect(out()).toMatch(/\[ok\] data directory and keys/);
  expect(out()).toMatch(/\[ok\] intelligence pack[\s\S]*version synthetic-2026-11\.1/);
  const keyDir = join(home, "keys");
  for (const name of readdirSync(keyDir)) {
    const secretHex = readFileSync(join(keyDir, name), "utf8").split("\n")[1];
    if (secretHex) expect(out()).not.toContain(secretHex);
  }
});

test("a key file readable by others is a failure with exit 1 and a fix", async () => {
  const { chmodSync } = await import("node:fs");
  const dir = mkdtempSync(join(tmpdir(), "eb-doctor-perm-"));
  try {
    expect(await main(["--home", dir, "keys", "init"], capture().io)).toBe(0);
    chmodSync(join(dir, "keys", "store.key"), 0o644);
    const { io, out } = capture();
    expect(await main(["--home", dir, "doctor"], io)).toBe(1);
    expect(out()).toContain("[fail] data directory and keys");
    expect(out()).toContain("chmod 600");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describeShared("doctor against the hosted double", () => {
  let double: HostedDouble;
  beforeAll(async () => {
    double = await startHostedDouble({ toolset: "current" });
  });
  afterAll(async () => double.close());

  test("reachable upstream with the current seven tools: no drift", async () => {
    const { io, out } = capture();
    expect(await main(["--home", home, "--mcp-url", double.url, "doctor"], io)).toBe(0);
    expect(out()).toContain("[ok] hosted tool server");
    expect(out()).toContain("7 of 7 public tools exposed");
  });

  test("a changed schema upstream is reported as drift (warning)", async () => {
    await double.setFault("schema-changed");
    try {
      const { io, out } = capture();
      expect(await main(["--home", home, "--mcp-url", double.url, "doctor"], io)).toBe(0);
      expect(out()).toContain("[warn] hosted tool server");
      expect(out()).toContain("schema drift:");
    } finally {
      await double.setFault("none");
    }
  });

  test("an unreachable upstream is a failure", async () => {
    const { io, out } = capture();
    expect(await main(["--home", home, "--mcp-url", "http://127.0.0.1:9/mcp", "--timeout-ms", "2000", "doctor"], io)).toBe(1);
    expect(out()).toContain("[fail] hosted tool server");
  });
});
