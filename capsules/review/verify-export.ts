/**
 * `review verify-export`: what a recipient of an export can check without our store, pack or keys. For each line:
 * strict JSON in canonical form with exactly `schema_version`, `candidate` and `decision`; the decision is a valid
 * v1 record approving a candidate; its fingerprint belongs to the public key it names and its signature verifies;
 * SHA-256 of the candidate's canonical bytes is the approved digest; the candidate names the same capsule and view,
 * has the public-record shape, says `HUMAN_REVIEW_REQUIRED` and `automatic_publication: false`, and carries no
 * control, format or bidi character. With a trust list, the signing key's fingerprint must be on it. A candidate may
 * appear on several lines (a four-eyes export has one line per approving key), but not twice with the same key.
 *
 * Released values (issue 32): a line `{"release":…}` carries one released IOC value with its nonce and signed release
 * records (capsules/release/export-line.ts); it verifies when every record verifies, names this candidate, kind and
 * index and commits to this value, every signer is pinned, and its candidate is an approved candidate of the export.
 * A value without its records, or whose value or nonce was changed, fails, and so does the whole export.
 *
 * Limits: the signature proves which key approved which bytes, not who held the key; without a trust list any key
 * is accepted (the report lists the keys so the recipient can compare fingerprints out of band); records in an
 * export are a subset of the log, so the chain between them cannot be checked here.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { sha256Hex } from "../../src/hash.js";
import { isJsonObject, type JsonObject, type JsonValue } from "../../src/json/value.js";
import { firstControlOrFormat } from "../assessment/text-rules.js";
import { PUBLIC_RECORD_SCHEMA, REVIEW_REQUIRED } from "../candidates/types.js";
import { ReviewError } from "./errors.js";
import { REVIEW_EXPORT_SCHEMA } from "./export-lines.js";
import { extensionProblem, isCheckpointValue, readCheckpoint, type Checkpoint } from "./checkpoint.js";
import { isReleaseLineValue, releaseLineReport } from "../release/export-line.js";
import { RecordShapeError, recordDigest, recordFromJson, signatureProblem, type ReviewerIdentity, type ReviewRecord } from "./record.js";

export interface ExportLineReport {
  line: number;
  ok: boolean;
  capsule_sha256?: string;
  candidate_sha256?: string;
  reviewer?: ReviewerIdentity;
  decided_at?: string;
  /** The first problem of this line. */
  problem?: string;
  /** The signature verifies but its key is not pinned (`--trust`): not verified. */
  unpinned?: boolean;
  /** The parsed record (internal; removed from the report). */
  record?: ReviewRecord;
  /** A released value's line (issue 32): its kind and index and the keys whose release records verify. */
  release?: { kind: string; index: number; reviewers: ReviewerIdentity[] };
}

export interface ExportKey {
  fingerprint: string;
  names: string[];
  /** Whether the trust list (`--trust`) holds this key. */
  trusted: boolean;
}

export interface ExportReport {
  ok: boolean;
  lines: ExportLineReport[];
  /** Every key that signed a line that is otherwise valid. */
  keys: ExportKey[];
  checkpoint: CheckpointReport;
}

const FINGERPRINT = /^ed25519:[0-9a-f]{64}$/;
const HEX64 = /^[0-9a-f]{64}$/;
const HOUR = /^\d{4}-\d{2}-\d{2}T\d{2}:00:00Z$/;
const LINE_MEMBERS = ["candidate", "decision", "schema_version"];
const CANDIDATE_REQUIRED = [
  "assessment_id",
  "capsule_sha256",
  "collection",
  "created_at",
  "detector",
  "feed_policy",
  "hypotheses",
  "ioc_counts",
  "limitations",
  "origin_answer",
  "review_status",
  "schema_version",
  "threat_assessment",
];
const CANDIDATE_OPTIONAL = ["hypotheses_withheld"];

