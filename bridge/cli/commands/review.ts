/**
 * The human triage loop (product.md §8): `review list`, `review show ID`, `review log [--verify]`, `review export
 * --out FILE`, `review policy`, `review verify-export FILE [--trust FP,...]`, and the plumbing the other review
 * command files share. The decisions (`review approve|reject|defer`, `review reestablish-position`) are in
 * review-decide.ts, the marked export formats in review-formats.ts. The library part is capsules/review/. Nothing
 * here sends anything anywhere.
 *
 * Why over 400 lines: the shared plumbing (error rendering, store and pack opening, id resolution, record display)
 * and the six read-side commands that use it live together (with `review policy`'s approvals and release kinds);
 * the decisions are in review-decide.ts, releases in review-release.ts, the export formats in review-formats.ts.
 */
import { resolve } from "node:path";
import type { Tier } from "../../../capsules/assessment/types.js";
import { TIER_RANK } from "../../../capsules/assessment/vocabulary.js";
import type { Candidate } from "../../../capsules/candidates/types.js";
import type { CandidateView } from "../../../capsules/candidates/types.js";
import {
  approvalsProblem,
  approvalsText,
  buildExport,
  countedKeys,
  DEFAULT_POLICY,
  loadReviewLog,
  MAX_APPROVALS,
  openPrivateNote,
  privateNoteDigestOf,
  publicNoteOf,
  reasonOf,
  shownFor,
  type StatusLens,
  policyPath,
  readReviewPolicy,
  writeReviewPolicy,
  parseTrustList,
  queueEntry,
  REVIEW_STATUSES,
  ReviewError,
  reviewQueue,
  verifyExportBytes,
  verifyReviewLog,
  type LoggedRecord,
  type LogVerification,
  type QueueEntry,
  type ReviewStatus,
} from "../../../capsules/review/index.js";
import { StoredDerivations } from "../../../capsules/pipeline/stored.js";
import { StoreError } from "../../../capsules/store/errors.js";
import { openStore, type SealedStore } from "../../../capsules/store/store.js";
import { KeyError } from "../../../src/crypto/errors.js";
import { readRegularFile } from "../../../src/crypto/safe-read.js";
import { OutputFileError, writeOutputFile } from "../../../src/output-file.js";
import { PackError } from "../../../published/pack/errors.js";
import { useConfiguredPack } from "../pack-choice.js";
import type { IntelligencePack } from "../../../published/pack/types.js";
import { teamUrlFrom } from "../../team/database-url.js";
import { parseFlags } from "../args.js";
import { configFrom } from "../config.js";
import { vocabularyRefusal } from "../../../capsules/exports/vocabulary-check.js";
import { CliError, type CliCommand, type CliContext } from "../context.js";
import { readNamedInput, stdinAtMostOnce } from "../named-input.js";
import { FORMAT_FLAGS, FORMAT_HELP, formatChoice, writeMarkedExport } from "./review-formats.js";
import { DEFAULT_RELEASE_KINDS, parseReleaseKinds, readReleaseKinds, releasedValues, ReleaseError, writeReleaseKinds } from "../../../capsules/release/index.js";
import { FormatExportError, guardedReleaseLines } from "../../../capsules/exports/index.js";
import { IOC_KINDS, type IocKind } from "../../../published/pack/vocabulary.js";
import { unverifiableExportFormat } from "../../../capsules/review/export-format.js";

const SHORT = 12;
/** Largest export file `verify-export` reads. */
const EXPORT_MAX_BYTES = 256 * 1024 * 1024;

// ---- shared plumbing ------------------------------------------------------------------------------------------

/** Runs a command body, turning the library's expected errors into one-line CLI errors prefixed by the command. */
export async function guarded<T>(command: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (e) {
    if (e instanceof CliError) throw e;
    if (e instanceof ReviewError || e instanceof StoreError || e instanceof KeyError || e instanceof PackError || e instanceof ReleaseError || e instanceof FormatExportError) {
      throw new CliError(`${command}: ${e.message}`);
    }
    if (e instanceof Error && /^(SealError|SafeWriteError|DataDirError)$/.test(e.name)) throw new CliError(`${command}: ${e.message}`);
    throw e;
  }
}

export function loadPack(ctx: CliContext): IntelligencePack {
  const config = configFrom(ctx);
  try {
    return useConfiguredPack(ctx, config).pack;
  } catch (e) {
    if (e instanceof PackError) throw new CliError(e.rule === "not-configured" || e.rule === "different-pack" ? e.detail : `intelligence pack: ${e.message}`);
    throw e;
  }
}

