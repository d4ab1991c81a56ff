/**
 * In-process sessions with the MCP server: `serveStdio` on PassThrough streams, driven with raw JSON-RPC lines so
 * tests can look at the exact bytes written to stdout. Also the shared fixtures: a temporary data directory, the
 * configuration against the hosted double, and the example assessments.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough } from "node:stream";
import { loadConfig, type Config } from "../../../src/config.js";
import { serveStdio, type ServeOptions } from "../../../bridge/mcp/serve-stdio.js";
import { sharedPath } from "../../helpers/shared.js";
import { TEST_ENDPOINT_ENV } from "../../helpers/test-env.js";

export const PACK_PATH = sharedPath("data/intelligence-pack/intelligence-pack-v1.json");
export const EXAMPLES = sharedPath("data/bridge-examples/valid");

export function exampleAssessment(name: string): string {
  return readFileSync(join(EXAMPLES, `${name}.json`), "utf8");
}

export function exampleMessage(name: string): string {
  return readFileSync(join(EXAMPLES, `${name}.txt`), "utf8");
}

const homes: string[] = [];

export function tempHome(): string {
  const h = mkdtempSync(join(tmpdir(), "eb-mcp-"));
  homes.push(h);
  return h;
}

export function removeTempHomes(): void {
  for (const h of homes.splice(0)) rmSync(h, { recursive: true, force: true });
}

export function configFor(flags: { home?: string; mcpUrl?: string; baseUrl?: string; pack?: string | null; timeoutMs?: number; offline?: boolean }): Config {
  return loadConfig(
    {
      home: flags.home ?? tempHome(),
      "mcp-url": flags.mcpUrl,
      "base-url": flags.baseUrl,
      pack: flags.pack === null ? undefined : (flags.pack ?? PACK_PATH),
      "timeout-ms": String(flags.timeoutMs ?? 5000),
      offline: flags.offline === true ? "1" : undefined,
    },
    TEST_ENDPOINT_ENV,
  );
}

export interface Reply {
  /** The exact stdout line (without the newline). */
  line: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  msg: any;
}

export class Session {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly stderr = new PassThrough();
  /** Every stdout line, in order. */
  readonly lines: string[] = [];
  private stderrText = "";
  private buffer = "";
  private nextId = 1000;
  private readonly waiting = new Map<string, (r: Reply) => void>();
  readonly done: Promise<number>;

  constructor(config: Config, opts: ServeOptions = {}) {
    this.stdout.setEncoding("utf8");
    this.stdout.on("data", (chunk: string) => {
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf("\n")) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        this.lines.push(line);
        const msg = JSON.parse(line);
        const key = JSON.stringify(msg.id ?? null);
        const w = this.waiting.get(key);
        if (w) {
          this.waiting.delete(key);
          w({ line, msg });
        }
      }
    });
    this.stderr.setEncoding("utf8");
    this.stderr.on("data", (c: string) => (this.stderrText += c));
    this.done = serveStdio(config, { stdin: this.stdin, stdout: this.stdout, stderr: this.stderr }, { retryDelayMs: 20, discoveryWaitMs: 3000, version: "0.0.0-test", ...opts });
  }

  get stderrOutput(): string {
    return this.stderrText;
  }

  /** Writes one raw line (a newline is added). */
  writeLine(text: string): void {
    this.stdin.write(`${text}\n`);
  }

  /** The reply to the request with this id (registered before the request is written). */
  reply(id: string | number | null): Promise<Reply> {
    return new Promise((resolve) => this.waiting.set(JSON.stringify(id), resolve));
  }

  /** Sends a request and waits for its reply. */
  async request(method: string, params?: unknown, id: string | number = this.nextId++): Promise<Reply> {
    const p = this.reply(id);
    this.writeLine(JSON.stringify({ jsonrpc: "2.0", id, method, ...(params === undefined ? {} : { params }) }));
    return p;
  }

  /** tools/call; resolves with the reply. */
  call(name: string, args?: unknown, id?: string | number): Promise<Reply> {
    return this.request("tools/call", { name, ...(args === undefined ? {} : { arguments: args }) }, id);
  }

  async initialize(): Promise<Reply> {
    const r = await this.request("initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "session-test", version: "1" } });
    this.writeLine(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }));
    return r;
  }

  /** Ends stdin and waits for the server to finish. */
  async end(): Promise<number> {
    this.stdin.end();
    return this.done;
  }
}

export async function startSession(config: Config, opts: ServeOptions = {}): Promise<Session> {
  const s = new Session(config, opts);
  await s.initialize();
  return s;
}
