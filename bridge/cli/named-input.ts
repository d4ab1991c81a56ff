/**
 * `-` as a file name means stdin, for the commands that read a FILE argument (`capsule verify -`, `capsule import -`,
 * `index validate -`, `index export -`, `pack verify -`, `review verify-export -`, `tokens match -`): read once, and
 * refused as soon as it passes the bound of the file it stands for. Any other name is a file, read by the caller
 * through the safe reader (src/crypto/safe-read.ts). A command that reads stdin for something else (`capsule build`,
 * `capsule assess`, `pack match`) takes no `-`.
 */
import { readLimited } from "./args.js";
import { CliError, type CliContext } from "./context.js";

export const STDIN_NAME = "-";

/** Refuses `-` given more than once: stdin can be read only once. */
export function stdinAtMostOnce(names: readonly (string | undefined)[], command: string): void {
  if (names.filter((n) => n === STDIN_NAME).length > 1) throw new CliError(`${command}: '-' (stdin) can be given only once`);
}

export interface NamedInputBound {
  maxBytes: number;
  /** The error when stdin passes `maxBytes` (default: `stdin: more than N bytes`). */
  tooLarge?: string;
}

/** Stdin's bytes, refused as soon as they pass the bound. */
export async function readStdinInput(ctx: CliContext, bound: NamedInputBound): Promise<Uint8Array> {
  return readLimited(ctx.io.stdin, bound.maxBytes, bound.tooLarge ?? `stdin: more than ${bound.maxBytes} bytes`);
}

/** The bytes `name` stands for: stdin when it is `-` (bounded), else `readFile(name)`. */
export async function readNamedInput(ctx: CliContext, name: string, bound: NamedInputBound, readFile: (file: string) => Uint8Array): Promise<Uint8Array> {
  return name === STDIN_NAME ? readStdinInput(ctx, bound) : readFile(name);
}
