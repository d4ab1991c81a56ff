/**
 * `review export --format stix|misp|csv` and `review max-tlp` (issue 16): the marked export formats and the
 * store's sharing ceiling. The library part is capsules/exports/; review.ts hands the approved JSONL lines here.
 */
import type { LogVerification } from "../../../capsules/review/log.js";
import type { ExportOutcome } from "../../../capsules/review/export-lines.js";
import type { SealedStore } from "../../../capsules/store/store.js";
import type { ReleasedValue } from "../../../capsules/release/index.js";
import {
  buildFormatExport,
  checkCeiling,
  ExportWriteError,
  FormatExportError,
  isTlpLevel,
  MARKED_FORMATS,
  MARKING_PROFILES,
  MISP_DISTRIBUTIONS,
  readMaxTlp,
  SharingPolicyError,
  TLP_LEVELS,
  writeExportDirectory,
  writeExportFile,
  writeMaxTlp,
  type MarkedFormat,
  type MarkingProfile,
  type MispDistribution,
  type TlpLevel,
} from "../../../capsules/exports/index.js";
import { readInstallationPublicKey } from "../../../src/crypto/keys.js";
import type { Producer } from "../../../capsules/exports/producer.js";
import type { OutwardGuard } from "../../../capsules/guard/outward-guard.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";

/** The flags `review export` accepts beside --out. */
export const FORMAT_FLAGS = {
  format: { type: "string" },
  tlp: { type: "string" },
  "marking-profile": { type: "string" },
  distribution: { type: "string" },
} as const;

export const FORMAT_HELP = `  --format jsonl|stix|misp|csv   jsonl (default): the signed lines above. stix: one STIX 2.1 bundle (FILE).
                misp: a MISP feed directory (--out DIR: manifest.json + one event file per lead, events
                unpublished). csv: one row per lead. None of them carries an IOC value (counts only) but
                those reviewers released ('review release'): every format carries each released value.
  --tlp clear|green|amber|amber+strict|red   the TLP 2.0 marking of stix, misp and csv (default amber+strict);
                refused when it shares more widely than the store's ceiling ('review max-tlp', default
                amber+strict)
  --marking-profile oasis|opencti   stix: the OASIS TLP 2.0 marking objects (default) or OpenCTI's marking ids
  --distribution 0|1|2|3   misp: the events' distribution (default 0, Your Organisation Only)`;

export interface FormatChoice {
  format: MarkedFormat;
  tlp: TlpLevel;
  maxTlp: TlpLevel;
  profile: MarkingProfile;
  distribution: MispDistribution;
}

function oneOf<T extends string>(flag: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (typeof value === "string" && (allowed as readonly string[]).includes(value)) return value as T;
  throw new CliError(`review export: --${flag}: expected one of ${allowed.join(", ")}`);
}

/**
 * The marked format chosen by the flags, or undefined for JSONL (which takes none of the marking flags). Checks
 * the TLP against the store's ceiling before any work.
 */
export function formatChoice(flags: Record<string, unknown>, ctx: CliContext): FormatChoice | undefined {
  const format = oneOf("format", flags.format, ["jsonl", ...MARKED_FORMATS] as const, "jsonl");
  if (format === "jsonl") {
    for (const f of ["tlp", "marking-profile", "distribution"]) {
      if (flags[f] !== undefined) throw new CliError(`review export: --${f} applies to --format stix, misp or csv, not jsonl`);
    }
    return undefined;
  }
  if (flags["marking-profile"] !== undefined && format !== "stix") throw new CliError("review export: --marking-profile applies to --format stix only");
  if (flags.distribution !== undefined && format !== "misp") throw new CliError("review export: --distribution applies to --format misp only");
  const tlp = oneOf("tlp", flags.tlp, TLP_LEVELS, "amber+strict");
  let maxTlp: TlpLevel;
  try {
    maxTlp = readMaxTlp(configFrom(ctx).home);
    checkCeiling(tlp, maxTlp);
  } catch (e) {
    if (e instanceof SharingPolicyError || e instanceof FormatExportError) throw new CliError(`review export: ${e.message}`);
    throw e;
  }
  return {
    format,
    tlp,
    maxTlp,
    profile: oneOf("marking-profile", flags["marking-profile"], MARKING_PROFILES, "oasis"),
    distribution: oneOf("distribution", flags.distribution, MISP_DISTRIBUTIONS, "0"),
  };
}

