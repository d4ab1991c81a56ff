/**
 * Wallet address formats of `assess` (docs/assess.md "Wallets"): where a format carries a checksum it is verified
 * with a maintained implementation — Base58Check (Bitcoin legacy/P2SH, Tron) with @scure/base over node:crypto SHA-256,
 * Bech32/Bech32m (BIP-173/BIP-350 segwit) with @scure/base, EIP-55 mixed-case checksums with Keccak-256 from
 * @noble/hashes, TON user-friendly addresses (base64 or base64url decoded with @scure/base; their CRC-16/XMODEM
 * checked as the TON address specification defines it). Solana addresses carry no checksum: Base58 (@scure/base)
 * that decodes to exactly 32 bytes.
 */
import { base58, base64, base64url, createBase58check, bech32, bech32m } from "@scure/base";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { createHash } from "node:crypto";
import { bytesToHex } from "@noble/hashes/utils.js";

export type WalletFormat = "evm" | "tron" | "btc-base58" | "bech32" | "ton" | "ton-raw" | "solana";

/** One wallet-looking token: where it sits in the scanned view and whether its checksum verifies. */
export interface WalletToken {
  start: number;
  end: number;
  format: WalletFormat;
  /** `true`: checksum verified; `false`: the format has a checksum and it fails; `null`: nothing to verify. */
  checksum: boolean | null;
}

const B58 = "1-9A-HJ-NP-Za-km-z";
/**
 * Address shapes, each bounded by characters that cannot continue an address: EVM, Tron, Bitcoin Base58, segwit,
 * TON user-friendly (48 characters of base64 or base64url whose first two decode to a tag and a workchain: `EQ`,
 * `UQ`, `kQ`, `0Q`, `Ef`…), TON raw (`0:` or `-1:` and 64 hex digits), Solana (32–44 Base58 characters).
 */
const WALLET = new RegExp(
  `(?<![A-Za-z0-9_+/=-])(?:(0x[0-9a-fA-F]{40})|(T[${B58}]{33})|([13][${B58}]{25,33})|((?:bc|tb|ltc)1[02-9ac-hj-np-z]{8,87}|(?:BC|TB|LTC)1[02-9AC-HJ-NP-Z]{8,87})` +
    `|([EUk0][Qf][A-Za-z0-9_-]{46}|[EUk0][Qf][A-Za-z0-9+/]{46})|((?:0|-1):[0-9a-fA-F]{64})|([${B58}]{32,44}))(?![A-Za-z0-9_+/=-])`,
  "g",
);

const base58check = createBase58check((data: Uint8Array) => new Uint8Array(createHash("sha256").update(data).digest()));

/** EIP-55: an all-lower or all-upper address carries no checksum; a mixed-case one must match Keccak-256. */
export function eip55(address: string): boolean | null {
  const hex = address.slice(2);
  if (hex === hex.toLowerCase() || hex === hex.toUpperCase()) return null;
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(hex.toLowerCase())));
  for (let i = 0; i < 40; i++) {
    const c = hex[i];
    if (/[0-9]/.test(c)) continue;
    const upper = parseInt(hash[i], 16) >= 8;
    if (upper !== (c === c.toUpperCase())) return false;
  }
  return true;
}

function base58Valid(address: string, versions: readonly number[], payload: number): boolean {
  try {
    const bytes = base58check.decode(address);
    return bytes.length === payload && versions.includes(bytes[0]);
  } catch {
    return false;
  }
}

function bech32Valid(address: string): boolean {
  for (const codec of [bech32, bech32m]) {
    try {
      codec.decode(address as `${string}1${string}`, 90);
      return true;
    } catch {
      // try the other variant
    }
  }
  return false;
}

/** CRC-16/XMODEM (polynomial 0x1021, initial value 0), the checksum of a TON user-friendly address. */
export function crc16xmodem(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** TON tags: bounceable 0x11, non-bounceable 0x51, each optionally with the test-only flag 0x80. */
const TON_TAGS = new Set([0x11, 0x51, 0x91, 0xd1]);

/**
 * A TON user-friendly address: 36 bytes (tag, workchain 0x00 or 0xff, 32-byte account id, CRC-16/XMODEM of the first
 * 34 big-endian) in base64url or base64. `undefined` when it is not one (wrong alphabet mix, tag or workchain);
 * else whether the checksum verifies.
 */
export function tonChecksum(address: string): boolean | undefined {
  let bytes: Uint8Array;
  try {
    bytes = /[+/]/.test(address) ? base64.decode(address) : base64url.decode(address);
  } catch {
    return undefined;
  }
  if (bytes.length !== 36 || !TON_TAGS.has(bytes[0]) || (bytes[1] !== 0x00 && bytes[1] !== 0xff)) return undefined;
  return crc16xmodem(bytes.subarray(0, 34)) === ((bytes[34] << 8) | bytes[35]);
}

const UPPER = /[A-Z]/;
const LOWER = /[a-z]/;
const DIGIT = /[0-9]/;

/**
 * A Solana address: Base58 of exactly 32 bytes. It has no checksum, so a token also needs the look of random Base58
 * (capitals, small letters and digits) to be one; a long word or a Base58 string of another length is not.
 */
export function isSolanaAddress(s: string): boolean {
  if (!UPPER.test(s) || !LOWER.test(s) || !DIGIT.test(s)) return false;
  try {
    return base58.decode(s).length === 32;
  } catch {
    return false;
  }
}

/** Every wallet-shaped token of `text`, in order. */
export function findWallets(text: string): WalletToken[] {
  const out: WalletToken[] = [];
  WALLET.lastIndex = 0;
  for (let m = WALLET.exec(text); m !== null; m = WALLET.exec(text)) {
    const start = m.index;
    const end = start + m[0].length;
    if (m[1]) out.push({ start, end, format: "evm", checksum: eip55(m[1]) });
    else if (m[2]) out.push({ start, end, format: "tron", checksum: base58Valid(m[2], [0x41], 21) });
    else if (m[3]) out.push({ start, end, format: "btc-base58", checksum: base58Valid(m[3], [0x00, 0x05], 21) });
    else if (m[4]) out.push({ start, end, format: "bech32", checksum: bech32Valid(m[4]) });
    else if (m[5]) {
      const checksum = tonChecksum(m[5]);
      if (checksum !== undefined) out.push({ start, end, format: "ton", checksum });
    } else if (m[6]) out.push({ start, end, format: "ton-raw", checksum: null });
    else if (isSolanaAddress(m[7])) out.push({ start, end, format: "solana", checksum: null });
  }
  return out;
}
