/**
 * Runs `review serve` in process (main() as bin.ts runs it) on a free 127.0.0.1 port, waits for the URL it
 * prints, and stops it by ending stdin, the way a terminal's Ctrl-D or a parent closing the pipe does.
 */
import { PassThrough, Writable } from "node:stream";
import { main } from "../../../bridge/cli/main.js";
import type { CliIo } from "../../../bridge/cli/context.js";
import { TEST_ENDPOINT_ENV } from "../../helpers/test-env.js";

export interface PageSession {
  url: string;
  origin: string;
  /** Ends stdin and resolves with the exit code and what was written. */
  stop(): Promise<{ code: number; stdout: string; stderr: string }>;
}

function sink(): { stream: Writable; text: () => string; onData: (f: () => void) => void } {
  let text = "";
  const listeners: (() => void)[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      text += Buffer.from(chunk).toString("utf8");
      for (const l of listeners) l();
      cb();
    },
  });
  return { stream, text: () => text, onData: (f) => listeners.push(f) };
}

/** `argv`: the whole command line, e.g. `--home H --pack P review serve --reviewer alice`. */
export async function startPage(argv: string[]): Promise<PageSession> {
  const stdin = new PassThrough();
  const out = sink();
  const err = sink();
  const io: CliIo = { stdin, stdout: out.stream, stderr: err.stream, env: { ...TEST_ENDPOINT_ENV } };
  const done = main(argv, io);
  const url = await new Promise<string>((resolve, reject) => {
    const check = () => {
      const m = /^review page: (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/)\n/.exec(out.text());
      if (m) resolve(m[1]);
    };
    out.onData(check);
    done.then(
      (code) => reject(new Error(`review serve exited ${code} before printing its URL: ${err.text()}`)),
      (e: unknown) => reject(e instanceof Error ? e : new Error(String(e))),
    );
  });
  return {
    url,
    origin: new URL(url).origin,
    async stop() {
      stdin.end();
      const code = await done;
      return { code, stdout: out.text(), stderr: err.text() };
    },
  };
}
