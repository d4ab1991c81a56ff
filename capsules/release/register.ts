/**
 * Where releases are kept (issue 32 item 2):
 *
 *     <home>/review/releases.jsonl          the signed release records, one canonical record + LF each, append-only
 *     <home>/store/release-nonces.sealed    the nonces of the commitments, sealed with the store key
 *
 * The records carry no value and no unkeyed hash of one (record.ts): the file can be read by anyone who copies the
 * data directory and tells them which reviewer released which kind and position of which candidate, not what. The
 * nonces that open the commitments are sealed, `{"nonces":{"<candidate>/<kind>/<index>":"<64 hex>"},"schema_version":…}`
 * canonical JSON inside; one nonce per value, made at its first release and shared by the reviewers who release the
 * same value (so their records commit to the same bytes).
 *
 * Appends take the review log's lock (capsules/review/lock.ts), re-read the register, append one line with one write
 * and fsync. A register line that does not parse, is not canonical or whose signature does not verify is an error
 * naming the line: a damaged register is never appended to or exported from.
 */
import { closeSync, constants, fsyncSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { readRegularFileIfExists, SafeReadError } from "../../src/crypto/safe-read.js";
import { ensurePrivateDir, fsyncDir, replaceFile } from "../../src/crypto/safe-write.js";
import { seal, SealKind, unseal } from "../../src/crypto/seal.js";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { isJsonObject } from "../../src/json/value.js";
import { errno } from "../../src/errno.js";
import { reviewLayout } from "../review/layout.js";
import type { SealedStore } from "../store/store.js";
import { ReleaseError } from "./errors.js";
import { releaseBytes, releaseFromBytes, releaseSignatureProblem, ReleaseShapeError, type ReleaseRecord } from "./record.js";

export const RELEASES_NAME = "releases.jsonl";
const NONCES_NAME = "release-nonces.sealed";
const NONCES_LABEL = `store/${NONCES_NAME}`;
const NONCES_SCHEMA = "evidence-bridge-release-nonces/v1";
const MAX_BYTES = 64 * 1024 * 1024;
const HEX64 = /^[0-9a-f]{64}$/;
const SLOT = /^[0-9a-f]{64}\/[a-z]+\/\d{1,4}$/;

export function releasesPath(home: string): string {
  return join(reviewLayout(home).dir, RELEASES_NAME);
}

/** The slot of one value: candidate digest, kind, index. */
export function releaseSlot(r: Pick<ReleaseRecord, "candidate_sha256" | "kind" | "index">): string {
  return `${r.candidate_sha256}/${r.kind}/${r.index}`;
}

/** Every record of the register, verified (shape, canonical form, signature). Throws {@link ReleaseError}. */
export function readReleases(home: string): ReleaseRecord[] {
  const path = releasesPath(home);
  let bytes: Uint8Array | undefined;
  try {
    bytes = readRegularFileIfExists(path, { maxBytes: MAX_BYTES, label: `the release register ${path}` });
  } catch (e) {
    if (e instanceof SafeReadError) throw new ReleaseError("io", e.message);
    throw e;
  }
  if (bytes === undefined || bytes.length === 0) return [];
  const out: ReleaseRecord[] = [];
  let start = 0;
  let line = 0;
  while (start < bytes.length) {
    line++;
    const end = bytes.indexOf(0x0a, start);
    if (end === -1) throw new ReleaseError("broken-register", `the release register ${path} line ${line}: incomplete last line`);
    let r: ReleaseRecord;
    try {
      r = releaseFromBytes(bytes.subarray(start, end), `line ${line}`);
    } catch (e) {
      if (e instanceof ReleaseShapeError) throw new ReleaseError("broken-register", `the release register ${path}: ${e.message}`);
      throw e;
    }
    const sig = releaseSignatureProblem(r);
    if (sig !== undefined) throw new ReleaseError("broken-register", `the release register ${path} line ${line}: ${sig}`);
    out.push(r);
    start = end + 1;
  }
  return out;
}

/** Appends one record (the caller holds the review lock). */
export function appendRelease(home: string, r: ReleaseRecord): void {
  const dir = reviewLayout(home).dir;
  const path = releasesPath(home);
  const body = releaseBytes(r);
  const line = new Uint8Array(body.length + 1);
  line.set(body);
  line[body.length] = 0x0a;
  let fd: number;
  let created = false;
  try {
    ensurePrivateDir(dir);
    try {
      fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
    } catch (e) {
      if (errno(e) !== "ENOENT") throw e;
      fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      created = true;
    }
  } catch (e) {
    throw new ReleaseError("io", `cannot open the release register ${path}: ${errno(e) ?? (e as Error).message}`);
  }
  try {
    const n = writeSync(fd, line, 0, line.length);
    if (n !== line.length) throw new ReleaseError("io", `short write to the release register ${path}`);
    fsyncSync(fd);
  } catch (e) {
    if (e instanceof ReleaseError) throw e;
    throw new ReleaseError("io", `cannot append to the release register ${path}: ${errno(e) ?? (e as Error).message}`);
  } finally {
    closeSync(fd);
  }
  if (created) fsyncDir(dir);
}

/** The sealed nonces, by slot. Throws {@link ReleaseError} (or SealError for a file this store did not seal). */
export function readNonces(store: SealedStore): Map<string, string> {
  let file: Uint8Array | undefined;
  try {
    file = readRegularFileIfExists(join(store.layout.root, NONCES_NAME), { maxBytes: MAX_BYTES, label: NONCES_LABEL });
  } catch (e) {
    if (e instanceof SafeReadError) throw new ReleaseError("io", e.message);
    throw e;
  }
  if (file === undefined) return new Map();
  const plain = unseal(file, store.keys.store, SealKind.releaseNonces, NONCES_LABEL, NONCES_LABEL);
  const bad = (rule: string) => new ReleaseError("broken-register", `${NONCES_LABEL}: ${rule}`);
  let v;
  try {
    v = parseStrictJson(plain);
  } catch {
    throw bad("not strict JSON");
  }
  if (!isJsonObject(v) || [...v.keys()].sort().join(",") !== "nonces,schema_version" || v.get("schema_version") !== NONCES_SCHEMA) throw bad(`expected {nonces, schema_version: ${NONCES_SCHEMA}}`);
  const nonces = v.get("nonces");
  if (!isJsonObject(nonces)) throw bad("nonces: expected an object");
  const out = new Map<string, string>();
  for (const [slot, nonce] of nonces) {
    if (!SLOT.test(slot) || typeof nonce !== "string" || !HEX64.test(nonce)) throw bad("nonces: an entry is not <candidate>/<kind>/<index>: <64 hex>");
    out.set(slot, nonce);
  }
  return out;
}

/** The nonce of `slot`, made (32 random bytes) and sealed now when it has none. The caller holds the review lock. */
export function nonceFor(store: SealedStore, slot: string): string {
  const nonces = readNonces(store);
  const kept = nonces.get(slot);
  if (kept !== undefined) return kept;
  const nonce = randomBytes(32).toString("hex");
  nonces.set(slot, nonce);
  const plain = canonicalBytes({ nonces: Object.fromEntries([...nonces].sort(([a], [b]) => (a < b ? -1 : 1))), schema_version: NONCES_SCHEMA }, "release nonces");
  try {
    ensurePrivateDir(store.layout.root);
    replaceFile(store.layout.root, NONCES_NAME, seal(plain, store.keys.store, SealKind.releaseNonces, NONCES_LABEL));
  } catch (e) {
    throw new ReleaseError("io", `cannot write ${NONCES_LABEL}: ${(e as Error).message}`);
  }
  return nonce;
}
