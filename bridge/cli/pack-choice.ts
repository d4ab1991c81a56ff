/**
 * The pack a CLI command uses (published/pack/home-pack.ts): the data directory's own, or the configured one, which
 * the first use copies into the data directory. What happened is said on stderr, never silently. Throws PackError.
 */
import type { Config } from "../../src/config.js";
import { resolvePack, type ResolvedPack } from "../../published/pack/home-pack.js";
import type { CliContext } from "./context.js";

export function useConfiguredPack(ctx: CliContext, config: Config, opts: { install?: boolean; createHome?: boolean } = {}): ResolvedPack {
  const resolved = resolvePack(config, { audience: "cli", install: opts.install ?? true, createHome: opts.createHome });
  if (resolved.installed !== undefined) ctx.io.stderr.write(`evidence-bridge: ${resolved.installed}\n`);
  if (resolved.overrides !== undefined) ctx.io.stderr.write(`evidence-bridge: ${resolved.overrides}\n`);
  return resolved;
}
