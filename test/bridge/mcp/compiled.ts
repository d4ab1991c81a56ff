/**
 * The compiled bridge for end-to-end tests: `dist/bridge/cli/bin.js` (tsc output) and, when the project bundles,
 * the package's bin entry `dist/bundle/bin.js`. Built when missing or older than any source file (`npm test`
 * builds first, so this is for running the tests on their own).
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, rmdirSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { newestTsIn } from "../../helpers/node-script.js";
import { repoRoot } from "../../helpers/shared.js";
import { childEnv } from "../../helpers/test-env.js";

export const BIN = join(repoRoot, "dist/bridge/cli/bin.js");
/** The bundled entry (the package's `bin`), or undefined when the project has no bundle step. */
const BUNDLE_SCRIPT = join(repoRoot, "scripts/bundle.mjs");
export const BUNDLE = existsSync(BUNDLE_SCRIPT) ? join(repoRoot, "dist/bundle/bin.js") : undefined;
const MARKERS = [BIN, join(repoRoot, "dist/bridge/mcp/server.js"), join(repoRoot, "dist/bridge/mcp/stdio-transport.js"), ...(BUNDLE ? [BUNDLE] : [])];

function stale(): boolean {
  if (!MARKERS.every(existsSync)) return true;
  const built = Math.min(...MARKERS.map((m) => statSync(m).mtimeMs));
  return ["bridge", "capsules", "published", "src"].some((d) => newestTsIn(join(repoRoot, d)) > built);
}

const LOCK = join(tmpdir(), `eb-build-${createHash("sha256").update(repoRoot).digest("hex").slice(0, 12)}.lock`);
const LOCK_WAIT_MS = 170_000;

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Builds dist when needed. Test files run in parallel workers, so one build at a time (a lock directory); a
 * worker that waited re-checks before building. Type errors elsewhere in the tree do not stop tsc from emitting.
 */
export function ensureBuilt(): void {
  if (!stale()) return;
  const start = Date.now();
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch {
      // A lock left by a killed run (older than any build takes) is removed.
      const age = Date.now() - (statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 2 * LOCK_WAIT_MS) rmdirSync(LOCK);
      else if (Date.now() - start > LOCK_WAIT_MS) throw new Error(`waited too long for the build lock ${LOCK}`);
      else sleepSync(200);
    }
  }
  try {
    if (!stale()) return;
    try {
      execFileSync(process.execPath, [join(repoRoot, "node_modules/typescript/bin/tsc"), "-p", join(repoRoot, "tsconfig.json")], { cwd: repoRoot, stdio: "pipe" });
    } catch {
      // tsc exits non-zero on any type error in the tree but still writes dist; the check below decides.
    }
    if (BUNDLE) execFileSync(process.execPath, [BUNDLE_SCRIPT], { cwd: repoRoot, stdio: "pipe" });
  } finally {
    rmdirSync(LOCK);
  }
  if (!MARKERS.every(existsSync)) throw new Error(`the build did not produce ${MARKERS.filter((m) => !existsSync(m)).join(", ")}`);
}

/** An SDK client connected over stdio to the compiled bridge, and what the bridge wrote to stderr so far. */
export interface CompiledSession {
  client: Client;
  transport: StdioClientTransport;
  stderr(): string;
}

/** Spawns `entry` (BIN or BUNDLE) with `args` and only PATH in its environment, and connects the SDK client. */
export async function connectCompiled(entry: string, args: string[], clientName: string): Promise<CompiledSession> {
  ensureBuilt();
  const transport = new StdioClientTransport({ command: process.execPath, args: [entry, ...args], env: childEnv(), stderr: "pipe", cwd: repoRoot });
  let stderr = "";
  transport.stderr?.on("data", (c: Buffer) => (stderr += c.toString()));
  const client = new Client({ name: clientName, version: "1.0.0" });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}
