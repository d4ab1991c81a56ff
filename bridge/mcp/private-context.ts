/**
 * What every private tool handler receives (the private state, the request's exact wire text, the store's outward guard),
 * and the pack lookup they share.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PackError } from "../../published/pack/errors.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import type { StoreGuard } from "../../capsules/guard/store-guard.js";
import type { PrivateState } from "./private-state.js";
import { errorResult } from "./tool-results.js";
import type { RequestId, WireTable } from "./wire-table.js";

export interface PrivateContext {
  state: PrivateState;
  wire: WireTable;
  /** The outward guard over the whole store and this process's message texts (capsules/guard). */
  egress: StoreGuard;
  /** The package version (producer block of capsules built here). */
  version: string;
}

export interface CallInfo {
  requestId: RequestId;
  signal: AbortSignal;
}

/**
 * The loaded intelligence pack, or the `unavailable` tool result that names why it cannot be loaded (every private
 * tool that needs the pack answers the same way).
 */
export async function packOrUnavailable(ctx: PrivateContext): Promise<{ pack: IntelligencePack } | { error: CallToolResult }> {
  try {
    return { pack: (await ctx.state.loadPack()).pack };
  } catch (e) {
    if (e instanceof PackError) return { error: errorResult("unavailable", `intelligence pack: ${e.message}`, { rule: e.rule }) };
    throw e;
  }
}
