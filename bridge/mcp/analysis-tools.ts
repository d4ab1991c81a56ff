/**
 * `match_typologies` and `check_regional_index` (product.md §6): local analysis that stores nothing. The
 * typology match echoes only fragments of the caller's own text (term hits), never anything from the store.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { PackError } from "../../published/pack/errors.js";
import { assessProvenance } from "../../published/pack/provenance.js";
import { validateRegionalIndex } from "../../published/regional/validate.js";
import { packOrUnavailable, type CallInfo, type PrivateContext } from "./private-context.js";
import { MAX_LINE_BYTES } from "./stdio-transport.js";
import { DocumentError, documentBytes, errorResult, structuredResult } from "./tool-results.js";

/** Largest message `match_typologies` takes (as `pack match`). */
export const MATCH_TEXT_MAX_BYTES = 1_048_576;

export interface MatchArgs {
  text: string;
  signals?: string[];
}

export async function matchTypologies(args: MatchArgs, _call: CallInfo, ctx: PrivateContext): Promise<CallToolResult> {
  const size = Buffer.byteLength(args.text, "utf8");
  if (size > MATCH_TEXT_MAX_BYTES) return errorResult("rejected", `text: ${size} bytes exceed the ${MATCH_TEXT_MAX_BYTES}-byte (1 MiB) limit`, { rule: "size" });
  const loaded = await packOrUnavailable(ctx);
  if ("error" in loaded) return loaded.error;
  const { pack } = loaded;
  // The caller's message text is private for the life of this process: no later call may send it anywhere.
  ctx.egress.rememberText(args.text);
  try {
    const result = assessProvenance(pack, { text: args.text, signals: args.signals ?? [] });
    const labels = result.hypotheses.map((h) => h.typology_id).join(", ");
    return structuredResult(
      { pack_sha256: pack.sha256, ...result },
      false,
      result.hypotheses.length === 0 ? "No typology of the local pack matches this message." : `Message-level typology match: ${labels} (nothing was stored).`,
    );
  } catch (e) {
    if (e instanceof PackError) return errorResult("rejected", e.message, { rule: e.rule });
    throw e;
  }
}

export interface RegionalArgs {
  index: string | Record<string, unknown>;
}

export async function checkRegionalIndex(args: RegionalArgs, call: CallInfo, ctx: PrivateContext): Promise<CallToolResult> {
  let bytes: Uint8Array;
  try {
    bytes = documentBytes("index", args.index, ctx.wire.rawArgument(call.requestId, "index"));
  } catch (e) {
    if (e instanceof DocumentError) return errorResult("invalid", e.message);
    throw e;
  }
  const report = validateRegionalIndex(bytes, { maxBytes: MAX_LINE_BYTES });
  if (report.conforms) return structuredResult(report);
  const out = structuredResult(report, true);
  out.content = [{ type: "text", text: `the index does not conform: ${report.error_count} error(s), first: ${report.errors[0]?.message ?? "none"}` }, ...out.content];
  return out;
}
