/** `doctor`: reports configuration, keys, pack and upstream drift without printing secrets. */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, test } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { startHostedDouble, type HostedDouble } from "../../double/hosted-server.js";
import { describeShared, repoRoot } from "../../helpers/shared.js";


const home = mkdtempSync(join(tmpdir(), "eb-doctor-"));
afterAll(() => rmSync(home, { recursive: true, force: true }));

test("offline and without a data directory every optional part says so and the exit code is 0", async () => {
  const r = await runCli(["--home", join(home, "absent"), "--offline", "doctor"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("[offline] hosted tool server");
  expect(r.stdout).toContain("run 'evidence-bridge pack fetch' to install the pinned published pack 2026-08-08.2");
  expect(r.stdout).toContain("[not-configured] intelligence pack");
  expect(r.stdout).toContain("[not-configured] data directory and keys");
});

test("keys are described by fingerprint and mode; no key bytes are printed", async () => {
  expect((await runCli(["--home", home, "keys", "init"])).code).toBe(0);
  const r = await runCli(["--home", home, "--offline", "--pack", join(repoRoot, "examples/synthetic/intelligence-pack.json"), "doctor"]);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/\[ok\] data directory and keys/);
  expect(r.stdout).toMatch(/\[ok\] intelligence pack[\s\S]*version synthetic-2026-11\.1/);
  const keyDir = join(home, "keys");
  for (const name of readdirSync(keyDir)) {
    const secretHex = readFileSync(join(keyDir, name), "utf8").split("\n")[1];
    if (secretHex) expect(r.stdout).not.toContain(secretHex);
  }
});

test("a key file readable by others is a failure with exit 1 and a fix", async () => {
  const { chmodSync } = await import("node:fs");
  const dir = mkdtempSync(join(tmpdir(), "eb-doctor-perm-"));
  try {
    expect((await runCli(["--home", dir, "keys", "init"])).code).toBe(0);
    chmodSync(join(dir, "keys", "store.key"), 0o644);
    const r = await runCli(["--home", dir, "--offline", "doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("[fail] data directory and keys");
    expect(r.stdout).toContain("chmod 600");
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
    const r = await runCli(["--home", home, "--mcp-url", double.url, "doctor"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("[ok] hosted tool server");
    expect(r.stdout).toContain("7 of 7 public tools exposed");
  });

  test("a changed schema upstream is reported as drift (warning)", async () => {
    await double.setFault("schema-changed");
    try {
      const r = await runCli(["--home", home, "--mcp-url", double.url, "doctor"]);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain("[warn] hosted tool server");
      expect(r.stdout).toContain("schema drift:");
    } finally {
      await double.setFault("none");
    }
  });

  test("an unreachable upstream is a failure", async () => {
    const r = await runCli(["--home", home, "--mcp-url", "http://127.0.0.1:9/mcp", "--timeout-ms", "2000", "doctor"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("[fail] hosted tool server");
  });
});

test("--index says which profile each regional index file uses; a non-conforming file fails the check", async () => {
  const F = (rel: string) => join(repoRoot, "test/fixtures/regional", rel);
  const ok = await runCli(["--home", join(home, "absent"), "--offline", "doctor", "--index", F("valid/bri.json"), "--index", F("valid-publisher/bri.json")]);
  expect(ok.code).toBe(0);
  expect(ok.stdout).toContain("[ok] regional index files");
  expect(ok.stdout).toContain(`${F("valid/bri.json")}: neutral profile (service.regional-captured-index.v1); conforms, region bri, 6 events`);
  expect(ok.stdout).toContain(`${F("valid-publisher/bri.json")}: publisher profile (palimpsest.regional-captured-index.v1); conforms, region bri, 6 events`);
  const bad = await runCli(["--home", join(home, "absent"), "--offline", "doctor", "--json", "--index", F("broken/schema-version-wrong.json")]);
  expect(bad.code).toBe(1);
  const check = JSON.parse(bad.stdout).find((c: { check: string }) => c.check === "regional index files");
  expect(check.status).toBe("fail");
  expect(check.detail[0]).toMatch(/no known profile .*DOES NOT CONFORM, 1 error\(s\)/);
});

test("doctor --json shows the endpoints in use and whether they are the publisher's defaults (offline: none is contacted)", async () => {
  const defaults = await runCli(["--home", join(home, "absent"), "doctor", "--json"], { env: { EVIDENCE_BRIDGE_MCP_URL: "", EVIDENCE_BRIDGE_BASE_URL: "${user_config.base_url}", EVIDENCE_BRIDGE_OFFLINE: "1" } });
  const conf = JSON.parse(defaults.stdout)[0];
  expect(conf.endpoints).toEqual({
    offline: true,
    hosted_tool_server: { url: "https://api.seiche.info/palimpsest/mcp", default: true, in_use: false },
    published_files: { url: "https://palimpsest.info", default: true, in_use: false },
  });
  expect(conf.detail[1]).toBe("hosted server    offline: nothing is sent to https://api.seiche.info/palimpsest/mcp (the publisher's default); public tools answer 'offline'");
  const set = await runCli(["--home", join(home, "absent"), "--mcp-url", "http://127.0.0.1:1/x", "--offline", "doctor"]);
  expect(set.stdout).toContain("hosted server    offline: nothing is sent to http://127.0.0.1:1/x (configured)");
  expect(set.stdout).toContain("published base   offline: nothing is sent to http://127.0.0.1:1 (configured)");
});