/** Parses `--trust ed25519:…,ed25519:…`; throws {@link ReviewError} naming a malformed entry's position. */
export function parseTrustList(text: string): Set<string> {
  const out = new Set<string>();
  text.split(",").forEach((raw, i) => {
    const fp = raw.trim();
    if (!FINGERPRINT.test(fp)) throw new ReviewError("reviewer-key", `--trust: entry ${i + 1} is not a fingerprint (ed25519: and 64 lowercase hexadecimal digits)`);
    out.add(fp);
  });
  return out;
}

function firstBadString(v: JsonValue, path: string): string | undefined {
  if (typeof v === "string") {
    const c = firstControlOrFormat(v);
    return c === undefined ? undefined : `${path} contains ${c}`;
  }
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const r = firstBadString(v[i], `${path}[${i}]`);
      if (r) return r;
    }
  } else if (isJsonObject(v)) {
    for (const [k, x] of v) {
      const r = firstControlOrFormat(k) !== undefined ? `a member name in ${path} contains a control or format character` : firstBadString(x, `${path}.${k}`);
      if (r) return r;
    }
  }
  return undefined;
}

function candidateProblem(c: JsonValue, visible: boolean, capsule: string): string | undefined {
  if (!isJsonObject(c)) return "candidate: expected an object";
  for (const k of c.keys()) if (!CANDIDATE_REQUIRED.includes(k) && !CANDIDATE_OPTIONAL.includes(k)) return "candidate: unknown member (candidates are closed objects)";
  for (const k of CANDIDATE_REQUIRED) if (!c.has(k)) return `candidate.${k}: missing member`;
  if (c.get("schema_version") !== PUBLIC_RECORD_SCHEMA) return `candidate.schema_version: expected "${PUBLIC_RECORD_SCHEMA}"`;
  if (c.get("review_status") !== REVIEW_REQUIRED) return `candidate.review_status: expected "${REVIEW_REQUIRED}"`;
  const id = c.get("capsule_sha256");
  if (typeof id !== "string" || !HEX64.test(id)) return "candidate.capsule_sha256: expected 64 lowercase hexadecimal digits";
  if (id !== capsule) return "candidate.capsule_sha256: differs from decision.capsule_sha256";
  const created = c.get("created_at");
  if (typeof created !== "string" || !HOUR.test(created)) return "candidate.created_at: expected a UTC hour, YYYY-MM-DDTHH:00:00Z";
  const policy = c.get("feed_policy");
  if (!isJsonObject(policy) || policy.size !== 2 || policy.get("automatic_publication") !== false || typeof policy.get("typology_match_visible") !== "boolean") {
    return "candidate.feed_policy: expected {automatic_publication: false, typology_match_visible: true|false}";
  }
  if (policy.get("typology_match_visible") !== visible) return "candidate.feed_policy.typology_match_visible: differs from decision.typology_match_visible";
  return firstBadString(c, "candidate");
}

function checkLine(raw: Uint8Array, line: number): ExportLineReport {
  const report: ExportLineReport = { line, ok: false };
  const fail = (problem: string): ExportLineReport => ({ ...report, problem });
  if (raw.length === 0) return fail("empty line");
  let value: JsonValue;
  try {
    value = parseStrictJson(raw, { rootPath: "line" });
  } catch (e) {
    return fail(`not strict JSON (${(e as { rule?: string }).rule ?? "syntax"})`);
  }
  if (!isJsonObject(value)) return fail("expected a JSON object");
  const keys = [...value.keys()].sort();
  if (keys.length !== LINE_MEMBERS.length || keys.some((k, i) => k !== LINE_MEMBERS[i])) return fail("expected exactly candidate, decision and schema_version");
  if (value.get("schema_version") !== REVIEW_EXPORT_SCHEMA) return fail(`schema_version: expected "${REVIEW_EXPORT_SCHEMA}"`);
  if (!Buffer.from(canonicalBytes(value, "line")).equals(Buffer.from(raw))) return fail("not in canonical form (the line was edited or re-serialised)");
  let record;
  try {
    record = recordFromJson(value.get("decision")!, "decision");
  } catch (e) {
    if (e instanceof RecordShapeError) return fail(e.message);
    throw e;
  }
  report.capsule_sha256 = record.capsule_sha256;
  report.candidate_sha256 = record.candidate_sha256;
  report.reviewer = record.reviewer;
  report.decided_at = record.decided_at;
  if (record.decision !== "APPROVED_FOR_RELEASE") return fail(`decision.decision is ${record.decision}; an export holds approvals only`);
  const sig = signatureProblem(record);
  if (sig !== undefined) return fail(`decision: ${sig}`);
  const candidate = value.get("candidate") as JsonObject;
  const shape = candidateProblem(candidate, record.typology_match_visible, record.capsule_sha256);
  if (shape !== undefined) return fail(shape);
  if (sha256Hex(canonicalBytes(candidate, "candidate")) !== record.candidate_sha256) {
    return fail("the candidate's SHA-256 differs from decision.candidate_sha256: the candidate is not the approved bytes");
  }
  return { ...report, ok: true, record };
}

