/**
 * The one configuration object (src/config.ts, product.md §4): the publisher's endpoints are the defaults, an empty
 * value or an unexpanded `${user_config.…}` from a bundle host means "not set" for every setting, and offline turns
 * every endpoint off. Also: the test environment itself never uses the publisher's addresses.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { describe, expect, test } from "vitest";
import { DEFAULT_BASE_URL, DEFAULT_MCP_URL, DEFAULT_TIMEOUT_MS, isUnset, loadConfig } from "../../src/config.js";
import { runCli } from "../helpers/cli.js";
import { TEST_ENDPOINT_ENV } from "../helpers/test-env.js";

const VARS = ["EVIDENCE_BRIDGE_HOME", "EVIDENCE_BRIDGE_PACK", "EVIDENCE_BRIDGE_MCP_URL", "EVIDENCE_BRIDGE_BASE_URL", "EVIDENCE_BRIDGE_TIMEOUT_MS", "EVIDENCE_BRIDGE_OFFLINE", "EVIDENCE_BRIDGE_PASSPHRASE"];
const PLACEHOLDER: Record<string, string> = {
  EVIDENCE_BRIDGE_HOME: "${user_config.data_dir}",
  EVIDENCE_BRIDGE_PACK: "${user_config.pack_file}",
  EVIDENCE_BRIDGE_MCP_URL: "${user_config.mcp_url}",
  EVIDENCE_BRIDGE_BASE_URL: "${user_config.base_url}",
  EVIDENCE_BRIDGE_TIMEOUT_MS: "${user_config.timeout_ms}",
  EVIDENCE_BRIDGE_OFFLINE: "${user_config.offline}",
  EVIDENCE_BRIDGE_PASSPHRASE: "${user_config.passphrase}",
};

describe("defaults", () => {
  test("the publisher's hosted tool endpoint and site are the defaults, and say so", () => {
    expect(DEFAULT_MCP_URL).toBe("https://api.seiche.info/palimpsest/mcp");
    expect(DEFAULT_BASE_URL).toBe("https://palimpsest.info");
    const c = loadConfig({}, { HOME: "/nonexistent-home" });
    expect(c.mcpUrl).toBe(DEFAULT_MCP_URL);
    expect(c.baseUrl).toBe(DEFAULT_BASE_URL);
    expect(c.defaults).toEqual({ mcpUrl: true, baseUrl: true });
    expect(c.offline).toBe(false);
  });

  test("a flag or variable replaces a default and is no longer marked as one", () => {
    const c = loadConfig({ "mcp-url": "http://127.0.0.1:9/mcp/" }, { EVIDENCE_BRIDGE_BASE_URL: "http://127.0.0.1:9" });
    expect(c.mcpUrl).toBe("http://127.0.0.1:9/mcp");
    expect(c.baseUrl).toBe("http://127.0.0.1:9");
    expect(c.defaults).toEqual({ mcpUrl: false, baseUrl: false });
  });
});

describe("blank and unexpanded values mean 'not set' for every setting", () => {
  const expectDefaults = (env: NodeJS.ProcessEnv) => {
    const c = loadConfig({}, env);
    expect(c.home).toBe(resolve(join(homedir(), ".local/share/evidence-bridge")));
    expect(c.packFile).toBeUndefined();
    expect(c.mcpUrl).toBe(DEFAULT_MCP_URL);
    expect(c.baseUrl).toBe(DEFAULT_BASE_URL);
    expect(c.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
    expect(c.offline).toBe(false);
    expect(c.passphrase).toBeUndefined();
  };
  test("empty strings", () => expectDefaults(Object.fromEntries(VARS.map((v) => [v, ""]))));
  test("whitespace (except a passphrase, which is taken as typed)", () => {
    expectDefaults({ ...Object.fromEntries(VARS.map((v) => [v, "  "])), EVIDENCE_BRIDGE_PASSPHRASE: "" });
    expect(loadConfig({}, { EVIDENCE_BRIDGE_PASSPHRASE: "  " }).passphrase).toBe("  ");
  });
  test("the literal ${user_config.…} a bundle host leaves when a setting has no value", () => expectDefaults(PLACEHOLDER));
  test("flags given as empty or as a placeholder", () => {
    const c = loadConfig({ home: "", pack: "${user_config.pack_file}", "mcp-url": "", "base-url": "${user_config.base_url}", "timeout-ms": "", offline: "" }, {});
    expect(c.packFile).toBeUndefined();
    expect(c.mcpUrl).toBe(DEFAULT_MCP_URL);
    expect(c.timeoutMs).toBe(DEFAULT_TIMEOUT_MS);
  });
  test("isUnset accepts exactly those", () => {
    for (const v of [undefined, "", " ", "${user_config.x}", "${user_config.data_dir}"]) expect(isUnset(v)).toBe(true);
    for (const v of ["0", "x", "${HOME}", "a${user_config.x}", "${user_config.x}/sub"]) expect(isUnset(v)).toBe(false);
  });
});

describe("offline", () => {
  test.each([
    [{ offline: "1" }, {}],
    [{}, { EVIDENCE_BRIDGE_OFFLINE: "1" }],
    [{}, { EVIDENCE_BRIDGE_OFFLINE: "true" }],
  ])("turns both endpoints off (%j %j), keeping what was chosen for display", (flags, env) => {
    const c = loadConfig(flags, env);
    expect(c.offline).toBe(true);
    expect(c.mcpUrl).toBeUndefined();
    expect(c.baseUrl).toBeUndefined();
    expect(c.chosen).toEqual({ mcpUrl: DEFAULT_MCP_URL, baseUrl: DEFAULT_BASE_URL });
  });
  test("false and 0 are online (a bundle's boolean setting arrives as \"false\")", () => {
    expect(loadConfig({}, { EVIDENCE_BRIDGE_OFFLINE: "false" }).mcpUrl).toBe(DEFAULT_MCP_URL);
    expect(loadConfig({}, { EVIDENCE_BRIDGE_OFFLINE: "0" }).offline).toBe(false);
  });
  test("any other value is an error naming the variable", () => {
    expect(() => loadConfig({}, { EVIDENCE_BRIDGE_OFFLINE: "yes please" })).toThrow("EVIDENCE_BRIDGE_OFFLINE: expected 1 or true");
  });
  test("--offline is a global flag before or after the command", async () => {
    for (const args of [["--offline", "doctor", "--json"], ["doctor", "--offline", "--json"]]) {
      const r = await runCli(["--home", "/nonexistent-eb-home", ...args]);
      const checks = JSON.parse(r.stdout) as Array<{ check: string; status: string; endpoints?: { offline: boolean } }>;
      expect(checks[0].endpoints?.offline).toBe(true);
      expect(checks.find((c) => c.check === "hosted tool server")?.status).toBe("offline");
    }
  });
});

describe("the test environment never uses the publisher's addresses", () => {
  test("every worker's environment points both endpoints at loopback (test/helpers/no-outside-network.ts)", () => {
    for (const [k, v] of Object.entries(TEST_ENDPOINT_ENV)) expect(process.env[k]).toBe(v);
    const c = loadConfig({}, process.env);
    expect(new URL(c.mcpUrl!).hostname).toBe("127.0.0.1");
    expect(new URL(c.baseUrl!).hostname).toBe("127.0.0.1");
  });

  test("the in-process CLI runs there too: doctor shows loopback endpoints, not defaults", async () => {
    const r = await runCli(["--home", "/nonexistent-eb-home", "doctor", "--json"]);
    const conf = (JSON.parse(r.stdout) as Array<{ endpoints?: Record<string, { url: string; default: boolean }> }>)[0].endpoints!;
    expect(conf.hosted_tool_server).toMatchObject({ url: TEST_ENDPOINT_ENV.EVIDENCE_BRIDGE_MCP_URL, default: false });
    expect(conf.published_files).toMatchObject({ url: TEST_ENDPOINT_ENV.EVIDENCE_BRIDGE_BASE_URL, default: false });
  });

  test("a socket to any other host is refused in the test process before it is opened", async () => {
    const { connect } = await import("node:net");
    expect(() => connect(443, "api.seiche.info")).toThrow(/test guard: a connection to api\.seiche\.info/);
    expect(() => connect({ host: "palimpsest.info", port: 443 })).toThrow(/test guard/);
    // An HTTP request's options carry the URL path too: still a TCP connection, still refused.
    const { request } = await import("node:https");
    expect(() => request("https://palimpsest.info/integrations/scamshield/intelligence-pack-v1.json")).toThrow(/test guard/);
  });
});