export async function openExisting(ctx: CliContext, command: string): Promise<SealedStore | undefined> {
  const config = configFrom(ctx);
  try {
    return await openStore({ home: config.home, passphrase: config.passphrase });
  } catch (e) {
    if (e instanceof StoreError && e.code === "no-store") return undefined;
    throw e instanceof Error ? new CliError(`${command}: ${e.message}`) : e;
  }
}

export function viewFrom(flags: Record<string, unknown>): CandidateView {
  return { includeTypologyMatches: flags["include-typology-matches"] === true, includeClean: flags["include-clean"] === true };
}

export const VIEW_FLAGS = { "include-typology-matches": { type: "boolean" }, "include-clean": { type: "boolean" } } as const;

export function oneId(positionals: string[], command: string): string {
  if (positionals.length !== 1) {
    throw new CliError(`${command}: expected exactly one capsule id (64 hexadecimal digits, or a unique prefix of at least 6)`);
  }
  return positionals[0].toLowerCase();
}

export function resolveId(store: SealedStore | undefined, given: string, command: string): string {
  if (store === undefined) throw new CliError(`${command}: unknown candidate ${given}: the store is empty`);
  try {
    return store.resolveCapsuleId(given);
  } catch (e) {
    if (e instanceof StoreError) throw new CliError(`${command}: unknown candidate: ${e.message}`);
    throw e;
  }
}

function progress(ctx: CliContext, label: string): { tick: (done: number, total: number) => void; clear: () => void } {
  if (ctx.io.stderr.isTTY !== true) return { tick: () => undefined, clear: () => undefined };
  let shown = false;
  return {
    tick(done, total) {
      if (done !== total && done % 100 !== 0) return;
      ctx.io.stderr.write(`\r\x1b[K${label}: ${done}/${total}`);
      shown = true;
    },
    clear() {
      if (shown) ctx.io.stderr.write("\r\x1b[K");
    },
  };
}

export function write(ctx: CliContext, text: string): Promise<void> {
  return new Promise((res, rej) => ctx.io.stdout.write(text, (err) => (err ? rej(err) : res())));
}

export function overall(c: Candidate): Tier {
  return TIER_RANK[c.detector.tier] >= TIER_RANK[c.threat_assessment.tier] ? c.detector.tier : c.threat_assessment.tier;
}

export function families(c: Candidate): string[] {
  return [...new Set<string>([...c.detector.families, ...c.threat_assessment.families])].sort();
}

export function iocText(c: Candidate): string {
  const parts = Object.entries(c.ioc_counts)
    .filter(([, n]) => (n ?? 0) > 0)
    .map(([k, n]) => `${k}=${n}`);
  return parts.length > 0 ? parts.join(",") : "none";
}

/** Age of a candidate from its (hour) created_at: `3d4h`, `5h`, `<1h`. */
export function age(c: Candidate, now: number): string {
  const hours = Math.floor((now - Date.parse(c.created_at)) / 3_600_000);
  if (hours < 1) return "<1h";
  const d = Math.floor(hours / 24);
  return d > 0 ? `${d}d${hours % 24}h` : `${hours}h`;
}

/**
 * One record on one line: reason, public note and, for a reviewer with the store open (`privateNote`), the private
 * note opened from the sealed store. Without it, only that a sealed private note exists.
 */
export function recordSummary(e: LoggedRecord, privateNote?: (digest: string) => string): string {
  const r = e.record;
  const reason = reasonOf(r);
  const publicNote = publicNoteOf(r);
  const digest = privateNoteDigestOf(r);
  const parts = [
    `reason ${reason ?? "none (v1 record)"}`,
    publicNote === undefined ? "no public note" : `public note (leaves with the export): ${publicNote}`,
    ...(digest === undefined ? [] : [privateNote === undefined ? "private note sealed" : `private note (never exported): ${privateNote(digest)}`]),
  ];
  return `#${r.seq} ${r.decided_at} ${r.decision} by ${r.reviewer.name} (${r.reviewer.fingerprint.slice(0, 8 + SHORT)}…): ${parts.join("; ")}`;
}

export function recordJson(e: LoggedRecord): Record<string, unknown> {
  const r = e.record;
  return {
    seq: r.seq,
    decision: r.decision,
    decided_at: r.decided_at,
    reviewer: { name: r.reviewer.name, fingerprint: r.reviewer.fingerprint },
    candidate_sha256: r.candidate_sha256,
    typology_match_visible: r.typology_match_visible,
    reason: reasonOf(r) ?? null,
    public_note: publicNoteOf(r) ?? null,
    private_note_sealed: privateNoteDigestOf(r) !== undefined,
  };
}

