/**
 * `npm run bench`: runs every benchmark module that exists in this build and prints one table.
 * `npm run bench -- NAME...` runs only the named groups.
 */
import { cpus, totalmem } from "node:os";
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
};

async function runGroups(names: string[]): Promise<void> {
  const cpu = cpus()[0]?.model ?? "unknown CPU";
  process.stdout.write(
    `machine: ${cpu}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, node ${process.version}, ${process.platform}/${process.arch}\n\n`,
  );
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
    const groupRows = await mod[fn]();
    const load = Math.round(((load0 + load1()) / 2) * 10) / 10;
    for (const r of groupRows) r.figures = { ...r.figures, "floor ms": r.figures?.["floor ms"] ?? floor, "load 1m": r.figures?.["load 1m"] ?? load };
    rows.push(...groupRows);
  }
  printTable(rows);
}

const requested = process.argv.slice(2);
const unknown = requested.filter((n) => !(n in GROUPS));
if (unknown.length > 0) {
  process.stderr.write(`bench: unknown group(s): ${unknown.join(", ")}; known: ${Object.keys(GROUPS).join(", ")}\n`);
  process.exitCode = 2;
} else {
  await runGroups(requested.length > 0 ? requested : Object.keys(GROUPS));
}
