/** Runs the store-writer fixture as a child process (compiled, or through tsx when the build is stale: test/helpers/node-script.ts) and follows its stdout lines. */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { join } from "node:path";
import { scriptArgs } from "../../helpers/node-script.js";
import { repoRoot } from "../../helpers/shared.js";

export const WRITER = join(repoRoot, "test/capsules/store/fixtures/store-writer.ts");

export interface Writer {
  child: ChildProcessWithoutNullStreams;
  lines: string[];
  stderr: () => string;
  /** Resolves with the first line satisfying `pred`. */
  waitFor(pred: (line: string) => boolean): Promise<string>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function startWriter(args: string[], env: NodeJS.ProcessEnv = {}): Writer {
  const child = spawn(process.execPath, [...scriptArgs(WRITER), ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const lines: string[] = [];
  const waiters: { pred: (l: string) => boolean; resolve: (l: string) => void }[] = [];
  let partial = "";
  let err = "";
  child.stdout.on("data", (chunk: Buffer) => {
    partial += chunk.toString("utf8");
    let nl: number;
    while ((nl = partial.indexOf("\n")) !== -1) {
      const line = partial.slice(0, nl);
      partial = partial.slice(nl + 1);
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr.on("data", (chunk: Buffer) => {
    err += chunk.toString("utf8");
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("exit", (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    lines,
    stderr: () => err,
    waitFor(pred) {
      const found = lines.find(pred);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ pred, resolve });
        void exited.then(() => reject(new Error(`writer exited before the expected line; stderr: ${err.slice(0, 2000)}`)));
      });
    },
    exited,
  };
}

/** A small deterministic PRNG (mulberry32) so a failing run can be replayed from its seed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