/** The private note of a record for a reviewer: opened from the sealed store, or why it cannot be shown. */
export function privateNoteReader(store: SealedStore): (digest: string) => string {
  return (digest) => {
    const opened = openPrivateNote(store.home, store.keys.store, digest);
    return "note" in opened ? opened.note : `(cannot be shown: ${opened.problem})`;
  };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (c: string[]) => c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(widths[i]))).join("  ");
  return [line(header), ...rows.map(line)].join("\n") + "\n";
}

// ---- review list ----------------------------------------------------------------------------------------------

function parseStatus(v: unknown): ReviewStatus | undefined {
  if (v === undefined) return undefined;
  if (typeof v === "string" && (REVIEW_STATUSES as readonly string[]).includes(v)) return v as ReviewStatus;
  throw new CliError(`review list: --status: expected one of ${REVIEW_STATUSES.join(", ")}`);
}

export const list: CliCommand = { summary: "the review queue: status, tiers, families, IOC counts, age",
  help: `usage: evidence-bridge [--home DIR] [--pack FILE] review list [--status STATE] [--json]
                      [--include-typology-matches] [--include-clean]

The review queue: every stored capsule's outward candidate with its review status, created_at (hour), age,
overall tier, families, IOC counts per kind and the number of hypotheses shown; oldest first. Never prints IOC
values, message hashes, pseudonyms or message text. A candidate whose bytes changed since its last decision is
HUMAN_REVIEW_REQUIRED again. An approved candidate shows its approvals under the review policy ("1 of 2
approvals"). --status filters (${REVIEW_STATUSES.join(", ")}).
The view flags select the candidate view for capsules without a decision (decided ones use the decided view).`,
  async run(args, ctx) {
    if (teamUrlFrom(ctx.globalFlags.team, ctx.io.env) !== undefined) return (await import("./review-team.js")).teamList(args, ctx);
    const { flags, positionals } = parseFlags(args, { json: { type: "boolean" }, status: { type: "string" }, ...VIEW_FLAGS });
    if (positionals.length > 0) throw new CliError(`review list: unexpected argument ${JSON.stringify(positionals[0])}`);
    const wanted = parseStatus(flags.status);
    return guarded("review list", async () => {
      const pack = loadPack(ctx);
      const config = configFrom(ctx);
      const log = loadReviewLog(config.home);
      const store = await openExisting(ctx, "review list");
      const p = progress(ctx, "review list");
      let queue;
      try {
        const derivations = store === undefined ? undefined : new StoredDerivations(store, pack);
        queue = derivations === undefined ? { entries: [], excludedClean: 0, withheld: [] } : reviewQueue(derivations, log.state, viewFrom(flags), p.tick);
        derivations?.save();
      } finally {
        p.clear();
      }
      const entries = queue.entries.filter((e) => wanted === undefined || e.status === wanted);
      const now = Date.now();
      const lens: StatusLens = { state: log.state, policy: store === undefined ? DEFAULT_POLICY : readReviewPolicy(store), isKnown: countedKeys(config.home) };
      if (flags.json) {
        await write(ctx, `${JSON.stringify(entries.map((e) => listJson(e, now, lens)), null, 2)}\n`);
        return 0;
      }
      if (entries.length > 0) {
        const rows = entries.map((e) => [
          e.capsule_sha256.slice(0, SHORT),
          e.candidate.created_at,
          age(e.candidate, now),
          overall(e.candidate),
          families(e.candidate).join(",") || "-",
          iocText(e.candidate),
          String(e.candidate.hypotheses.length),
          statusText(e, lens),
        ]);
        await write(ctx, table(["CAPSULE", "CREATED", "AGE", "TIER", "FAMILIES", "IOCS", "HYP", "STATUS"], rows));
      }
      const pending = queue.entries.filter((e) => e.status === "HUMAN_REVIEW_REQUIRED" || e.status === "NEEDS_MORE_EVIDENCE").length;
      await write(
        ctx,
        `${queue.entries.length} candidate${queue.entries.length === 1 ? "" : "s"} (${pending} awaiting a decision)` +
          `${wanted ? `, ${entries.length} ${wanted}` : ""}; ${queue.excludedClean} CLEAN excluded; ${queue.withheld.length} withheld` +
          `${queue.withheld.length > 0 ? " ('evidence-bridge feed' says why)" : ""}\n`,
      );
      return 0;
    });
  },
};

/** The status column: the shown status (`APPROVED_FOR_RELEASE (1 of 2 approvals)`, status.ts) and supersession. */
export function statusText(e: QueueEntry, lens: StatusLens): string {
  return shownFor(lens, e.status, e.candidate_sha256).text + (e.superseded ? " (earlier decision on other bytes)" : "");
}

