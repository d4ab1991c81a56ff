/**
 * Writes ./private-tool-list.ts, the pinned tools/list entries of the private tools, from their zod schemas:
 *
 *     npx tsx bridge/mcp/write-tool-list.ts          # rewrite it when it differs
 *     npx tsx bridge/mcp/write-tool-list.ts --check  # exit 1 when it differs
 */
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { resolve } from "node:path";
import { privateToolListModule } from "./render-tool-list.js";

const target = fileURLToPath(new URL("./private-tool-list.ts", import.meta.url));

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const want = privateToolListModule();
  let have: string | undefined;
  try {
    have = readFileSync(target, "utf8");
  } catch {
    have = undefined;
  }
  if (process.argv.includes("--check")) {
    if (have !== want) process.stderr.write("bridge/mcp/private-tool-list.ts differs from the schemas\n");
    process.exitCode = have === want ? 0 : 1;
  } else if (have !== want) {
    writeFileSync(target, want);
    process.stderr.write("wrote bridge/mcp/private-tool-list.ts\n");
  } else process.stderr.write("bridge/mcp/private-tool-list.ts is up to date\n");
}
