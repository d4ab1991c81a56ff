/**
 * `pack verify [FILE] [--json]` and `pack match [--signals a,b] < message.txt` (product.md §5): check an
 * intelligence pack fail-closed (assessment-v1 §3), and match one message against the configured pack locally
 * (§4). The message text and matched fragments are never written to stderr; `pack match` prints only the
 * hypotheses JSON on stdout.
 */
import { canonicalText } from "../../../src/json/canonical.js";
import { PackError } from "../../../published/pack/errors.js";
import { configuredPackPath, loadPackFile } from "../../../published/pack/file.js";
import { signalSet } from "../../../published/pack/match.js";
import { assessProvenance } from "../../../published/pack/provenance.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { parseFlags, readLimited } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";

/** Largest message `pack match` reads from stdin. */
export const MAX_MESSAGE_BYTES = 1_048_576;

const verifyHelp = `usage: evidence-bridge [--pack FILE] pack verify [FILE] [--json]

Checks an intelligence pack (scamshield-intelligence-pack/v1) fail-closed: strict JSON without duplicate keys,
closed objects, every limit, https-only URLs, literal terms only. Prints version, digest and counts.
Without FILE, checks the configured pack (--pack, EVIDENCE_BRIDGE_PACK, else <home>/intelligence-pack-v1.json).

  --json  print the summary as canonical JSON

Exit status: 0 the pack is valid, 2 any violation (one stderr line naming the JSON path and rule).
`;

const matchHelp = `usage: evidence-bridge [--pack FILE] pack match [--signals a,b] < message.txt

Matches one message (UTF-8 on stdin, at most 1 MiB) against the configured intelligence pack and prints the
message-level hypotheses, origin answer and abstentions as canonical JSON. The text is not stored or echoed.

  --signals a,b  detector signal names and threat rule ids that fired for this message (identifiers)
`;

function fail(file: string | undefined, e: unknown): never {
  if (e instanceof PackError) throw new CliError(file === undefined ? e.message : `intelligence pack ${file}: ${e.message}`);
  throw e;
}

function notConfigured(home: string): string {
  return `no intelligence pack configured: pass --pack FILE, set EVIDENCE_BRIDGE_PACK, or place intelligence-pack-v1.json in ${home}`;
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
  if (file === undefined) {
    const config = configFrom(ctx);
    file = configuredPackPath(config);
    if (file === undefined) throw new CliError(notConfigured(config.home));
  }
  let pack: IntelligencePack;
  try {
    pack = loadPackFile(file);
  } catch (e) {
    fail(file, e);
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
  const config = configFrom(ctx);
  const file = configuredPackPath(config);
  if (file === undefined) throw new CliError(notConfigured(config.home));
  let pack: IntelligencePack;
  try {
    pack = loadPackFile(file);
  } catch (e) {
    fail(file, e);
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

export const verify: CliCommand = { help: verifyHelp, run: runVerify };
export const match: CliCommand = { help: matchHelp, run: runMatch };
