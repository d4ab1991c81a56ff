/**
 * `review export` (product.md §8): approved candidates with their signed decisions, one canonical JSON line each:
 *
 *     {"candidate":{…the candidate…},"decision":{…the signed record…},"schema_version":"evidence-bridge-review-export/v1"}
 *
 * Exported: every capsule whose LATEST decision record approves a candidate that has the approvals the review
 * policy requires (four-eyes: N distinct reviewer keys approved the same digest and nobody rejected it; counted by
 * approvals.ts), one line per counted approval (so a recipient can check every signature), in log order. Approved
 * candidates still short of approvals are not exported and are listed as pending. Before anything is
 * written, the whole log must verify, and each approved candidate is re-derived from the sealed capsule in the
 * approved view and must have exactly the approved digest (the data, the pack or the rules did not change after
 * review); its record's signature is checked again; and the outward guard covers the whole line against that
 * capsule's private values (the candidate was checked when it was derived, the decision is checked here), and the
 * decision's free text (public note, reviewer name) against every private value of the store. A private note is
 * never in a line: the record carries only its salted digest (private-notes.ts). Any refusal refuses the export
 * (all or nothing), naming every refused capsule and why. Nothing is sent anywhere.
 *
 * The signed checkpoint that ends the export (checkpoint.ts) carries the log head it was made at and every veto of
 * the log: each rejection of a candidate digest that an earlier record approved (issue 29 item 4).
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import type { Candidate } from "../candidates/types.js";
import type { SealedStore } from "../store/store.js";
import { approvalsFor, countedKeys, type ApprovalCount } from "./approvals.js";
import { checkpointLine, type Veto } from "./checkpoint.js";
import type { LoggedRecord } from "./state.js";
import { ReviewError } from "./errors.js";
import { DEFAULT_POLICY, readReviewPolicy, type ReviewPolicy } from "./policy.js";
import type { LogVerification } from "./log.js";
import { privateNoteDigestOf, publicNoteOf, signatureProblem, type ReviewRecord } from "./record.js";
import { openPrivateNote } from "./private-notes.js";
import { storeGuardFor } from "../guard/store-guard.js";
import { OutwardTexts, type CheckOptions, type OutwardGuard } from "../guard/outward-guard.js";
import { guardOutward, openReviewTarget, type ReviewTarget } from "./review-target.js";
import { StoredDerivations } from "../pipeline/stored.js";

export const REVIEW_EXPORT_SCHEMA = "evidence-bridge-review-export/v1";

export interface ExportLine {
  schema_version: typeof REVIEW_EXPORT_SCHEMA;
  candidate: Candidate;
  decision: ReviewRecord;
}

export interface ExportRefusal {
  capsule_sha256: string;
  seq: number;
  reason: string;
}

export interface ExportOutcome {
  /** Canonical line bytes, each ending with LF (the approved candidates). */
  lines: Uint8Array[];
  /**
   * The signed checkpoint line (checkpoint.ts) that ends a JSON Lines export: the log's record count and digests,
   * signed by the installation key. Undefined only when there is no store (so no key) and nothing was approved.
   */
  checkpoint: Uint8Array | undefined;
  exported: { capsule_sha256: string; candidate_sha256: string; seq: number; reviewer: string }[];
  /** Approved candidates without the approvals the policy requires (not exported). */
  pending: { capsule_sha256: string; candidate_sha256: string; approvals: ApprovalCount }[];
  policy: ReviewPolicy;
}

export interface ExportOptions {
  /** Which keys count as approvers (approvals.ts); default every key the log accepts. */
  isKnown?: (fingerprint: string) => boolean;
}

const SHORT = 12;

/** An approved candidate whose records verify and whose candidate derives again with the approved digest. */
interface Rederived {
  records: readonly ReviewRecord[];
  target: ReviewTarget;
  candidate: Candidate;
  digest: string;
}

/** One refusal for one approved candidate, or the candidate derived again (its lines are guarded next). */
function rederive(derivations: StoredDerivations, records: readonly ReviewRecord[]): Rederived | { refusal: string } {
  const record = records[records.length - 1];
  const id = record.capsule_sha256;
  for (const x of records) {
    const sig = signatureProblem(x);
    if (sig !== undefined) return { refusal: `bad signature in record #${x.seq}: ${sig}` };
  }
  if (!derivations.store.hasCapsule(id)) return { refusal: "the capsule is no longer in the store" };
  let target;
  try {
    target = openReviewTarget(derivations, id, { includeTypologyMatches: record.typology_match_visible, includeClean: true });
  } catch (e) {
    return { refusal: `the sealed capsule cannot be opened: ${(e as Error).message}` };
  }
  const r = target.result;
  if (r.status !== "emitted") return { refusal: `no candidate can be derived any more: ${r.reason}` };
  if (r.digest !== record.candidate_sha256) {
    return {
      refusal: `the re-derived candidate ${r.digest.slice(0, SHORT)} differs from the approved digest ${record.candidate_sha256.slice(0, SHORT)} (the capsule, the pack or the rules changed after review): review it again`,
    };
  }
  return { records, target, candidate: r.candidate, digest: r.digest };
}

