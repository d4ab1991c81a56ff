/**
 * Benchmark harness: runs a function several times, reports the median and derived figures. Benchmarks print;
 * they never assert. Each bench module exports an async function returning BenchResult rows.
 */
import { performance } from "node:perf_hooks";

export interface BenchResult {
  /** What was measured. */
  name: string;
  /** Median wall time of one run in milliseconds. */
  median_ms: number;
  /** Derived throughput or size figures (ops/s, MB/s, RSS MB ...). */
  figures?: Record<string, number | string>;
  /** The target from product.md §11 or the issue, as text (e.g. "≤ 20 ms"). */
  target?: string;
  /** Whether the median met the target (undefined when there is no numeric target). */
  met?: boolean;
}

export interface MeasureOptions {
  /** Timed runs (default 7). */
  runs?: number;
  /** Untimed warm-up runs (default 2). */
  warmup?: number;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Median wall time in ms of `fn` over `runs` runs after `warmup` runs. */
export async function measure(fn: () => unknown | Promise<unknown>, opts: MeasureOptions = {}): Promise<number> {
  const runs = opts.runs ?? 7;
  const warmup = opts.warmup ?? 2;
  for (let i = 0; i < warmup; i++) await fn();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Row for a "at most X ms" target. */
export function atMost(name: string, median_ms: number, limitMs: number, figures?: BenchResult["figures"]): BenchResult {
  return { name, median_ms, figures, target: `≤ ${limitMs} ms`, met: median_ms <= limitMs };
}

/** Row for a throughput target "at least N per second" where one run performs `count` operations. */
export function atLeastPerSecond(name: string, median_ms: number, count: number, minPerSecond: number, unit = "ops"): BenchResult {
  const perSecond = count / (median_ms / 1000);
  return {
    name,
    median_ms,
    figures: { [`${unit}/s`]: Math.round(perSecond) },
    target: `≥ ${minPerSecond} ${unit}/s`,
    met: perSecond >= minPerSecond,
  };
}

export function peakRssMb(): number {
  return Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
}

function fmt(n: number): string {
  return n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2);
}

/** Prints rows as an aligned table (also valid Markdown). */
export function printTable(rows: BenchResult[], out: (line: string) => void = (l) => process.stdout.write(l + "\n")): void {
  out("| benchmark | median ms | figures | target | met |");
  out("|---|---:|---|---|---|");
  for (const r of rows) {
    const figures = Object.entries(r.figures ?? {})
      .map(([k, v]) => `${k} ${typeof v === "number" ? fmt(v) : v}`)
      .join(", ");
    const met = r.met === undefined ? "" : r.met ? "yes" : "NO";
    out(`| ${r.name} | ${fmt(r.median_ms)} | ${figures} | ${r.target ?? ""} | ${met} |`);
  }
}
