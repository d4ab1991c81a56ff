/** What every CLI command receives, and the error type for exit-2 failures. */
import type { Readable, Writable } from "node:stream";

export interface CliIo {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable & { isTTY?: boolean };
  stderr: Writable & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
}

export interface CliContext {
  io: CliIo;
  /** Global flags taken before the command (`--home`, `--mcp-url`, `--base-url`, `--pack`, `--timeout-ms`; `--offline` as "1"). */
  globalFlags: Record<string, string>;
}

/** A failure reported as exactly one stderr line `evidence-bridge: <message>` with the given exit code. */
export class CliError extends Error {
  override readonly name = "CliError";
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
  }
}

export interface CliCommand {
  /** Usage text printed by `--help`: a `usage:` line, a blank line, then a paragraph whose first sentence says what it does. */
  help: string;
  /** One line for the command list; when absent, the first sentence of `help` after the usage line is used. */
  summary?: string;
  run(args: string[], ctx: CliContext): Promise<number>;
}
