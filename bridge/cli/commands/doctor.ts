/**
 * `evidence-bridge doctor`: what this installation would do, checked without changing anything: configuration,
 * data directory and key permissions, the intelligence pack, upstream reachability and schema drift. Prints paths,
 * fingerprints, digests and counts only; never a key, a passphrase or anything from the sealed store.
 */
import { terminalSafe } from "../../terminal-text.js";
import { lstatSync, readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describeKeys } from "../../../src/crypto/keys.js";
import { configuredPackPath, loadPackFile } from "../../../published/pack/file.js";
import { PINNED_PACK } from "../../../published/pack/pinned.js";
import type { Config } from "../../../src/config.js";
import { formatDrift } from "../../upstream/schema-drift.js";
import { endpointText } from "../../mcp/banner.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import type { CliCommand, CliContext } from "../context.js";

const help = `usage: evidence-bridge doctor [--json] [--index FILE]...

Checks the configuration (flags over environment over defaults), the data directory and key files (modes and
fingerprints), the mode of every directory (0700) and file (0600) under the data directory, each stored capsule's
receipt against its capsule, the intelligence pack (version, digest), and that the hosted tool server in use (the
publisher's default unless --mcp-url or EVIDENCE_BRIDGE_MCP_URL names another) answers initialize and
tools/list, reporting schema drift against the pinned tool schemas; with --offline nothing is contacted.
Shows the endpoints in use and whether they are the defaults. Never prints secrets. Exit 0 when no check
failed, 1 otherwise ("not-configured" and "offline" are not failures).

  --json          print the checks as JSON
  --index FILE    also check a regional captured-news index file and say which profile it uses (the
                  specification's neutral tokens or the publisher's real values; docs/regional-index.md);
                  repeatable
`;

type Status = "ok" | "warn" | "fail" | "not-configured" | "offline";
interface Endpoint {
  /** The URL chosen (used unless offline). */
  url: string;
  /** True when it is the publisher's default (no flag or environment variable set it). */
  default: boolean;
  /** False when offline: nothing is sent to it. */
  in_use: boolean;
}
interface Check {
  check: string;
  status: Status;
  detail: string[];
  /** On the configuration check: the endpoints in use (`doctor --json`). */
  endpoints?: { offline: boolean; hosted_tool_server: Endpoint; published_files: Endpoint };
}

function mode(path: string): string | undefined {
  try {
    return (statSync(path).mode & 0o777).toString(8).padStart(4, "0");
  } catch {
    return undefined;
  }
}

function configuration(config: Config): Check {
  return {
    check: "configuration",
    status: "ok",
    detail: [
      `data directory   ${config.home}`,
      `hosted server    ${endpointText(config.mcpUrl, config.chosen.mcpUrl, config.defaults.mcpUrl, "public tools answer 'offline'")}`,
      `published base   ${endpointText(config.baseUrl, config.chosen.baseUrl, config.defaults.baseUrl, "readings and pack downloads are off")}`,
      `pack file        ${config.packFile ?? "default (intelligence-pack-v1.json in the data directory)"}`,
      `timeout          ${config.timeoutMs} ms`,
      `passphrase mode  ${config.passphrase !== undefined ? "EVIDENCE_BRIDGE_PASSPHRASE is set" : "off (key files)"}`,
    ],
    endpoints: {
      offline: config.offline,
      hosted_tool_server: { url: config.chosen.mcpUrl, default: config.defaults.mcpUrl, in_use: !config.offline },
      published_files: { url: config.chosen.baseUrl, default: config.defaults.baseUrl, in_use: !config.offline },
    },
  };
}

