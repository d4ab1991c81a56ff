/** Store errors: one precise line naming the capsule id (never a message hash, IOC or text) and the rule. */
export type StoreErrorCode =
  | "no-store"
  | "not-found"
  | "ambiguous"
  | "invalid-id"
  | "mismatch"
  | "conflict"
  | "integrity"
  | "too-large"
  | "wrong-key";

export class StoreError extends Error {
  override readonly name = "StoreError";
  constructor(
    readonly code: StoreErrorCode,
    message: string,
  ) {
    super(message);
  }
}
