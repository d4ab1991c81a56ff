/**
 * `index validate FILE...` and `index export FILE --format csv|jsonl` (product.md §5, §10): the regional
 * captured-news index. Files are read from disk only, up to a byte cap checked before reading; nothing is fetched.
 */
import { once } from "node:events";
import { readRegularFile, readRegularFilePrefix, SafeReadError } from "../../../src/crypto/safe-read.js";
import { DEFAULT_MAX_INDEX_BYTES, REGIONAL_SCHEMA_VERSION, REGIONS, type Region } from "../../../published/regional/constants.js";
import { exportLoadedIndex, type CsvColumns, type ExportFormat } from "../../../published/regional/export.js";
import { PUBLISHER_PROFILE } from "../../../published/regional/profiles.js";
import { IndexLoadError } from "../../../published/regional/load.js";
import { parseRfc3339, type Instant } from "../../../published/regional/rfc3339.js";
import {
  loadFailureFinding,
  loadRegionalInput,
  validateLoadedIndex,
  validateRegionalIndex,
  type RegionalValidationReport,
} from "../../../published/regional/validate.js";
import { intFlag, parseFlags } from "../args.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { readNamedInput, stdinAtMostOnce } from "../named-input.js";
import { terminalSafe } from "./capsule-verify.js";

const MAX_BYTES_HELP = `  --max-bytes N    refuse a file larger than N bytes before reading it (default ${DEFAULT_MAX_INDEX_BYTES}, 256 MiB)`;

/**
 * Reads a file of at most `cap` bytes through the safe reader (src/crypto/safe-read.ts: a regular file only, never a
 * link, FIFO, device or directory). A larger file is refused from its size, before reading, naming `capFlag`; with
 * `prefix`, its first `cap` bytes are returned instead (for checks that must report the size themselves).
 */
export function readCapped(file: string, cap: number, opts: { capFlag?: string; prefix?: boolean } = {}): Buffer {
  try {
    const bytes = opts.prefix ? readRegularFilePrefix(file, cap, file) : readRegularFile(file, { maxBytes: cap, label: file });
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  } catch (e) {
    if (!(e instanceof SafeReadError)) throw e;
    if (e.code === "missing") throw new CliError(`${file}: cannot read: ENOENT`);
    if (e.code === "too-large") {
      throw new CliError(`${file}: ${e.size} bytes, over the ${cap}-byte cap${opts.capFlag ? ` (raise ${opts.capFlag} to read it)` : ""}`);
    }
    throw new CliError(e.message);
  }
}

/** An index FILE's bytes: stdin for `-`, else the file (bounded by `--max-bytes` either way). */
async function readIndexInput(ctx: CliContext, file: string, cap: number): Promise<Uint8Array> {
  return readNamedInput(ctx, file, { maxBytes: cap, tooLarge: `-: over the ${cap}-byte cap (raise --max-bytes to read it)` }, (f) => readCapped(f, cap, { capFlag: "--max-bytes" }));
}

function maxBytesFlag(value: string | boolean | string[] | undefined): number {
  return intFlag("max-bytes", value as string | undefined, DEFAULT_MAX_INDEX_BYTES);
}

const validateHelp = `usage: evidence-bridge index validate FILE... [--json] [--strict] [--max-bytes N]

Checks regional captured-news index files against ${REGIONAL_SCHEMA_VERSION} or, when the file's own
schema_version says so, the publisher's profile of it (${PUBLISHER_PROFILE.schema_version}: the same rules with the
publisher's real constants; docs/regional-index.md). Every rule of the format (strict
objects, constants, enums, patterns, RFC 3339 date-times, URI/IRI, unique items, minimums, missing_records = 0),
consistency findings the format implies (warnings), and content_sha256 under our reading of the format
(docs/regional-index.md). Nothing is fetched.

  --json           print the validation report (an array of reports for several files)
  --strict         also fail (exit 1) on warnings or a content_sha256 mismatch
${MAX_BYTES_HELP}

Exit status: 0 every file conforms, 1 some file does not conform (errors are listed with their JSON paths),
2 a file cannot be read (missing, not a regular file, over the byte cap; nothing is printed). FILE '-' reads
the index from stdin; a link, FIFO, device or directory is refused at once, naming what it is.
`;

