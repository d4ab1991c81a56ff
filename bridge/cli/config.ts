/** The CLI's view of the one configuration object: global flags over environment over defaults. */
import { ConfigError, loadConfig, type Config } from "../../src/config.js";
import { CliError, type CliContext } from "./context.js";

export function configFrom(ctx: CliContext): Config {
  try {
    return loadConfig(ctx.globalFlags, ctx.io.env);
  } catch (e) {
    if (e instanceof ConfigError) throw new CliError(e.message);
    throw e;
  }
}
