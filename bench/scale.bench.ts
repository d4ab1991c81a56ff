/**
 * How costs grow with the store (issue 33 item 4): at 1,000, 10,000 and 100,000 stored capsules
 * (`EVIDENCE_BRIDGE_BENCH_SCALE_SIZES=1000,10000` or `npm run bench -- scale --scale-sizes 1000,10000` picks sizes),
 * whole processes of the published bin (NODE_EXTRA_CA_CERTS unset, output to /dev/null) for `capsule list` (cold
 * index and warm), `feed` (cold: no derivation cache; warm), `review list`, `review export` (APPROVED approved
 * candidates) and `tokens export`; the outward guard per proxied call (the MCP server's store guard after its first
 * refresh: the refresh's checks plus `checkCall`, in a child process); the store's disk use; and generating the store
 * (scale-store.ts, cached between runs). Every process row carries the child's own CPU time and peak RSS (a preload,
 * rss-on-exit.ts, reports them as the child exits), its floor (`node -e 0`) and the 1-minute load.
 *
 * `EVIDENCE_BRIDGE_BENCH_SCALE_ROWS=list,guard,feed` runs only the named rows ({@link ROW_KEYS}; a warm row needs the
 * derivation cache a cold feed, or an earlier run, left in the cached store).
 *
 * Targets: generating ≤ 1.8 ms per capsule (3 minutes for 100,000); warm feed and review list growing no faster than
 * linearly (time over the floor per capsule ≤ 1.25× that of the smallest size measured in the same run: the margin is
 * for the shared machine's noise); the guard per proxied call ≤ 0.5 ms; peak RSS ≤ 200 MB at 100,000 (every process).
 */
import { fork, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { StoreGuard } from "../capsules/guard/store-guard.js";
import { OUTCOMES_NAME, PENDING_DIR, VALUES_NAME } from "../capsules/store/derivation-cache.js";
import { openStore } from "../capsules/store/store.js";
import { storeLayout } from "../capsules/store/layout.js";
import { cliCommand, sharedData } from "./feed.bench.js";
import { CALLS } from "./guard.bench.js";
import { floorMs, load1, median, peakRssMb, userEnv, type BenchResult } from "./harness.js";
import { APPROVED, GROUP, scaleStore } from "./scale-store.js";

export const SIZES_ENV = "EVIDENCE_BRIDGE_BENCH_SCALE_SIZES";
const DEFAULT_SIZES = [1_000, 10_000, 100_000];
const GENERATE_MS_PER_CAPSULE = 1.8;
const GUARD_CALL_MS = 0.5;
const RSS_MB = 200;
const LINEAR_MARGIN = 1.25;
const CHILD_FLAG = "--scale-guard-child";
export const ROWS_ENV = "EVIDENCE_BRIDGE_BENCH_SCALE_ROWS";
/** The rows, in the order they run (the guard reads no cache, so it runs before the cold feed drops it). */
export const ROW_KEYS = ["list-cold", "list", "guard", "feed-cold", "feed", "review-list", "review-export", "tokens", "disk"] as const;

/** Whether row `key` runs: every row, or those the env var lists (the warm rows need a derivation cache). */
function wanted(key: (typeof ROW_KEYS)[number], text = process.env[ROWS_ENV]): boolean {
  if (text === undefined || text.trim() === "") return true;
  const keys = text.split(",").map((k) => k.trim());
  const unknown = keys.filter((k) => !(ROW_KEYS as readonly string[]).includes(k));
  if (unknown.length > 0) throw new Error(`${ROWS_ENV}: unknown row(s) ${unknown.join(", ")}; known: ${ROW_KEYS.join(", ")}`);
  return keys.includes(key);
}

/** The sizes to measure: the env var's comma-separated list, else all three. */
export function scaleSizes(text = process.env[SIZES_ENV]): number[] {
  if (text === undefined || text.trim() === "") return DEFAULT_SIZES;
  const sizes = text.split(",").map((s) => Number(s.trim().replace(/_/g, "")));
  if (sizes.some((n) => !Number.isInteger(n) || n < 1 || n > 1_000_000)) throw new Error(`${SIZES_ENV}: expected comma-separated capsule counts (1 to 1,000,000), got ${JSON.stringify(text)}`);
  return [...new Set(sizes)].sort((a, b) => a - b);
}

const fmtN = (n: number) => n.toLocaleString("en");
const r1 = (x: number) => Math.round(x * 10) / 10;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

/** Bytes the files under `dir` occupy on disk (allocated blocks) and their apparent size, without following links. */
function diskUse(dir: string): { blocks: number; apparent: number; files: number } {
  let blocks = 0;
  let apparent = 0;
  let files = 0;
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      blocks += st.blocks * 512;
      if (st.isDirectory()) walk(p);
      else {
        apparent += st.size;
        files++;
      }
    }
  };
  walk(dir);
  return { blocks, apparent, files };
}