/** The short human summary of one report. */
export function summarizeIndexReport(file: string, r: RegionalValidationReport): string {
  const sha = r.content_sha256;
  const shaText = `content_sha256 ${sha.status}${sha.reason ? ` (${sha.reason})` : ""}`;
  const profile = r.profile === null ? "no known profile" : `${r.profile} profile, ${r.format}`;
  const head = r.conforms
    ? `${file}: conforms (${profile}; region ${r.region}, ${r.event_count} events); ${shaText}; ${r.warning_count} warning(s)`
    : `${file}: DOES NOT CONFORM (${profile}): ${r.error_count} error(s); ${shaText}`;
  const lines = [head];
  for (const f of r.errors) lines.push(`  error ${f.rule}: ${f.message}`);
  if (r.error_count > r.errors.length) lines.push(`  ... ${r.error_count - r.errors.length} more error(s) not shown`);
  for (const f of r.warnings) lines.push(`  warning ${f.rule}: ${f.message}`);
  if (r.warning_count > r.warnings.length) lines.push(`  ... ${r.warning_count - r.warnings.length} more warning(s) not shown`);
  if (sha.status === "mismatch") lines.push(`  content_sha256 declared ${sha.declared}, computed ${sha.computed} (${sha.rule})`);
  return lines.map(terminalSafe).join("\n") + "\n";
}

async function runValidate(args: string[], ctx: CliContext): Promise<number> {
  const { flags, positionals } = parseFlags(args, {
    json: { type: "boolean" },
    strict: { type: "boolean" },
    "max-bytes": { type: "string" },
  });
  if (positionals.length === 0) throw new CliError("index validate: at least one FILE is required (see --help)");
  const cap = maxBytesFlag(flags["max-bytes"]);
  const strict = flags.strict === true;
  const progress = ctx.io.stderr.isTTY === true && positionals.length > 1;
  // One file in memory at a time; reports are printed at the end, so an unreadable file (exit 2) prints nothing.
  stdinAtMostOnce(positionals, "index validate");
  const reports = [];
  for (const [i, file] of positionals.entries()) {
    if (progress) ctx.io.stderr.write(`\rvalidating ${i + 1}/${positionals.length}`);
    try {
      reports.push({ file, ...validateRegionalIndex(await readIndexInput(ctx, file, cap), { maxBytes: cap }) });
    } catch (e) {
      if (progress) ctx.io.stderr.write("\n");
      throw e;
    }
  }
  if (progress) ctx.io.stderr.write("\n");
  if (flags.json === true) {
    ctx.io.stdout.write(`${JSON.stringify(reports.length === 1 ? reports[0] : reports, null, 2)}\n`);
  } else {
    ctx.io.stdout.write(reports.map((r) => summarizeIndexReport(r.file, r)).join(""));
  }
  const failed = reports.some((r) => !r.conforms || (strict && (r.warning_count > 0 || r.content_sha256.status === "mismatch")));
  return failed ? 1 : 0;
}

