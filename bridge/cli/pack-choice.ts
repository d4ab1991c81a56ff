/**
 * The pack a CLI command uses (published/pack/home-pack.ts): the data directory's own, or the configured one, which
 * the first use copies into the data directory (documented in docs/install.md; stderr stays clean for the
 * command's own output). `--pack` naming another pack than the data directory's is used for that run only: an
 * explicit choice, documented, and not echoed (stderr stays one line on errors). Throws PackError.
 */
import type { Config } from "../../src/config.js";
import { rememberFirstPack, rememberFirstPackConcurrently, resolvePack, type ResolvedPack } from "../../published/pack/home-pack.js";
import type { CliContext } from "./context.js";

export function useConfiguredPack(_ctx: CliContext, config: Config, opts: { install?: boolean; createHome?: boolean } = {}): ResolvedPack {
  const resolved = resolvePack(config, { audience: "cli", install: opts.install ?? true, createHome: opts.createHome });
  return resolved;
}

/**
 * After a command stored something: the configured pack becomes the data directory's own when it has none. `resolved`:
 * the pack this run loaded ({@link useConfiguredPack}), installed from its bytes without a second parse.
 */
export function rememberPack(config: Config, resolved?: ResolvedPack): void {
  rememberFirstPack(config, resolved);
}

/** {@link rememberPack} with the install's independent syncs at once (a one-shot command awaits it). */
export async function rememberPackConcurrently(config: Config, resolved?: ResolvedPack): Promise<void> {
  await rememberFirstPackConcurrently(config, resolved);
}
