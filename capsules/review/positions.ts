/**
 * Rollback detection against the reviewers' remembered positions (issue 29 item 4). Each reviewer key remembers the
 * last record it signed: `keys/reviewers/<fingerprint hex>.position` beside the key file (older stores:
 * `<name>.position`, read too and replaced at that reviewer's next append),
 *
 *     {"fingerprint":"ed25519:…","format":"evidence-bridge-reviewer-position/v1","public_key":…,"record_sha256":…,
 *      "seq":n,"signature":…}
 *
 * (canonical JSON + LF, mode 0600), signed by that reviewer key over `POSITION_DOMAIN` + the canonical bytes without
 * `signature`, rewritten after each append by that reviewer. Verification fails when
 *
 * - the log is shorter than, or holds another record at, any registered reviewer's remembered position (a `review/`
 *   directory restored from an earlier copy, or a rewritten history);
 * - a reviewer who signed a record of the log has no position at all: deleting the position file does not switch
 *   the check off;
 * - a reviewer key created on this machine (registry origin `created`, key file `<fingerprint hex>.key` present) has
 *   no position: `keys init --reviewer` writes an enrolment position (`seq` 0, `record_sha256` 64 zeros) signed by
 *   the new key, so a reviewer whose every record a rollback dropped cannot hide by deleting the file either. Key
 *   files of older stores get their enrolment when they are renamed to their fingerprint (reviewer-key.ts).
 *
 * In each case the refusal names the reviewer and `review reestablish-position`, the one command that writes a
 * position again without an append: a v2 position signed by the reviewer key of whoever ran it, naming that reviewer
 * and why (a closed list), also appended to `keys/reviewers/reestablished.jsonl`, which `review log --verify` lists.
 *
 *     {"fingerprint":…,"format":"evidence-bridge-reviewer-position/v2","public_key":…,"reestablished":{"at":…,
 *      "by":{"fingerprint":…,"name":…,"public_key":…},"why":"file-lost"},"record_sha256":…,"seq":n,"signature":…}
 *
 * A position is written after the record is appended, so a crash in between leaves a position that lags (harmless:
 * a lower bound) or, after a reviewer's first record, none (then the log refuses until it is re-established).
 */
import { closeSync, constants, fsyncSync, openSync, readdirSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { bytesToHex, hexToBytes } from "../../src/hash.js";
import { isJsonObject, type JsonObject } from "../../src/json/value.js";
import { readRegularFile, readRegularFileIfExists, SafeReadError } from "../../src/crypto/safe-read.js";
import { ensurePrivateDir, fsyncDir, replaceFile } from "../../src/crypto/safe-write.js";
import { signingKeyFingerprint, verifySignature, type SigningKey } from "../../src/crypto/sign.js";
import { isDecisionTime } from "./record.js";
import type { ReviewerRegistry } from "./reviewer-registry.js";
import type { LoggedRecord } from "./state.js";

export const POSITION_FORMAT = "evidence-bridge-reviewer-position/v1";
export const REESTABLISHED_POSITION_FORMAT = "evidence-bridge-reviewer-position/v2";
export const POSITION_DOMAIN = "evidence-bridge reviewer position v1\u0000";
export const REESTABLISHED_DOMAIN = "evidence-bridge reviewer position v2\u0000";
/** Why a position was re-established (`review reestablish-position --why`). */
export const REESTABLISH_REASONS = ["interrupted-append", "file-lost", "log-restored"] as const;
export type ReestablishReason = (typeof REESTABLISH_REASONS)[number];
export const REESTABLISHED_LOG = "reestablished.jsonl";
const SUFFIX = ".position";
const MAX_BYTES = 4096;
const HISTORY_MAX_BYTES = 16 * 1024 * 1024;
const HEX64 = /^[0-9a-f]{64}$/;
const HEX128 = /^[0-9a-f]{128}$/;

interface Position {
  fingerprint: string;
  public_key: string;
  seq: number;
  record_sha256: string;
}

/** Who re-established a position, when and why (a v2 position; signed by `by`'s key). */
export interface Reestablishment {
  by: { name: string; fingerprint: string; public_key: string };
  why: ReestablishReason;
  at: string;
}

interface ReadPosition extends Position {
  reestablished?: Reestablishment;
}

function withDomain(domain: string, body: Uint8Array): Uint8Array {
  const d = new TextEncoder().encode(domain);
  const out = new Uint8Array(d.length + body.length);
  out.set(d);
  out.set(body, d.length);
  return out;
}

function unsignedDoc(p: ReadPosition): Record<string, unknown> {
  const base = { fingerprint: p.fingerprint, public_key: p.public_key, seq: p.seq, record_sha256: p.record_sha256 };
  if (p.reestablished === undefined) return { format: POSITION_FORMAT, ...base };
  const r = p.reestablished;
  return { format: REESTABLISHED_POSITION_FORMAT, ...base, reestablished: { at: r.at, by: { ...r.by }, why: r.why } };
}

function message(p: ReadPosition): Uint8Array {
  return withDomain(p.reestablished === undefined ? POSITION_DOMAIN : REESTABLISHED_DOMAIN, canonicalBytes(unsignedDoc(p), "position"));
}

/** The position file of a key: named by its fingerprint, never by the reviewer's name. */
export function positionFileName(fingerprint: string): string {
  return `${fingerprint.replace(/^ed25519:/, "")}${SUFFIX}`;
}

function writeSigned(dir: string, p: ReadPosition, signer: SigningKey): Uint8Array {
  const body = canonicalBytes({ ...unsignedDoc(p), signature: bytesToHex(signer.sign(message(p))) }, "position");
  const line = new Uint8Array([...body, 0x0a]);
  ensurePrivateDir(dir);
  replaceFile(dir, positionFileName(p.fingerprint), line);
  removeOtherFilesOf(dir, p.fingerprint);
  return line;
}

/** The enrolment position of a new reviewer key: it has signed nothing yet (`seq` 0). Kept if a position exists. */
export function writeEnrolment(dir: string, key: SigningKey): void {
  const existing = positionFiles(dir).some((n) => {
    const p = readPosition(join(dir, n), n);
    return typeof p !== "string" && p.fingerprint === key.fingerprint;
  });
  if (!existing) writeSigned(dir, { fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey), seq: 0, record_sha256: "0".repeat(64) }, key);
}

