/**
 * The stdio MCP server (product.md §11, issue 6 item 8), measured on the package's bin entry (the bundle
 * `dist/bundle/bin.js` when the build makes one, else `dist/bridge/cli/bin.js`; `npm run bench` builds) against
 * the hosted double on 127.0.0.1:
 *
 * - cold start: spawn → the `initialize` answer on stdout (target ≤ `node -e 0` + 60 ms, NODE_EXTRA_CA_CERTS
 *   unset as users run), with the bundle's V8 code cache written by an earlier start (docs/startup.md), also with
 *   the cache off (a first start after an install) and for the unbundled tsc output; and the `tools/list` answer
 *   right after the `initialize` answer in the same cold processes (target ≤ 10 ms);
 * - added latency of a proxied call: median round trip of `list_signals` through the bridge over stdio, minus the
 *   median of the same call made directly to the double with the upstream client (target ≤ 2 ms);
 * - 50 concurrent proxied calls: all answered without error;
 * - peak RSS of the serving process after that load (VmHWM; target ≤ 150 MB);
 * - shutdown: stdin end → process exit (the issue: within one second).
 *
 * Skipped with a note when the compiled bridge or ../shared/data is missing.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { HostedClient } from "../bridge/upstream/hosted-client.js";
import { startHostedDouble } from "../test/double/hosted-server.js";
import { atMost, atMostOverFloor, floorMs, median, userEnv, type BenchResult } from "./harness.js";

const COLD_RUNS = 9;
const LATENCY_CALLS = 60;
const CONCURRENT = 50;

function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "evidence-bridge") return dir;
    if (dirname(dir) === dir) throw new Error("bench: cannot find the evidence-bridge package root");
    dir = dirname(dir);
  }
}

/** A spawned bridge with a line reader over its stdout. */
class Bridge {
  readonly child: ChildProcessWithoutNullStreams;
  private buffer = "";
  private readonly waiting = new Map<string, (line: string) => void>();
  private firstLine: ((t: number) => void) | undefined;
  readonly exited: Promise<number>;

  constructor(bin: string, args: string[], env: NodeJS.ProcessEnv = userEnv()) {
    this.child = spawn(process.execPath, [bin, ...args], { stdio: ["pipe", "pipe", "pipe"], env });
    this.child.stderr.resume();
    this.exited = new Promise((r) => this.child.on("exit", () => r(performance.now())));
    this.child.stdout.setEncoding("utf8");
    this.child.stdout.on("data", (chunk: string) => {
      const at = performance.now();
      if (this.firstLine) {
        this.firstLine(at);
        this.firstLine = undefined;
      }
      this.buffer += chunk;
      let nl: number;
      while ((nl = this.buffer.indexOf("\n")) !== -1) {
        const line = this.buffer.slice(0, nl);
        this.buffer = this.buffer.slice(nl + 1);
        const id = JSON.stringify((JSON.parse(line) as { id?: unknown }).id ?? null);
        const w = this.waiting.get(id);
        if (w) {
          this.waiting.delete(id);
          w(line);
        }
      }
    });
  }

  firstOutput(): Promise<number> {
    return new Promise((r) => (this.firstLine = r));
  }

