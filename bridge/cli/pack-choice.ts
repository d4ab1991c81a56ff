/**
 * The pack a CLI command uses (published/pack/home-pack.ts): the data directory's own, or the configured one, which
 * the first use copies into the data directory (documented in docs/install.md; stderr stays clean for the
 * command's own output). Using another pack than the data directory's for one run is said on stderr. Throws PackError.
 */
import type { Config } from "../../src/config.js";
import { rememberFirstPack, resolvePack, type ResolvedPack } from "../../published/pack/home-pack.js";
import type { CliContext } from "./context.js";

export function useConfiguredPack(ctx: CliContext, config: Config, opts: { install?: boolean; createHome?: boolean } = {}): ResolvedPack {
  const resolved = resolvePack(config, { audience: "cli", install: opts.install ?? true, createHome: opts.createHome });
  if (resolved.overrides !== undefined) ctx.io.stderr.write(`evidence-bridge: ${resolved.overrides}\n`);
  return resolved;
}

/** After a command stored something: the configured pack becomes the data directory's own when it has none. */
export function rememberPack(config: Config): void {
  rememberFirstPack(config);
}
