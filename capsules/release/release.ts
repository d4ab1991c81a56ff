/**
 * Releasing one IOC value of an approved candidate (`review release ID --kind K --index I --reason CODE`), and the
 * values an export may carry (issue 32 item 2).
 *
 * A release is recorded only when: the capsule's latest decision approves its current candidate and the review
 * policy's approvals of those bytes are complete (four-eyes); the kind is in the store's release policy (policy.ts);
 * the index names one of the capsule's values of that kind; the reviewer key is registered; and this key has not
 * released the same value of the same candidate already. A value is RELEASED once the review policy's number of
 * distinct registered reviewer keys released it (the same number four-eyes asks of approvals: with 2, one reviewer's
 * release is pending), every record committing to the same value (the shared sealed nonce, register.ts).
 *
 * An export re-derives each released value from the sealed capsule, recomputes its commitment and refuses the whole
 * export when a record does not commit to the value the capsule holds now (record.ts, {@link releasedValues}).
 */
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import type { IntelligencePack } from "../../published/pack/types.js";
import { parseAssessment } from "../assessment/parse-assessment.js";
import { readCapsuleSource } from "../pipeline/capsule-source.js";
import { StoredDerivations } from "../pipeline/stored.js";
import { approvalsFor, countedKeys } from "../review/approvals.js";
import { withFileLock } from "../review/lock.js";
import { reviewLayout } from "../review/layout.js";
import { loadReviewLog, type Reviewer } from "../review/log.js";
import { readReviewPolicy } from "../review/policy.js";
import { decisionTime } from "../review/record.js";
import { loadReviewerRegistry } from "../review/reviewer-registry.js";
import type { LoggedRecord } from "../review/state.js";
import { reasonProblem, type ReviewReason } from "../review/text-rules.js";
import type { SealedStore } from "../store/store.js";
import { bytesToHex } from "../../src/hash.js";
import { ReleaseError } from "./errors.js";
import { readReleaseKinds } from "./policy.js";
import { appendRelease, nonceFor, readNonces, readReleases, releaseSlot } from "./register.js";
import { RELEASE_RECORD_SCHEMA, releaseCommitment, signRelease, type ReleaseRecord } from "./record.js";

export interface ReleaseRequest {
  capsule_sha256: string;
  kind: IocKind;
  index: number;
  reason: ReviewReason;
}

export interface ReleaseCount {
  /** Distinct registered reviewer keys whose records commit to the value. */
  released: number;
  /** The review policy's approvals: the number of releases a value needs. */
  required: number;
  reviewers: string[];
}

export interface RecordedRelease {
  record: ReleaseRecord;
  count: ReleaseCount;
}

/** A value an export may carry: released by enough reviewers, its records committing to it. */
export interface ReleasedValue {
  capsule_sha256: string;
  candidate_sha256: string;
  kind: IocKind;
  index: number;
  value: string;
  nonce: string;
  /** The counted records, in register order. */
  records: ReleaseRecord[];
}

/** The IOC values of stored capsule `id`, by kind, in the order the assessment records them. */
export function capsuleIocValues(store: SealedStore, id: string): Record<IocKind, readonly string[]> {
  const source = readCapsuleSource(store.openCapsule(id));
  if (!source.ok) throw new ReleaseError("no-value", `capsule ${id}: its assessment cannot be read (${source.reason})`);
  const iocs = parseAssessment(source.assessmentBytes).assessment.detector.iocs;
  return Object.fromEntries(IOC_KINDS.map((k) => [k, iocs[k] ?? []])) as unknown as Record<IocKind, readonly string[]>;
}

