/**
 * The bundle's version of ./command-modules.ts (scripts/bundle.mjs swaps it in): each command module is its own
 * CommonJS file `commands/<name>.js` beside the bundled bin, loaded with the code-cache loader.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { CliCommand } from "./context.js";
import { loadCommonJs } from "./code-cache-loader.js";

export async function importCommandModule(file: string): Promise<Record<string, CliCommand> | undefined> {
  const path = join(__dirname, "commands", `${file}.js`);
  if (!existsSync(path)) return undefined;
  return loadCommonJs(path) as Record<string, CliCommand>;
}
