/**
 * The signed checkpoint every review export ends with: the number of records of the log it was exported from,
 * the digest of every record in order (so the last one is the head: the log head the export was made at), and the
 * log's vetoes (each rejection of a candidate digest an earlier record approved: its record number, capsule and
 * candidate digest), signed by the installation signing key.
 *
 *     {"checkpoint":{"digests":[…],"head_sha256":…,"records":n,"vetoes":[{"candidate_sha256":…,"capsule_sha256":…,
 *      "seq":m},…]},"schema_version":"evidence-bridge-review-checkpoint/v2","signature":…,
 *      "signer":{"fingerprint":"ed25519:…","public_key":…}}
 *
 * Exports written before vetoes carry a v1 checkpoint (no `vetoes` member; domain `…checkpoint v1\0`): still read,
 * with no vetoes (so nothing can be said about later vetoes from them).
 *
 * canonical JSON + LF, the last line of the export. The signature is Ed25519 over `CHECKPOINT_DOMAIN` + the
 * canonical bytes of the line without `signature`. A recipient can then check that each exported decision is the
 * record at its position in that log (its digest is `digests[seq - 1]`) and, given an older export from the same
 * installation, that the newer log extends the older one (`review verify-export NEW --after OLDER`): a log rolled
 * back or rewritten between two exports no longer holds the older head at the older length. Record digests are
 * SHA-256 values of signed records; they reveal nothing of the records' contents.
 */
import { canonicalBytes } from "../../src/json/canonical.js";
import { parseStrictJson } from "../../src/json/parse.js";
import { bytesToHex, hexToBytes } from "../../src/hash.js";
import { isJsonObject, type JsonValue } from "../../src/json/value.js";
import { signingKeyFingerprint, verifySignature, type SigningKey } from "../../src/crypto/sign.js";
import { GENESIS_PREV } from "./record.js";

export const CHECKPOINT_SCHEMA = "evidence-bridge-review-checkpoint/v2";
export const CHECKPOINT_SCHEMA_V1 = "evidence-bridge-review-checkpoint/v1";
export const CHECKPOINT_DOMAIN = "evidence-bridge review checkpoint v2\u0000";
const CHECKPOINT_DOMAIN_V1 = "evidence-bridge review checkpoint v1\u0000";

/** A rejection (record `seq`) of a candidate digest that an earlier record of the log approved. */
export interface Veto {
  seq: number;
  capsule_sha256: string;
  candidate_sha256: string;
}

export interface Checkpoint {
  /** 1 for exports written before vetoes, 2 since. */
  version: 1 | 2;
  records: number;
  head_sha256: string;
  digests: string[];
  /** Empty in a v1 checkpoint. */
  vetoes: Veto[];
  /** The installation signing key that signed it. */
  signer: { fingerprint: string; public_key: string };
}

function unsignedDoc(c: Checkpoint): Record<string, unknown> {
  const body: Record<string, unknown> = { records: c.records, head_sha256: c.head_sha256, digests: c.digests };
  if (c.version === 2) body.vetoes = c.vetoes.map((v) => ({ seq: v.seq, capsule_sha256: v.capsule_sha256, candidate_sha256: v.candidate_sha256 }));
  return {
    schema_version: c.version === 2 ? CHECKPOINT_SCHEMA : CHECKPOINT_SCHEMA_V1,
    checkpoint: body,
    signer: { fingerprint: c.signer.fingerprint, public_key: c.signer.public_key },
  };
}

function message(c: Checkpoint): Uint8Array {
  const body = canonicalBytes(unsignedDoc(c), "checkpoint");
  const domain = new TextEncoder().encode(c.version === 2 ? CHECKPOINT_DOMAIN : CHECKPOINT_DOMAIN_V1);
  const out = new Uint8Array(domain.length + body.length);
  out.set(domain);
  out.set(body, domain.length);
  return out;
}

/** The checkpoint line (with its LF) for a log whose record digests are `digests` and vetoes `vetoes`, signed by `key`. */
export function checkpointLine(digests: readonly string[], vetoes: readonly Veto[], key: SigningKey): Uint8Array {
  const c: Checkpoint = {
    version: 2,
    vetoes: vetoes.map((v) => ({ ...v })),
    records: digests.length,
    head_sha256: digests.length === 0 ? GENESIS_PREV : digests[digests.length - 1],
    digests: [...digests],
    signer: { fingerprint: key.fingerprint, public_key: bytesToHex(key.publicKey) },
  };
  const body = canonicalBytes({ ...unsignedDoc(c), signature: bytesToHex(key.sign(message(c))) }, "checkpoint");
  return new Uint8Array([...body, 0x0a]);
}

/** True when a parsed line claims to be a checkpoint (its schema_version says so). */
export function isCheckpointValue(v: JsonValue): boolean {
  return isJsonObject(v) && (v.get("schema_version") === CHECKPOINT_SCHEMA || v.get("schema_version") === CHECKPOINT_SCHEMA_V1);
}