const exportHelp = `usage: evidence-bridge index export FILE --format csv|jsonl [--columns publisher|full] [--region R]
       [--since T] [--max-bytes N]

Writes one row per event of a conforming regional captured-news index (either profile) to stdout. Metadata
and links only: article bodies are never fetched (article_body_fetching: prohibited).

  --format csv     a header row and one row per event; a text cell whose first non-whitespace character is
                   =, +, - or @ (or a look-alike) gets a leading apostrophe
  --columns publisher   (default) exactly the publisher's CSV: its 19 columns and order, LF line endings,
                   empty translation cells for an untranslated event (docs/regional-index.md)
  --columns full   our wider set of 21 columns (dek, topics, publisher links), RFC 4180 with CRLF
  --format jsonl   one canonical JSON object per event (sorted keys, with schema_version and region), the exact
                   captured text
  --region R       only events tagged with R (${REGIONS.join(", ")})
  --since T        only events published at or after T (RFC 3339 date-time, or YYYY-MM-DD for 00:00Z)
${MAX_BYTES_HELP}

Exit status: 0 written, 1 the index does not conform (nothing is written; run 'index validate' for the list),
2 the file cannot be read or a flag is wrong. FILE '-' reads the index from stdin.
`;

/** `--since`: an RFC 3339 date-time, or a date meaning its midnight UTC. */
export function parseSince(value: string): Instant {
  const instant = parseRfc3339(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (instant === undefined) throw new CliError(`--since: expected an RFC 3339 date-time or YYYY-MM-DD, got ${JSON.stringify(value)}`);
  return instant;
}

async function runExport(args: string[], ctx: CliContext): Promise<number> {
  const { flags, positionals } = parseFlags(args, {
    format: { type: "string" },
    columns: { type: "string" },
    region: { type: "string" },
    since: { type: "string" },
    "max-bytes": { type: "string" },
  });
  if (positionals.length !== 1) throw new CliError("index export: exactly one FILE is required (see --help)");
  const format = flags.format;
  if (format !== "csv" && format !== "jsonl") throw new CliError("--format: expected csv or jsonl");
  const columns = flags.columns ?? "publisher";
  if (columns !== "publisher" && columns !== "full") throw new CliError(`--columns: expected publisher or full, got ${JSON.stringify(columns)}`);
  if (flags.columns !== undefined && format !== "csv") throw new CliError("--columns: applies to --format csv only");
  const region = flags.region as string | undefined;
  if (region !== undefined && !(REGIONS as readonly string[]).includes(region)) {
    throw new CliError(`--region: expected one of ${REGIONS.join(", ")}, got ${JSON.stringify(region)}`);
  }
  const since = flags.since === undefined ? undefined : parseSince(flags.since as string);
  const cap = maxBytesFlag(flags["max-bytes"]);
  const [file] = positionals;
  const bytes = await readIndexInput(ctx, file, cap);

  let loaded;
  try {
    loaded = loadRegionalInput(bytes, cap);
  } catch (e) {
    if (!(e instanceof IndexLoadError)) throw e;
    throw new CliError(terminalSafe(`${file} does not conform to the regional index format: ${loadFailureFinding(e.failure).message}`), 1);
  }
  // Export needs conformance only: the content digest never decides `conforms`, so it is not computed here.
  const report = validateLoadedIndex(loaded, { maxFindings: 1, contentDigest: false });
  if (!report.conforms) {
    const first = report.errors[0]?.message ?? "";
    throw new CliError(
      terminalSafe(`${file} does not conform to ${report.format} (${report.error_count} error(s); first: ${first}); run 'evidence-bridge index validate ${file}'`),
      1,
    );
  }
  const out = ctx.io.stdout;
  const progress = ctx.io.stderr.isTTY === true;
  let written = 0;
  for (const chunk of exportLoadedIndex(loaded, { format: format as ExportFormat, columns: columns as CsvColumns, region: region as Region | undefined, since })) {
    if (!out.write(chunk)) await once(out, "drain");
    if (progress) ctx.io.stderr.write(`\rexported ${(written += chunk.length)} characters`);
  }
  if (progress) ctx.io.stderr.write("\n");
  return 0;
}

export const validate: CliCommand = { summary: "check regional captured-news index files (either profile)", help: validateHelp, run: runValidate };
export const exportCmd: CliCommand = { summary: "write a conforming regional index as CSV or JSON Lines", help: exportHelp, run: runExport };