function listJson(e: QueueEntry, now: number, lens: StatusLens): Record<string, unknown> {
  const c = e.candidate;
  return {
    capsule_sha256: e.capsule_sha256,
    candidate_sha256: e.candidate_sha256,
    status: e.status,
    created_at: c.created_at,
    age_hours: Math.max(0, Math.floor((now - Date.parse(c.created_at)) / 3_600_000)),
    tiers: { detector: c.detector.tier, threat: c.threat_assessment.tier, overall: overall(c) },
    families: families(c),
    ioc_counts: c.ioc_counts,
    hypotheses: c.hypotheses.length,
    typology_match_visible: c.feed_policy.typology_match_visible,
    decision: e.decision ? recordJson(e.decision) : null,
    superseded: e.superseded ? recordJson(e.superseded) : null,
    approvals: shownFor(lens, e.status, e.candidate_sha256).approvals,
  };
}

// ---- review show ----------------------------------------------------------------------------------------------

/** Why this capsule has a candidate, from outward fields only. */
export function reasons(e: QueueEntry, hiddenTypologyMatches: number): string[] {
  const c = e.candidate;
  const out = [
    `overall tier ${overall(c)} (detector ${c.detector.tier} score ${c.detector.score}; threat ${c.threat_assessment.tier} score ${c.threat_assessment.score})` +
      (overall(c) === "CLEAN" ? ": CLEAN, shown because of --include-clean or an earlier decision" : ": not CLEAN, so the capsule yields a candidate"),
    `families: ${families(c).join(", ") || "none"}`,
    `IOCs: ${iocText(c).replace(/,/g, ", ")} (counts only; the values stay in the sealed store)`,
    `collection: ${c.collection.surface} / ${c.collection.authorization}`,
  ];
  if (c.hypotheses.length === 0) out.push("hypotheses shown: none");
  for (const h of c.hypotheses) {
    out.push(`hypothesis ${h.typology_id} (${h.dimension}): ${h.support_level}, ${h.independent_backers} independent backer${h.independent_backers === 1 ? "" : "s"}, support recomputed from the pack rules`);
  }
  if (hiddenTypologyMatches > 0) {
    out.push(`${hiddenTypologyMatches} TYPOLOGY_MATCH hypothes${hiddenTypologyMatches === 1 ? "is is" : "es are"} hidden by the default feed policy (--include-typology-matches reviews them)`);
  }
  if (c.hypotheses_withheld !== undefined) out.push(`all hypotheses withheld: ${c.hypotheses_withheld}`);
  out.push(`origin answer: ${c.origin_answer}`);
  return out;
}