/** Renders, guards and writes a marked export; returns the summary lines for stdout. */
export function writeMarkedExport(
  ctx: CliContext,
  choice: FormatChoice,
  out: string,
  store: SealedStore | undefined,
  pack: IntelligencePack,
  log: Pick<LogVerification, "records">,
  result: Pick<ExportOutcome, "lines">,
  released?: ReadonlyMap<string, readonly ReleasedValue[]>,
  team?: { fingerprint: string; secrets: OutwardGuard },
): string[] {
  const since = log.records[0]?.record.decided_at ?? "1970-01-01T00:00:00Z";
  let producer: Producer;
  // A team export names the exporting member's key; a local one the installation's.
  if (team !== undefined) producer = { fingerprint: team.fingerprint, since };
  else {
    const home = configFrom(ctx).home;
    const key = readInstallationPublicKey(home);
    if (key === undefined) throw new CliError(`review export: no installation keys in ${home}: the export names the installation by its signing key`);
    producer = { fingerprint: key.fingerprint, since };
  }
  let built;
  try {
    built = buildFormatExport(store, pack, result.lines, { ...choice, producer, released, ...(team === undefined ? {} : { secrets: team.secrets }) });
  } catch (e) {
    if (e instanceof FormatExportError) throw new CliError(`review export: ${e.message}`);
    throw e;
  }
  let state: "created" | "unchanged";
  try {
    state = choice.format === "misp" ? writeExportDirectory(out, built.files) : writeExportFile(out, built.files[0].bytes);
  } catch (e) {
    if (e instanceof ExportWriteError) throw new CliError(`review export: ${e.message}`);
    throw e;
  }
  const what = { stix: "a STIX 2.1 bundle", misp: "a MISP feed", csv: "CSV" }[choice.format];
  const n = built.leads.length;
  return [
    `exported ${n} approved lead${n === 1 ? "" : "s"} as ${what} marked TLP:${choice.tlp.toUpperCase()} to ${out}${state === "unchanged" ? " (already there, identical)" : ""}`,
    ...built.leads.map((l) => `  ${l.capsule_sha256} candidate ${l.candidate_sha256.slice(0, 12)} approved in record #${l.decision.seq} by ${l.decision.reviewer.name}`),
  ];
}

export const maxTlp: CliCommand = {
  help: `usage: evidence-bridge [--home DIR] review max-tlp [LEVEL]

Shows the store's sharing ceiling (max_tlp), or sets it to LEVEL (clear, green, amber, amber+strict, red).
'review export --format stix|misp|csv' refuses a --tlp that shares more widely than the ceiling (order, from
narrowest: red, amber+strict, amber, green, clear). Default: amber+strict. Stored in store/sharing.json.`,
  async run(args, ctx) {
    const { positionals } = parseFlags(args, {});
    if (positionals.length > 1) throw new CliError("review max-tlp: expected at most one LEVEL");
    const home = configFrom(ctx).home;
    try {
      if (positionals.length === 1) {
        const level = positionals[0].toLowerCase();
        if (!isTlpLevel(level)) throw new CliError(`review max-tlp: LEVEL: expected one of ${TLP_LEVELS.join(", ")}`);
        const path = writeMaxTlp(home, level);
        ctx.io.stdout.write(`max_tlp set to TLP:${level.toUpperCase()} (${path})\n`);
        return 0;
      }
      ctx.io.stdout.write(`max_tlp TLP:${readMaxTlp(home).toUpperCase()}\n`);
      return 0;
    } catch (e) {
      if (e instanceof SharingPolicyError) throw new CliError(`review max-tlp: ${e.message}`);
      if (e instanceof Error && /^(SafeWriteError|DataDirError)$/.test(e.name)) throw new CliError(`review max-tlp: ${e.message}`);
      throw e;
    }
  },
};
