/**
 * `pack verify [FILE] [--json]`, `pack install FILE`, `pack fetch [--sha256 HEX]`, `pack signals` and
 * `pack match [--signals a,b] < message.txt` (product.md §4, §5): check an intelligence pack fail-closed
 * (assessment-v1 §3), install it as the data directory's own pack (published/pack/home-pack.ts), list its signal
 * vocabulary, and match one message against it locally (§4). The message text and matched fragments are never
 * written to stderr; `pack match` prints only the hypotheses JSON on stdout.
 */
import { canonicalText } from "../../../src/json/canonical.js";
import { PackError } from "../../../published/pack/errors.js";
import { readPackBytes } from "../../../published/pack/file.js";
import { loadPack, MAX_PACK_BYTES } from "../../../published/pack/load.js";
import { installPack } from "../../../published/pack/home-pack.js";
import { PINNED_PACK } from "../../../published/pack/pinned.js";
import { DEFAULT_BASE_URL } from "../../../src/config.js";
import { packSignals, unknownSignals } from "../../../published/pack/signals.js";
import { signalSet } from "../../../published/pack/match.js";
import { assessProvenance } from "../../../published/pack/provenance.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { parseFlags, readLimited } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { readNamedInput } from "../named-input.js";
import { useConfiguredPack } from "../pack-choice.js";

/** Largest message `pack match` reads from stdin. */
export const MAX_MESSAGE_BYTES = 1_048_576;

const verifyHelp = `usage: evidence-bridge [--pack FILE] pack verify [FILE] [--json]

Checks an intelligence pack (scamshield-intelligence-pack/v1) fail-closed: strict JSON without duplicate keys,
closed objects, every limit, https-only URLs, literal terms only. Prints version, digest and counts.
Without FILE, checks the pack commands use (--pack, EVIDENCE_BRIDGE_PACK, else the data directory's own pack);
the first pack used is copied into the data directory with its digest (see 'pack install'). FILE '-' reads
the pack from stdin; a link, FIFO, device or directory is refused at once, naming what it is.

  --json  print the summary as canonical JSON

Exit status: 0 the pack is valid, 2 any violation (one stderr line naming the JSON path and rule).
`;

const matchHelp = `usage: evidence-bridge [--pack FILE] pack match [--signals a,b] < message.txt

Matches one message (UTF-8 on stdin, at most 1 MiB) against the configured intelligence pack and prints the
message-level hypotheses, origin answer and abstentions as canonical JSON. The text is not stored or echoed.

  --signals a,b  detector signal names and threat rule ids that fired for this message (identifiers);
                 names the pack never uses are reported on stderr ('pack signals' lists the pack's names)
`;

const installHelp = `usage: evidence-bridge pack install FILE [--replace]

Checks FILE like 'pack verify' and copies it into the data directory as intelligence-pack-v1.json with its
sha256 digest beside it. Later commands and the MCP server use it with no --pack or EVIDENCE_BRIDGE_PACK.
A data directory that already has a different pack is left alone unless --replace is given.

  --replace  replace the data directory's pack with FILE
`;

const fetchHelp = `usage: evidence-bridge pack fetch [--replace]
       evidence-bridge pack fetch --sha256 HEX [--name NAME] [--replace]

Downloads the intelligence pack from the published files and installs it into the data directory (see
'pack install'). With no arguments: the pack this release pins, ${PINNED_PACK.version} from
{base_url}/${PINNED_PACK.path}, accepted only with sha256
${PINNED_PACK.sha256};
a server file with another digest is refused, naming both. With --sha256:
{base_url}/integrations/NAME/intelligence-pack-v1.json, accepted only with the digest you were given.
Either way the pack must pass 'pack verify', and nothing is installed otherwise. {base_url} is the publisher's
${DEFAULT_BASE_URL} unless --base-url or EVIDENCE_BRIDGE_BASE_URL names another; refused with --offline.

  --sha256 HEX  a digest you were given for another published pack (64 hex digits)
  --name NAME   with --sha256: the <pack> path segment (default: scamshield)
  --replace     replace a different pack already in the data directory
`;

const signalsHelp = `usage: evidence-bridge [--pack FILE] pack signals [--json]

Lists the pack's signal vocabulary: every signal name its indicators refer to, with the typologies that use it.
These are the names 'pack match --signals' and assessments' detector signals can usefully carry.

  --json  print the list as canonical JSON
`;

function fail(file: string | undefined, e: unknown): never {
  if (e instanceof PackError) throw new CliError(file === undefined ? e.message : `intelligence pack ${file}: ${e.message}`);
  throw e;
}

