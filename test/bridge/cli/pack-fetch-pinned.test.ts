/**
 * The pinned pack (issue 30 item 3; published/pack/pinned.ts): `pack fetch` with no arguments downloads
 * `{base_url}/integrations/scamshield/intelligence-pack-v1.json` from the local double, accepts it only with the
 * pinned digest and installs it; another file there is refused naming both digests; the MCP server fetches it on
 * first need, saying so on stderr; offline, every refusal names the one command that fixes it. The real pack is
 * served from ../shared when present; the same paths run on the synthetic pack with a pin given in the test only.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, test } from "vitest";
import { downloadPinnedPack } from "../../../bridge/upstream/pack-download.js";
import { PINNED_PACK, type PackPin } from "../../../published/pack/pinned.js";
import { startHostedDouble, SYNTHETIC_DATA_ROOT } from "../../double/hosted-server.js";
import { runCli } from "../../helpers/cli.js";
import { describeShared, readShared, repoRoot } from "../../helpers/shared.js";
import { configFor, startSession } from "../mcp/session.js";

const SYNTHETIC_BYTES = readFileSync(join(repoRoot, "examples/synthetic/intelligence-pack.json"));
const SYNTHETIC_SHA = createHash("sha256").update(SYNTHETIC_BYTES).digest("hex");
const SYNTHETIC_PIN: PackPin = { version: "synthetic-2026-11.1", sha256: SYNTHETIC_SHA, path: PINNED_PACK.path };
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), "eb-pinned-"));
  dirs.push(d);
  return d;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

async function doubleServing(bytes: Uint8Array) {
  return startHostedDouble({ dataRoot: SYNTHETIC_DATA_ROOT, toolset: "current", files: { [PINNED_PACK.path]: bytes } });
}

test("the release pins the publisher's current pack", () => {
  expect(PINNED_PACK).toEqual({
    version: "2026-08-08.2",
    sha256: "c13bfa22576398c575d8b5a3561ed89c060c78a62852282e62f1716e98b28c01",
    path: "integrations/scamshield/intelligence-pack-v1.json",
  });
});

describe("pack fetch with no arguments", () => {
  test("a server file that is not the pinned one is refused naming both digests; nothing is installed", async () => {
    const d = await doubleServing(SYNTHETIC_BYTES);
    try {
      const home = temp();
      const r = await runCli(["--home", home, "--base-url", d.baseUrl, "pack", "fetch"]);
      expect(r.code).toBe(2);
      expect(r.stderr.split("\n")).toHaveLength(2);
      expect(r.stderr).toContain(`has sha256 ${SYNTHETIC_SHA}`);
      expect(r.stderr).toContain(`pins pack 2026-08-08.2 with sha256 ${PINNED_PACK.sha256}`);
      expect(r.stderr).toMatch(/nothing was installed\n$/);
      expect(d.requests.filter((q) => q.server === "site").map((q) => q.path)).toContain(`/${PINNED_PACK.path}`);
      expect(existsSync(join(home, "intelligence-pack-v1.json"))).toBe(false);
    } finally {
      await d.close();
    }
  });

  test("the download checks the pin it is given (a synthetic pin, in this test only)", async () => {
    const d = await doubleServing(SYNTHETIC_BYTES);
    try {
      const got = await downloadPinnedPack({ baseUrl: d.baseUrl, timeoutMs: 5000, pin: SYNTHETIC_PIN });
      expect(got.ok && Buffer.from(got.bytes).equals(SYNTHETIC_BYTES)).toBe(true);
      const other = await downloadPinnedPack({ baseUrl: d.baseUrl, timeoutMs: 5000, pin: { ...SYNTHETIC_PIN, sha256: "0".repeat(64) } });
      expect(other.ok).toBe(false);
    } finally {
      await d.close();
    }
  });

  test("without a pack, commands name the one command that fixes it", async () => {
    const home = temp();
    for (const args of [["pack", "signals"], ["--offline", "pack", "verify"]]) {
      const r = await runCli(["--home", home, ...args]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/^evidence-bridge: no intelligence pack in the data directory .*: run 'evidence-bridge pack fetch' to install the pinned published pack 2026-08-08\.2\n$/);
    }
  });
});

describeShared("pack fetch against a double serving the real published pack", () => {
  test("fetches, checks the pinned digest and installs it; pack verify then shows 2026-08-08.2", async () => {
    const d = await doubleServing(readShared("data/intelligence-pack/intelligence-pack-v1.json"));
    try {
      const home = temp();
      const r = await runCli(["--home", home, "--base-url", d.baseUrl, "pack", "fetch"]);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain(`sha256 ${PINNED_PACK.sha256} as pinned`);
      expect(r.stdout).toMatch(/^installed intelligence pack 2026-08-08\.2/);
      const v = await runCli(["--home", home, "--offline", "pack", "verify", "--json"]);
      expect(JSON.parse(v.stdout)).toMatchObject({ version: "2026-08-08.2", sha256: PINNED_PACK.sha256 });
    } finally {
      await d.close();
    }
  });
});

describe("the MCP server on first need", () => {
  const MESSAGE = readFileSync(join(repoRoot, "examples/synthetic/message.txt"), "utf8");

  test("fetches and installs the pinned pack, saying so on stderr, then matches with it", async () => {
    const d = await doubleServing(SYNTHETIC_BYTES);
    const home = temp();
    const s = await startSession(configFor({ home, baseUrl: d.baseUrl, mcpUrl: d.url, pack: null }), { packPin: SYNTHETIC_PIN });
    try {
      const r = await s.call("match_typologies", { text: MESSAGE, signals: ["commission_share_terms"] });
      expect(r.msg.result.isError, JSON.stringify(r.msg.result)).toBeFalsy();
      expect(s.stderrOutput).toContain(`no intelligence pack in ${home}: fetching the pinned published pack synthetic-2026-11.1 from ${d.baseUrl}/${PINNED_PACK.path}`);
      expect(s.stderrOutput).toContain(`installed intelligence pack synthetic-2026-11.1 (sha256 ${SYNTHETIC_SHA})`);
      expect(readFileSync(join(home, "intelligence-pack-v1.json"))).toEqual(SYNTHETIC_BYTES);
    } finally {
      await s.end();
      await d.close();
    }
  });

  test("offline, or when the server's file is not the pinned one, the refusal names 'evidence-bridge pack fetch'", async () => {
    const d = await doubleServing(SYNTHETIC_BYTES);
    try {
      for (const offline of [true, false]) {
        const config = { ...configFor({ home: temp(), baseUrl: d.baseUrl, pack: null }) };
        if (offline) Object.assign(config, { offline: true, baseUrl: undefined, mcpUrl: undefined });
        const s = await startSession(config);
        try {
          const r = await s.call("match_typologies", { text: MESSAGE });
          const text = JSON.stringify(r.msg);
          expect(text).toContain("run 'evidence-bridge pack fetch' to install the pinned published pack 2026-08-08.2");
          expect(text).toContain(offline ? "the bridge is offline" : `pins pack 2026-08-08.2 with sha256 ${PINNED_PACK.sha256}`);
        } finally {
          await s.end();
        }
      }
    } finally {
      await d.close();
    }
  });
});
