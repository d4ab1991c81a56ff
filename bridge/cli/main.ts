/**
 * The `evidence-bridge` entry point. With no command it serves MCP over stdio; otherwise it dispatches to one
 * lazily loaded command module, so each command loads only what it needs (cold start stays fast).
 */
import { importCommandModule } from "./command-modules.js";
import { CliError, type CliCommand, type CliContext, type CliIo } from "./context.js";

/**
 * Command table: `group sub` → [module file under ./commands, exported name]. Each export has `help` and `run`.
 * Modules are imported only when their command runs.
 */
export const COMMANDS: Record<string, readonly [file: string, name: string]> = {
  "capsule verify": ["capsule-verify", "default"],
  "capsule build": ["capsule-build", "default"],
  "capsule assess": ["capsule-assess", "default"],
  "capsule list": ["capsule-store", "list"],
  "capsule open": ["capsule-store", "open"],
  "capsule export": ["capsule-store", "exportCmd"],
  "capsule import": ["capsule-store", "importCmd"],
  "pack verify": ["pack", "verify"],
  "pack match": ["pack", "match"],
  "pack signals": ["pack", "signals"],
  "pack install": ["pack", "install"],
  "pack fetch": ["pack", "fetch"],
  "keys init": ["keys", "init"],
  "keys show": ["keys", "show"],
  "keys trust": ["keys", "trust"],
  "index validate": ["index-cmd", "validate"],
  "index export": ["index-cmd", "exportCmd"],
  "readings check-ledger": ["readings", "checkLedger"],
  feed: ["feed", "default"],
  "review list": ["review", "list"],
  "review show": ["review", "show"],
  "review approve": ["review-decide", "approve"],
  "review reject": ["review-decide", "reject"],
  "review defer": ["review-decide", "defer"],
  "review reestablish-position": ["review-decide", "reestablish"],
  "review log": ["review", "log"],
  "review export": ["review", "exportCmd"],
  "review verify-export": ["review", "verifyExport"],
  "review max-tlp": ["review-formats", "maxTlp"],
  "keys add-group": ["tokens", "addGroup"],
  "tokens export": ["tokens", "exportTokens"],
  "tokens match": ["tokens", "matchTokens"],
  "review policy": ["review", "policy"],
  "review release": ["review-release", "release"],
  "review serve": ["review-serve", "default"],
  "team init": ["team", "init"],
  "team join": ["team", "join"],
  "team invite": ["team", "invite"],
  "team remove": ["team", "remove"],
  "team status": ["team", "status"],
  "team sync": ["team", "sync"],
  doctor: ["doctor", "default"],
  demo: ["demo", "default"],
  serve: ["serve", "default"],
};

async function load(key: string): Promise<CliCommand> {
  const [file, name] = COMMANDS[key];
  const command = (await importCommandModule(file))?.[name];
  if (!command) throw new CliError(`command '${key}' is not available in this build`);
  return command;
}

/** Global flags accepted before the command; they feed the one configuration object (src/config.ts). */
const GLOBAL_FLAGS = new Set(["home", "mcp-url", "base-url", "pack", "timeout-ms", "team"]);
/** Global flags that take no value. */
const GLOBAL_SWITCHES = new Set(["offline"]);

/** The usage text with one line per command, read from each command module's own help (bridge/cli/help.ts). */
async function usage(): Promise<string> {
  const { summaryOf, usageText } = await import("./help.js");
  const entries = [];
  for (const name of Object.keys(COMMANDS)) {
    let summary: string;
    try {
      summary = summaryOf(await load(name));
    } catch (e) {
      if (!(e instanceof CliError)) throw e;
      summary = "(not available in this build)";
    }
    entries.push({ name, summary });
  }
  entries.push({ name: "help [COMMAND]", summary: "this list, or one command's usage" });
  return usageText(entries);
}

/** `help` and `help COMMAND [SUB]`. */
async function runHelp(words: string[], io: CliIo): Promise<number> {
  if (words.length === 0) {
    io.stdout.write(await usage());
    return 0;
  }
  const two = words.slice(0, 2).join(" ");
  const key = COMMANDS[two] ? two : COMMANDS[words[0]] && words.length === 1 ? words[0] : undefined;
  if (key === undefined) {
    const group = Object.keys(COMMANDS).filter((c) => c.startsWith(`${words[0]} `));
    if (group.length > 0 && words.length === 1) {
      const { summaryOf } = await import("./help.js");
      const width = Math.max(...group.map((g) => g.length));
      const lines = [];
      for (const g of group) lines.push(`  ${g.padEnd(width)}  ${summaryOf(await load(g))}`);
      io.stdout.write(`usage: evidence-bridge ${words[0]} <${group.map((g) => g.split(" ")[1]).join("|")}> ...\n\n${lines.join("\n")}\n`);
      return 0;
    }
    throw new CliError(`help: unknown command: ${words.join(" ")} (see 'evidence-bridge help')`);
  }
  const command = await load(key);
  io.stdout.write(await helpText(command));
  return 0;
}

/** A command's usage text, fitted to the help width (bridge/cli/help.ts), ending with one newline. */
async function helpText(command: CliCommand): Promise<string> {
  const { fitColumns } = await import("./help.js");
  const text = fitColumns(command.help.replace(/\n+$/, ""));
  return `${text}\n`;
}

