/** Running the CLI in process the way `runProcess` does, with captured streams. */
import { Readable, Writable } from "node:stream";
import { main, oneLine } from "../../bridge/cli/main.js";
import { TEST_ENDPOINT_ENV } from "./test-env.js";

/** A writable that keeps everything written to it; `isTTY` lets tests exercise terminal-only output. */
export class Sink extends Writable {
  chunks: Buffer[] = [];
  constructor(readonly isTTY = false) {
    super();
  }
  override _write(chunk: Buffer, _enc: BufferEncoding, cb: () => void): void {
    this.chunks.push(Buffer.from(chunk));
    cb();
  }
  bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }
  text(): string {
    return this.bytes().toString("utf8");
  }
}

export interface RunOptions {
  /** The environment, over the test endpoints of test-env.ts (never the publisher's real addresses). */
  env?: NodeJS.ProcessEnv;
  /** Make stderr look like a terminal. */
  tty?: boolean;
  stdin?: Buffer | string;
}

export interface RunResult {
  code: number;
  /** Raw stdout bytes. */
  out: Buffer;
  stdout: string;
  stderr: string;
}

/** Runs `main(args)`; a thrown error becomes one stderr line and its exit code, exactly as in the real process. */
export async function runCli(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const stdout = new Sink();
  const stderr = new Sink(opts.tty ?? false);
  const stdin = Readable.from(opts.stdin === undefined ? [] : [Buffer.from(opts.stdin)]);
  let code: number;
  try {
    code = await main(args, { stdin, stdout, stderr, env: { ...TEST_ENDPOINT_ENV, ...opts.env } });
  } catch (e) {
    stderr.write(`evidence-bridge: ${oneLine((e as Error).message)}\n`);
    code = (e as { exitCode?: number }).exitCode ?? 2;
  }
  return { code, out: stdout.bytes(), stdout: stdout.text(), stderr: stderr.text() };
}
