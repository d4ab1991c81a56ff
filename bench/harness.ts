/**
 * Benchmark harness: runs a function several times, reports the median and derived figures. Benchmarks print;
 * they never assert. Each bench module exports an async function returning BenchResult rows.
 */
import { spawnSync } from "node:child_process";
import { loadavg } from "node:os";
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

/**
 * Median wall times in ms of several functions measured in turn within each run (a, b, c, a, b, c, ...), so that
 * rows compared with each other see the same load on a shared machine. `fns[k](i)` gets the run number (warm-ups
 * are negative).
 */
export async function measureInterleaved(fns: readonly ((i: number) => unknown | Promise<unknown>)[], opts: MeasureOptions = {}): Promise<number[]> {
  const runs = opts.runs ?? 7;
  const warmup = opts.warmup ?? 2;
  for (let i = -warmup; i < 0; i++) for (const fn of fns) await fn(i);
  const times = fns.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < fns.length; k++) {
      const t0 = performance.now();
      await fns[k](i);
      times[k].push(performance.now() - t0);
    }
  }
  return times.map(median);
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

/**
 * The environment whole-process rows run under: this one without NODE_EXTRA_CA_CERTS, as users run (product.md
 * §11; on the project machine the extra CA file alone costs Node ~31 ms per start).
 */
export function userEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  return env;
}

/** The floor of every whole-process row: median wall time of `node -e 0` under {@link userEnv}. */
export async function floorMs(runs = 9): Promise<number> {
  const env = userEnv();
  return measure(() => spawnSync(process.execPath, ["-e", "0"], { env }), { runs, warmup: 1 });
}

/** The 1-minute load average, rounded to 0.1 (the project machine is shared). */
export function load1(): number {
  return Math.round(loadavg()[0] * 10) / 10;
}

/** Row for "at most floor + extra ms" (a whole-process target over `node -e 0`). */
export function atMostOverFloor(name: string, median_ms: number, floor: number, extraMs: number, figures?: BenchResult["figures"]): BenchResult {
  return { name, median_ms, figures: { ...figures, "floor ms": floor, "over floor ms": median_ms - floor }, target: `≤ floor + ${extraMs} ms`, met: median_ms <= floor + extraMs };
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