export const show: CliCommand = { summary: "one candidate: status, digest, reasons, decisions, the candidate",
  help: `usage: evidence-bridge [--home DIR] [--pack FILE] review show ID [--json] [--include-typology-matches]
                      [--include-clean]

Shows one candidate (ID: the capsule id, or a unique prefix of at least 6 hexadecimal digits): its review status,
its digest (an approval with its approvals under the review policy, "1 of 2 approvals", as 'review list' shows
it), the reasons it exists (tiers, families, IOC counts, hypotheses and their recomputed support), the
decisions recorded on this capsule, and the candidate itself. Never shows IOC values or message content.`,
  async run(args, ctx) {
    if (teamUrlFrom(ctx.globalFlags.team, ctx.io.env) !== undefined) return (await import("./review-team.js")).teamShow(args, ctx);
    const { flags, positionals } = parseFlags(args, { json: { type: "boolean" }, ...VIEW_FLAGS });
    const given = oneId(positionals, "review show");
    return guarded("review show", async () => {
      const pack = loadPack(ctx);
      const config = configFrom(ctx);
      const log = loadReviewLog(config.home);
      const store = await openExisting(ctx, "review show");
      const id = resolveId(store, given, "review show");
      const view = viewFrom(flags);
      const derivations = new StoredDerivations(store!, pack);
      const r = queueEntry(derivations, log.state, id, view);
      if (r.status !== "entry") throw new CliError(`review show: capsule ${id} has no outward candidate: ${r.reason}`);
      const e = r.entry;
      let hidden = 0;
      if (!e.candidate.feed_policy.typology_match_visible) {
        const full = derivations.candidate(id, { includeTypologyMatches: true, includeClean: true });
        if (full.status === "emitted") hidden = full.candidate.hypotheses.length - e.candidate.hypotheses.length;
      }
      derivations.save();
      const history = log.records.filter((x) => x.record.capsule_sha256 === id);
      const readNote = privateNoteReader(store!);
      const shown = shownFor({ state: log.state, policy: readReviewPolicy(store!), isKnown: countedKeys(config.home) }, e.status, e.candidate_sha256);
      if (flags.json) {
        const doc = {
          capsule_sha256: id,
          candidate_sha256: e.candidate_sha256,
          status: e.status,
          approvals: shown.approvals,
          typology_match_visible: e.candidate.feed_policy.typology_match_visible,
          reasons: reasons(e, hidden),
          decisions: history.map((x) => {
            const digest = privateNoteDigestOf(x.record);
            return { ...recordJson(x), private_note: digest === undefined ? null : readNote(digest) };
          }),
          superseded: e.superseded ? recordJson(e.superseded) : null,
          candidate: e.candidate,
        };
        await write(ctx, `${JSON.stringify(doc, null, 2)}\n`);
        return 0;
      }
      const lines = [
        `capsule    ${id}`,
        `candidate  sha256:${e.candidate_sha256} (${e.candidate.feed_policy.typology_match_visible ? "with typology matches" : "default view"})`,
        `status     ${shown.text}${e.superseded ? ` (record #${e.superseded.record.seq} decided other bytes of this capsule: the candidate changed since)` : ""}`,
        "why it is a candidate:",
        ...reasons(e, hidden).map((x) => `  - ${x}`),
        history.length === 0 ? "decisions: none" : "decisions:",
        ...history.map((x) => `  ${recordSummary(x, readNote)}`),
        "candidate:",
        JSON.stringify(e.candidate, null, 2),
      ];
      await write(ctx, `${lines.join("\n")}\n`);
      return 0;
    });
  },
};

// ---- review log -----------------------------------------------------------------------------------------------

function logSummary(v: LogVerification): string {
  return `review log ${v.path}: ${v.records.length} record${v.records.length === 1 ? "" : "s"}; chain, signatures and transitions verified; head sha256:${v.head}`;
}

export const log: CliCommand = {
  help: `usage: evidence-bridge [--home DIR] review log [--verify] [--json]

Prints the review log's records (sequence, time, decision, capsule, candidate digest, reviewer, note). With
--verify, checks instead: every record's canonical form and shape, the sequence numbers, the hash chain (each
record names the digest of the previous one), every reviewer signature, every state transition, and the head file
(which catches records cut from the end). Prints the number of records and the head digest (keep it elsewhere
to detect a rewritten log later).

Exit status: 0 intact; 1 the log is broken (stderr names the first bad record); 2 usage or read errors.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { verify: { type: "boolean" }, json: { type: "boolean" } });
    if (positionals.length > 0) throw new CliError(`review log: unexpected argument ${JSON.stringify(positionals[0])}`);
    return guarded("review log", async () => {
      const v = verifyReviewLog(configFrom(ctx).home);
      if (flags.json) {
        const doc = {
          path: v.path,
          ok: v.ok,
          error: v.error ?? null,
          warnings: v.warnings,
          records: v.records.length,
          head_sha256: v.head,
          ...(flags.verify ? {} : { entries: v.records.map((e) => ({ ...recordJson(e), capsule_sha256: e.record.capsule_sha256, digest: e.digest })) }),
        };
        await write(ctx, `${JSON.stringify(doc, null, 2)}\n`);
        return v.ok ? 0 : 1;
      }
      if (!flags.verify) {
        const rows = v.records.map((e) => [
          `#${e.record.seq}`,
          e.record.decided_at,
          e.record.decision,
          e.record.capsule_sha256.slice(0, SHORT),
          e.record.candidate_sha256.slice(0, SHORT),
          e.record.reviewer.name,
          reasonOf(e.record) ?? "-",
          publicNoteOf(e.record) ?? "-",
        ]);
        if (rows.length > 0) await write(ctx, table(["SEQ", "DECIDED", "DECISION", "CAPSULE", "CANDIDATE", "REVIEWER", "REASON", "PUBLIC NOTE"], rows));
        else if (v.ok) await write(ctx, "the review log is empty\n");
      } else if (v.ok) {
        await write(ctx, `${logSummary(v)}\n`);
      }
      for (const w of v.warnings) ctx.io.stderr.write(`review log: warning: ${w}\n`);
      if (!v.ok) throw new CliError(`review log: ${v.path} is broken: ${v.error}`, 1);
      return 0;
    });
  },
};

// ---- review export --------------------------------------------------------------------------------------------

