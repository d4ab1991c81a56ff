/**
 * `evidence-bridge` with no command (and `evidence-bridge serve`): the stdio MCP server that desktop clients
 * launch (product.md §5, §6). stdout carries only JSON-RPC; diagnostics go to stderr; when stdin ends or the
 * client goes away the process finishes its writes and exits within a second.
 */
import { serveStdio } from "../../mcp/serve-stdio.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand } from "../context.js";

/** After serving ends, the real process exits even if a stray handle would keep it alive. */
const EXIT_AFTER_MS = 150;

const help = `usage: evidence-bridge [--home DIR] [--mcp-url URL] [--base-url URL] [--pack FILE] [--timeout-ms N]
         [--offline] [serve]

Serves MCP over stdio: newline-delimited JSON-RPC on stdin, answers on stdout, diagnostics on stderr. This is
what a desktop MCP client runs (see docs/mcp-clients.md). With a terminal on stdin a short banner is printed to
stderr first; end the session with Ctrl-D.

Private tools (local only): record_assessment, verify_capsule, list_capsules, get_candidates,
match_typologies, check_regional_index. Public tools, proxied to the hosted tool server (the publisher's
https://api.seiche.info/palimpsest/mcp unless --mcp-url names another): research_catalog, list_signals,
get_signal, get_newsroom, query_economic_observations, whats_happening, gfw_reading. Resources: the published
readings (https://palimpsest.info unless --base-url), the verified intelligence pack (the pinned published pack
is fetched on first need when the data directory has none), and the JSON Schemas of our formats. The publisher's
endpoints are contacted no earlier than the first call that needs them; --offline sends nothing anywhere.
`;

const command: CliCommand = {
  summary: "serve MCP over stdio (the default when no command is given)",
  help,
  async run(args, ctx) {
    const { positionals } = parseFlags(args, {}, true);
    if (positionals.length > 0) throw new CliError(`serve: unexpected argument ${JSON.stringify(positionals[0])} (see --help)`);
    const config = configFrom(ctx);
    const real = ctx.io.stdout === process.stdout;
    if (real) {
      // Nothing may write anything but JSON-RPC to stdout: route stray console output to stderr.
      const toStderr = (...a: unknown[]) => void process.stderr.write(`${a.map(String).join(" ")}\n`);
      console.log = toStderr;
      console.info = toStderr;
      console.debug = toStderr;
    }
    const code = await serveStdio(config, ctx.io);
    if (real) setTimeout(() => process.exit(code), EXIT_AFTER_MS).unref();
    return code;
  },
};

export default command;