  request(id: number | string, method: string, params: unknown): Promise<string> {
    const p = new Promise<string>((r) => this.waiting.set(JSON.stringify(id), r));
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method, params })}\n`);
    return p;
  }

  async initialize(): Promise<void> {
    await this.request(0, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } });
    this.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  }

  /** Peak resident set size of the process in MB (Linux VmHWM), or NaN elsewhere. */
  peakRssMb(): number {
    try {
      const status = readFileSync(`/proc/${this.child.pid}/status`, "utf8");
      const kb = Number(/^VmHWM:\s+(\d+) kB$/m.exec(status)?.[1]);
      return Math.round((kb / 1024) * 10) / 10;
    } catch {
      return Number.NaN;
    }
  }

  /** Ends stdin; resolves with the ms from then until the process exited. */
  async end(): Promise<number> {
    const t0 = performance.now();
    this.child.stdin.end();
    return (await this.exited) - t0;
  }
}

export async function benchMcp(): Promise<BenchResult[]> {
  const root = repoRoot();
  const plain = join(root, "dist/bridge/cli/bin.js");
  const pkgBin = (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { bin?: Record<string, string> }).bin?.["evidence-bridge"];
  const bin = pkgBin !== undefined && existsSync(join(root, pkgBin)) ? join(root, pkgBin) : plain;
  const dataRoot = resolve(root, "../shared/data");
  if (!existsSync(bin) || !existsSync(join(dataRoot, "hosted-responses"))) {
    process.stderr.write(`bench mcp: skipped (${existsSync(bin) ? `${dataRoot} is absent` : "dist/bridge/cli/bin.js is not built"})\n`);
    return [];
  }
  const home = mkdtempSync(join(tmpdir(), "eb-bench-mcp-"));
  const rows: BenchResult[] = [];
  const double = await startHostedDouble({ dataRoot, toolset: "current" });
  try {
    // Cold start to the initialize answer (a fresh process each run).
    const shutdown: number[] = [];
    /** tools/list answer time after the initialize answer, in the cold starts of the bundle with its cache. */
    const listAfter: number[] = [];
    const coldStart = async (entry: string, env?: NodeJS.ProcessEnv, runs = COLD_RUNS, list?: number[]): Promise<number[]> => {
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const b = new Bridge(entry, ["--home", home], env);
        const first = b.firstOutput();
        b.child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } } })}\n`);
        const answered = await first;
        times.push(answered - t0);
        if (list) {
          b.child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
          await b.request(2, "tools/list", {});
          list.push(performance.now() - answered);
        }
        shutdown.push(await b.end());
      }
      return times;
    };
    const floor = await floorMs(COLD_RUNS);
    // One untimed start first: after a build it writes the bundle's code cache, as a user's first start does.
    await coldStart(bin, undefined, 1);
    const cold = await coldStart(bin, undefined, COLD_RUNS, listAfter);
    rows.push(atMostOverFloor(`mcp: cold start to initialize answer (${bin.slice(root.length + 1)})`, median(cold), floor, 60, { min_ms: Math.min(...cold), runs: COLD_RUNS }));
    // tools/list right after (issue 33 item 2): answered from the pinned entries, without loading the SDK server.
    rows.push(atMost("mcp: tools/list answer after the initialize answer (cold process)", median(listAfter), 10, { min_ms: Math.min(...listAfter), runs: COLD_RUNS }));
    if (bin !== plain) {
      // The bundle without its V8 code cache (docs/startup.md): the first start after an install or upgrade.
      const noCache = await coldStart(bin, { ...userEnv(), EVIDENCE_BRIDGE_CODE_CACHE: "0" });
      rows.push({ name: "mcp: cold start, code cache off (first start after an install)", median_ms: median(noCache), figures: { min_ms: Math.min(...noCache), "floor ms": floor } });
    }
    if (bin !== plain && existsSync(plain)) {
      const coldPlain = await coldStart(plain);
      rows.push({ name: "mcp: cold start, unbundled tsc output (reference)", median_ms: median(coldPlain), figures: { min_ms: Math.min(...coldPlain) } });
    }

    // Direct calls to the double with the upstream client.
    const direct = new HostedClient({ mcpUrl: double.url, timeoutMs: 30_000 });
    await direct.discover();
    const directTimes: number[] = [];
    for (let i = 0; i < LATENCY_CALLS + 5; i++) {
      const t0 = performance.now();
      const o = await direct.callTool("list_signals", {});
      if (o.kind !== "result") throw new Error(`bench mcp: direct call failed: ${o.kind}`);
      if (i >= 5) directTimes.push(performance.now() - t0);
    }
    direct.close();

    // The same calls through the bridge over stdio.
    const b = new Bridge(bin, ["--home", home, "--mcp-url", double.url, "--timeout-ms", "30000"]);
    await b.initialize();
    await b.request("list", "tools/list", {});
    const viaTimes: number[] = [];
    for (let i = 0; i < LATENCY_CALLS + 5; i++) {
      const t0 = performance.now();
      const line = await b.request(`c${i}`, "tools/call", { name: "list_signals", arguments: {} });
      if (!line.includes('"result"')) throw new Error("bench mcp: proxied call failed");
      if (i >= 5) viaTimes.push(performance.now() - t0);
    }
    const added = median(viaTimes) - median(directTimes);
    rows.push({
      name: "mcp: added latency per proxied call (list_signals)",
      median_ms: added,
      figures: { direct_ms: median(directTimes), via_bridge_ms: median(viaTimes) },
      target: "≤ 2 ms",
      met: added <= 2,
    });

    // 50 concurrent proxied calls.
    const t0 = performance.now();
    const lines = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        b.request(`p${i}`, "tools/call", i % 2 === 0 ? { name: "list_signals", arguments: {} } : { name: "get_signal", arguments: { name: "eval-assurance" } }),
      ),
    );
    const errors = lines.filter((l) => {
      const m = JSON.parse(l) as { error?: unknown; result?: { isError?: boolean } };
      return m.error !== undefined || m.result?.isError === true;
    }).length;
    rows.push({
      name: `mcp: ${CONCURRENT} concurrent proxied calls`,
      median_ms: performance.now() - t0,
      figures: { answered: lines.length, errors },
      target: "no error",
      met: errors === 0 && lines.length === CONCURRENT,
    });

    const rss = b.peakRssMb();
    rows.push({ name: "mcp: peak RSS while serving", median_ms: 0, figures: { peak_rss_mb: rss }, target: "≤ 150 MB", met: rss <= 150 });
    shutdown.push(await b.end());
    rows.push(atMost("mcp: stdin end to process exit", median(shutdown), 1000, { max_ms: Math.max(...shutdown) }));
  } finally {
    await double.close();
    rmSync(home, { recursive: true, force: true });
  }
  return rows;
}
