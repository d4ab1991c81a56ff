/**
 * Preload for the benchmarks' child processes (`node --import …/rss-on-exit.js`): as the process exits, writes its
 * peak RSS (KiB) and its own CPU time (user + system, ms) as JSON to the file named by EB_BENCH_RSS_FILE. Nothing
 * else; a process without that variable is left alone.
 */
import { writeFileSync } from "node:fs";

const file = process.env.EB_BENCH_RSS_FILE;
if (file !== undefined && file !== "") {
  process.on("exit", () => {
    const u = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssKb: u.maxRSS, cpuMs: (u.userCPUTime + u.systemCPUTime) / 1000 }));
  });
}
