/**
 * Loads one command module (a file under ./commands) by name, only when its command runs. This is the tsc/tsx
 * version (one ESM module graph); the published bundle replaces this module with ./bundled-command-modules.ts,
 * which loads the command's own CommonJS bundle file (scripts/bundle.mjs, docs/startup.md).
 */
import type { CliCommand } from "./context.js";

/** The command module's exports, or undefined when this build has no such module. */
export async function importCommandModule(file: string): Promise<Record<string, CliCommand> | undefined> {
  try {
    return (await import(/* @vite-ignore */ `./commands/${file}.js`)) as Record<string, CliCommand>;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ERR_MODULE_NOT_FOUND" && String((e as Error).message).includes(`commands/${file}.js`)) return undefined;
    throw e;
  }
}
