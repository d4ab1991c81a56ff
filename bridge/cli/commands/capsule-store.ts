/**
 * `capsule list`, `capsule open`, `capsule export`, `capsule import` (product.md §5, §7): the owner's view of
 * the sealed store. `list` prints minimized rows only; `open` and `export` are the only ways plaintext leaves
 * the store, by the owner's explicit request; `import` verifies before sealing and writes nothing unless every
 * file verifies.
 */
import { resolve } from "node:path";
import { OutputFileError, writeOutputFile } from "../../../src/output-file.js";
import { verifyCapsule } from "../../../capsules/capsule/verify.js";
import { importCandidateOf, importCandidates, readImportBytes, readImportCandidate, type ImportCandidate } from "../../../capsules/store/import-capsules.js";
import { CAPSULE_MAX_BYTES } from "../../../capsules/capsule/limits.js";
import { StoreError } from "../../../capsules/store/errors.js";
import type { CapsuleRow } from "../../../capsules/store/rows.js";
import { reviewedRows, type ReviewedRow, type ShownStatus } from "../../../capsules/review/status.js";
import { openOrCreateStore, openStore, type SealedStore } from "../../../capsules/store/store.js";
import { cacheDerivationsOnPut } from "../../../capsules/pipeline/stored.js";
import { useConfiguredPack } from "../pack-choice.js";
import { intFlag, parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { readNamedInput, STDIN_NAME, stdinAtMostOnce } from "../named-input.js";
import { assertOutsideDataDir } from "../outside-data-dir.js";

async function openExisting(ctx: CliContext): Promise<SealedStore> {
  const config = configFrom(ctx);
  return openStore({ home: config.home, passphrase: config.passphrase });
}

function oneId(positionals: string[], command: string): string {
  if (positionals.length !== 1) throw new CliError(`${command}: expected exactly one capsule id (64 hexadecimal digits, or a unique prefix of at least 6)`);
  return positionals[0].toLowerCase();
}

function iocSummary(row: CapsuleRow): string {
  if (row.ioc_counts === null) return "-";
  const parts = Object.entries(row.ioc_counts)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}=${n}`);
  return parts.length > 0 ? parts.join(",") : "none";
}

function table(rows: CapsuleRow[], shown: ReadonlyMap<string, ShownStatus>): string {
  const header = ["ID", "CREATED", "TIER", "FAMILIES", "IOCS", "REVIEW"];
  const cells = rows.map((r) => [r.id, r.created_at ?? "-", r.tiers.overall ?? (r.kind === "other" ? "(not an assessment)" : "-"), r.families.join(",") || "-", iocSummary(r), shown.get(r.id)?.text ?? r.review_status]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  const line = (c: string[]) => c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(widths[i]))).join("  ");
  return [line(header), ...cells.map(line)].join("\n") + "\n";
}

export const list: CliCommand = {
  help: `usage: evidence-bridge capsule list [--json] [--limit N]

Lists the stored capsules, newest first, as minimized rows: id, created_at, tiers (detector, threat, overall),
families, IOC counts per kind and review status (the latest decision in the verified review log, else
HUMAN_REVIEW_REQUIRED; an approval shows its approvals under the review policy, "1 of 2 approvals", as 'review
list' does). Never prints IOC values, message hashes, pseudonyms or text.
--json prints a JSON array of the rows, each with "approvals": {"counted", "required", "met"}. Every capsule's receipt is checked against the capsule id and this
installation's key: a missing, invalid, moved or swapped receipt is named on stderr and the exit status is 1.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { json: { type: "boolean" }, limit: { type: "string" } });
    if (positionals.length > 0) throw new CliError(`capsule list: unexpected argument ${JSON.stringify(positionals[0])}`);
    const limit = intFlag("limit", flags.limit as string | undefined, Number.MAX_SAFE_INTEGER);
    let rows: ReviewedRow[];
    let shown = new Map<string, ShownStatus>();
    let receiptProblems: string[] = [];
    try {
      const store = await openExisting(ctx);
      // The row index is read once, for the rows and for the receipts.
      const entries = store.indexEntries();
      ({ rows, shown } = reviewedRows(store, entries));
      receiptProblems = store.receiptProblems(entries);
    } catch (e) {
      if (!(e instanceof StoreError && e.code === "no-store")) throw e;
      rows = [];
    }
    rows = rows.slice(0, limit);
    if (flags.json) ctx.io.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    else ctx.io.stdout.write(rows.length === 0 ? "no capsules in the store\n" : table(rows, shown));
    for (const p of receiptProblems) ctx.io.stderr.write(`capsule list: ${p}\n`);
    return receiptProblems.length > 0 ? 1 : 0;
  },
};

