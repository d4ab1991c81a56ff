/**
 * The one configuration object of the process (product.md §4): flags over environment over defaults.
 * No host names are compiled in; unknown flags and malformed values are errors.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

export interface Config {
  /** Data directory (sealed store, keys, review log). */
  home: string;
  /** Hosted tool server MCP endpoint, or undefined: public tools answer "not configured". */
  mcpUrl: string | undefined;
  /** Base URL of published files, or undefined. */
  baseUrl: string | undefined;
  /** Intelligence pack file given explicitly, or undefined (use the verified copy in the data directory). */
  packFile: string | undefined;
  /** True when packFile came from the `--pack` flag (a one-run override of the data directory's own pack). */
  packFromFlag: boolean;
  /** Upstream call timeout in milliseconds. */
  timeoutMs: number;
  /** Passphrase mode is on when set; the passphrase itself never leaves this object. */
  passphrase: string | undefined;
}

export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

export const DEFAULT_TIMEOUT_MS = 45_000;

export interface ConfigFlags {
  home?: string;
  "mcp-url"?: string;
  "base-url"?: string;
  pack?: string;
  "timeout-ms"?: string;
}

function url(name: string, value: string | undefined): string | undefined {
  if (value === undefined || value === "") return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name}: not a valid URL`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new ConfigError(`${name}: only http and https URLs are allowed`);
  }
  if (parsed.username || parsed.password) throw new ConfigError(`${name}: credentials in URLs are not allowed`);
  return value.replace(/\/+$/, "");
}

function timeout(name: string, value: string | undefined): number {
  if (value === undefined || value === "") return DEFAULT_TIMEOUT_MS;
  if (!/^[0-9]{1,7}$/.test(value) || Number(value) < 1) {
    throw new ConfigError(`${name}: expected an integer number of milliseconds between 1 and 9999999`);
  }
  return Number(value);
}

export function defaultHome(env: NodeJS.ProcessEnv): string {
  const xdg = env.XDG_DATA_HOME;
  return xdg ? join(xdg, "evidence-bridge") : join(homedir(), ".local", "share", "evidence-bridge");
}

/** Builds the configuration: flags over environment over defaults. */
export function loadConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv): Config {
  const pick = (flag: string | undefined, envName: string) => (flag !== undefined ? flag : env[envName]);
  const home = pick(flags.home, "EVIDENCE_BRIDGE_HOME");
  const pack = pick(flags.pack, "EVIDENCE_BRIDGE_PACK");
  return {
    home: resolve(home ? home : defaultHome(env)),
    mcpUrl: url(flags["mcp-url"] !== undefined ? "--mcp-url" : "EVIDENCE_BRIDGE_MCP_URL", pick(flags["mcp-url"], "EVIDENCE_BRIDGE_MCP_URL")),
    baseUrl: url(flags["base-url"] !== undefined ? "--base-url" : "EVIDENCE_BRIDGE_BASE_URL", pick(flags["base-url"], "EVIDENCE_BRIDGE_BASE_URL")),
    packFile: pack ? resolve(pack) : undefined,
    packFromFlag: flags.pack !== undefined && flags.pack !== "",
    timeoutMs: timeout(flags["timeout-ms"] !== undefined ? "--timeout-ms" : "EVIDENCE_BRIDGE_TIMEOUT_MS", pick(flags["timeout-ms"], "EVIDENCE_BRIDGE_TIMEOUT_MS")),
    passphrase: env.EVIDENCE_BRIDGE_PASSPHRASE !== undefined && env.EVIDENCE_BRIDGE_PASSPHRASE !== "" ? env.EVIDENCE_BRIDGE_PASSPHRASE : undefined,
  };
}
