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
import { storeExportIds, transientExportIds, type ExportIds } from "./export-ids.js";
import { guardExport } from "./guard-export.js";
import { leadsFromExportLines, type Lead } from "./lead.js";
import { withPlaceholder } from "./released.js";
import type { ReleasedValue } from "../release/release.js";
import { releaseLine } from "../release/export-line.js";
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
  /** Released values by candidate digest (capsules/release `releasedValues`); none by default. */
  released?: ReadonlyMap<string, readonly ReleasedValue[]>;
  /**
   * The guard over the private values the export is checked against, instead of the store's (`review export --team`
   * passes the guard over every team capsule the member can open, capsules/team/team-export.ts).
   */
  secrets?: OutwardGuard;
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

/** The format's files; `reveal` false writes released values as their stand-ins (the render the guard checks). */
export function renderFormat(leads: readonly Lead[], opts: FormatExportOptions, ids: ExportIds, reveal = true): FeedFile[] {
  switch (opts.format) {
    case "stix":
      return [{ name: "bundle.json", bytes: stixBundleBytes(leads, { tlp: opts.tlp, profile: opts.profile, producer: opts.producer, ids, reveal }) }];
    case "misp":
      return mispFeedFiles(leads, { tlp: opts.tlp, distribution: opts.distribution, producer: opts.producer, ids, reveal });
    case "csv":
      return [{ name: "leads.csv", bytes: leadsCsvBytes(leads, opts.tlp, reveal) }];
  }
}

/** Runs a step on the sealed id registry; its failures (a damaged or foreign file, IO) refuse the export. */
function keptIds<T>(step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof Error && /^(ExportIdsError|SealError|SafeReadError|SafeWriteError|LockError|ReviewError)$/.test(e.name)) {
      throw new FormatExportError(`the store's export ids: ${e.message}; nothing was exported`);
    }
    throw e;
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
  for (const lead of leads) lead.released = (opts.released?.get(lead.candidate_sha256) ?? []).map(withPlaceholder);
  const ids = keptIds(() => (store === undefined ? transientExportIds() : storeExportIds(store)));
  // Released values are allowed where the format puts them and nowhere else: the guard checks a render with each
  // released value replaced by a stand-in (so any other appearance of it, or of any other private value, refuses),
  // and the files written are the same render with the values in place.
  const guarded = renderFormat(leads, opts, ids, false);
  const files = leads.some((l) => l.released.length > 0) ? renderFormat(leads, opts, ids, true) : guarded;
  // First line: every string of the render with stand-ins is from the closed outward vocabulary
  // (capsules/allowlist/outward-vocabulary.ts).
  const unlisted = vocabularyRefusal(pack, lines, guarded.map((f) => ({ ...f, json: f.name.endsWith(".json") })));
  if (unlisted !== undefined) throw new FormatExportError(`refused, nothing was exported: ${unlisted}`);
  const secrets = opts.secrets ?? storeSecrets(store, pack, new Set(leads.map((l) => l.capsule_sha256)));
  const hits: string[] = [];
  const packUrls = new Set(pack.sources.map((s) => s.url));
  for (const f of guarded) {
    const reason = guardExport(f.bytes, secrets, { json: f.name.endsWith(".json"), what: f.name, literals: packUrls });
    if (reason !== undefined) hits.push(reason);
  }
  if (hits.length > 0) throw new FormatExportError(`refused, nothing was exported: ${hits.join("; ")}`);
  // The ids minted for this export are kept before its files are written, so the next export reuses them.
  keptIds(() => ids.save());
  return { files, leads };
}

/**
 * The JSONL export's release lines (capsules/release/export-line.ts) for `released`, guarded like the formats: each
 * line is checked with its value replaced by a stand-in, against every stored capsule's private values. Throws
 * {@link FormatExportError} on a hit (nothing is exported).
 */
export function guardedReleaseLines(store: SealedStore | undefined, pack: IntelligencePack, released: ReadonlyMap<string, readonly ReleasedValue[]>): Uint8Array[] {
  const all = [...released.values()].flat();
  if (all.length === 0) return [];
  const secrets = storeSecrets(store, pack, new Set(all.map((r) => r.capsule_sha256)));
  const hits: string[] = [];
  for (const r of all) {
    const reason = guardExport(releaseLine(r, withPlaceholder(r).placeholder), secrets, { json: true, what: `the release line of ${r.kind} #${r.index} of capsule ${r.capsule_sha256}` });
    if (reason !== undefined) hits.push(reason);
  }
  if (hits.length > 0) throw new FormatExportError(`refused, nothing was exported: ${hits.join("; ")}`);
  return all.map((r) => releaseLine(r));
}
