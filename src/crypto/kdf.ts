/**
 * Passphrase mode (product.md §4): the store key is derived from `EVIDENCE_BRIDGE_PASSPHRASE` with scrypt on
 * node:crypto (OpenSSL, on libuv's thread pool). Its output is byte-identical to @noble/hashes' scrypt, which the
 * tests use as the independent cross-check. The parameters and a random salt are stored with the keys, so they can
 * be raised later without breaking existing stores, and loading checks them against fixed bounds (fail closed: an
 * absurd parameter set is a malformed file, not a denial of service).
 *
 * Default: N = 2^16, r = 8, p = 2 (64 MiB of memory; one of OWASP's equivalent scrypt recommendations for
 * interactive logins). It keeps peak memory inside the server's 150 MB budget, unlike N = 2^17, at the cost of
 * some derivation per process start in passphrase mode: measured on the shared two-core project machine at load
 * average 6.3, 0.7–1.0 s with node:crypto against 1.3–2.6 s with @noble/hashes (the issue measured 270 against
 * 440 ms on a quiet machine).
 */
import { randomBytes, scrypt } from "node:crypto";
import { bytesToHex } from "../hash.js";
import { STORE_KEY_BYTES } from "./seal.js";

export const KDF_ALGORITHM = "scrypt";
export const KDF_SALT_BYTES = 32;

export interface ScryptCost {
  /** CPU/memory cost, a power of two. */
  n: number;
  /** Block size. */
  r: number;
  /** Parallelism. */
  p: number;
}

export interface KdfParams extends ScryptCost {
  algorithm: typeof KDF_ALGORITHM;
  /** Derived key length in bytes (always 32). */
  dk_len: number;
  /** Random salt, lowercase hex of 32 bytes. */
  salt: string;
  /** Unicode normalization applied to the passphrase before UTF-8 encoding. */
  normalization: "NFC";
}

export const DEFAULT_SCRYPT: Readonly<ScryptCost> = Object.freeze({ n: 2 ** 16, r: 8, p: 2 });

/** Accepted ranges when loading (2^10 ≤ N ≤ 2^20, 1 ≤ r ≤ 32, 1 ≤ p ≤ 16, at most 256 MiB of scrypt memory). */
export const KDF_BOUNDS = Object.freeze({ minLogN: 10, maxLogN: 20, maxR: 32, maxP: 16, maxMemory: 256 * 1024 * 1024 });

/** Fresh parameters with a random salt. `cost` lowers the work factor for tests; it must still be within bounds. */
export function newKdfParams(cost: ScryptCost = DEFAULT_SCRYPT): KdfParams {
  const params: KdfParams = {
    algorithm: KDF_ALGORITHM,
    n: cost.n,
    r: cost.r,
    p: cost.p,
    dk_len: STORE_KEY_BYTES,
    salt: bytesToHex(randomBytes(KDF_SALT_BYTES)),
    normalization: "NFC",
  };
  const problem = kdfParamsProblem(params);
  if (problem) throw new RangeError(problem);
  return params;
}

/** Why `v` is not an acceptable parameter record, or undefined when it is. */
export function kdfParamsProblem(v: KdfParams): string | undefined {
  if (v.algorithm !== KDF_ALGORITHM) return `unknown key derivation ${JSON.stringify(v.algorithm)} (only scrypt)`;
  const isInt = (x: unknown): x is number => typeof x === "number" && Number.isSafeInteger(x);
  if (!isInt(v.n) || v.n < 2 ** KDF_BOUNDS.minLogN || v.n > 2 ** KDF_BOUNDS.maxLogN || (v.n & (v.n - 1)) !== 0) {
    return `scrypt n must be a power of two between 2^${KDF_BOUNDS.minLogN} and 2^${KDF_BOUNDS.maxLogN}`;
  }
  if (!isInt(v.r) || v.r < 1 || v.r > KDF_BOUNDS.maxR) return `scrypt r must be an integer between 1 and ${KDF_BOUNDS.maxR}`;
  if (!isInt(v.p) || v.p < 1 || v.p > KDF_BOUNDS.maxP) return `scrypt p must be an integer between 1 and ${KDF_BOUNDS.maxP}`;
  if (128 * v.n * v.r > KDF_BOUNDS.maxMemory) return "scrypt n·r needs more than 256 MiB of memory";
  if (v.dk_len !== STORE_KEY_BYTES) return `dk_len must be ${STORE_KEY_BYTES}`;
  if (typeof v.salt !== "string" || !/^[0-9a-f]{64}$/.test(v.salt)) return "salt must be 64 lowercase hexadecimal digits";
  if (v.normalization !== "NFC") return 'normalization must be "NFC"';
  return undefined;
}

/** Derives the 32-byte store key from a passphrase (NFC-normalized, UTF-8). */
export async function derivePassphraseKey(passphrase: string, params: KdfParams): Promise<Uint8Array> {
  const problem = kdfParamsProblem(params);
  if (problem) throw new RangeError(problem);
  const salt = Buffer.from(params.salt, "hex");
  const options = { N: params.n, r: params.r, p: params.p, maxmem: KDF_BOUNDS.maxMemory + 1024 * 1024 };
  return new Promise((resolve, reject) => {
    scrypt(Buffer.from(passphrase.normalize("NFC"), "utf8"), salt, params.dk_len, options, (err, key) =>
      err ? reject(err) : resolve(new Uint8Array(key.buffer, key.byteOffset, key.byteLength)),
    );
  });
}
