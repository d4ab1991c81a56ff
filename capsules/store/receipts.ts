/**
 * Detached receipts (product.md §7): an Ed25519 signature by the installation's signing key over a capsule's
 * `content_sha256`, kept beside the sealed capsule as `<id>.receipt` and never inside `attestations` (a v1
 * verifier must still accept the capsule). A receipt states "this installation stored exactly this content";
 * it does not authenticate who produced the capsule.
 *
 * Signed message: the UTF-8 bytes of `evidence-bridge-receipt/v1:<content_sha256>` (the prefix separates
 * receipts from anything else the key might sign). File: canonical JSON + LF,
 * `{"content_sha256","format","public_key","signature"}` with lowercase hex key and signature. Deterministic:
 * the same key and id always give the same bytes.
 */
import { join } from "node:path";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { canonicalBytes } from "../../src/json/canonical.js";
import { readInstallationPublicKey } from "../../src/crypto/keys.js";
import { signingKeyFingerprint, verifySignature, type SigningKey } from "../../src/crypto/sign.js";
import { CAPSULE_ID, RECEIPT_SUFFIX, SEALED_SUFFIX, storeLayout } from "./layout.js";
import { existsSync } from "node:fs";
import { readRegularFile, SafeReadError } from "../../src/crypto/safe-read.js";

export const RECEIPT_FORMAT = "evidence-bridge-receipt/v1";
export const RECEIPT_MAX_BYTES = 4096;
const encoder = new TextEncoder();

export function receiptMessage(contentSha256: string): Uint8Array {
  return encoder.encode(`${RECEIPT_FORMAT}:${contentSha256}`);
}

/** The receipt file bytes for `contentSha256` signed by `signing`. */
export function makeReceipt(contentSha256: string, signing: SigningKey): Uint8Array {
  const doc = {
    format: RECEIPT_FORMAT,
    content_sha256: contentSha256,
    public_key: bytesToHex(signing.publicKey),
    signature: bytesToHex(signing.sign(receiptMessage(contentSha256))),
  };
  const body = canonicalBytes(doc, "receipt");
  const out = new Uint8Array(body.length + 1);
  out.set(body);
  out[body.length] = 0x0a;
  return out;
}

export interface ReceiptCheck {
  /**
   * `valid`: signed by this installation's key over this id; `invalid`: present but wrong (see `reason`);
   * `missing`: no receipt file; `unavailable`: no store or keys to check against (see `reason`).
   */
  status: "valid" | "invalid" | "missing" | "unavailable";
  /** Whether a sealed capsule with this id is in the store. */
  stored: boolean;
  /** Fingerprint of the installation key that signed it (valid receipts only). */
  signer?: string;
  reason?: string;
}

/** Checks receipt bytes for `contentSha256` against the installation public key. */
export function checkReceiptBytes(bytes: Uint8Array, contentSha256: string, publicKey: Uint8Array): Omit<ReceiptCheck, "stored"> {
  const invalid = (reason: string) => ({ status: "invalid" as const, reason });
  if (bytes.length > RECEIPT_MAX_BYTES) return invalid("receipt file is too large");
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    return invalid("receipt file is not JSON");
  }
  if (doc === null || typeof doc !== "object" || Array.isArray(doc)) return invalid("receipt file is not a JSON object");
  const r = doc as Record<string, unknown>;
  const keys = Object.keys(r).sort().join(",");
  if (keys !== "content_sha256,format,public_key,signature") return invalid("receipt members are not exactly content_sha256, format, public_key, signature");
  if (r.format !== RECEIPT_FORMAT) return invalid(`unsupported receipt format (expected ${RECEIPT_FORMAT})`);
  if (r.content_sha256 !== contentSha256) return invalid("receipt names a different content_sha256");
  if (typeof r.public_key !== "string" || !/^[0-9a-f]{64}$/.test(r.public_key)) return invalid("receipt public_key is not 64 hexadecimal digits");
  if (typeof r.signature !== "string" || !/^[0-9a-f]{128}$/.test(r.signature)) return invalid("receipt signature is not 128 hexadecimal digits");
  if (r.public_key !== bytesToHex(publicKey)) {
    return invalid(`receipt was signed by another key (${signingKeyFingerprint(hexToBytes(r.public_key))})`);
  }
  if (!verifySignature(publicKey, receiptMessage(contentSha256), hexToBytes(r.signature))) return invalid("receipt signature does not verify");
  return { status: "valid", signer: signingKeyFingerprint(publicKey) };
}

/**
 * For `capsule verify`: does the store under `home` hold a valid receipt for `contentSha256`? Needs no
 * passphrase (passphrase mode keeps the public key in the clear). Never throws: problems with the store or
 * its keys are reported as `unavailable` with the reason.
 */
export function checkStoredReceipt(config: { home: string }, contentSha256: string): ReceiptCheck {
  if (!CAPSULE_ID.test(contentSha256)) return { status: "unavailable", stored: false, reason: "not a content_sha256 (64 lowercase hexadecimal digits)" };
  const layout = storeLayout(config.home);
  const stored = existsSync(join(layout.capsules, `${contentSha256}${SEALED_SUFFIX}`));
  let info;
  try {
    info = readInstallationPublicKey(config.home);
  } catch (e) {
    return { status: "unavailable", stored, reason: (e as Error).message };
  }
  if (info === undefined) return { status: "unavailable", stored, reason: `no store keys in ${config.home}` };
  let bytes: Uint8Array;
  try {
    bytes = readRegularFile(join(layout.capsules, `${contentSha256}${RECEIPT_SUFFIX}`), { maxBytes: RECEIPT_MAX_BYTES, label: `store/capsules/${contentSha256}${RECEIPT_SUFFIX}` });
  } catch (e) {
    if (e instanceof SafeReadError && e.code === "missing") return { status: "missing", stored };
    if (e instanceof SafeReadError && e.code === "too-large") return { status: "invalid", stored, reason: "receipt file is too large" };
    return { status: "unavailable", stored, reason: `receipt cannot be read: ${e instanceof SafeReadError ? e.message : ((e as NodeJS.ErrnoException).code ?? (e as Error).message)}` };
  }
  return { ...checkReceiptBytes(bytes, contentSha256, info.publicKey), stored };
}