async function keys(config: Config): Promise<Check> {
  const dirMode = mode(config.home);
  if (dirMode === undefined) {
    return { check: "data directory and keys", status: "not-configured", detail: [`${config.home} does not exist yet (created by 'keys init' or the first 'capsule build')`] };
  }
  const detail = [`${config.home} mode ${dirMode}${dirMode === "0700" ? "" : " (expected 0700)"}`];
  try {
    const d = await describeKeys(config.home, config.passphrase);
    if (d === undefined) return { check: "data directory and keys", status: "not-configured", detail: [...detail, "no keys yet"] };
    detail.push(`mode ${d.mode}`);
    for (const k of [d.storeKey, d.signingKey]) detail.push(`${k.fingerprint}  ${k.path} mode ${mode(k.path) ?? "?"}`);
    return { check: "data directory and keys", status: dirMode === "0700" ? "ok" : "warn", detail };
  } catch (e) {
    return { check: "data directory and keys", status: "fail", detail: [...detail, (e as Error).message] };
  }
}

const SHOWN = 20;

/**
 * Every directory and file under the data directory, without following links: directories must be 0700 and files
 * 0600 (no group or other bit); links, FIFOs, sockets and devices do not belong there. Names only, never contents.
 */
function modes(config: Config): Check {
  const check = "data directory modes";
  if (mode(config.home) === undefined) return { check, status: "not-configured", detail: [`${config.home} does not exist yet`] };
  const problems: string[] = [];
  let seen = 0;
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (e) {
      problems.push(`${relative(config.home, dir) || "."}: cannot be listed (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      return;
    }
    for (const n of names) {
      const path = join(dir, n);
      const rel = relative(config.home, path);
      let st;
      try {
        st = lstatSync(path);
      } catch {
        continue;
      }
      seen++;
      const m = (st.mode & 0o777).toString(8).padStart(4, "0");
      if (st.isSymbolicLink()) problems.push(`${rel}: a symbolic link (only regular files and directories belong here)`);
      else if (st.isDirectory()) {
        if ((st.mode & 0o777) !== 0o700) problems.push(`${rel}/: mode ${m} (expected 0700; fix: chmod 700 ${path})`);
        walk(path);
      } else if (!st.isFile()) problems.push(`${rel}: not a regular file (a FIFO, socket or device)`);
      else if ((st.mode & 0o077) !== 0) problems.push(`${rel}: mode ${m} (expected 0600; fix: chmod 600 ${path})`);
    }
  };
  walk(config.home);
  if (problems.length === 0) return { check, status: "ok", detail: [`${seen} entries, directories 0700, files 0600`] };
  return {
    check,
    status: "fail",
    detail: [`${problems.length} of ${seen} entries are wrong:`, ...problems.slice(0, SHOWN), ...(problems.length > SHOWN ? [`… and ${problems.length - SHOWN} more`] : [])],
  };
}

/** Each stored capsule's receipt against its capsule (needs the store; skipped when there is none). */
async function receipts(config: Config): Promise<Check> {
  const check = "store receipts";
  const { openStore } = await import("../../../capsules/store/store.js");
  let store;
  try {
    store = await openStore({ home: config.home, passphrase: config.passphrase });
  } catch (e) {
    if ((e as { code?: string }).code === "no-store" || mode(config.home) === undefined) return { check, status: "not-configured", detail: ["no store yet"] };
    if ((e as { code?: string }).code === "mode-mismatch" && config.passphrase === undefined) {
      return { check, status: "not-configured", detail: ["passphrase store: set EVIDENCE_BRIDGE_PASSPHRASE to check the receipts"] };
    }
    return { check, status: "fail", detail: [(e as Error).message] };
  }
  try {
    const problems = store.receiptProblems();
    const n = store.capsuleIds().length;
    if (problems.length === 0) return { check, status: "ok", detail: [`${n} capsule${n === 1 ? "" : "s"}, every receipt valid for its capsule`] };
    return { check, status: "fail", detail: [...problems.slice(0, SHOWN), ...(problems.length > SHOWN ? [`… and ${problems.length - SHOWN} more`] : [])] };
  } catch (e) {
    return { check, status: "fail", detail: [(e as Error).message] };
  }
}

function pack(config: Config): Check {
  const file = configuredPackPath(config);
  if (file === undefined) return { check: "intelligence pack", status: "not-configured", detail: [`no pack in the data directory: run 'evidence-bridge pack fetch' to install the pinned published pack ${PINNED_PACK.version} (sha256 ${PINNED_PACK.sha256})`] };
  try {
    const p = loadPackFile(file);
    return {
      check: "intelligence pack",
      status: p.warnings.length > 0 ? "warn" : "ok",
      detail: [`${file}`, `version ${p.version}, sha256 ${p.sha256}`, `${p.sources.length} sources, ${p.typologies.length} typologies`, ...p.warnings],
    };
  } catch (e) {
    return { check: "intelligence pack", status: "fail", detail: [file, (e as Error).message] };
  }
}

async function upstream(config: Config): Promise<Check> {
  if (config.mcpUrl === undefined) return { check: "hosted tool server", status: "offline", detail: ["offline (--offline or EVIDENCE_BRIDGE_OFFLINE): not contacted"] };
  const { HostedClient } = await import("../../upstream/hosted-client.js");
  const client = new HostedClient({ mcpUrl: config.mcpUrl, timeoutMs: Math.min(config.timeoutMs, 15_000), diagnostics: () => {} });
  try {
    const outcome = await client.discover();
    if (!outcome.ok) return { check: "hosted tool server", status: "fail", detail: [config.mcpUrl, `unreachable: ${outcome.reason}`] };
    const d = outcome.discovery;
    const drift = formatDrift(d.drift);
    return {
      check: "hosted tool server",
      status: d.drift.drifted ? "warn" : "ok",
      detail: [
        config.mcpUrl,
        `protocol ${d.protocolVersion ?? "(other)"}, ${d.exposed.size} of 7 public tools exposed`,
        ...d.ignored.map((t) => `ignored upstream tool ${t.name}: ${t.reason}`),
        ...(drift.length > 0 ? drift : ["no schema drift against the pinned schemas"]),
      ],
    };
  } finally {
    client.close();
  }
}

/** Each `--index` file: conformance and the profile its own schema_version selected. */
async function regionalIndexes(files: string[]): Promise<Check> {
  const [{ validateRegionalIndex }, { readCapped }, { DEFAULT_MAX_INDEX_BYTES }] = await Promise.all([
    import("../../../published/regional/validate.js"),
    import("./index-cmd.js"),
    import("../../../published/regional/constants.js"),
  ]);
  const detail: string[] = [];
  let failed = false;
  for (const file of files) {
    try {
      const r = validateRegionalIndex(readCapped(file, DEFAULT_MAX_INDEX_BYTES), { contentDigest: false });
      const profile = r.profile === null ? "no known profile (schema_version is neither profile's)" : `${r.profile} profile (${r.format})`;
      detail.push(`${file}: ${profile}; ${r.conforms ? `conforms, region ${r.region}, ${r.event_count} events` : `DOES NOT CONFORM, ${r.error_count} error(s)`}`);
      failed ||= !r.conforms;
    } catch (e) {
      detail.push(`${file}: ${(e as Error).message}`);
      failed = true;
    }
  }
  return { check: "regional index files", status: failed ? "fail" : "ok", detail };
}

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { flags } = parseFlags(args, { json: { type: "boolean" }, index: { type: "string", multiple: true } }, false);
  const config = configFrom(ctx);
  const checks = [configuration(config), await keys(config), modes(config), await receipts(config), pack(config), await upstream(config)];
  const indexFiles = (flags.index ?? []) as string[];
  if (indexFiles.length > 0) checks.push(await regionalIndexes(indexFiles));
  if (flags.json === true) ctx.io.stdout.write(`${JSON.stringify(checks, null, 2)}\n`);
  else {
    for (const c of checks) {
      // Details can hold upstream text (drift findings, error messages): never raw on a terminal.
      ctx.io.stdout.write(`[${c.status}] ${terminalSafe(c.check)}\n`);
      for (const line of c.detail) ctx.io.stdout.write(`    ${terminalSafe(line)}\n`);
    }
  }
  return checks.some((c) => c.status === "fail") ? 1 : 0;
}

const command: CliCommand = { help, summary: "check configuration, endpoints, keys, pack, upstream, schema drift", run };
export default command;