/**
 * Global flags may also follow the command (`pack verify --pack FILE`): they are taken out of the command's
 * arguments (up to a `--`), since no command defines a flag of the same name.
 */
function takeGlobalFlags(args: string[], into: Record<string, string>): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      kept.push(...args.slice(i));
      break;
    }
    if (arg === "--offline") {
      into.offline = "1";
      continue;
    }
    const m = /^--([a-z-]+)(?:=(.*))?$/s.exec(arg);
    if (m === null || !GLOBAL_FLAGS.has(m[1])) {
      kept.push(arg);
      continue;
    }
    const value = m[2] !== undefined ? m[2] : args[++i];
    if (value === undefined || (m[2] === undefined && value.startsWith("--"))) {
      throw new CliError(`--${m[1]}: a value is required`);
    }
    into[m[1]] = value;
  }
  return kept;
}

export async function main(argv: string[], io: CliIo): Promise<number> {
  const globalFlags: Record<string, string> = {};
  let i = 0;
  while (i < argv.length && argv[i].startsWith("--")) {
    const arg = argv[i];
    if (arg === "--help" || arg === "-h") {
      io.stdout.write(await usage());
      return 0;
    }
    if (arg === "--version") {
      io.stdout.write(`${(await import("../package-info.js")).packageVersion()}\n`);
      return 0;
    }
    const eq = arg.indexOf("=");
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    if (GLOBAL_SWITCHES.has(name) && eq === -1) {
      globalFlags[name] = "1";
      i++;
      continue;
    }
    if (!GLOBAL_FLAGS.has(name)) throw new CliError(`unknown global flag --${name} (see --help)`);
    const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
    if (value === undefined || (eq === -1 && value.startsWith("--"))) {
      throw new CliError(`--${name}: a value is required`);
    }
    globalFlags[name] = value;
    i++;
  }
  const rest = argv.slice(i);
  const ctx: CliContext = { io, globalFlags };
  if (rest.length === 0) return (await load("serve")).run([], ctx);
  if (rest[0] === "help") return runHelp(rest.slice(1), io);
  const two = `${rest[0]} ${rest[1] ?? ""}`;
  const key = COMMANDS[two] ? two : COMMANDS[rest[0]] && !rest[0].includes(" ") ? rest[0] : undefined;
  if (key === undefined) {
    const group = Object.keys(COMMANDS).filter((c) => c.startsWith(`${rest[0]} `));
    if (group.length > 0 && (rest[1] === undefined || rest[1] === "--help" || rest[1] === "-h")) {
      if (rest[1] !== undefined) return runHelp([rest[0]], io);
      io.stdout.write(`usage: evidence-bridge ${rest[0]} <${group.map((g) => g.split(" ")[1]).join("|")}> ... (see 'evidence-bridge help ${rest[0]}')\n`);
      return 2;
    }
    throw new CliError(`unknown command: ${rest.slice(0, 2).join(" ")} (see --help)`);
  }
  const args = takeGlobalFlags(rest.slice(key.split(" ").length), globalFlags);
  const command = await load(key);
  if (args.includes("--help") || args.includes("-h")) {
    io.stdout.write(await helpText(command));
    return 0;
  }
  return command.run(args, ctx);
}

/** One-line error text: never a stack, never more than one line. */
export function oneLine(message: string): string {
  return message.replace(/[\r\n]+/g, " ").trim();
}

/**
 * True for the error of a write to a pipe whose reader has gone (`evidence-bridge review list | head`): EPIPE, or
 * a later write to the stdout that EPIPE destroyed.
 */
export function isClosedPipe(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code;
  return code === "EPIPE" || code === "ERR_STREAM_DESTROYED";
}

/**
 * When the reader of stdout goes away early (`… | head`), every command ends quietly with status 0, as the rest
 * of a pipeline expects: nothing more can be shown, and no stack trace. Any other stdout error is one stderr line
 * and exit 2. Called once, for every command (and `serve`, whose stdout is the MCP transport).
 */
export function endQuietlyOnClosedStdout(stdout: NodeJS.WritableStream, exit: (code: number) => void, stderr: NodeJS.WritableStream): void {
  stdout.on("error", (e: Error) => {
    if (isClosedPipe(e)) {
      exit(0);
      return;
    }
    stderr.write(`evidence-bridge: stdout: ${oneLine(e.message)}\n`);
    exit(2);
  });
}

/** Runs the CLI for this process: one stderr line and exit 2 (or the error's code) on failure. */
export async function runProcess(): Promise<void> {
  const io: CliIo = { stdin: process.stdin, stdout: process.stdout, stderr: process.stderr, env: process.env };
  endQuietlyOnClosedStdout(process.stdout, (c) => process.exit(c), process.stderr);
  let code: number;
  try {
    code = await main(process.argv.slice(2), io);
  } catch (e) {
    if (isClosedPipe(e) && process.stdout.destroyed) {
      // A command awaited its write and got the closed pipe: the same quiet end as above.
      process.exit(0);
    }
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`evidence-bridge: ${oneLine(message)}\n`);
    code = e instanceof CliError ? e.exitCode : 2;
  }
  process.exitCode = code;
}