function isReleaseRaw(raw: Uint8Array): boolean {
  try {
    return isReleaseLineValue(parseStrictJson(raw));
  } catch {
    return false;
  }
}

/** A release line as a line of the report: verified only when every signer of its records is pinned. */
function releaseReport(raw: Uint8Array, line: number, trust: ReadonlySet<string>): ExportLineReport {
  const r = releaseLineReport(raw);
  const out: ExportLineReport = { line, ok: r.ok, capsule_sha256: r.capsule_sha256, candidate_sha256: r.candidate_sha256 };
  if (!r.ok) return { ...out, problem: `release: ${r.problem}` };
  out.release = { kind: r.kind!, index: r.index!, reviewers: r.reviewers };
  const unpinned = r.reviewers.filter((k) => !trust.has(k.fingerprint));
  if (unpinned.length > 0) {
    return { ...out, ok: false, unpinned: true, problem: `valid release signatures by ${unpinned.map((k) => `${k.fingerprint} (${k.name})`).join(", ")}, keys you have not pinned: compare the fingerprints out of band, then pass them with --trust` };
  }
  return out;
}

export interface CheckpointReport {
  ok: boolean;
  records?: number;
  head_sha256?: string;
  signer?: string;
  /** Whether the trust list holds the checkpoint's signer (false without a trust list). */
  pinned?: boolean;
  problem?: string;
}

export interface VerifyExportOptions {
  /** Pinned key fingerprints (`--trust`): reviewer keys and the exporting installation's key. */
  trust?: ReadonlySet<string>;
  /** The bytes of an older export of the same installation whose log the newer one must extend (`--after`). */
  after?: Uint8Array;
}

function splitLines(bytes: Uint8Array): { lines: Uint8Array[]; cut: boolean } {
  const lines: Uint8Array[] = [];
  let start = 0;
  while (start < bytes.length) {
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) return { lines, cut: true };
    lines.push(bytes.subarray(start, end));
    start = end + 1;
  }
  return { lines, cut: false };
}

function lastCheckpoint(lines: Uint8Array[]): Checkpoint | string {
  const last = lines[lines.length - 1];
  if (last === undefined) return "the export carries no signed checkpoint (an empty file, or not written by 'review export')";
  let v: JsonValue | undefined;
  try {
    v = parseStrictJson(last);
  } catch {
    v = undefined;
  }
  if (v === undefined || !isCheckpointValue(v)) return "the export carries no signed checkpoint as its last line (cut, or not written by 'review export')";
  return readCheckpoint(last);
}

/**
 * Checks an export file's bytes. Never throws for bad content. A line is `ok` (verified) only when everything
 * holds AND its signing key is pinned in `trust`; a valid signature by an unpinned key is reported as such
 * (`unpinned: true`) and is not verified. The signed checkpoint must be the last line, verify, be signed by a
 * pinned key, and place each decision at its position of the log; with `after`, the log must extend the older one.
 */