export const exportCmd: CliCommand = { summary: "write approved candidates with their signed decisions to FILE",
  help: `usage: evidence-bridge [--home DIR] [--pack FILE] review export --out FILE [--format jsonl|stix|misp|csv]
                      [--tlp LEVEL] [--marking-profile oasis|opencti] [--distribution N]

Writes every approved candidate with its signed decision as JSON Lines (one canonical
{"candidate","decision","schema_version"} object + newline each, in log order) to FILE. Under a four-eyes policy
('review policy --approvals N') a candidate is written only when N distinct reviewer keys approved the same
candidate digest and nobody rejected it, once per approving key; the others are listed as pending (mode 0600, created
atomically; an existing FILE with the same bytes is accepted, with other bytes refused). Before writing, the log
must verify, and each approved candidate is re-derived from the sealed capsule: a digest that differs from the
approved one (the data or the pack changed after review), a bad signature or a leak-guard hit refuses the whole
export, naming each refused capsule. The last line is a checkpoint signed by the installation key: the log's record
count and record digests, so a recipient can check that a later export's log extends this one ('review
verify-export NEW --after OLDER'). Nothing is sent anywhere; recipients check the file with 'review verify-export'.

With --team URL (or EVIDENCE_BRIDGE_TEAM_URL) the approved candidates of the verified team chain are written instead
(four-eyes as the team's signed membership counts it; every format), each whole line checked by the outward
vocabulary and then by the outward guard over every team capsule this member can open; the checkpoint is signed
with this member's key (docs/team.md).

${FORMAT_HELP}`,
  async run(args, ctx) {
    if (teamUrlFrom(ctx.globalFlags.team, ctx.io.env) !== undefined) return (await import("./review-team.js")).teamExport(args, ctx);
    const { flags, positionals } = parseFlags(args, { out: { type: "string" }, ...FORMAT_FLAGS });
    if (positionals.length > 0) throw new CliError(`review export: unexpected argument ${JSON.stringify(positionals[0])}`);
    if (typeof flags.out !== "string" || flags.out === "") throw new CliError("review export: --out FILE is required");
    const out = resolve(flags.out);
    const marked = formatChoice(flags, ctx);
    return guarded("review export", async () => {
      const pack = loadPack(ctx);
      const config = configFrom(ctx);
      const log = loadReviewLog(config.home);
      const store = await openExisting(ctx, "review export");
      const p = progress(ctx, "review export");
      let result;
      try {
        result = buildExport(store, pack, log, (done, total) => p.tick(done, total));
      } finally {
        p.clear();
      }
      // Released IOC values of the exported candidates (capsules/release): carried by every format.
      const released = releasedValues(config.home, store, new Map(result.exported.map((x) => [x.candidate_sha256, x.capsule_sha256])));
      const releasedNote = [...released.values()].flat().map((r) => `  released: ${r.kind} #${r.index} of capsule ${r.capsule_sha256} by ${r.records.length} reviewer${r.records.length === 1 ? "" : "s"}`);
      if (marked !== undefined) {
        await write(ctx, `${[...writeMarkedExport(ctx, marked, out, store, pack, log, result, released), ...releasedNote].join("\n")}\n`);
        return 0;
      }
      const releaseLines = guardedReleaseLines(store, pack, released);
      // First line: every string of the reviewed lines is from the closed outward vocabulary
      // (capsules/allowlist/outward-vocabulary.ts); release lines carry released values and are guarded on their own.
      const unlisted = vocabularyRefusal(pack, result.checkpoint === undefined ? result.lines : [...result.lines, result.checkpoint]);
      if (unlisted !== undefined) throw new CliError(`review export: ${unlisted}`);
      const all = [...result.lines, ...releaseLines, ...(result.checkpoint === undefined ? [] : [result.checkpoint])];
      const bytes = Buffer.concat(all.map((l) => Buffer.from(l.buffer, l.byteOffset, l.length)));
      try {
        writeOutputFile(out, bytes);
      } catch (e) {
        if (e instanceof OutputFileError) throw new CliError(`review export: ${e.message}`);
        throw e;
      }
      const lines = result.exported.map((x) => `  ${x.capsule_sha256} candidate ${x.candidate_sha256.slice(0, SHORT)} approved in record #${x.seq} by ${x.reviewer}`);
      const candidates = new Set(result.exported.map((x) => x.candidate_sha256)).size;
      const head =
        result.policy.approvals === 1
          ? `exported ${candidates} approved candidate${candidates === 1 ? "" : "s"} to ${out}`
          : `exported ${candidates} approved candidate${candidates === 1 ? "" : "s"} (${result.exported.length} approval lines, ${result.policy.approvals} approvals required) to ${out}`;
      const pending = result.pending.map((x) => `  pending: ${x.capsule_sha256} candidate ${x.candidate_sha256.slice(0, SHORT)}: ${approvalsText(x.approvals)}`);
      await write(ctx, [head, ...lines, ...pending, ...releasedNote].join("\n") + "\n");
      return 0;
    });
  },
};

function releaseKindsFlag(text: string): IocKind[] {
  try {
    return parseReleaseKinds(text);
  } catch (e) {
    if (e instanceof ReleaseError) throw new CliError(`review policy: ${e.message}`);
    throw e;
  }
}