/** The approved candidate digest of capsule `id`: its latest decision approves its current candidate, approvals complete. */
function approvedDigest(home: string, store: SealedStore, pack: IntelligencePack, id: string): { digest: string; last: LoggedRecord } {
  const log = loadReviewLog(home);
  const last = log.state.lastForCapsule(id);
  if (last === undefined || last.record.decision !== "APPROVED_FOR_RELEASE") {
    throw new ReleaseError("not-approved", `capsule ${id} is not approved for release: only values of an approved candidate can be released`);
  }
  const derivations = new StoredDerivations(store, pack);
  const r = derivations.candidate(id, { includeTypologyMatches: last.record.typology_match_visible, includeClean: true });
  derivations.save();
  if (r.status !== "emitted" || r.digest !== last.record.candidate_sha256) {
    throw new ReleaseError("not-approved", `the candidate of capsule ${id} changed since it was approved (the capsule, the pack or the rules changed): review it again`);
  }
  const approvals = approvalsFor(log.state.recordsForDigest(r.digest), readReviewPolicy(store), countedKeys(home));
  if (!approvals.met) {
    throw new ReleaseError("not-approved", `capsule ${id} has ${approvals.approvers.length} of ${approvals.required} approvals of its candidate: values are released only from a fully approved candidate`);
  }
  return { digest: r.digest, last };
}

/** Counts the distinct registered keys whose records on `slot` commit to `commitment`. */
export function countReleases(records: readonly ReleaseRecord[], slot: string, commitment: string, required: number, isKnown: (fp: string) => boolean): ReleaseCount & { counted: ReleaseRecord[] } {
  const seen = new Set<string>();
  const counted: ReleaseRecord[] = [];
  for (const r of records) {
    if (releaseSlot(r) !== slot || r.commitment !== commitment || !isKnown(r.reviewer.fingerprint) || seen.has(r.reviewer.fingerprint)) continue;
    seen.add(r.reviewer.fingerprint);
    counted.push(r);
  }
  return { released: counted.length, required, reviewers: counted.map((r) => r.reviewer.name), counted };
}

/**
 * Records one release. Throws {@link ReleaseError}: `not-approved`, `policy`, `no-value`, `reviewer-key`,
 * `double-release`, `broken-register`, `io`; and the review log's errors.
 */
export function recordRelease(home: string, store: SealedStore, pack: IntelligencePack, req: ReleaseRequest, reviewer: Reviewer, opts: { now?: () => Date } = {}): RecordedRelease {
  const rp = reasonProblem(req.reason);
  if (rp !== undefined) throw new ReleaseError("policy", `--reason: ${rp}`);
  const id = req.capsule_sha256;
  const kinds = readReleaseKinds(store);
  if (!kinds.includes(req.kind)) {
    throw new ReleaseError(
      "policy",
      `the store's release policy does not release ${req.kind} (it releases ${kinds.join(", ") || "no kind"}); ${req.kind} leave only as match tokens unless 'evidence-bridge review policy --release KINDS' names them`,
    );
  }
  const { digest } = approvedDigest(home, store, pack, id);
  const values = capsuleIocValues(store, id)[req.kind];
  if (!Number.isSafeInteger(req.index) || req.index < 0 || req.index >= values.length) {
    throw new ReleaseError("no-value", `--index: capsule ${id} has ${values.length} ${req.kind} value${values.length === 1 ? "" : "s"} (index 0 to ${values.length - 1})`);
  }
  const policy = readReviewPolicy(store);
  return withFileLock(reviewLayout(home).lock, () => {
    const registry = loadReviewerRegistry(home);
    if (!registry.isKnown(reviewer.key.fingerprint)) {
      throw new ReleaseError("reviewer-key", `reviewer key ${reviewer.key.fingerprint} (${reviewer.name}) is not registered in this store`);
    }
    const slot = releaseSlot({ candidate_sha256: digest, kind: req.kind, index: req.index });
    const records = readReleases(home);
    if (records.some((r) => releaseSlot(r) === slot && r.reviewer.fingerprint === reviewer.key.fingerprint)) {
      throw new ReleaseError("double-release", `${reviewer.name} (${reviewer.key.fingerprint}) already released ${req.kind} #${req.index} of capsule ${id}'s candidate ${digest.slice(0, 12)}`);
    }
    const nonce = nonceFor(store, slot);
    const record = signRelease(
      {
        schema_version: RELEASE_RECORD_SCHEMA,
        capsule_sha256: id,
        candidate_sha256: digest,
        kind: req.kind,
        index: req.index,
        commitment: releaseCommitment(nonce, req.kind, values[req.index]),
        reason: req.reason,
        reviewer: { name: reviewer.name, fingerprint: reviewer.key.fingerprint, public_key: bytesToHex(reviewer.key.publicKey) },
        decided_at: decisionTime((opts.now ?? (() => new Date()))()),
      },
      reviewer.key,
    );
    appendRelease(home, record);
    const { counted: _counted, ...count } = countReleases([...records, record], slot, record.commitment, policy.approvals, (fp) => registry.isKnown(fp));
    return { record, count };
  });
}