/** Records that the reviewer key `key` signed `entry`, in `dir` (keys/reviewers). */
export function writePosition(dir: string, key: SigningKey, entry: LoggedRecord): void {
  writeSigned(dir, { fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey), seq: entry.record.seq, record_sha256: entry.digest }, key);
}

/**
 * Writes the position of the reviewer who signed `entry` (their last record of the verified log) again, signed by
 * `actor` (a registered reviewer key: who did it), with `why`; appends the same line to the history file.
 */
export function reestablishPosition(
  dir: string,
  target: { entry: LoggedRecord } | { enrolment: { fingerprint: string; public_key: string } },
  actor: { name: string; key: SigningKey },
  why: ReestablishReason,
  at: string,
): void {
  const who = "entry" in target ? target.entry.record.reviewer : target.enrolment;
  const p: ReadPosition = {
    fingerprint: who.fingerprint,
    public_key: who.public_key,
    seq: "entry" in target ? target.entry.record.seq : 0,
    record_sha256: "entry" in target ? target.entry.digest : "0".repeat(64),
    reestablished: { by: { name: actor.name, fingerprint: actor.key.fingerprint, public_key: bytesToHex(actor.key.publicKey) }, why, at },
  };
  const line = writeSigned(dir, p, actor.key);
  appendHistory(join(dir, REESTABLISHED_LOG), line);
}

function appendHistory(path: string, line: Uint8Array): void {
  const fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NOFOLLOW, 0o600);
  try {
    if (writeSync(fd, line, 0, line.length) !== line.length) throw new Error(`short write to ${path}`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Removes position files of `fingerprint` other than its fingerprint-named one (the name-named files of old stores). */
function removeOtherFilesOf(dir: string, fingerprint: string): void {
  const keep = positionFileName(fingerprint);
  let removed = false;
  for (const n of positionFiles(dir)) {
    if (n === keep) continue;
    const p = readPosition(join(dir, n), `keys/reviewers/${n}`);
    if (typeof p !== "string" && p.fingerprint === fingerprint) {
      unlinkSync(join(dir, n));
      removed = true;
    }
  }
  if (removed) fsyncDir(dir);
}

function positionFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(SUFFIX))
      .sort();
  } catch {
    return [];
  }
}

