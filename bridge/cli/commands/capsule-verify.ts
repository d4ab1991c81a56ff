/**
 * `capsule verify FILE... [--artifact-root DIR] [--json]` (capsule-v1 §11.4): load and verify each capsule, then
 * print a short summary per file, or the exact reports with `--json`. Exit 0 only when every report is ok, 1 when
 * some is not, 2 (one stderr line) when a file cannot be loaded; on exit 2 nothing is printed to stdout.
 */
import { CapsuleLoadError, readCapsuleBytes } from "../../../capsules/capsule/load.js";
import { CAPSULE_MAX_BYTES } from "../../../capsules/capsule/limits.js";
import { serializeReport, type VerificationReport } from "../../../capsules/capsule/report.js";
import { openVerifiedCapsule } from "../../../capsules/pipeline/open.js";
import { checkStoredReceipt, type ReceiptCheck } from "../../../capsules/store/receipts.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { readNamedInput, stdinAtMostOnce } from "../named-input.js";

const help = `usage: evidence-bridge capsule verify FILE... [--artifact-root DIR] [--json]

Verifies Evidence Capsule v1 files offline. Nothing is fetched, opened or executed: URIs are provenance strings.

  --artifact-root DIR  directory that path artifacts are read from (never outside it); without it, path
                       artifacts fail
  --json               print the verification report (an array of reports for several files)

FILE '-' reads the capsule from stdin. A FILE must be a regular file: a link, FIFO, device or directory is
refused at once, naming what it is.

'ok' means well-formed content identity, exact artifact bytes, and declared reference/proof relationships only;
it does not authenticate the producer and is not a timestamp. The summary also says whether this installation's
data directory (--home) holds a valid detached receipt for the capsule; --json prints the exact v1 report only.

Exit status: 0 every capsule is ok, 1 some capsule is not ok, 2 a file cannot be loaded (nothing is printed).
`;

const SECTIONS = ["schema", "integrity", "artifacts", "ledger", "anchor", "recomputability", "claims", "attestations"] as const;

/** Control, format (bidi) and separator characters from a hostile capsule are shown escaped, never sent raw. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;

export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, (ch) => `\\u{${ch.codePointAt(0)!.toString(16)}}`);
}

/** One line on this installation's detached receipt for the capsule (product.md §7). */
export function receiptLine(check: ReceiptCheck | undefined): string {
  if (check === undefined) return "  receipt: not checked (content hash did not verify)";
  const where = check.stored ? "sealed in this store" : "not in this store";
  if (check.status === "valid") return `  receipt: valid, signed by this installation (${where})`;
  if (check.status === "missing") return `  receipt: none from this installation (${where})`;
  if (check.status === "invalid") return `  receipt: INVALID${check.reason ? `: ${check.reason}` : ""} (${where})`;
  return `  receipt: not available${check.reason ? `: ${check.reason}` : ""}`;
}

/** The short human summary of one report (and, when checked, of the installation's receipt). */
export function summarize(file: string, report: VerificationReport, receipt?: ReceiptCheck | "unchecked"): string {
  const lines = [`${file}: ${report.ok ? "ok" : "NOT OK"}`];
  lines.push(`  ${SECTIONS.map((s) => `${s} ${report[s].status}`).join(", ")}`);
  if (receipt !== "unchecked") lines.push(receiptLine(receipt));
  const itemProblems: [string, { id: string; problems: string[] }[]][] = [
    ["artifact", report.artifacts.items],
    ["derivation", report.recomputability.items],
    ["ledger binding", report.ledger.items],
    ["anchor binding", report.anchor.items],
    ["claim", report.claims.items],
  ];
  for (const [label, items] of itemProblems) {
    for (const item of items) for (const problem of item.problems) lines.push(`  ${label} ${item.id}: ${problem}`);
  }
  for (const error of report.errors) lines.push(`  error: ${error}`);
  return lines.map(terminalSafe).join("\n") + "\n";
}

async function run(args: string[], ctx: CliContext): Promise<number> {
  const { flags, positionals } = parseFlags(args, {
    "artifact-root": { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length === 0) throw new CliError("capsule verify: at least one FILE is required (see --help)");
  stdinAtMostOnce(positionals, "capsule verify");
  const artifactRoot = flags["artifact-root"] as string | undefined;
  if (artifactRoot === "") throw new CliError("--artifact-root: a directory is required");
  const progress = ctx.io.stderr.isTTY === true && positionals.length > 1;
  const reports: VerificationReport[] = [];
  for (const [i, file] of positionals.entries()) {
    if (progress) ctx.io.stderr.write(`\rverifying ${i + 1}/${positionals.length}`);
    // The pipeline's open stage (capsules/pipeline/open.ts): one strict load, one run of the verifier.
    try {
      const bytes = await readNamedInput(ctx, file, { maxBytes: CAPSULE_MAX_BYTES, tooLarge: "-: capsule exceeds the v1 byte limit" }, readCapsuleBytes);
      reports.push(openVerifiedCapsule(bytes, { artifactRoot }).report);
    } catch (e) {
      if (progress) ctx.io.stderr.write("\n");
      if (e instanceof CapsuleLoadError) throw new CliError(terminalSafe(`${file}: ${e.message}`));
      throw e;
    }
  }
  if (progress) ctx.io.stderr.write("\n");
  if (flags.json === true) {
    ctx.io.stdout.write(serializeReport(reports.length === 1 ? reports[0] : reports));
  } else {
    // The v1 report stays exactly the reference's; the receipt is this installation's own, shown beside it.
    const home = configFrom(ctx).home;
    const receiptOf = (r: VerificationReport): ReceiptCheck | undefined =>
      r.integrity.status === "verified" && typeof r.integrity.actual === "string" ? checkStoredReceipt({ home }, r.integrity.actual) : undefined;
    ctx.io.stdout.write(reports.map((r, i) => summarize(positionals[i], r, receiptOf(r))).join(""));
  }
  return reports.every((r) => r.ok) ? 0 : 1;
}

const command: CliCommand = { help, run };
export default command;
