/** The typed failure of the economic ledger check (hosted-tool-server.md §4.9 `economic_checksum_integrity_failed`). */

/** Where the check failed: manifest rules (§4.4), byte receipt (§4.3 step 4), rows (§4.5), final count (step 6). */
export type LedgerCheckStage = "manifest" | "receipt" | "rows" | "count";

export class EconomicLedgerError extends Error {
  override readonly name = "EconomicLedgerError";
  constructor(
    readonly stage: LedgerCheckStage,
    message: string,
  ) {
    super(message);
  }
}