function parseReestablished(v: unknown): Reestablishment | string {
  if (!isJsonObject(v) || [...v.keys()].sort().join(",") !== "at,by,why") return "reestablished: expected exactly at, by and why";
  const by = v.get("by");
  const at = v.get("at");
  const why = v.get("why");
  if (typeof at !== "string" || !isDecisionTime(at)) return "reestablished.at: expected a UTC time in whole seconds";
  if (!(REESTABLISH_REASONS as readonly unknown[]).includes(why)) return `reestablished.why: expected one of ${REESTABLISH_REASONS.join(", ")}`;
  if (!isJsonObject(by) || [...by.keys()].sort().join(",") !== "fingerprint,name,public_key") return "reestablished.by: expected exactly fingerprint, name and public_key";
  const [fp, name, pub] = ["fingerprint", "name", "public_key"].map((k) => by.get(k));
  if (typeof pub !== "string" || !HEX64.test(pub) || fp !== signingKeyFingerprint(hexToBytes(pub))) return "reestablished.by: fingerprint does not belong to public_key";
  if (typeof name !== "string" || name.length === 0 || name.length > 256) return "reestablished.by.name: expected a name";
  return { by: { name, fingerprint: fp, public_key: pub }, why: why as ReestablishReason, at };
}

function positionFromDoc(doc: JsonObject, label: string): ReadPosition | string {
  const format = doc.get("format");
  const v2 = format === REESTABLISHED_POSITION_FORMAT;
  const members = v2 ? "fingerprint,format,public_key,record_sha256,reestablished,seq,signature" : "fingerprint,format,public_key,record_sha256,seq,signature";
  if ((format !== POSITION_FORMAT && !v2) || [...doc.keys()].sort().join(",") !== members) return `${label} is not a v1 or v2 position file`;
  const [fingerprint, publicKey, seq, digest, signature] = ["fingerprint", "public_key", "seq", "record_sha256", "signature"].map((k) => doc.get(k));
  if (typeof publicKey !== "string" || !HEX64.test(publicKey) || fingerprint !== signingKeyFingerprint(hexToBytes(publicKey))) {
    return `${label}: fingerprint does not belong to public_key`;
  }
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 0) return `${label}: seq: expected an integer >= 0`;
  if (typeof digest !== "string" || !HEX64.test(digest)) return `${label}: record_sha256: expected 64 lowercase hexadecimal digits`;
  if (seq === 0 && digest !== "0".repeat(64)) return `${label}: an enrolment (seq 0) names no record: record_sha256 must be 64 zeros`;
  const p: ReadPosition = { fingerprint, public_key: publicKey, seq, record_sha256: digest };
  if (v2) {
    const r = parseReestablished(doc.get("reestablished"));
    if (typeof r === "string") return `${label}: ${r}`;
    p.reestablished = r;
  }
  const signer = p.reestablished?.by.public_key ?? publicKey;
  if (typeof signature !== "string" || !HEX128.test(signature) || !verifySignature(hexToBytes(signer), message(p), hexToBytes(signature))) {
    return `${label}: the signature does not verify (the file was changed)`;
  }
  return p;
}

function readPosition(path: string, label: string): ReadPosition | string {
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(path, { maxBytes: MAX_BYTES, label });
  } catch (e) {
    return e instanceof SafeReadError ? e.message : `${label} cannot be read`;
  }
  let doc;
  try {
    doc = parseStrictJson(bytes);
  } catch {
    return `${label} is not strict JSON`;
  }
  if (!isJsonObject(doc)) return `${label} is not a v1 or v2 position file`;
  return positionFromDoc(doc, label);
}

export interface PositionCheck {
  /** The first problem, naming the reviewer and what to do. */
  problem?: string;
  /** Every re-establishment in the history file, one line each (or why the history cannot be read). */
  notices: string[];
}

/** The command the refusal names (docs/review.md). */
export function reestablishCommand(name: string): string {
  return `evidence-bridge review reestablish-position ${JSON.stringify(name)} --why ${REESTABLISH_REASONS.join("|")}`;
}

/**
 * The first problem between the verified records and the remembered positions in `dir`, and the re-establishment
 * history. Positions of keys outside the registry are ignored (they prove nothing about this store); a damaged
 * position file of a registered key is a problem, and so is a signer of the log without any position.
 */
