/**
 * `readings check-ledger`: the hosted server's verification pipeline for the economic observation ledger
 * (hosted-tool-server.md §4.3 steps 2, 4, 5, 6) as a pure function over bytes. Fetching the two files is the
 * bridge's job; this only judges them. The order is the server's: manifest rules, then the byte receipt (length,
 * SHA-256, record count) before any row is parsed, then the row rules, then the final count. A digest over the
 * bytes proves byte consistency with the manifest only: it does not authenticate the publisher.
 */
import { sha256Hex } from "../../src/hash.js";
import { EconomicLedgerError, type LedgerCheckStage } from "./economic-errors.js";
import { parseEconomicManifest, type ParsedManifest } from "./economic-manifest.js";
import { parseEconomicLedger, verifyLedgerReceipt } from "./economic-ledger.js";

export interface LedgerCheckOptions {
  /** Published base the manifest must pin its URLs to (no trailing slash); default: the manifest's own. */
  pinnedBase?: string;
}

export interface LedgerCheckPassed {
  ok: true;
  /** The server's success `source` block (§4.8). */
  source: { bytes: number; rows: number; sha256: string; checksum_integrity: "verified_against_fixed_manifest" };
  manifest: { retrieved_sha256: string; generated_at: string; as_of: string; scope: string; limitations: string[] };
  pinned_base: string;
  pinned_base_source: "caller" | "manifest";
}

export interface LedgerCheckFailed {
  ok: false;
  /** The server's typed error (§4.9) for any rule of §4.3–§4.5. */
  error: { type: "economic_checksum_integrity_failed"; stage: LedgerCheckStage; message: string };
  checksum_integrity: "failed";
  no_partial_rows: true;
}

export type LedgerCheckResult = LedgerCheckPassed | LedgerCheckFailed;

export function checkEconomicLedger(manifestBytes: Uint8Array, ledgerBytes: Uint8Array, opts: LedgerCheckOptions = {}): LedgerCheckResult {
  let manifest: ParsedManifest;
  try {
    manifest = parseEconomicManifest(manifestBytes, opts.pinnedBase);
    verifyLedgerReceipt(ledgerBytes, manifest.artifact);
    const rows = parseEconomicLedger(ledgerBytes);
    if (rows.length !== manifest.artifact.records) {
      throw new EconomicLedgerError("count", "validated observation count does not match the fixed manifest");
    }
    return {
      ok: true,
      source: { bytes: ledgerBytes.length, rows: rows.length, sha256: sha256Hex(ledgerBytes), checksum_integrity: "verified_against_fixed_manifest" },
      manifest: {
        retrieved_sha256: manifest.retrieved_sha256,
        generated_at: manifest.generated_at,
        as_of: manifest.as_of,
        scope: manifest.scope,
        limitations: manifest.limitations,
      },
      pinned_base: manifest.pinnedBase,
      pinned_base_source: manifest.pinnedBaseSource,
    };
  } catch (e) {
    if (!(e instanceof EconomicLedgerError)) throw e;
    return {
      ok: false,
      error: { type: "economic_checksum_integrity_failed", stage: e.stage, message: e.message },
      checksum_integrity: "failed",
      no_partial_rows: true,
    };
  }
}
