/**
 * The one configuration object of the process (product.md §4): flags over environment over defaults.
 * The publisher's own published addresses are the defaults for the hosted tool server and the published files
 * (facts from its server.json); nothing is sent to them before the first public-tool call, resource read or pack
 * fetch, and `--offline` / EVIDENCE_BRIDGE_OFFLINE=1 turns every outward request off. An empty value, or an
 * unexpanded `${user_config.…}` left by a bundle host, means "not set" for every setting. Unknown flags and
 * malformed values are errors.
 */
import { homedir } from "node:os";
import { join, resolve } from "node:path";

/** The publisher's hosted MCP tool endpoint. */
export const DEFAULT_MCP_URL = "https://api.seiche.info/palimpsest/mcp";
/** The publisher's site serving the published files (readings, the intelligence pack). */
export const DEFAULT_BASE_URL = "https://palimpsest.info";

export interface Config {
  /** Data directory (sealed store, keys, review log). */
  home: string;
  /** Hosted tool server MCP endpoint; undefined only when offline (public tools answer "offline"). */
  mcpUrl: string | undefined;
  /** Base URL of published files; undefined only when offline. */
  baseUrl: string | undefined;
  /** True when nothing may be sent anywhere (`--offline`, EVIDENCE_BRIDGE_OFFLINE=1). */
  offline: boolean;
  /** Which endpoints are the publisher's defaults (not set by a flag or the environment). */
  defaults: { mcpUrl: boolean; baseUrl: boolean };
  /** The endpoints chosen, offline or not (for display only: requests use `mcpUrl`/`baseUrl`). */
  chosen: { mcpUrl: string; baseUrl: string };
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
  /** "1" when `--offline` was given. */
  offline?: string;
}

/** What a bundle host leaves when a setting has no value: `${user_config.name}` untouched. */
const UNEXPANDED = /^\$\{user_config\.[^}]*\}$/;

/** A value that says nothing: absent, empty, blank, or an unexpanded bundle placeholder. */
export function isUnset(value: string | undefined): value is undefined {
  return value === undefined || value.trim() === "" || UNEXPANDED.test(value.trim());
}

function url(name: string, value: string): string {
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
  if (value === undefined) return DEFAULT_TIMEOUT_MS;
  if (!/^[0-9]{1,7}$/.test(value) || Number(value) < 1) {
    throw new ConfigError(`${name}: expected an integer number of milliseconds between 1 and 9999999`);
  }
  return Number(value);
}

/** EVIDENCE_BRIDGE_OFFLINE: 1/true on, 0/false off (a bundle's boolean setting arrives as "true"/"false"). */
function offlineValue(name: string, value: string | undefined): boolean {
  if (value === undefined) return false;
  const v = value.trim().toLowerCase();
  if (v === "1" || v === "true") return true;
  if (v === "0" || v === "false") return false;
  throw new ConfigError(`${name}: expected 1 or true (offline), 0 or false (online)`);
}

export function defaultHome(env: NodeJS.ProcessEnv): string {
  const xdg = isUnset(env.XDG_DATA_HOME) ? undefined : env.XDG_DATA_HOME;
  return xdg ? join(xdg, "evidence-bridge") : join(homedir(), ".local", "share", "evidence-bridge");
}

/** Builds the configuration: flags over environment over defaults. */
export function loadConfig(flags: ConfigFlags, env: NodeJS.ProcessEnv): Config {
  /** The set value and where it came from (the flag's or the variable's name), or undefined. */
  const pick = (flag: keyof ConfigFlags, envName: string): { value: string; from: string } | undefined => {
    const f = flags[flag];
    if (!isUnset(f)) return { value: f.trim(), from: `--${flag}` };
    const e = env[envName];
    if (!isUnset(e)) return { value: e.trim(), from: envName };
    return undefined;
  };
  const home = pick("home", "EVIDENCE_BRIDGE_HOME");
  const pack = pick("pack", "EVIDENCE_BRIDGE_PACK");
  const mcp = pick("mcp-url", "EVIDENCE_BRIDGE_MCP_URL");
  const base = pick("base-url", "EVIDENCE_BRIDGE_BASE_URL");
  const off = pick("offline", "EVIDENCE_BRIDGE_OFFLINE");
  const time = pick("timeout-ms", "EVIDENCE_BRIDGE_TIMEOUT_MS");
  const offline = off === undefined ? false : offlineValue(off.from, off.value);
  // Malformed URLs are errors even offline: a typo should not wait for the day the setting is switched back.
  const mcpUrl = mcp === undefined ? DEFAULT_MCP_URL : url(mcp.from, mcp.value);
  const baseUrl = base === undefined ? DEFAULT_BASE_URL : url(base.from, base.value);
  const passphrase = env.EVIDENCE_BRIDGE_PASSPHRASE;
  return {
    home: resolve(home === undefined ? defaultHome(env) : home.value),
    mcpUrl: offline ? undefined : mcpUrl,
    baseUrl: offline ? undefined : baseUrl,
    offline,
    defaults: { mcpUrl: mcp === undefined, baseUrl: base === undefined },
    chosen: { mcpUrl, baseUrl },
    packFile: pack === undefined ? undefined : resolve(pack.value),
    packFromFlag: pack?.from === "--pack",
    timeoutMs: timeout(time?.from ?? "EVIDENCE_BRIDGE_TIMEOUT_MS", time?.value),
    passphrase: passphrase !== undefined && passphrase !== "" && !UNEXPANDED.test(passphrase) ? passphrase : undefined,
  };
}