export function checkPositions(dir: string, records: readonly LoggedRecord[], registry: ReviewerRegistry): PositionCheck {
  const notices = history(dir);
  const found = new Set<string>();
  const enrolled = new Set<string>();
  for (const n of positionFiles(dir)) {
    const label = `keys/reviewers/${n}`;
    const p = readPosition(join(dir, n), label);
    if (typeof p === "string") return { problem: `reviewer position ${p}`, notices };
    const who = registry.get(p.fingerprint);
    if (who === undefined) continue;
    if (p.reestablished !== undefined && !registry.isKnown(p.reestablished.by.fingerprint)) {
      return { problem: `${label} was re-established by ${p.reestablished.by.fingerprint}, which is not a registered reviewer of this store`, notices };
    }
    if (p.seq === 0) {
      enrolled.add(p.fingerprint);
      continue;
    }
    if (records.length < p.seq) {
      return {
        problem: `the log ends after record #${records.length}, but reviewer ${who.name} (${p.fingerprint}) signed record #${p.seq} (${label}): the log was rolled back or records were removed`,
        notices,
      };
    }
    if (records[p.seq - 1].digest !== p.record_sha256) {
      return { problem: `record #${p.seq} is not the record reviewer ${who.name} (${p.fingerprint}) signed at that position (${label}): the log was rolled back and rewritten, or forked`, notices };
    }
    found.add(p.fingerprint);
  }
  // A reviewer who signed a record of this log must have a position: deleting it must not switch the check off.
  const last = new Map<string, LoggedRecord>();
  for (const e of records) last.set(e.record.reviewer.fingerprint, e);
  for (const [fp, e] of last) {
    if (found.has(fp)) continue;
    const name = registry.get(fp)?.name ?? e.record.reviewer.name;
    return {
      problem:
        `reviewer ${name} (${fp}) signed record #${e.record.seq} of this log but has no position record (keys/reviewers/${positionFileName(fp)} is missing): ` +
        `a position file was deleted, or review/ was restored from an earlier copy, so a rollback cannot be ruled out; once you know why, re-establish it with '${reestablishCommand(name)}' (signed with your reviewer key, naming you and why)`,
      notices,
    };
  }
  // A reviewer key created here must have a position even when the log holds none of its records (any more).
  const local = new Set(
    listNames(dir)
      .filter((n) => /^[0-9a-f]{64}\.key$/.test(n))
      .map((n) => `ed25519:${n.slice(0, 64)}`),
  );
  for (const r of registry.reviewers) {
    if (r.origin !== "created" || !local.has(r.fingerprint) || found.has(r.fingerprint) || enrolled.has(r.fingerprint)) continue;
    return {
      problem:
        `reviewer ${r.name} (${r.fingerprint}) was created on this machine but has no position record (keys/reviewers/${positionFileName(r.fingerprint)} is missing): ` +
        `a position file was deleted, and review/ may have been rolled back past every decision of ${r.name}; once you know why, re-establish it with '${reestablishCommand(r.name)}' (signed with your reviewer key, naming you and why)`,
      notices,
    };
  }
  return { notices };
}

function listNames(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** The re-establishments recorded in `dir`'s history file, each verified, one line each. */
function history(dir: string): string[] {
  const path = join(dir, REESTABLISHED_LOG);
  let bytes: Uint8Array | undefined;
  try {
    bytes = readRegularFileIfExists(path, { maxBytes: HISTORY_MAX_BYTES, label: `keys/reviewers/${REESTABLISHED_LOG}` });
  } catch (e) {
    return [`keys/reviewers/${REESTABLISHED_LOG} cannot be read: ${(e as Error).message}`];
  }
  if (bytes === undefined) return [];
  const out: string[] = [];
  const text = new TextDecoder().decode(bytes);
  text
    .split("\n")
    .filter((l) => l !== "")
    .forEach((line, i) => {
      let doc;
      try {
        doc = parseStrictJson(new TextEncoder().encode(line));
      } catch {
        doc = undefined;
      }
      const p = isJsonObject(doc) ? positionFromDoc(doc, `keys/reviewers/${REESTABLISHED_LOG} line ${i + 1}`) : `keys/reviewers/${REESTABLISHED_LOG} line ${i + 1} is not strict JSON`;
      if (typeof p === "string" || p.reestablished === undefined) out.push(typeof p === "string" ? p : `keys/reviewers/${REESTABLISHED_LOG} line ${i + 1} is not a re-establishment`);
      else out.push(`the position of ${p.fingerprint} was re-established at ${p.seq === 0 ? "enrolment (no record)" : `record #${p.seq}`} by ${p.reestablished.by.name} (${p.reestablished.by.fingerprint}) at ${p.reestablished.at}: ${p.reestablished.why}`);
    });
  return out;
}
