/**
 * Runs the CLI in process like `bin.ts` does (main() with in-memory streams): exit code, stdout and stderr, and a
 * thrown error turned into the one `evidence-bridge: <message>` stderr line of runProcess().
 */
import { Readable, Writable } from "node:stream";
import { CliError, type CliIo } from "../../../bridge/cli/context.js";
import { main, oneLine } from "../../../bridge/cli/main.js";
import { TEST_ENDPOINT_ENV } from "../../helpers/test-env.js";

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function sink(tty: boolean): { stream: Writable & { isTTY?: boolean }; text: () => string } {
  const chunks: Buffer[] = [];
  const stream: Writable & { isTTY?: boolean } = new Writable({
    write(chunk, _enc, cb) {
      chunks.push(Buffer.from(chunk));
      cb();
    },
  });
  if (tty) stream.isTTY = true;
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

export async function cli(argv: string[], opts: { stderrTTY?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const out = sink(false);
  const err = sink(opts.stderrTTY === true);
  const io: CliIo = { stdin: Readable.from([]), stdout: out.stream, stderr: err.stream, env: { ...TEST_ENDPOINT_ENV, ...opts.env } };
  let code: number;
  try {
    code = await main(argv, io);
  } catch (e) {
    err.stream.write(`evidence-bridge: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    code = e instanceof CliError ? e.exitCode : 2;
  }
  return { code, stdout: out.text(), stderr: err.text() };
}
