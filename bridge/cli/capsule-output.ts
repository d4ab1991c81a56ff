/**
 * Where `capsule build` and `capsule assess` put the capsule they made (issue 30 item 4). The capsule is plaintext
 * with every IOC and quoted fragment, so it is not printed onto a terminal by default:
 * - `--out FILE`: written to FILE with mode 0600 whatever the umask (src/output-file.ts, the one writer of files a
 *   user names: a new file linked into place; an identical existing file is success, anything else is refused);
 * - `--json`, or stdout that is not a terminal (a pipe): the canonical JSON + LF on stdout, as before;
 * - otherwise (a terminal): a one-screen summary: id, stored or not, tiers, families, IOC counts per kind, and
 *   whether the outward candidate was withheld. Never a value, a fragment or the message hash.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { OutputFileError, writeOutputFile } from "../../src/output-file.js";
import { parseStrictJson } from "../../src/json/parse.js";
import type { JsonObject } from "../../src/json/value.js";
import { rowFacts } from "../../capsules/store/rows.js";
import { candidateView, type Derivation } from "../../capsules/pipeline/derivation.js";
import { CliError, type CliContext } from "./context.js";
import { assertOutsideDataDir } from "./outside-data-dir.js";

/** The two output flags, for parseFlags. */
export const CAPSULE_OUTPUT_FLAGS = { json: { type: "boolean" }, out: { type: "string" } } as const;

/** The help lines of the two flags, their descriptions starting at column `col` (to match the command's own). */
export function capsuleOutputHelp(col: number): string {
  const pad = (flag: string) => `  ${flag}`.padEnd(col);
  const more = " ".repeat(col);
  return [
    `${pad("--out FILE")}write the capsule file to FILE with mode 0600 (never inside the data directory;`,
    `${more}an identical existing FILE is success, a different one is refused)`,
    `${pad("--json")}print the capsule file on stdout even on a terminal (it is printed whenever stdout`,
    `${more}is a pipe or a file; on a terminal a one-screen summary is printed instead)`,
  ].join("\n");
}

export interface CapsuleOutputFlags {
  json: boolean;
  /** Absolute path of --out, checked before any work is done. */
  out: string | undefined;
}

/** Reads and checks the flags before the capsule is built: a bad --out fails before anything is sealed. */
export function capsuleOutputFlags(flags: Record<string, unknown>, home: string): CapsuleOutputFlags {
  const raw = flags.out as string | undefined;
  if (raw === "") throw new CliError("--out: a file name is required");
  const out = raw === undefined ? undefined : resolve(raw);
  if (out !== undefined) {
    assertOutsideDataDir(out, home, "--out");
    if (!existsSync(dirname(out))) throw new CliError(`--out: the directory ${dirname(out)} does not exist`);
  }
  return { json: flags.json === true, out };
}

export interface MadeCapsule {
  id: string;
  bytes: Uint8Array;
  /** "new": sealed now; "recorded": the store already held it (the stored capsule is shown); "none": --no-store. */
  stored: "new" | "recorded" | "none";
  /** The derivations made while storing (for the candidate line), when stored. */
  derivations?: ReadonlyMap<string, Derivation>;
}

function candidateLine(made: MadeCapsule): string {
  const d = made.derivations?.get(made.id);
  if (made.stored === "none" || d === undefined) return "not derived (nothing was stored)";
  const view = candidateView(d, { includeTypologyMatches: false, includeClean: false });
  if (view.status === "withheld") return `WITHHELD (${view.reason}): it will not reach review`;
  if (view.status === "excluded") return `none (${view.reason})`;
  return "queued for human review ('evidence-bridge review list')";
}

/** The terminal summary: one screen, no private values. */
export function capsuleSummary(made: MadeCapsule, out: string | undefined, home: string): string {
  const facts = rowFacts(made.id, parseStrictJson(made.bytes) as JsonObject);
  const iocs =
    facts.ioc_counts === null
      ? "-"
      : Object.entries(facts.ioc_counts)
          .filter(([, n]) => n > 0)
          .map(([k, n]) => `${k} ${n}`)
          .join(", ") || "none";
  const stored = { new: `sealed into ${home}`, recorded: "already in the store (the stored capsule is shown)", none: "not stored (--no-store)" }[made.stored];
  const lines = [
    `capsule ${made.id}`,
    `  stored     ${stored}`,
    `  tiers      detector ${facts.tiers.detector ?? "-"}, threat ${facts.tiers.threat ?? "-"}, overall ${facts.tiers.overall ?? "-"}`,
    `  families   ${facts.families.join(", ") || "-"}`,
    `  IOCs       ${iocs}`,
    `  candidate  ${candidateLine(made)}`,
    out === undefined
      ? "  file       not printed on a terminal (plaintext with every IOC): --out FILE writes it 0600, --json prints it"
      : `  file       ${out} (mode 0600)`,
  ];
  return `${lines.join("\n")}\n`;
}

async function writeStdout(ctx: CliContext, bytes: Uint8Array | string): Promise<void> {
  await new Promise<void>((ok, fail) => ctx.io.stdout.write(bytes, (err) => (err ? fail(err) : ok())));
}

/** Writes the capsule where the flags say (see the module comment). */
export async function emitCapsule(ctx: CliContext, flags: CapsuleOutputFlags, made: MadeCapsule, home: string): Promise<void> {
  if (flags.out !== undefined) {
    try {
      writeOutputFile(flags.out, made.bytes);
    } catch (e) {
      if (e instanceof OutputFileError) throw new CliError(`--out: ${e.message}`);
      throw e;
    }
  }
  const terminal = ctx.io.stdout.isTTY === true;
  if (flags.json || (!terminal && flags.out === undefined)) await writeStdout(ctx, made.bytes);
  else if (terminal) await writeStdout(ctx, capsuleSummary(made, flags.out, home));
}

/** On a terminal, says what stdin is waiting for and how to end it (stderr), instead of waiting silently. */
export function promptForStdin(ctx: CliContext, what: string): void {
  if (ctx.io.stdin.isTTY !== true) return;
  const eof = process.platform === "win32" ? "Ctrl-Z then Enter" : "Ctrl-D on a new line";
  ctx.io.stderr.write(`evidence-bridge: reading ${what} from the terminal; paste it, then press ${eof} to end (or redirect a file: < FILE)\n`);
}
