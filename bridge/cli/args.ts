/** Strict flag parsing for CLI commands: unknown flags and malformed values are errors naming the flag. */
import { parseArgs, type ParseArgsConfig } from "node:util";
import { CliError } from "./context.js";

export type FlagSpec = NonNullable<ParseArgsConfig["options"]>;

export interface Parsed {
  flags: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

export function parseFlags(args: string[], options: FlagSpec, allowPositionals = true): Parsed {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals, strict: true });
    return { flags: values as Parsed["flags"], positionals };
  } catch (e) {
    const code = (e as { code?: string }).code;
    const unknown = code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" ? /^Unknown option '([^']*)'/.exec((e as Error).message) : null;
    if (unknown !== null) {
      const names = Object.keys(options).map((n) => `--${n}`);
      throw new CliError(`Unknown option '${unknown[1]}' (${names.length === 0 ? "this command takes no options" : `the options are ${names.join(", ")}`})`);
    }
    throw new CliError((e as Error).message.split("\n")[0]);
  }
}

/** Reads a whole stream into one buffer, refusing more than `limit` bytes with `message`. */
export async function readLimited(stream: NodeJS.ReadableStream, limit: number, message: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
    total += buf.length;
    if (total > limit) throw new CliError(message);
    chunks.push(buf);
  }
  return Buffer.concat(chunks, total);
}

/** Parses a positive integer flag value or fails naming the flag. */
export function intFlag(name: string, value: string | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!/^[0-9]+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new CliError(`--${name}: expected an integer >= ${min}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}