interface ProcessRun {
  ms: number;
  cpuMs: number;
  rssMb: number;
}

const RSS_PRELOAD = pathToFileURL(fileURLToPath(new URL("./rss-on-exit.js", import.meta.url))).href;

/** One run of the CLI with `args` (stdout to /dev/null); its wall time, its own CPU time and peak RSS. */
function runCli(args: string[], scratch: string): ProcessRun {
  const report = join(scratch, `rss-${process.pid}-${Math.random().toString(16).slice(2)}.json`);
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ["--import", RSS_PRELOAD, ...cliCommand(), ...args], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...userEnv(), EB_BENCH_RSS_FILE: report },
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`bench scale: '${args.slice(4).join(" ")}' exited ${r.status ?? r.signal}: ${r.stderr.toString("utf8").slice(0, 500)}`);
  const { maxRssKb, cpuMs } = JSON.parse(readFileSync(report, "utf8")) as { maxRssKb: number; cpuMs: number };
  rmSync(report, { force: true });
  return { ms, cpuMs, rssMb: r1(maxRssKb / 1024) };
}

/** `runs` timed runs after `warmup`, `before` (untimed) ahead of each; medians of wall and CPU, the largest RSS. */
function repeat(args: string[], scratch: string, runs: number, warmup: number, before?: () => void): ProcessRun & { load: number } {
  const l0 = load1();
  const got: ProcessRun[] = [];
  for (let i = -warmup; i < runs; i++) {
    before?.();
    const r = runCli(args, scratch);
    if (i >= 0) got.push(r);
  }
  return { ms: median(got.map((g) => g.ms)), cpuMs: median(got.map((g) => g.cpuMs)), rssMb: Math.max(...got.map((g) => g.rssMb)), load: r1((l0 + load1()) / 2) };
}

/** The guard per proxied call over the store in `home`, measured in a fresh child process (its own peak RSS). */
interface GuardFigures {
  buildMs: number;
  perCallMs: number;
  /** CPU time (user + system) per call: what the wall time would be on an idle machine. */
  cpuPerCallMs: number;
  rssMb: number;
  values: number;
}

function guardInChild(home: string): Promise<GuardFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [CHILD_FLAG, home], { stdio: ["ignore", "ignore", "inherit", "ipc"], env: userEnv() });
    child.once("message", (m) => resolve(m as GuardFigures));
    child.once("error", reject);
    child.once("exit", (code) => (code === 0 ? undefined : reject(new Error(`bench scale: the guard child exited ${code}`))));
  });
}

/** The child: the MCP server's store guard (first refresh reads every capsule), then proxied calls' checks. */
async function guardChild(home: string): Promise<void> {
  const store = await openStore({ home, passphrase: undefined });
  const egress = new StoreGuard();
  const t0 = performance.now();
  const first = await egress.refresh(async () => store);
  const buildMs = performance.now() - t0;
  if (!first.ok) throw new Error(first.reason);
  const calls = 2000;
  const times: number[] = [];
  const cpuTimes: number[] = [];
  let n = 0;
  for (let run = -1; run < 7; run++) {
    const t = performance.now();
    const c = process.cpuUsage();
    for (let k = 0; k < calls / 8; k++) {
      const [args, meta] = CALLS[n++ % CALLS.length];
      const a = { ...args, ...(args.limit !== undefined ? { limit: 1 + (n % 25) } : {}) };
      // What a proxied call asks of the guard: the refresh (nothing new: a few stats), then the call's check.
      const ready = await egress.refresh(async () => store);
      if (!ready.ok) throw new Error(ready.reason);
      if (!egress.guard.checkCall(a, meta, JSON.stringify(a)).ok) throw new Error("bench scale: a legitimate call was refused");
    }
    if (run >= 0) {
      times.push((performance.now() - t) / (calls / 8));
      const used = process.cpuUsage(c);
      cpuTimes.push((used.user + used.system) / 1000 / (calls / 8));
    }
  }
  process.send?.({ buildMs, perCallMs: median(times), cpuPerCallMs: median(cpuTimes), rssMb: peakRssMb(), values: egress.guard.size }, () => process.exit(0));
}