export const open: CliCommand = { summary: "print a stored capsule file (plaintext) to stdout",
  help: `usage: evidence-bridge capsule open ID

Prints the stored capsule file (plaintext, exactly as it was stored) to stdout. ID is the content_sha256 or a
unique prefix of at least 6 hexadecimal digits. For the owner only: the capsule holds private data.`,
  async run(args, ctx) {
    const { positionals } = parseFlags(args, {});
    const store = await openExisting(ctx);
    const id = store.resolveCapsuleId(oneId(positionals, "capsule open"));
    ctx.io.stdout.write(store.getCapsule(id));
    return 0;
  },
};


export const exportCmd: CliCommand = { summary: "verify a stored capsule and write a plaintext copy to FILE (0600)",
  help: `usage: evidence-bridge capsule export ID --out FILE [--artifact-root DIR]

Verifies the stored capsule, then writes a plaintext copy to FILE (mode 0600, created atomically; an existing
FILE with the same bytes is accepted, with other bytes refused) for sharing. FILE may not be inside the data
directory: plaintext never lives there.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { out: { type: "string" }, "artifact-root": { type: "string" } });
    const given = oneId(positionals, "capsule export");
    if (typeof flags.out !== "string" || flags.out === "") throw new CliError("capsule export: --out FILE is required");
    const config = configFrom(ctx);
    const out = resolve(flags.out);
    assertOutsideDataDir(out, config.home, "capsule export: --out");
    const store = await openExisting(ctx);
    const id = store.resolveCapsuleId(given);
    // Opened once (authenticated, identity-checked), then the full verifier on the envelope the opening parsed.
    const { bytes, envelope } = store.openCapsule(id);
    const report = verifyCapsule(envelope, { artifactRoot: flags["artifact-root"] as string | undefined });
    if (!report.ok) throw new CliError(`capsule export: stored capsule ${id} does not verify: ${report.errors.join("; ")}`);
    try {
      writeOutputFile(out, bytes);
    } catch (e) {
      if (e instanceof OutputFileError) throw new CliError(`capsule export: ${e.message}`);
      throw e;
    }
    ctx.io.stdout.write(`${id} exported to ${out}\n`);
    return 0;
  },
};

/**
 * With a configured pack, each imported capsule's derivation is written to the sealed derivation cache as it is
 * stored (docs/feed.md); without one there is nothing to derive against, and the first feed derives them.
 */
function cacheOnImport(ctx: CliContext, store: SealedStore): void {
  let pack;
  try {
    pack = useConfiguredPack(ctx, configFrom(ctx), { install: false }).pack;
  } catch {
    return;
  }
  cacheDerivationsOnPut(store, pack);
}

export const importCmd: CliCommand = { summary: "verify capsule files from elsewhere and seal them into the store",
  help: `usage: evidence-bridge capsule import FILE... [--artifact-root DIR]

Verifies each capsule file with the Evidence Capsule v1 verifier, then seals all of them into the store (keys
are created on first use). If any file cannot be read, is not a capsule, does not verify, or has different
bytes than a stored capsule with the same id, nothing is stored and that file is named. Prints one line per
capsule: '<id> stored' or '<id> already stored'. Shows progress on stderr when it is a terminal. FILE '-' reads
one capsule from stdin; any other FILE must be a regular file (a link, FIFO, device or directory is refused at
once, naming what it is).`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { "artifact-root": { type: "string" } });
    if (positionals.length === 0) throw new CliError("capsule import: at least one FILE is required");
    stdinAtMostOnce(positionals, "capsule import");
    const tty = ctx.io.stderr.isTTY === true;
    const progress = (text: string) => {
      if (tty) ctx.io.stderr.write(`\r\x1b[Kcapsule import: ${text}`);
    };
    try {
      const candidates: ImportCandidate[] = [];
      for (const [i, file] of positionals.entries()) {
        const opts = { artifactRoot: flags["artifact-root"] as string | undefined };
        if (file === STDIN_NAME) {
          const bytes = await readNamedInput(ctx, file, { maxBytes: CAPSULE_MAX_BYTES, tooLarge: "-: capsule exceeds the v1 byte limit" }, readImportBytes);
          candidates.push(importCandidateOf(file, bytes, opts));
        } else {
          candidates.push(readImportCandidate(file, opts));
        }
        progress(`verified ${i + 1}/${positionals.length}`);
      }
      const config = configFrom(ctx);
      const store = await openOrCreateStore({ home: config.home, passphrase: config.passphrase });
      cacheOnImport(ctx, store);
      const results = importCandidates(store, candidates, (done, total) => progress(`sealed ${done}/${total}`));
      if (tty) ctx.io.stderr.write("\r\x1b[K");
      ctx.io.stdout.write(results.map((r) => `${r.id} ${r.stored === "new" ? "stored" : "already stored"}\n`).join(""));
      return 0;
    } catch (e) {
      if (tty) ctx.io.stderr.write("\r\x1b[K");
      throw e;
    }
  },
};