function summary(file: string, pack: IntelligencePack) {
  return {
    file,
    schema: pack.schema,
    version: pack.version,
    generated_at: pack.generated_at,
    publisher: pack.publisher.name,
    sha256: pack.sha256,
    size: pack.size,
    sources: pack.sources.length,
    typologies: pack.typologies.length,
    dimensions: new Set(pack.typologies.map((t) => t.dimension)).size,
    indicators: pack.typologies.reduce((n, t) => n + t.indicators.length, 0),
    warnings: [...pack.warnings],
  };
}

async function runVerify(args: string[], ctx: CliContext): Promise<number> {
  const { flags, positionals } = parseFlags(args, { json: { type: "boolean" } });
  if (positionals.length > 1) throw new CliError("pack verify: at most one FILE (see --help)");
  let file: string | undefined = positionals[0];
  let pack: IntelligencePack;
  if (file === undefined) {
    ({ file, pack } = configuredPack(ctx));
  } else {
    try {
      pack = loadPack(await readNamedInput(ctx, file, { maxBytes: MAX_PACK_BYTES, tooLarge: "intelligence pack -: exceeds the 1 MiB limit" }, readPackBytes));
    } catch (e) {
      fail(file, e);
    }
  }
  const s = summary(file, pack);
  if (flags.json === true) {
    ctx.io.stdout.write(`${canonicalText(s, "summary")}\n`);
    return 0;
  }
  const lines = [
    `${file}: ok`,
    `  schema      ${s.schema}`,
    `  version     ${s.version}`,
    `  generated   ${s.generated_at}`,
    `  publisher   ${s.publisher}`,
    `  sha256      ${s.sha256}`,
    `  size        ${s.size} bytes`,
    `  sources     ${s.sources}`,
    `  typologies  ${s.typologies}`,
    `  dimensions  ${s.dimensions}`,
    `  indicators  ${s.indicators}`,
    ...s.warnings.map((w) => `  warning: ${w}`),
  ];
  ctx.io.stdout.write(`${lines.join("\n")}\n`);
  return 0;
}

function parseSignals(value: string | undefined): Set<string> {
  if (value === undefined || value === "") return new Set();
  try {
    return signalSet(value.split(","), "--signals");
  } catch (e) {
    fail(undefined, e);
  }
}

async function runMatch(args: string[], ctx: CliContext): Promise<number> {
  const { flags } = parseFlags(args, { signals: { type: "string" } }, false);
  const signals = parseSignals(flags.signals as string | undefined);
  const { pack } = configuredPack(ctx);
  const unknown = unknownSignals(pack, signals);
  if (unknown.length > 0) {
    ctx.io.stderr.write(
      `pack match: warning: ${unknown.length === 1 ? "this signal name is" : "these signal names are"} not used by the pack and cannot match: ${unknown.join(", ")} (see 'pack signals')\n`,
    );
  }
  if (ctx.io.stdin.isTTY === true) ctx.io.stderr.write("pack match: reading the message from stdin (Ctrl-D to end)\n");
  const bytes = await readLimited(ctx.io.stdin, MAX_MESSAGE_BYTES, `message exceeds ${MAX_MESSAGE_BYTES} bytes`);
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new CliError("message is not valid UTF-8");
  }
  const result = assessProvenance(pack, { text, signals });
  const out = { pack_sha256: pack.sha256, ...result };
  ctx.io.stdout.write(`${canonicalText(out, "result")}\n`);
  return 0;
}

/** The pack commands use (the data directory's own, or the configured one, remembered on first use). */
function configuredPack(ctx: CliContext): { file: string; pack: IntelligencePack } {
  try {
    return useConfiguredPack(ctx, configFrom(ctx));
  } catch (e) {
    if (e instanceof PackError && (e.rule === "not-configured" || e.rule === "different-pack")) throw new CliError(e.detail);
    fail(undefined, e);
  }
}

function printInstalled(ctx: CliContext, home: string, pack: IntelligencePack, outcome: "installed" | "unchanged"): void {
  const where = `${home}/intelligence-pack-v1.json`;
  ctx.io.stdout.write(
    outcome === "installed"
      ? `installed intelligence pack ${pack.version} (sha256 ${pack.sha256}) as ${where}; later commands use it without --pack\n`
      : `the data directory already uses this pack (sha256 ${pack.sha256}): ${where}\n`,
  );
}

