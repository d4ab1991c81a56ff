/**
 * Release errors: one precise line naming the capsule, the kind and index, or the rule. Messages never contain an
 * IOC value, a nonce or key material.
 */
export type ReleaseErrorCode = "policy" | "not-approved" | "no-value" | "double-release" | "broken-register" | "reviewer-key" | "mismatch" | "io";

export class ReleaseError extends Error {
  override readonly name = "ReleaseError";
  constructor(
    readonly code: ReleaseErrorCode,
    message: string,
  ) {
    super(message);
  }
}