export function verifyExportBytes(bytes: Uint8Array, opts: VerifyExportOptions = {}): ExportReport {
  const trust = opts.trust ?? new Set<string>();
  const { lines: raw, cut } = splitLines(bytes);
  const cp = lastCheckpoint(raw);
  const body = typeof cp === "string" ? raw : raw.slice(0, -1);
  const lines: ExportLineReport[] = [];
  const seen = new Map<string, number>();
  const releaseLines: { at: number; report: ExportLineReport }[] = [];
  body.forEach((rawLine, i) => {
    const n = i + 1;
    if (isReleaseRaw(rawLine)) {
      releaseLines.push({ at: lines.length, report: releaseReport(rawLine, n, trust) });
      lines.push(releaseLines[releaseLines.length - 1].report);
      return;
    }
    const r = checkLine(rawLine, n);
    if (r.ok && r.candidate_sha256 !== undefined) {
      // Four-eyes exports carry one line per approving key; the same candidate and key twice is a duplicate.
      const key = `${r.candidate_sha256} ${r.reviewer!.fingerprint}`;
      const first = seen.get(key);
      if (first !== undefined) {
        lines.push({ ...r, ok: false, problem: `the same approved candidate as line ${first}` });
        return;
      }
      seen.set(key, n);
    }
    if (r.ok && typeof cp !== "string") {
      const d = recordDigest(r.record!);
      if (r.record!.seq > cp.records || cp.digests[r.record!.seq - 1] !== d) {
        lines.push({ ...r, ok: false, problem: `decision record #${r.record!.seq} is not the record at that position of the log the checkpoint describes` });
        return;
      }
    }
    if (r.ok && !trust.has(r.reviewer!.fingerprint)) {
      lines.push({
        ...r,
        ok: false,
        unpinned: true,
        problem: `valid signature by ${r.reviewer!.fingerprint} (${r.reviewer!.name}), a key you have not pinned: compare the fingerprint out of band, then pass it with --trust`,
      });
      return;
    }
    lines.push(r);
  });
  // A released value belongs to an approved candidate of the same export (a verified decision line).
  const approved = new Set(lines.filter((l) => l.release === undefined && (l.ok || l.unpinned === true)).map((l) => `${l.capsule_sha256} ${l.candidate_sha256}`));
  for (const { at, report } of releaseLines) {
    if (report.ok && !approved.has(`${report.capsule_sha256} ${report.candidate_sha256}`)) {
      lines[at] = { ...report, ok: false, unpinned: undefined, problem: "releases a value of a candidate that is not an approved candidate of this export" };
    }
  }
  if (cut) lines.push({ line: raw.length + 1, ok: false, problem: "incomplete last line (no final newline): the file was cut" });
  for (const l of lines) delete l.record;
  const keys = new Map<string, ExportKey>();
  for (const l of lines) {
    if (!l.ok && l.unpinned !== true) continue;
    for (const who of l.release?.reviewers ?? (l.reviewer === undefined ? [] : [l.reviewer])) {
      const k = keys.get(who.fingerprint) ?? { fingerprint: who.fingerprint, names: [], trusted: trust.has(who.fingerprint) };
      if (!k.names.includes(who.name)) k.names.push(who.name);
      keys.set(k.fingerprint, k);
    }
  }
  let checkpoint: CheckpointReport;
  if (typeof cp === "string") checkpoint = { ok: false, problem: cp };
  else {
    const pinned = trust.has(cp.signer.fingerprint);
    checkpoint = { ok: pinned, records: cp.records, head_sha256: cp.head_sha256, signer: cp.signer.fingerprint, pinned };
    if (!pinned) checkpoint.problem = `valid checkpoint signature by installation key ${cp.signer.fingerprint}, a key you have not pinned: compare it out of band ('keys show' on the exporting machine), then pass it with --trust`;
    if (opts.after !== undefined) {
      const older = lastCheckpoint(splitLines(opts.after).lines);
      const problem = typeof older === "string" ? `--after: the older export: ${older}` : extensionProblem(cp, older);
      if (problem !== undefined) checkpoint = { ...checkpoint, ok: false, problem: `--after: ${problem.replace(/^--after: /, "")}` };
    }
  }
  return { ok: checkpoint.ok && lines.every((l) => l.ok), lines, keys: [...keys.values()], checkpoint };
}
