/**
 * Writes the checked-in JSON Schemas under `schemas/` from the zod schemas (format-schemas.ts):
 *
 *     npx tsx bridge/mcp/write-schemas.ts          # rewrite every file that differs
 *     npx tsx bridge/mcp/write-schemas.ts --check  # exit 1 when a file differs (what the drift test checks)
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { FORMATS, formatJsonSchema, schemaFileText } from "./format-schemas.js";

/** The repository's `schemas/` directory (this file lives in bridge/mcp/, or dist/bridge/mcp/ when compiled). */
export function schemasDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const root = here.split(/[\\/]/).includes("dist") ? resolve(here, "../../..") : resolve(here, "../..");
  return join(root, "schemas");
}

/** Files whose checked-in text differs from the code (or is missing). */
export async function driftedSchemas(dir = schemasDir()): Promise<string[]> {
  const out: string[] = [];
  for (const f of FORMATS) {
    let current: string | undefined;
    try {
      current = readFileSync(join(dir, f.file), "utf8");
    } catch {
      current = undefined;
    }
    if (current !== schemaFileText(await formatJsonSchema(f.file))) out.push(f.file);
  }
  return out;
}

async function main(): Promise<void> {
  const dir = schemasDir();
  const check = process.argv.includes("--check");
  const drifted = await driftedSchemas(dir);
  if (check) {
    for (const f of drifted) process.stderr.write(`schemas/${f} differs from the code\n`);
    process.exitCode = drifted.length > 0 ? 1 : 0;
    return;
  }
  mkdirSync(dir, { recursive: true });
  for (const f of drifted) {
    writeFileSync(join(dir, f), schemaFileText(await formatJsonSchema(f)));
    process.stderr.write(`wrote schemas/${f}\n`);
  }
  if (drifted.length === 0) process.stderr.write("schemas/ is up to date\n");
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
