/**
 * The environment every test process runs in, so that no test can reach the publisher's real addresses (the
 * defaults of src/config.ts): the hosted tool server and the published files point at a loopback port where
 * nothing listens (a connection there is refused at once). A test that wants an upstream names its own (the local
 * double) by flag or variable, which wins over these. `test/helpers/no-outside-network.ts` puts them into every
 * worker's `process.env` (so children that inherit it get them) and refuses any socket to a non-loopback host in
 * the worker itself; children started with an explicit environment take it from {@link childEnv}.
 */

/** Loopback, port 1: nothing listens there, so a connection is refused without leaving the machine. */
export const NOWHERE = "http://127.0.0.1:1";

export const TEST_ENDPOINT_ENV: Readonly<Record<string, string>> = {
  EVIDENCE_BRIDGE_MCP_URL: `${NOWHERE}/mcp`,
  EVIDENCE_BRIDGE_BASE_URL: NOWHERE,
};

/** An environment for a child process: PATH, the test endpoints, then `extra` (which may override them). */
export function childEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", ...TEST_ENDPOINT_ENV };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** True for a host name or address on this machine (the only places a test may connect to). */
export function isLoopbackHost(host: string | undefined): boolean {
  if (host === undefined || host === "") return true;
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === "::ffff:127.0.0.1";
}
