/**
 * `feed [--include-typology-matches] [--include-clean] [--json-errors]` (product.md §5, §8; assessment-v1 §7.3):
 * JSONL outward candidates of every stored capsule, all or nothing. The library part is capsules/feed/.
 */
import { feedFromCache } from "../../../capsules/feed/cached-feed.js";
import type { FeedOutcome } from "../../../capsules/feed/collector.js";
import { FeedError } from "../../../capsules/feed/errors.js";
import { feedSummaryJson, feedSummaryLines } from "../../../capsules/feed/report.js";
import { StoreError } from "../../../capsules/store/errors.js";
import { openStore, type SealedStore } from "../../../capsules/store/store.js";
import { PackError } from "../../../published/pack/errors.js";
import { useConfiguredPack } from "../pack-choice.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";

const help = `usage: evidence-bridge [--home DIR] [--pack FILE] feed [--include-typology-matches] [--include-clean]
                      [--json-errors]

Prints the outward candidate of every stored capsule as JSON Lines: one canonical candidate + newline per line.
Candidates are derived from the sealed store against the intelligence pack (--pack FILE, EVIDENCE_BRIDGE_PACK,
or intelligence-pack-v1.json in the data directory) with every hardening rule and the leak guard.

Order: by created_at (already truncated to the hour, UTC), oldest first, then by capsule_sha256.

  --include-typology-matches  also show TYPOLOGY_MATCH hypotheses (analyst view)
  --include-clean             also emit candidates for assessments whose overall tier is CLEAN
  --json-errors               report withheld capsules and errors on stderr as one JSON object

All or nothing: every line is built (in memory, spilling to a private temporary file for large stores) before
anything is printed; on any error nothing is printed. Capsules whose candidate is withheld (hardening or leak
guard) produce no line; stderr says how many and why (rules and paths only, never values). Progress is shown
on stderr when it is a terminal.

Exit status: 0 every capsule yielded a line or was excluded as CLEAN; 1 the feed is complete but some
candidates were withheld; 2 error (nothing on stdout; stderr names the capsule).
`;

function loadPack(ctx: CliContext): { file: string; pack: IntelligencePack } {
  const config = configFrom(ctx);
  try {
    return useConfiguredPack(ctx, config);
  } catch (e) {
    if (e instanceof PackError) throw new FeedError(undefined, e.rule === "not-configured" || e.rule === "different-pack" ? e.detail : `intelligence pack: ${e.message}`);
    throw e;
  }
}

async function openIfAny(ctx: CliContext): Promise<SealedStore | undefined> {
  const config = configFrom(ctx);
  try {
    return await openStore({ home: config.home, passphrase: config.passphrase });
  } catch (e) {
    if (e instanceof StoreError && e.code === "no-store") return undefined;
    throw new FeedError(undefined, `store: ${(e as Error).message}`);
  }
}

function progressReporter(ctx: CliContext): { tick: (done: number, total: number) => void; clear: () => void } {
  if (ctx.io.stderr.isTTY !== true) return { tick: () => undefined, clear: () => undefined };
  let shown = false;
  return {
    tick(done, total) {
      if (done !== total && done % 100 !== 0) return;
      ctx.io.stderr.write(`\r\x1b[Kfeed: ${done}/${total} capsules`);
      shown = true;
    },
    clear() {
      if (shown) ctx.io.stderr.write("\r\x1b[K");
    },
  };
}

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { flags } = parseFlags(
    args,
    { "include-typology-matches": { type: "boolean" }, "include-clean": { type: "boolean" }, "json-errors": { type: "boolean" } },
    false,
  );
  const jsonErrors = flags["json-errors"] === true;
  const progress = progressReporter(ctx);
  let outcome: FeedOutcome;
  try {
    const { pack } = loadPack(ctx);
    const store = await openIfAny(ctx);
    const opts = {
      includeTypologyMatches: flags["include-typology-matches"] === true,
      includeClean: flags["include-clean"] === true,
      onProgress: progress.tick,
    };
    // An unchanged store is a read of the sealed derivation cache; the derivation code loads only when needed.
    const cached = store === undefined ? undefined : feedFromCache(store, pack, opts);
    outcome = cached ?? (await import("../../../capsules/feed/feed.js")).buildFeed(store, pack, opts);
  } catch (e) {
    progress.clear();
    if (!(e instanceof FeedError)) throw e;
    const message = `feed: ${e.message}; nothing was printed`;
    if (!jsonErrors) throw new CliError(message);
    ctx.io.stderr.write(`${JSON.stringify({ status: "error", capsule_sha256: e.capsuleId ?? null, error: message })}\n`);
    return 2;
  }
  progress.clear();
  try {
    await outcome.spool.writeSorted(ctx.io.stdout);
  } finally {
    outcome.spool.dispose();
  }
  if (jsonErrors) {
    if (outcome.withheld.length > 0 || outcome.excludedClean > 0) ctx.io.stderr.write(`${JSON.stringify(feedSummaryJson(outcome))}\n`);
  } else {
    for (const line of feedSummaryLines(outcome)) ctx.io.stderr.write(`${line}\n`);
  }
  return outcome.withheld.length > 0 ? 1 : 0;
}

const command: CliCommand = { help, run };
export default command;