// ---- review policy --------------------------------------------------------------------------------------------

export const policy: CliCommand = {
  help: `usage: evidence-bridge [--home DIR] review policy [--approvals N] [--release KINDS] [--json]

Shows the review policy, or with --approvals N (1 to ${MAX_APPROVALS}) sets it: how many distinct reviewer keys must
approve the same candidate digest before 'review export' writes it (four-eyes: --approvals 2), and how many must
release an IOC value before exports carry it ('review release'). The default is 1.
--release KINDS sets which IOC kinds may be released as values (a comma-separated list of ${IOC_KINDS.join(", ")}, or
none); the default is channels,urls,wallets: phones, e-mails and handles (often a recruited mule's or a victim's)
leave only as match tokens unless the policy names them.
Both are kept in the store (store/${"review-policy.json"}, store/release-policy.json), signed with the installation
key: an edited file is refused, never read as the default. A rejection by any reviewer keeps a candidate out of
the export.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { approvals: { type: "string" }, release: { type: "string" }, json: { type: "boolean" } });
    if (positionals.length > 0) throw new CliError(`review policy: unexpected argument ${JSON.stringify(positionals[0])}`);
    let wanted: number | undefined;
    if (flags.approvals !== undefined) {
      const text = String(flags.approvals);
      wanted = /^[0-9]{1,3}$/.test(text) ? Number(text) : NaN;
      const problem = approvalsProblem(wanted);
      if (problem !== undefined) throw new CliError(`review policy: --approvals: ${problem}`);
    }
    return guarded("review policy", async () => {
      const config = configFrom(ctx);
      const store = await openExisting(ctx, "review policy");
      const releaseKinds = typeof flags.release === "string" ? releaseKindsFlag(flags.release) : undefined;
      if (wanted !== undefined || releaseKinds !== undefined) {
        if (store === undefined) throw new CliError(`review policy: no store in ${config.home} yet: build or import a capsule, or run 'evidence-bridge keys init'`);
        if (wanted !== undefined) writeReviewPolicy(store, { approvals: wanted });
        if (releaseKinds !== undefined) writeReleaseKinds(store, releaseKinds);
      }
      const current = store === undefined ? DEFAULT_POLICY : readReviewPolicy(store);
      const kinds = store === undefined ? DEFAULT_RELEASE_KINDS : readReleaseKinds(store);
      if (flags.json) {
        await write(ctx, `${JSON.stringify({ approvals: current.approvals, release: kinds, path: store === undefined ? null : policyPath(store) }, null, 2)}\n`);
        return 0;
      }
      const what = current.approvals === 1 ? "1 approval" : `${current.approvals} approvals by distinct reviewer keys`;
      const set = wanted === undefined && releaseKinds === undefined ? "" : " (set)";
      await write(ctx, `review policy: ${what} per candidate digest before export${set}\nrelease policy: ${kinds.length === 0 ? "no kind" : kinds.join(", ")} may be released as values, each by ${current.approvals} reviewer${current.approvals === 1 ? "" : "s"}\n`);
      return 0;
    });
  },
};

/** An export file's bytes: a regular file of at most EXPORT_MAX_BYTES, checked before anything is read. */
function readExportFile(path: string, what = "review verify-export"): Uint8Array {
  try {
    return readRegularFile(path, { maxBytes: EXPORT_MAX_BYTES, label: path });
  } catch (e) {
    throw new CliError(`${what}: cannot read ${path}: ${(e as Error).message}`);
  }
}

// ---- review verify-export -------------------------------------------------------------------------------------

export const verifyExport: CliCommand = {
  summary: "check a JSONL export: signatures, checkpoint, releases, pinned keys",
  help: `usage: evidence-bridge review verify-export FILE [--trust FINGERPRINT,...] [--after OLDER] [--json]

Checks an export written by 'review export' with the public keys it names: per line, the decision record's shape,
that its fingerprint belongs to its public key and its Ed25519 signature verifies, that it approves exactly the
candidate on the line (SHA-256 of the candidate's canonical bytes), the candidate's public-record shape, and that
the record sits at its position of the log described by the export's signed checkpoint (its last line).

A line is verified only when its signing key is pinned: --trust lists the reviewer fingerprints (ed25519:<64 hex>,
as 'keys init --reviewer' prints them) and the exporting installation's signing key (as 'keys show' prints it),
compared out of band. Valid signatures by keys not on the list are reported as unpinned and are not verified.

--after OLDER checks that the log of FILE extends the log of an OLDER export of the same installation (same
records at the same positions): a log rolled back or rewritten between the two exports fails. The checkpoint
lists the log's vetoes (rejections of candidates an earlier record approved): an approval line of FILE that a later
record vetoed is refused, and with --after every lead of OLDER vetoed since is reported as WITHDRAWN (exit 1).
Needs no store, pack or keys. Files must be regular files of at most 256 MiB (a link, FIFO, device or directory is
refused at once, naming what it is); FILE or OLDER '-' reads that export from stdin. A STIX 2.1, MISP or CSV export
carries no signed decisions: it is named in one line (exit 1).

Exit status: 0 every line and the checkpoint verify with pinned keys; 1 otherwise (each problem is named);
2 usage or read errors.`,
  async run(args, ctx) {
    const { flags, positionals } = parseFlags(args, { trust: { type: "string" }, after: { type: "string" }, json: { type: "boolean" } });
    if (positionals.length !== 1) throw new CliError("review verify-export: expected exactly one FILE");
    return guarded("review verify-export", async () => {
      const trust = typeof flags.trust === "string" ? parseTrustList(flags.trust) : undefined;
      stdinAtMostOnce([positionals[0], flags.after as string | undefined], "review verify-export");
      const bytes = await readNamedInput(ctx, positionals[0], { maxBytes: EXPORT_MAX_BYTES }, (f) => readExportFile(f));
      const other = unverifiableExportFormat(bytes);
      if (other !== undefined) {
        throw new CliError(
          `review verify-export: ${positionals[0]} is ${other}; only the JSON Lines export ('review export', the default --format jsonl) carries the signed decisions this command verifies`,
          1,
        );
      }
      const after =
        typeof flags.after === "string" ? await readNamedInput(ctx, flags.after, { maxBytes: EXPORT_MAX_BYTES }, (f) => readExportFile(f, "review verify-export: --after")) : undefined;
      const report = verifyExportBytes(bytes, { trust, after });
      if (flags.json) {
        await write(ctx, `${JSON.stringify(report, null, 2)}\n`);
        return report.ok ? 0 : 1;
      }
      const lines = report.lines.map((l) =>
        l.ok && l.release !== undefined
          ? `line ${l.line}: ok: released ${l.release.kind} #${l.release.index} of capsule ${l.capsule_sha256} candidate ${l.candidate_sha256!.slice(0, SHORT)}, by ${l.release.reviewers.length} reviewer${l.release.reviewers.length === 1 ? "" : "s"} (${l.release.reviewers.map((r) => r.name).join(", ")})`
          : l.ok
          ? `line ${l.line}: ok: capsule ${l.capsule_sha256} candidate ${l.candidate_sha256!.slice(0, SHORT)} approved by ${l.reviewer!.name} (${l.reviewer!.fingerprint}) at ${l.decided_at}`
          : `line ${l.line}: ${l.unpinned ? "UNPINNED" : "FAILED"}: ${l.problem}`,
      );
      const keys = report.keys.map((k) => `key ${k.fingerprint} (${k.names.join(", ")}): ${k.trusted ? "pinned" : "NOT pinned"}`);
      const c = report.checkpoint;
      const checkpoint = c.ok
        ? `checkpoint: ${c.records} log record${c.records === 1 ? "" : "s"}, head sha256:${c.head_sha256}, signed by pinned installation key ${c.signer}${flags.after !== undefined ? `; extends ${flags.after}` : ""}`
        : `checkpoint: ${c.pinned === false && c.problem?.startsWith("valid") ? "UNPINNED" : "FAILED"}: ${c.problem}`;
      const withdrawn = report.withdrawn.map(
        (w) =>
          `--after: WITHDRAWN: capsule ${w.capsule_sha256} candidate ${w.candidate_sha256.slice(0, SHORT)}, approved in record #${w.approved_in} of ${flags.after}, was vetoed by record #${w.vetoed_in} (a rejection listed in the newer export's signed checkpoint): stop using that lead`,
      );
      const decisions = report.lines.filter((l) => l.release === undefined && !/^release: /.test(l.problem ?? ""));
      const releases = report.lines.length - decisions.length;
      const ok = decisions.filter((l) => l.ok).length;
      const unpinned = report.lines.filter((l) => l.unpinned).length;
      const releasedOk = report.lines.filter((l) => l.ok && l.release !== undefined).length;
      const summary = `${positionals[0]}: ${ok} of ${decisions.length} approved candidate${decisions.length === 1 ? "" : "s"} verified${releases > 0 ? `; ${releasedOk} of ${releases} released value${releases === 1 ? "" : "s"} verified` : ""}${unpinned > 0 ? `; ${unpinned} signed by keys you have not pinned` : ""}${report.ok ? "" : "; the export does not verify"}`;
      await write(ctx, [...lines, ...keys, checkpoint, ...withdrawn, summary].join("\n") + "\n");
      return report.ok ? 0 : 1;
    });
  },
};