function installBytes(ctx: CliContext, bytes: Uint8Array, replace: boolean, label: string): number {
  const config = configFrom(ctx);
  try {
    const { pack, outcome } = installPack(config.home, bytes, { replace });
    printInstalled(ctx, config.home, pack, outcome);
    return 0;
  } catch (e) {
    if (e instanceof PackError && e.rule === "different-pack") throw new CliError(`pack ${label}: ${e.detail}`);
    if (e instanceof PackError) throw new CliError(`intelligence pack ${label}: ${e.message}`);
    if (e instanceof Error && /^(SafeWriteError|DataDirError)$/.test(e.name)) throw new CliError(`pack ${label}: ${e.message}`);
    throw e;
  }
}

async function runInstall(args: string[], ctx: CliContext): Promise<number> {
  const { flags, positionals } = parseFlags(args, { replace: { type: "boolean" } });
  if (positionals.length !== 1) throw new CliError("pack install: exactly one FILE (see --help)");
  let bytes: Uint8Array;
  try {
    bytes = readPackBytes(positionals[0]);
  } catch (e) {
    fail(positionals[0], e);
  }
  return installBytes(ctx, bytes, flags.replace === true, "install");
}

async function runFetch(args: string[], ctx: CliContext): Promise<number> {
  const { flags, positionals } = parseFlags(args, { sha256: { type: "string" }, name: { type: "string" }, replace: { type: "boolean" } });
  if (positionals.length > 0) throw new CliError("pack fetch: no positional arguments (see --help)");
  const want = flags.sha256 as string | undefined;
  if (want !== undefined && !/^[0-9a-fA-F]{64}$/.test(want)) throw new CliError("--sha256: expected 64 hex digits");
  if (want === undefined && flags.name !== undefined) throw new CliError("pack fetch: --name needs --sha256 HEX (the pinned pack has its own path)");
  const config = configFrom(ctx);
  if (config.baseUrl === undefined) throw new CliError("pack fetch: offline (--offline or EVIDENCE_BRIDGE_OFFLINE): nothing is downloaded; run 'evidence-bridge pack fetch' without it");
  const { downloadPack, downloadPinnedPack } = await import("../../upstream/pack-download.js");
  const got =
    want === undefined
      ? await downloadPinnedPack({ baseUrl: config.baseUrl, timeoutMs: config.timeoutMs })
      : await downloadPack({ baseUrl: config.baseUrl, name: (flags.name as string | undefined) ?? "scamshield", timeoutMs: config.timeoutMs });
  if (!got.ok) throw new CliError(`pack fetch: ${got.url ?? "the pack"}: ${got.reason}; nothing was installed`);
  const { sha256Hex } = await import("../../../src/hash.js");
  const have = sha256Hex(got.bytes);
  if (want !== undefined && have !== want.toLowerCase()) {
    throw new CliError(`pack fetch: ${got.url} has sha256 ${have}, expected ${want.toLowerCase()}; nothing was installed`);
  }
  ctx.io.stderr.write(`pack fetch: ${got.url}: ${got.bytes.length} bytes, sha256 ${have} as ${want === undefined ? "pinned" : "expected"}\n`);
  return installBytes(ctx, got.bytes, flags.replace === true, "fetch");
}

async function runSignals(args: string[], ctx: CliContext): Promise<number> {
  const { flags, positionals } = parseFlags(args, { json: { type: "boolean" } });
  if (positionals.length > 0) throw new CliError("pack signals: no positional arguments (see --help)");
  const { pack } = configuredPack(ctx);
  const list = packSignals(pack);
  if (flags.json === true) {
    ctx.io.stdout.write(`${canonicalText({ pack_sha256: pack.sha256, signals: list }, "signals")}\n`);
    return 0;
  }
  const width = Math.max(6, ...list.map((s) => s.name.length));
  const lines = list.map((s) => `${s.name.padEnd(width)}  ${s.typologies.join(", ")}`);
  ctx.io.stdout.write(`${["signal".padEnd(width) + "  used by typologies", ...lines].join("\n")}\n`);
  if (list.length === 0) ctx.io.stdout.write("(this pack's indicators name no signals)\n");
  return 0;
}

export const verify: CliCommand = { help: verifyHelp, summary: "check an intelligence pack fail-closed; print version, digest and counts", run: runVerify };
export const match: CliCommand = { help: matchHelp, summary: "match one message on stdin against the pack locally (hypotheses as JSON)", run: runMatch };
export const install: CliCommand = { help: installHelp, summary: "check a pack and make it the data directory's own pack", run: runInstall };
export const fetch: CliCommand = { help: fetchHelp, summary: "download the pinned published pack, check its digest and install it", run: runFetch };
export const signals: CliCommand = { help: signalsHelp, summary: "list the signal names the pack's indicators use", run: runSignals };
