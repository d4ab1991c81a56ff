/**
 * Each local reviewer key remembers the last record it signed: `keys/reviewers/<name>.position` beside the key file,
 *
 *     {"fingerprint":"ed25519:…","format":"evidence-bridge-reviewer-position/v1","public_key":…,"record_sha256":…,
 *      "seq":n,"signature":…}
 *
 * (canonical JSON + LF, mode 0600), signed by that reviewer key over `POSITION_DOMAIN` + the canonical bytes without
 * `signature`, rewritten after each append by that reviewer. Verification fails when the log is shorter than, or
 * holds another record at, any registered reviewer's remembered position: a `review/` directory restored from an
 * earlier copy (a rollback that drops a later decision) or a rewritten history (a fork) is caught, as long as the
 * `keys/` directory was not rolled back with it.
 *
 * A position is written after the record is appended, so a crash in between leaves a position that lags (harmless:
 * it is a lower bound), never one ahead of the log.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { bytesToHex, hexToBytes } from "../../src/hash.js";
import { isJsonObject } from "../../src/json/value.js";
import { readRegularFile, SafeReadError } from "../../src/crypto/safe-read.js";
import { ensurePrivateDir, replaceFile } from "../../src/crypto/safe-write.js";
import { signingKeyFingerprint, verifySignature, type SigningKey } from "../../src/crypto/sign.js";
import type { ReviewerRegistry } from "./reviewer-registry.js";
import type { LoggedRecord } from "./state.js";

export const POSITION_FORMAT = "evidence-bridge-reviewer-position/v1";
export const POSITION_DOMAIN = "evidence-bridge reviewer position v1\u0000";
const SUFFIX = ".position";
const MAX_BYTES = 4096;
const MEMBERS = "fingerprint,format,public_key,record_sha256,seq,signature";

interface Position {
  fingerprint: string;
  public_key: string;
  seq: number;
  record_sha256: string;
}

function message(p: Position): Uint8Array {
  const body = canonicalBytes({ format: POSITION_FORMAT, fingerprint: p.fingerprint, public_key: p.public_key, seq: p.seq, record_sha256: p.record_sha256 }, "position");
  const domain = new TextEncoder().encode(POSITION_DOMAIN);
  const out = new Uint8Array(domain.length + body.length);
  out.set(domain);
  out.set(body, domain.length);
  return out;
}

/** Records that reviewer `name` (key `key`) signed `entry`, in `dir` (keys/reviewers). */
export function writePosition(dir: string, name: string, key: SigningKey, entry: LoggedRecord): void {
  const p: Position = { fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey), seq: entry.record.seq, record_sha256: entry.digest };
  const body = canonicalBytes({ format: POSITION_FORMAT, ...p, signature: bytesToHex(key.sign(message(p))) }, "position");
  ensurePrivateDir(dir);
  replaceFile(dir, `${name}${SUFFIX}`, new Uint8Array([...body, 0x0a]));
}

function readPosition(path: string, label: string): Position | string {
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
  if (!isJsonObject(doc) || [...doc.keys()].sort().join(",") !== MEMBERS || doc.get("format") !== POSITION_FORMAT) {
    return `${label} is not a v1 position file`;
  }
  const [fingerprint, publicKey, seq, digest, signature] = ["fingerprint", "public_key", "seq", "record_sha256", "signature"].map((k) => doc.get(k));
  if (typeof publicKey !== "string" || !/^[0-9a-f]{64}$/.test(publicKey) || fingerprint !== signingKeyFingerprint(hexToBytes(publicKey))) {
    return `${label}: fingerprint does not belong to public_key`;
  }
  if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 1) return `${label}: seq: expected an integer >= 1`;
  if (typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest)) return `${label}: record_sha256: expected 64 lowercase hexadecimal digits`;
  const p: Position = { fingerprint, public_key: publicKey, seq, record_sha256: digest };
  if (typeof signature !== "string" || !/^[0-9a-f]{128}$/.test(signature) || !verifySignature(hexToBytes(publicKey), message(p), hexToBytes(signature))) {
    return `${label}: the signature does not verify (the file was changed)`;
  }
  return p;
}

/**
 * The first problem between the verified records and the remembered positions in `dir`, or undefined. Positions
 * of keys outside the registry are ignored (they prove nothing about this store); a damaged position file of a
 * registered key is a problem.
 */
export function positionProblem(dir: string, records: readonly LoggedRecord[], registry: ReviewerRegistry): string | undefined {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(SUFFIX)).sort();
  } catch {
    return undefined;
  }
  for (const n of names) {
    const label = `keys/reviewers/${n}`;
    const p = readPosition(join(dir, n), label);
    if (typeof p === "string") return `reviewer position ${p}`;
    const who = registry.get(p.fingerprint);
    if (who === undefined) continue;
    if (records.length < p.seq) {
      return `the log ends after record #${records.length}, but reviewer ${who.name} (${p.fingerprint}) signed record #${p.seq} (${label}): the log was rolled back or records were removed`;
    }
    if (records[p.seq - 1].digest !== p.record_sha256) {
      return `record #${p.seq} is not the record reviewer ${who.name} (${p.fingerprint}) signed at that position (${label}): the log was rolled back and rewritten, or forked`;
    }
  }
  return undefined;
}
