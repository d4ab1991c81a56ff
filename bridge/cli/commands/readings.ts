/**
 * `readings check-ledger --manifest FILE --ledger FILE`: the hosted server's checks of the economic observation
 * ledger against its fixed manifest (hosted-tool-server.md §4.3–§4.5), over local copies. The exact bytes' length,
 * SHA-256 and record count are checked before any row is parsed. Nothing is fetched.
 */
import { checkEconomicLedger } from "../../../published/readings/check-ledger.js";
import { MAX_LEDGER_BYTES, MAX_MANIFEST_BYTES } from "../../../published/readings/economic-manifest.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { terminalSafe } from "./capsule-verify.js";
import { readCapped } from "./index-cmd.js";

const help = `usage: evidence-bridge readings check-ledger --manifest FILE --ledger FILE [--pinned-base URL] [--json]

Checks a local copy of the economic observation ledger (JSONL) against its manifest the way the hosted tool
server does before it serves a row: manifest rules; then the ledger's exact byte length, SHA-256 and record
count against the manifest, before any row is parsed; then every row rule (observation ids recomputed, append
order, revisions); then the final count.

  --manifest FILE     the manifest (china-econ-observations-latest.json), at most ${MAX_MANIFEST_BYTES} bytes
  --ledger FILE       the ledger (china-econ-observations.jsonl), at most ${MAX_LEDGER_BYTES} bytes
  --pinned-base URL   the published base the manifest must pin its URLs to; default: --base-url or
                      EVIDENCE_BRIDGE_BASE_URL when set, else the base the manifest declares for the
                      ledger (then only consistency is checked)
  --json              print the result as JSON

A matching digest proves byte consistency with the manifest only; it does not authenticate the publisher.

Exit status: 0 verified, 1 a check failed (the message names it), 2 a file cannot be read or a flag is wrong.
`;

function pinnedBase(value: string | undefined, ctx: CliContext): string | undefined {
  if (value === undefined) {
    // Only a base the user set pins the manifest; the publisher's default does not change what is checked.
    const config = configFrom(ctx);
    return config.defaults.baseUrl ? undefined : config.chosen.baseUrl;
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError("--pinned-base: not a valid URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new CliError("--pinned-base: only http and https URLs are allowed");
  return value.replace(/\/+$/, "");
}

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { flags } = parseFlags(
    args,
    { manifest: { type: "string" }, ledger: { type: "string" }, "pinned-base": { type: "string" }, json: { type: "boolean" } },
    false,
  );
  const manifestFile = flags.manifest as string | undefined;
  const ledgerFile = flags.ledger as string | undefined;
  if (!manifestFile || !ledgerFile) throw new CliError("readings check-ledger: --manifest FILE and --ledger FILE are required (see --help)");
  const base = pinnedBase(flags["pinned-base"] as string | undefined, ctx);
  // At most one byte over the server's caps is read, so an oversized file fails with the server's own message.
  const manifest = readCapped(manifestFile, MAX_MANIFEST_BYTES + 1, { prefix: true });
  const ledger = readCapped(ledgerFile, MAX_LEDGER_BYTES + 1, { prefix: true });
  const result = checkEconomicLedger(manifest, ledger, { pinnedBase: base });
  if (flags.json === true) {
    ctx.io.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } else if (result.ok) {
    ctx.io.stdout.write(
      `${ledgerFile}: verified against ${manifestFile}: ${result.source.rows} rows, ${result.source.bytes} bytes, sha256 ${result.source.sha256}\n` +
        `  URLs pinned to ${terminalSafe(result.pinned_base)} (${result.pinned_base_source === "caller" ? "as configured" : "as the manifest declares"}); byte consistency only, not publisher authentication\n`,
    );
  } else {
    ctx.io.stdout.write(`${ledgerFile}: FAILED (${result.error.stage}): ${terminalSafe(result.error.message)}\n`);
  }
  return result.ok ? 0 : 1;
}

export const checkLedger: CliCommand = { summary: "check a copy of the economic ledger against its manifest", help, run };