/** Parses and verifies a checkpoint line (without LF); returns the checkpoint or the problem. */
export function readCheckpoint(raw: Uint8Array): Checkpoint | string {
  let v: JsonValue;
  try {
    v = parseStrictJson(raw, { rootPath: "checkpoint" });
  } catch {
    return "checkpoint: not strict JSON";
  }
  if (!isJsonObject(v) || [...v.keys()].sort().join(",") !== "checkpoint,schema_version,signature,signer") {
    return "checkpoint: expected exactly checkpoint, schema_version, signature and signer";
  }
  const schema = v.get("schema_version");
  if (schema !== CHECKPOINT_SCHEMA && schema !== CHECKPOINT_SCHEMA_V1) return `checkpoint.schema_version: expected "${CHECKPOINT_SCHEMA}"`;
  const version = schema === CHECKPOINT_SCHEMA ? 2 : 1;
  const body = v.get("checkpoint");
  const signer = v.get("signer");
  const signature = v.get("signature");
  const bodyMembers = version === 2 ? "digests,head_sha256,records,vetoes" : "digests,head_sha256,records";
  if (!isJsonObject(body) || [...body.keys()].sort().join(",") !== bodyMembers) {
    return `checkpoint.checkpoint: expected exactly ${version === 2 ? "digests, head_sha256, records and vetoes" : "digests, head_sha256 and records"}`;
  }
  if (!isJsonObject(signer) || [...signer.keys()].sort().join(",") !== "fingerprint,public_key") return "checkpoint.signer: expected exactly fingerprint and public_key";
  const records = body.get("records");
  const head = body.get("head_sha256");
  const digests = body.get("digests");
  if (typeof records !== "number" || !Number.isSafeInteger(records) || records < 0) return "checkpoint.records: expected an integer >= 0";
  if (!Array.isArray(digests) || digests.length !== records || !digests.every((d) => typeof d === "string" && /^[0-9a-f]{64}$/.test(d))) {
    return "checkpoint.digests: expected one digest (64 lowercase hexadecimal digits) per record";
  }
  const expectedHead = records === 0 ? GENESIS_PREV : (digests[records - 1] as string);
  if (head !== expectedHead) return "checkpoint.head_sha256: is not the digest of the last record";
  const pub = signer.get("public_key");
  const fp = signer.get("fingerprint");
  if (typeof pub !== "string" || !/^[0-9a-f]{64}$/.test(pub) || fp !== signingKeyFingerprint(hexToBytes(pub))) return "checkpoint.signer: fingerprint does not belong to public_key";
  const vetoes = version === 2 ? readVetoes(body.get("vetoes"), records) : [];
  if (typeof vetoes === "string") return vetoes;
  const c: Checkpoint = { version, records, head_sha256: head, digests: digests as string[], vetoes, signer: { fingerprint: fp, public_key: pub } };
  if (typeof signature !== "string" || !/^[0-9a-f]{128}$/.test(signature)) return "checkpoint.signature: expected 128 lowercase hexadecimal digits";
  if (!Buffer.from(canonicalBytes(v, "checkpoint")).equals(Buffer.from(raw))) return "checkpoint: not in canonical form (the line was edited)";
  if (!verifySignature(hexToBytes(pub), message(c), hexToBytes(signature))) return "checkpoint: the signature does not verify (the checkpoint was changed)";
  return c;
}

const HEX64 = /^[0-9a-f]{64}$/;

function readVetoes(v: JsonValue | undefined, records: number): Veto[] | string {
  if (!Array.isArray(v)) return "checkpoint.vetoes: expected an array";
  const out: Veto[] = [];
  for (const [i, x] of v.entries()) {
    const at = `checkpoint.vetoes[${i}]`;
    if (!isJsonObject(x) || [...x.keys()].sort().join(",") !== "candidate_sha256,capsule_sha256,seq") return `${at}: expected exactly candidate_sha256, capsule_sha256 and seq`;
    const seq = x.get("seq");
    const capsule = x.get("capsule_sha256");
    const candidate = x.get("candidate_sha256");
    if (typeof seq !== "number" || !Number.isSafeInteger(seq) || seq < 2 || seq > records) return `${at}.seq: expected a record of the checkpointed log after the first`;
    if (out.length > 0 && out[out.length - 1].seq >= seq) return `${at}.seq: vetoes must be in log order, each once`;
    if (typeof capsule !== "string" || !HEX64.test(capsule) || typeof candidate !== "string" || !HEX64.test(candidate)) {
      return `${at}: capsule_sha256 and candidate_sha256: expected 64 lowercase hexadecimal digits`;
    }
    out.push({ seq, capsule_sha256: capsule, candidate_sha256: candidate });
  }
  return out;
}

/** Why the log of `newer` does not extend the log of `older` (both verified), or undefined. */
export function extensionProblem(newer: Checkpoint, older: Checkpoint): string | undefined {
  if (newer.signer.fingerprint !== older.signer.fingerprint) {
    return `the exports were signed by different installations (${older.signer.fingerprint} and ${newer.signer.fingerprint})`;
  }
  if (newer.records < older.records) {
    return `the newer export's log has ${newer.records} records, the older one's ${older.records}: the log was rolled back`;
  }
  for (let i = 0; i < older.records; i++) {
    if (newer.digests[i] !== older.digests[i]) {
      return `record #${i + 1} differs between the two exports' logs: the log was rolled back and rewritten, or forked`;
    }
  }
  return undefined;
}