if (process.argv[2] === CHILD_FLAG) await guardChild(process.argv[3]);

export async function benchScale(): Promise<BenchResult[]> {
  const packFile = process.env.EVIDENCE_BRIDGE_PACK ?? sharedData("intelligence-pack", "intelligence-pack-v1.json");
  if (!existsSync(packFile) || !existsSync(sharedData("bridge-examples", "valid"))) {
    process.stderr.write("bench scale: ../shared/data (pack and example assessment) not found; skipped\n");
    return [];
  }
  const sizes = scaleSizes();
  const scratch = mkdtempSync(join(tmpdir(), "eb-bench-scale-"));
  const rows: BenchResult[] = [];
  const perCapsule = new Map<string, number>(); // row kind → (ms over floor) per capsule at the smallest size
  const log = (line: string) => process.stderr.write(`${line}\n`);
  // Each row also goes to stderr as soon as it is made: the 100,000 rows take long on a loaded machine.
  const add = (row: BenchResult) => {
    rows.push(row);
    log(`bench scale: ${JSON.stringify(row)}`);
  };
  try {
    for (const n of sizes) {
      const s = await scaleStore(n, packFile, log);
      const tag = `scale ${fmtN(n)}:`;
      const g = s.generation;
      add({
        name: `${tag} generate the store (${g.workers} worker${g.workers === 1 ? "" : "s"}, batch path)${s.reused ? `, cached from ${g.at.slice(0, 16)}Z` : ""}`,
        median_ms: g.wallMs,
        figures: { "ms/capsule": r3(g.wallMs / n), "CPU s": r1(g.cpuMs / 1000), "× target": r3(g.wallMs / n / GENERATE_MS_PER_CAPSULE), "load 1m": g.load1 },
        target: `≤ ${GENERATE_MS_PER_CAPSULE} ms/capsule (${fmtN(Math.round((n * GENERATE_MS_PER_CAPSULE) / 1000))} s)`,
        met: g.wallMs / n <= GENERATE_MS_PER_CAPSULE,
      });
      const floor = await floorMs(5);
      const runs = n >= 100_000 ? 1 : 3;
      const home = ["--home", s.home, "--pack", packFile];
      const root = storeLayout(s.home).root;
      const dropCache = () => {
        for (const name of [OUTCOMES_NAME, VALUES_NAME, PENDING_DIR]) rmSync(join(root, name), { recursive: true, force: true });
      };
      const processRow = (what: string, r: ReturnType<typeof repeat>, extra: BenchResult["figures"] = {}, target?: { text: string; ratio: number }): BenchResult => ({
        name: `${tag} ${what}`,
        median_ms: r.ms,
        figures: {
          "over floor ms": r1(r.ms - floor),
          "ms/1k capsules over floor": r1(((r.ms - floor) / n) * 1000),
          "CPU s": r3(r.cpuMs / 1000),
          "peak RSS MB": r.rssMb,
          ...(n >= 100_000 ? { "RSS × target": r3(r.rssMb / RSS_MB) } : {}),
          ...extra,
          ...(target ? { "× target": r3(target.ratio) } : {}),
          "floor ms": r1(floor),
          "load 1m": r.load,
        },
        target: [target?.text, n >= 100_000 ? `RSS ≤ ${RSS_MB} MB` : undefined].filter(Boolean).join("; ") || undefined,
        met: target === undefined && n < 100_000 ? undefined : (target === undefined || target.ratio <= 1) && (n < 100_000 || r.rssMb <= RSS_MB),
      });
      /** Linear growth: (ms over floor) per capsule against the smallest size's, for the rows that have that target. */
      const linear = (kind: string, r: ProcessRun) => {
        const per = (r.ms - floor) / n;
        const first = perCapsule.get(kind);
        if (first === undefined) {
          perCapsule.set(kind, per);
          return undefined;
        }
        return { text: `≤ linear (per capsule ≤ ${LINEAR_MARGIN}× the ${fmtN(sizes[0])} row's)`, ratio: per / first / LINEAR_MARGIN };
      };

      const out = () => join(scratch, `export-${Math.random().toString(16).slice(2)}.jsonl`);
      if (wanted("list-cold")) {
        const index = join(root, "rows.sealed");
        const listCold = repeat([...home, "capsule", "list", "--json"], scratch, 1, 0, () => rmSync(index, { force: true }));
        add(processRow("capsule list --json, cold (row index rebuilt from every capsule)", listCold));
      }
      if (wanted("list")) {
        add(processRow("capsule list --json, warm (sealed row index)", repeat([...home, "capsule", "list", "--json"], scratch, runs, 0)));
      }
      if (wanted("guard")) {
        const guard = await guardInChild(s.home);
        add({
          name: `${tag} outward guard per proxied call (MCP store guard: refresh + checkCall)`,
          median_ms: guard.perCallMs,
          figures: {
            "CPU ms/call": r3(guard.cpuPerCallMs),
            "× target": r3(guard.perCallMs / GUARD_CALL_MS),
            "first refresh ms (reads every capsule)": Math.round(guard.buildMs),
            "guarded values": guard.values,
            "peak RSS MB": guard.rssMb,
            ...(n >= 100_000 ? { "RSS × target": r3(guard.rssMb / RSS_MB) } : {}),
            "load 1m": load1(),
          },
          target: `≤ ${GUARD_CALL_MS} ms${n >= 100_000 ? `; RSS ≤ ${RSS_MB} MB` : ""}`,
          met: guard.perCallMs <= GUARD_CALL_MS && (n < 100_000 || guard.rssMb <= RSS_MB),
        });
      }
      if (wanted("feed-cold")) {
        const feedCold = repeat([...home, "feed"], scratch, n >= 100_000 ? 1 : 2, 0, dropCache);
        add(processRow("feed, cold (no derivation cache: every capsule derived, cache written)", feedCold));
      }
      if (wanted("feed")) {
        const feedWarm = repeat([...home, "feed"], scratch, runs, 0);
        add(processRow("feed, warm (sealed derivation cache)", feedWarm, {}, linear("feed warm", feedWarm)));
      }
      if (wanted("review-list")) {
        const reviewList = repeat([...home, "review", "list"], scratch, runs, 0);
        add(processRow("review list, warm cache", reviewList, {}, linear("review list", reviewList)));
      }
      if (wanted("review-export")) {
        const exp = repeat([...home, "review", "export", "--out", out()], scratch, 1, 0);
        const exp2 = runs > 1 ? repeat([...home, "review", "export", "--out", out()], scratch, 1, 0) : undefined;
        add(processRow(`review export of ${APPROVED} approved, warm cache`, exp2 && exp2.ms < exp.ms ? exp2 : exp));
      }
      if (wanted("tokens")) {
        const tokens = repeat([...home, "tokens", "export", "--group", GROUP, "--out", out()], scratch, 1, 0);
        add(processRow("tokens export (every IOC value keyed, guarded)", tokens));
      }
      if (wanted("disk")) {
        const disk = diskUse(join(s.home, "store"));
        add({
          name: `${tag} disk use of store/ (capsules, receipts, row index, derivation cache)`,
          median_ms: 0,
          figures: { "MB on disk": r1(disk.blocks / 1e6), "MB apparent": r1(disk.apparent / 1e6), "KB/capsule on disk": r1(disk.blocks / n / 1000), files: disk.files },
        });
      }
      log(`bench scale: ${fmtN(n)} done`);
    }
    return rows;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