/** How far each slot of `candidate` got: per kind and index, the releases counted and required (for `review show` and the page). */
export function releaseState(home: string, store: SealedStore, candidate: string): Map<string, ReleaseCount> {
  const records = readReleases(home).filter((r) => r.candidate_sha256 === candidate);
  const nonces = readNonces(store);
  const required = readReviewPolicy(store).approvals;
  const isKnown = countedKeys(home);
  const out = new Map<string, ReleaseCount>();
  for (const r of records) {
    const slot = releaseSlot(r);
    if (out.has(slot) || !nonces.has(slot)) continue;
    const { counted: _c, ...count } = countReleases(records, slot, r.commitment, required, isKnown);
    out.set(slot, count);
  }
  return out;
}

/**
 * The released values of the exported candidates (`candidates`: candidate digest → capsule id), each with its counted
 * records. A value whose kind the release policy no longer names is not carried. Throws {@link ReleaseError}
 * `mismatch` when a released slot's records do not commit to the value the capsule holds now (nothing is exported).
 */
export function releasedValues(home: string, store: SealedStore | undefined, candidates: ReadonlyMap<string, string>): Map<string, ReleasedValue[]> {
  const out = new Map<string, ReleasedValue[]>();
  if (store === undefined) return out;
  const records = readReleases(home).filter((r) => candidates.get(r.candidate_sha256) === r.capsule_sha256);
  if (records.length === 0) return out;
  const nonces = readNonces(store);
  const kinds = readReleaseKinds(store);
  const required = readReviewPolicy(store).approvals;
  const isKnown = countedKeys(home);
  const slots = [...new Set(records.map(releaseSlot))];
  const valuesOf = new Map<string, Record<IocKind, readonly string[]>>();
  for (const slot of slots) {
    const first = records.find((r) => releaseSlot(r) === slot)!;
    if (!kinds.includes(first.kind)) continue;
    const nonce = nonces.get(slot);
    if (nonce === undefined) throw new ReleaseError("mismatch", `the release of ${first.kind} #${first.index} of capsule ${first.capsule_sha256} has no sealed nonce in this store; nothing was exported`);
    let values = valuesOf.get(first.capsule_sha256);
    if (values === undefined) valuesOf.set(first.capsule_sha256, (values = capsuleIocValues(store, first.capsule_sha256)));
    const value = values[first.kind][first.index];
    const commitment = value === undefined ? undefined : releaseCommitment(nonce, first.kind, value);
    const onSlot = records.filter((r) => releaseSlot(r) === slot);
    if (commitment === undefined || onSlot.some((r) => r.commitment !== commitment)) {
      throw new ReleaseError("mismatch", `a release of ${first.kind} #${first.index} of capsule ${first.capsule_sha256} does not commit to the value the capsule holds; nothing was exported`);
    }
    const count = countReleases(records, slot, commitment, required, isKnown);
    if (count.released < required) continue;
    const list = out.get(first.candidate_sha256) ?? [];
    list.push({ capsule_sha256: first.capsule_sha256, candidate_sha256: first.candidate_sha256, kind: first.kind, index: first.index, value: value!, nonce, records: count.counted });
    out.set(first.candidate_sha256, list);
  }
  for (const list of out.values()) list.sort((a, b) => IOC_KINDS.indexOf(a.kind) - IOC_KINDS.indexOf(b.kind) || a.index - b.index);
  return out;
}