/** The options each decision of `c` is checked with: what this export verified in it is not searched. */
const decisionOpts = (c: Rederived, d: ReviewRecord, sealedNotes: ReadonlySet<string>): CheckOptions => ({ isPublic: verifiedIn(d, c.target.capsule_sha256, c.digest, sealedNotes) });

/**
 * The export lines of a candidate derived again (one per counted approval record), or one refusal. `among`: the
 * prepared texts of every decision of the export (each collected with {@link decisionOpts}).
 */
function guardLines(c: Rederived, wide: OutwardGuard, among: OutwardTexts | undefined, sealedNotes: ReadonlySet<string>): { lines: ExportLine[] } | { refusal: string } {
  const lines: ExportLine[] = [];
  for (const decision of c.records) {
    // The candidate passed the guard over this capsule's values when it was derived (an emitted view always has,
    // capsules/pipeline/derive.ts), and the rest of the line is the decision: it is checked against this capsule's
    // values, and its free text (public note, reviewer name) against every private value of the store.
    const leak = guardOutward(c.target, decision, "export.decision", undefined, decisionOpts(c, decision, sealedNotes), among);
    if (leak !== undefined) return { refusal: leak };
    const wideVerdict = wide.check(decisionText(decision), "export.decision");
    if (!wideVerdict.ok) return { refusal: wideVerdict.reason };
    lines.push({ schema_version: REVIEW_EXPORT_SCHEMA, candidate: c.candidate, decision });
  }
  return { lines };
}

/**
 * The members of decision `d` this export has verified (docs/review.md, docs/guard.md): its capsule id and
 * candidate digest, equal to the capsule's id and to the digest of the candidate derived again now; `prev_sha256`,
 * the digest of the previous record (the log's chain verified before anything is exported); and the reviewer's
 * public key, its fingerprint and the signature, which verify together (`signatureProblem` above); and the private
 * note's digest when the sealed note in this store hashes to it (`sealedNotes`). Nobody can write a private value
 * into a digest of other bytes, or into a key and signature that verify, without breaking SHA-256 or forging
 * Ed25519, so these are not searched; every other string of the record is (public note, reason, reviewer name,
 * time, decision, member names, a private-note digest this store cannot open).
 */
function verifiedIn(d: ReviewRecord, capsuleId: string, candidateDigest: string, sealedNotes: ReadonlySet<string>): (s: string) => boolean {
  const verified = new Set([d.prev_sha256, d.signature, d.reviewer.public_key, d.reviewer.fingerprint]);
  const noteDigest = privateNoteDigestOf(d);
  if (noteDigest !== undefined && sealedNotes.has(noteDigest)) verified.add(noteDigest);
  if (d.capsule_sha256 === capsuleId) verified.add(capsuleId);
  if (d.candidate_sha256 === candidateDigest) verified.add(candidateDigest);
  return (s) => verified.has(s);
}

/** The members of a decision record a person wrote (the rest are digests, a signature, a key, a time, enums). */
function decisionText(record: ReviewRecord): { public_note: string | null; reviewer: { name: string } } {
  return { public_note: publicNoteOf(record) ?? null, reviewer: { name: record.reviewer.name } };
}

/** The private-note digests of `records` whose sealed note in this store opens and hashes to them. */
function sealedNoteDigests(store: SealedStore | undefined, records: readonly ReviewRecord[]): Set<string> {
  const out = new Set<string>();
  if (store === undefined) return out;
  for (const r of records) {
    const digest = privateNoteDigestOf(r);
    if (digest !== undefined && "note" in openPrivateNote(store.home, store.keys.store, digest)) out.add(digest);
  }
  return out;
}

/**
 * The vetoes of a verified log: every rejection of a candidate digest that an earlier record approved, in log
 * order. The export's checkpoint carries them, so an approval line copied from an older export into a newer one is
 * refused by `review verify-export` (verify-export.ts).
 */
export function vetoesOf(records: readonly LoggedRecord[]): Veto[] {
  const approved = new Set<string>();
  const out: Veto[] = [];
  for (const { record: r } of records) {
    if (r.decision === "APPROVED_FOR_RELEASE") approved.add(r.candidate_sha256);
    else if (r.decision === "REJECTED" && approved.has(r.candidate_sha256)) out.push({ seq: r.seq, capsule_sha256: r.capsule_sha256, candidate_sha256: r.candidate_sha256 });
  }
  return out;
}

