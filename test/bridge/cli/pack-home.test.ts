/**
 * `pack install`, `pack fetch` (against a server this test starts on 127.0.0.1), `pack signals`, the unknown-signal
 * warning of `pack match`, and `help` / `help COMMAND` (issue 13 items 3 and 4). Synthetic pack only.
 */
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { runCli } from "../../helpers/cli.js";
import { repoRoot } from "../../helpers/shared.js";

const SYNTHETIC = join(repoRoot, "examples/synthetic/intelligence-pack.json");
const PACK_BYTES = readFileSync(SYNTHETIC);
const PACK_SHA = createHash("sha256").update(PACK_BYTES).digest("hex");
const MESSAGE = readFileSync(join(repoRoot, "examples/synthetic/message.txt"));
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "eb-pack-home-"));
  dirs.push(d);
  return d;
};

let server: Server;
let base = "";
const requests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? "");
    if (req.url === "/integrations/pack/intelligence-pack-v1.json" || req.url === "/integrations/scamshield/intelligence-pack-v1.json") {
      res.writeHead(200, { "content-type": "application/json" }).end(PACK_BYTES);
    } else if (req.url === "/integrations/tampered/intelligence-pack-v1.json") {
      res.writeHead(200, { "content-type": "application/json" }).end(Buffer.concat([PACK_BYTES, Buffer.from(" ")]));
    } else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe("pack install, signals and match", () => {
  test("install makes the pack the data directory's own; signals and match then need no --pack", async () => {
    const home = temp();
    const r = await runCli(["--home", home, "pack", "install", SYNTHETIC]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(PACK_SHA);
    const signals = await runCli(["--home", home, "pack", "signals", "--json"]);
    expect(JSON.parse(signals.stdout)).toEqual({ pack_sha256: PACK_SHA, signals: [{ name: "commission_share_terms", typologies: ["synthetic-account-rental"] }] });
    const known = await runCli(["--home", home, "pack", "match", "--signals", "commission_share_terms"], { stdin: MESSAGE });
    expect(known.code).toBe(0);
    expect(known.stderr).toBe("");
    expect(JSON.parse(known.stdout).hypotheses).toHaveLength(1);
    const unknown = await runCli(["--home", home, "pack", "match", "--signals", "commission_share_terms,no_such_signal"], { stdin: MESSAGE });
    expect(unknown.code).toBe(0);
    expect(unknown.stderr).toBe("pack match: warning: this signal name is not used by the pack and cannot match: no_such_signal (see 'pack signals')\n");
  });

  test("EVIDENCE_BRIDGE_PACK naming another pack is refused with both digests", async () => {
    const home = temp();
    await runCli(["--home", home, "pack", "install", SYNTHETIC]);
    const other = join(home, "other.json");
    (await import("node:fs")).writeFileSync(other, Buffer.concat([PACK_BYTES, Buffer.from("\n")]));
    const otherSha = createHash("sha256").update(readFileSync(other)).digest("hex");
    const r = await runCli(["--home", home, "pack", "signals"], { env: { EVIDENCE_BRIDGE_PACK: other } });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(PACK_SHA);
    expect(r.stderr).toContain(otherSha);
    const flag = await runCli(["--home", home, "--pack", other, "pack", "signals"]);
    expect(flag.code).toBe(0);
    expect(flag.stderr).toBe("");
    expect(readFileSync(join(home, "intelligence-pack-v1.json"))).toEqual(PACK_BYTES);
  });
});

describe("pack fetch", () => {
  test("--sha256 --name pack downloads {base_url}/integrations/pack/intelligence-pack-v1.json, checks the digest and installs it", async () => {
    const home = temp();
    const r = await runCli(["--home", home, "--base-url", base, "pack", "fetch", "--name", "pack", "--sha256", PACK_SHA]);
    expect(r.code).toBe(0);
    expect(requests).toContain("/integrations/pack/intelligence-pack-v1.json");
    expect(r.stderr).toContain(`sha256 ${PACK_SHA} as expected`);
    expect(r.stdout).toMatch(/^installed intelligence pack/);
    expect(readFileSync(join(home, "intelligence-pack-v1.json"))).toEqual(PACK_BYTES);
  });

  test("a digest mismatch installs nothing", async () => {
    const home = temp();
    const r = await runCli(["--home", home, "--base-url", base, "pack", "fetch", "--name", "tampered", "--sha256", PACK_SHA]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/expected [0-9a-f]{64}; nothing was installed/);
    expect(() => readFileSync(join(home, "intelligence-pack-v1.json"))).toThrow(/ENOENT/);
  });

  test("--name defaults to scamshield, the published pack's path; offline refuses; a missing file says so", async () => {
    const home = temp();
    expect((await runCli(["--home", home, "--base-url", base, "pack", "fetch", "--sha256", PACK_SHA])).code).toBe(0);
    expect(requests).toContain("/integrations/scamshield/intelligence-pack-v1.json");
    const offline = await runCli(["--home", temp(), "--offline", "--base-url", base, "pack", "fetch", "--sha256", PACK_SHA]);
    expect(offline.code).toBe(2);
    expect(offline.stderr).toMatch(/^evidence-bridge: pack fetch: offline .*run 'evidence-bridge pack fetch' without it\n$/);
    expect((await runCli(["--home", home, "--base-url", base, "pack", "fetch", "--name", "x"])).stderr).toMatch(/--name needs --sha256/);
    const missing = await runCli(["--home", home, "--base-url", base, "pack", "fetch", "--name", "absent", "--sha256", PACK_SHA]);
    expect(missing.stderr).toMatch(/HTTP 404; nothing was installed/);
  });
});

describe("help", () => {
  test("help lists every command with a one-line description; help COMMAND prints its usage", async () => {
    const r = await runCli(["help"]);
    expect(r.code).toBe(0);
    const rows = r.stdout.split("\n").filter((l) => /^ {2}\S/.test(l) && !l.includes("--timeout-ms"));
    expect(rows.length).toBeGreaterThan(25);
    for (const row of rows) expect(row, row).toMatch(/^ {2}\S.*\S {2,}\S.{9,}$/);
    for (const name of ["serve", "demo", "pack fetch", "pack signals", "review show", "help [COMMAND]"]) expect(r.stdout).toMatch(new RegExp(`^  ${name.replace(/[[\]]/g, "\\$&")} `, "m"));
    expect((await runCli(["--help"])).stdout).toBe(r.stdout);
    const one = await runCli(["help", "pack", "fetch"]);
    expect(one.stdout).toMatch(/^usage: evidence-bridge pack fetch \[--replace\]\n {7}evidence-bridge pack fetch --sha256 HEX/);
    expect((await runCli(["pack", "fetch", "--help"])).stdout).toBe(one.stdout);
    expect((await runCli(["help", "review"])).stdout).toMatch(/review approve +record APPROVED_FOR_RELEASE/);
    const bad = await runCli(["help", "nonsense"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/help: unknown command: nonsense/);
  });
});
