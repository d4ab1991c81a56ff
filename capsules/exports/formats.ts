/**
 * The marked export formats (STIX 2.1 bundle, MISP feed, CSV) from the approved JSONL export lines: checks the
 * TLP against the store's ceiling, renders the format, and runs the outward guard on every byte of every file
 * against the private values of every stored capsule. All or nothing: any refusal throws before anything is
 * written.
 */
import type { IntelligencePack } from "../../published/pack/types.js";
import { OutwardGuard } from "../guard/outward-guard.js";
import { StoredDerivations } from "../pipeline/stored.js";
import type { SealedStore } from "../store/store.js";
import { leadsCsvBytes } from "./csv.js";
import { guardExport } from "./guard-export.js";
import { leadsFromExportLines, type Lead } from "./lead.js";
import { mispFeedFiles, type FeedFile, type MispDistribution } from "./misp.js";
import type { Producer } from "./producer.js";
import { stixBundleBytes } from "./stix.js";
import { ceilingProblem, type MarkingProfile, type TlpLevel } from "./tlp.js";
import { vocabularyRefusal } from "./vocabulary-check.js";

export const MARKED_FORMATS = ["stix", "misp", "csv"] as const;
export type MarkedFormat = (typeof MARKED_FORMATS)[number];

export class FormatExportError extends Error {
  override readonly name = "FormatExportError";
}

export interface FormatExportOptions {
  format: MarkedFormat;
  tlp: TlpLevel;
  maxTlp: TlpLevel;
  profile: MarkingProfile;
  distribution: MispDistribution;
  producer: Producer;
}

export interface FormatExport {
  /** One file for stix and csv; manifest.json and the event files for misp. */
  files: FeedFile[];
  leads: Lead[];
}

/** Throws {@link FormatExportError} when `tlp` is above the ceiling (checked before any work). */
export function checkCeiling(tlp: TlpLevel, maxTlp: TlpLevel): void {
  const problem = ceilingProblem(tlp, maxTlp);
  if (problem !== undefined) throw new FormatExportError(`refused: ${problem}`);
}

/**
 * The outward guard over every stored capsule's private values, from the capsules' derivations (the sealed cache, or
 * one derivation here): the assessment's values with the pack (its literal terms are public), or, for a capsule
 * without a readable assessment, every inline document's values without the pack (stricter). A capsule among
 * `required` without readable assessment values fails (an exported lead whose values the guard cannot know cannot
 * be checked).
 */
export function storeSecrets(store: SealedStore | undefined, pack: IntelligencePack, required: ReadonlySet<string>): OutwardGuard {
  const guard = new OutwardGuard();
  const missing: string[] = [];
  const derivations = store === undefined ? undefined : new StoredDerivations(store, pack);
  for (const id of store?.capsuleIds() ?? []) {
    const d = derivations!.values(id);
    const values = d.privateValues ?? d.storeValues;
    if (values.length > 0) guard.add(values);
    else if (required.has(id)) missing.push(id);
  }
  derivations?.save();
  if (missing.length > 0) {
    throw new FormatExportError(`outward guard: the assessment of capsule ${missing.join(", ")} cannot be read, so the export cannot be checked; nothing was exported`);
  }
  return guard;
}

export function renderFormat(leads: readonly Lead[], opts: FormatExportOptions): FeedFile[] {
  switch (opts.format) {
    case "stix":
      return [{ name: "bundle.json", bytes: stixBundleBytes(leads, { tlp: opts.tlp, profile: opts.profile, producer: opts.producer }) }];
    case "misp":
      return mispFeedFiles(leads, { tlp: opts.tlp, distribution: opts.distribution, producer: opts.producer });
    case "csv":
      return [{ name: "leads.csv", bytes: leadsCsvBytes(leads, opts.tlp) }];
  }
}

/** Renders `lines` (the approved JSONL export) in `opts.format`, guarded; throws on the ceiling or a guard hit. */
export function buildFormatExport(
  store: SealedStore | undefined,
  pack: IntelligencePack,
  lines: readonly Uint8Array[],
  opts: FormatExportOptions,
): FormatExport {
  checkCeiling(opts.tlp, opts.maxTlp);
  const leads = leadsFromExportLines(lines, pack);
  const files = renderFormat(leads, opts);
  // First line: every string is from the closed outward vocabulary (capsules/allowlist/outward-vocabulary.ts).
  const unlisted = vocabularyRefusal(pack, lines, files.map((f) => ({ ...f, json: opts.format !== "csv" })));
  if (unlisted !== undefined) throw new FormatExportError(`refused, nothing was exported: ${unlisted}`);
  const secrets = storeSecrets(store, pack, new Set(leads.map((l) => l.capsule_sha256)));
  const hits: string[] = [];
  const packUrls = new Set(pack.sources.map((s) => s.url));
  for (const f of files) {
    const reason = guardExport(f.bytes, secrets, { json: opts.format !== "csv", what: f.name, literals: packUrls });
    if (reason !== undefined) hits.push(reason);
  }
  if (hits.length > 0) throw new FormatExportError(`refused, nothing was exported: ${hits.join("; ")}`);
  return { files, leads };
}