/**
 * Builds every export line under the store's review policy, or throws {@link ReviewError} `export-refused` naming
 * each refused capsule (`policy` when the policy file does not verify).
 */
export function buildExport(
  store: SealedStore | undefined,
  pack: IntelligencePack,
  log: LogVerification,
  onProgress?: (done: number, total: number) => void,
  opts: ExportOptions = {},
): ExportOutcome {
  if (!log.ok) throw new ReviewError("broken-log", `the review log ${log.path} does not verify: ${log.error}; nothing was exported`);
  const policy = store === undefined ? DEFAULT_POLICY : readReviewPolicy(store);
  const isKnown = opts.isKnown ?? (store === undefined ? undefined : countedKeys(store.home));
  const approved = log.state.latestPerCapsule().filter((e) => e.record.decision === "APPROVED_FOR_RELEASE");
  const digests = log.records.map((e) => e.digest);
  const out: ExportOutcome = {
    lines: [],
    exported: [],
    pending: [],
    policy,
    checkpoint: store === undefined ? undefined : checkpointLine(digests, vetoesOf(log.records), store.keys.signing),
  };
  const refusals: (ExportRefusal & { at: number })[] = [];
  // The approved capsules' candidates are derived again; of every other capsule the store guard needs only values.
  const derivations = store === undefined ? undefined : new StoredDerivations(store, pack, { candidatesOf: new Set(approved.map((e) => e.record.capsule_sha256)) });
  // The guard over every stored value, narrowed to the free text of the decisions that may be exported.
  const texts = approved.map(({ record }) => log.state.recordsForDigest(record.candidate_sha256).map((e) => decisionText(e.record)));
  const wide = approved.length > 0 && store !== undefined ? storeGuardFor(store, derivations, texts) : undefined;
  // First every approved candidate is derived again, then the decisions of all of them are prepared once for the
  // guard over each capsule's values (a guard narrowed to what may occur in any decision of this export).
  const rederived: { at: number; record: ReviewRecord; c: Rederived }[] = [];
  for (const [i, { record }] of approved.entries()) {
    onProgress?.(i, approved.length);
    const count = approvalsFor(log.state.recordsForDigest(record.candidate_sha256), policy, isKnown);
    if (!count.met) {
      out.pending.push({ capsule_sha256: record.capsule_sha256, candidate_sha256: record.candidate_sha256, approvals: count });
      continue;
    }
    const records = count.approvers.map((a) => a.entry.record);
    const result = store === undefined ? { refusal: "the capsule is no longer in the store (there is no store)" } : rederive(derivations!, records);
    if ("refusal" in result) refusals.push({ capsule_sha256: record.capsule_sha256, seq: record.seq, reason: result.refusal, at: i });
    else rederived.push({ at: i, record, c: result });
  }
  const sealedNotes = sealedNoteDigests(store, rederived.flatMap(({ c }) => c.records));
  const among = OutwardTexts.of(rederived.flatMap(({ c }) => c.records.map((d) => ({ value: d, opts: decisionOpts(c, d, sealedNotes) }))));
  for (const { at, record, c } of rederived) {
    const result = guardLines(c, wide!, among, sealedNotes);
    if ("refusal" in result) {
      // Named by the capsule's latest decision, as every other refusal (not its last counted approval).
      refusals.push({ capsule_sha256: record.capsule_sha256, seq: record.seq, reason: result.refusal, at });
      continue;
    }
    for (const line of result.lines) {
      const bytes = canonicalBytes(line, "export");
      const buf = new Uint8Array(bytes.length + 1);
      buf.set(bytes);
      buf[bytes.length] = 0x0a;
      out.lines.push(buf);
      const d = line.decision;
      out.exported.push({ capsule_sha256: d.capsule_sha256, candidate_sha256: d.candidate_sha256, seq: d.seq, reviewer: d.reviewer.name });
    }
  }
  onProgress?.(approved.length, approved.length);
  derivations?.save();
  if (refusals.length > 0) {
    // In the order of the approved candidates, whichever step refused each.
    refusals.sort((a, b) => a.at - b.at);
    const named = refusals.map((r) => `capsule ${r.capsule_sha256} (approved in record #${r.seq}): ${r.reason}`).join("; ");
    throw new ReviewError(
      "export-refused",
      `refused ${refusals.length} of ${approved.length} approved candidate${approved.length === 1 ? "" : "s"}, nothing was exported: ${named}`,
    );
  }
  return out;
}
