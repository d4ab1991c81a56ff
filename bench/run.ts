/**
 * `npm run bench`: runs every benchmark module that exists in this build and prints one table.
 * `npm run bench -- NAME...` runs only the named groups. `--scale-sizes 1000,10000` (or the environment variable
 * EVIDENCE_BRIDGE_BENCH_SCALE_SIZES) picks the store sizes of the `scale` group (default 1,000, 10,000 and 100,000).
 *
 * Each group runs in a process of its own (this file again, with `--rows-json NAME`), as every real command does:
 * in one process shared by all groups, what earlier groups left in the heap was collected inside later in-process
 * rows (the warm export's guard read 11–14 ms after the store and feed groups, 5–6 ms alone).
 */
import { spawnSync } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { floorMs, load1, printTable, type BenchResult } from "./harness.js";

/** Group name → [module file, exported function]. A group whose module is absent is reported and skipped. */
const GROUPS: Record<string, readonly [string, string]> = {
  json: ["./json.bench.js", "benchJson"],
  verify: ["./verify.bench.js", "benchVerify"],
  build: ["./capsule-build.bench.js", "benchCapsuleBuild"],
  assess: ["./assess.bench.js", "benchAssess"],
  pack: ["./pack-match.bench.js", "benchPackMatch"],
  store: ["./store.bench.js", "benchStore"],
  feed: ["./feed.bench.js", "benchFeed"],
  export: ["./review-export.bench.js", "benchReviewExport"],
  regional: ["./regional.bench.js", "benchRegional"],
  mcp: ["./mcp.bench.js", "benchMcp"],
  guard: ["./guard.bench.js", "benchGuard"],
  allowlist: ["./upstream-allowlist.bench.js", "benchUpstreamAllowlist"],
  team: ["./team.bench.js", "benchTeam"],
  scale: ["./scale.bench.js", "benchScale"],
};

/** The `scale` group's sizes (scale.bench.ts reads it; the children inherit it). */
const SCALE_SIZES_ENV = "EVIDENCE_BRIDGE_BENCH_SCALE_SIZES";

/** Runs each group in a child process and prints one table of all their rows. */
function runGroups(names: string[]): void {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  process.stdout.write(
    `machine: ${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, ${process.platform}/${process.arch}\n\n`,
  );
  const rows: BenchResult[] = [];
  for (const name of names) {
    const r = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ROWS_JSON, name], {
      stdio: ["ignore", "pipe", "inherit"],
      maxBuffer: 16 * 1024 * 1024,
    });
    if (r.status !== 0) throw new Error(`bench: group '${name}' failed (exit ${r.status ?? r.signal})`);
    rows.push(...(JSON.parse(r.stdout.toString("utf8")) as BenchResult[]));
  }
  printTable(rows);
}

/** Runs the named groups in this process and returns their rows. */
async function groupRows(names: string[]): Promise<BenchResult[]> {
  const rows: BenchResult[] = [];
  for (const name of names) {
    const [file, fn] = GROUPS[name];
    let mod: Record<string, () => Promise<BenchResult[]>>;
    try {
      mod = (await import(file)) as typeof mod;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND") {
        process.stderr.write(`bench: group '${name}' is not built yet (${file} missing); skipped\n`);
        continue;
      }
      throw e;
    }
    process.stderr.write(`bench: running ${name}...\n`);
    // Every row prints its floor (node -e 0, NODE_EXTRA_CA_CERTS unset) and the load average of its group's run.
    const floor = await floorMs();
    const load0 = load1();
    const made = await mod[fn]();
    const load = Math.round(((load0 + load1()) / 2) * 10) / 10;
    for (const r of made) r.figures = { ...r.figures, "floor ms": r.figures?.["floor ms"] ?? floor, "load 1m": r.figures?.["load 1m"] ?? load };
    rows.push(...made);
  }
  return rows;
}

/** The child's flag: run the one group named after it and print its rows as JSON. */
const ROWS_JSON = "--rows-json";

const args = process.argv.slice(2);
const sizesAt = args.findIndex((a) => a === "--scale-sizes" || a.startsWith("--scale-sizes="));
if (sizesAt >= 0) {
  const [flag] = args.splice(sizesAt, 1);
  const value = flag.includes("=") ? flag.slice(flag.indexOf("=") + 1) : args.splice(sizesAt, 1)[0];
  if (value === undefined) {
    process.stderr.write("bench: --scale-sizes needs a comma-separated list of capsule counts\n");
    process.exit(2);
  }
  process.env[SCALE_SIZES_ENV] = value;
}
if (args[0] === ROWS_JSON) {
  process.stdout.write(JSON.stringify(await groupRows(args.slice(1))));
} else {
  const unknown = args.filter((n) => !(n in GROUPS));
  if (unknown.length > 0) {
    process.stderr.write(`bench: unknown group(s): ${unknown.join(", ")}; known: ${Object.keys(GROUPS).join(", ")}\n`);
    process.exitCode = 2;
  } else {
    runGroups(args.length > 0 ? args : Object.keys(GROUPS));
  }
}
