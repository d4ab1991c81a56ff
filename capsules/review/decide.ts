/**
 * Recording one decision the way every front end does it (`review approve|reject|defer` and the review page): the
 * reason code and the notes' text rules, the candidate re-derived from the sealed capsule in the chosen view,
 * optionally the digest the reviewer saw (the page binds its form to it), the outward guard on the public note and
 * the reviewer's name against every private value of the store, the private note sealed in the store (only its
 * salted digest is signed), the review policy from the store, then the locked, verified, signed append of log.ts.
 */
import type { IntelligencePack } from "../../published/pack/types.js";
import type { CandidateView } from "../candidates/types.js";
import { StoredDerivations } from "../pipeline/stored.js";
import type { SealedStore } from "../store/store.js";
import { approvalsFor, countedKeys, type ApprovalCount } from "./approvals.js";
import type { Decision } from "./decisions.js";
import { ReviewError } from "./errors.js";
import { appendDecision, loadReviewLog, readLogBytes, type AppendOptions, type Reviewer } from "./log.js";
import { reviewLayout } from "./layout.js";
import { readReviewPolicy } from "./policy.js";
import { OutwardTexts } from "../guard/outward-guard.js";
import { storeGuardFor } from "../guard/store-guard.js";
import { guardOutward, openReviewTarget } from "./review-target.js";
import type { LoggedRecord } from "./state.js";
import { noteProblem, reasonProblem, type ReviewReason } from "./text-rules.js";
import { removePrivateNote, sealPrivateNote } from "./private-notes.js";

export interface DecisionRequest {
  /** Full capsule id. */
  capsule_sha256: string;
  view: CandidateView;
  decision: Decision;
  /** One code of the closed list (text-rules.ts). */
  reason: ReviewReason;
  /** The private note (`--note`): sealed, shown to reviewers, never exported. */
  note?: string;
  /** The public note (`--public-note`): the only free text that leaves with the export; leak-guarded. */
  publicNote?: string;
  /** The candidate digest the reviewer looked at; a different current digest is refused (`stale-candidate`). */
  expectedDigest?: string;
}

export interface RecordedDecision {
  entry: LoggedRecord;
  /** Approvals of the decided digest after this record, under the policy in force. */
  approvals: ApprovalCount;
}

/**
 * Records one decision. Throws {@link ReviewError}: `invalid-note` (a reason or note that breaks its rule),
 * `no-candidate`, `stale-candidate`, `leak` (the message never echoes the public note), `policy`, plus those of
 * {@link appendDecision}.
 */
export function recordDecision(
  home: string,
  store: SealedStore,
  pack: IntelligencePack,
  req: DecisionRequest,
  reviewer: Reviewer,
  opts: Omit<AppendOptions, "policy"> = {},
): RecordedDecision {
  const rp = reasonProblem(req.reason);
  if (rp !== undefined) throw new ReviewError("invalid-note", `--reason: ${rp}`);
  for (const [flag, text] of [["--note", req.note], ["--public-note", req.publicNote]] as const) {
    const np = text === undefined ? undefined : noteProblem(text);
    if (np !== undefined) throw new ReviewError("invalid-note", `${flag}: ${np}`);
  }
  const id = req.capsule_sha256;
  // The candidate and every private value the guards need are projections of the capsules' derivations.
  const derivations = new StoredDerivations(store, pack);
  const target = openReviewTarget(derivations, id, req.view);
  const r = target.result;
  if (r.status !== "emitted") throw new ReviewError("no-candidate", `capsule ${id} has no outward candidate: ${r.reason}`);
  if (req.expectedDigest !== undefined && req.expectedDigest !== r.digest) {
    throw new ReviewError(
      "stale-candidate",
      `the candidate of capsule ${id} is now ${r.digest.slice(0, 12)}, not the ${req.expectedDigest.slice(0, 12)} you reviewed (the capsule, the pack or the rules changed): look at it again`,
    );
  }
  // The public note travels with every export, and so does the reviewer's name signed into the record: both are
  // checked against every private value of the store, in every form (guard/). One store guard holds what may occur
  // in either text; each text is then checked on its own. The private note is sealed instead, never guarded.
  const outward = req.publicNote === undefined ? [reviewer.name] : [req.publicNote, reviewer.name];
  const texts = OutwardTexts.of(outward.map((value) => ({ value })));
  const storeGuard = storeGuardFor(store, derivations, texts ?? outward);
  const leak = req.publicNote === undefined ? undefined : guardOutward(target, req.publicNote, "the public note", storeGuard, {}, texts);
  derivations.save();
  if (leak !== undefined) {
    throw new ReviewError("leak", `--public-note refused: ${leak}; the public note leaves with the export: keep private details in --note (sealed, never exported)`);
  }
  const nameLeak = guardOutward(target, reviewer.name, "the reviewer name", storeGuard, {}, texts);
  if (nameLeak !== undefined) {
    throw new ReviewError(
      "leak",
      `reviewer name refused: ${nameLeak}; the name is signed into the log and exported with every decision: make a reviewer key with another name (keys init --reviewer NAME)`,
    );
  }
  const policy = readReviewPolicy(store);
  // Sealed before the record that names it is appended: a record never names a note that is not in the store.
  const privateDigest = req.note === undefined ? undefined : sealPrivateNote(home, store.keys.store, req.note);
  let entry: LoggedRecord;
  try {
    entry = appendDecision(
      home,
      {
        capsule_sha256: id,
        candidate_sha256: r.digest,
        typology_match_visible: req.view.includeTypologyMatches,
        decision: req.decision,
        reason: req.reason,
        ...(privateDigest === undefined ? {} : { private_note_sha256: privateDigest }),
        ...(req.publicNote === undefined ? {} : { public_note: req.publicNote }),
      },
      reviewer,
      { ...opts, policy },
    );
  } catch (e) {
    // Refused (a double decision, a broken log, …): the note it sealed names no record, so it goes again. An error
    // after the record was appended (its head or position write) keeps it: the log names it.
    if (privateDigest !== undefined && !logMentions(home, privateDigest)) removePrivateNote(home, privateDigest);
    throw e;
  }
  // Count over the log as it is now (re-read: other reviewers may have appended since, under the same lock).
  const approvals = approvalsFor(loadReviewLog(home).state.recordsForDigest(r.digest), policy, opts.isKnown ?? countedKeys(home));
  return { entry, approvals };
}

/** Whether the log's bytes hold `digest` (a record names it). */
function logMentions(home: string, digest: string): boolean {
  try {
    return Buffer.from(readLogBytes(reviewLayout(home))).includes(digest);
  } catch {
    return true; // unreadable: keep the note
  }
}
