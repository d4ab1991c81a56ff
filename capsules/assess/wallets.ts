/**
 * Wallet address formats of `assess` (docs/assess.md "Wallets"): where a format carries a checksum it is verified
 * with a maintained implementation — Base58Check (Bitcoin legacy/P2SH, Tron) with @scure/base over node:crypto SHA-256,
 * Bech32/Bech32m (BIP-173/BIP-350 segwit) with @scure/base, EIP-55 mixed-case checksums with Keccak-256 from
 * @noble/hashes.
 */
import { createBase58check, bech32, bech32m } from "@scure/base";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { createHash } from "node:crypto";
import { bytesToHex } from "@noble/hashes/utils.js";

export type WalletFormat = "evm" | "tron" | "btc-base58" | "bech32";

/** One wallet-looking token: where it sits in the scanned view and whether its checksum verifies. */
export interface WalletToken {
  start: number;
  end: number;
  format: WalletFormat;
  /** `true`: checksum verified; `false`: the format has a checksum and it fails; `null`: nothing to verify. */
  checksum: boolean | null;
}

const B58 = "1-9A-HJ-NP-Za-km-z";
/** Address shapes, each bounded by characters that cannot continue an address. */
const WALLET = new RegExp(
  `(?<![A-Za-z0-9])(?:(0x[0-9a-fA-F]{40})|(T[${B58}]{33})|([13][${B58}]{25,33})|((?:bc|tb|ltc)1[02-9ac-hj-np-z]{8,87}|(?:BC|TB|LTC)1[02-9AC-HJ-NP-Z]{8,87}))(?![A-Za-z0-9])`,
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
    else out.push({ start, end, format: "bech32", checksum: bech32Valid(m[4]) });
  }
  return out;
}
