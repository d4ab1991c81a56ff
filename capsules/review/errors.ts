/**
 * Review errors: one precise line naming the record, the candidate or the rule. Messages never contain IOC values,
 * message hashes, pseudonyms, message text or key material (notes are leak-guarded before they are recorded).
 */
export type ReviewErrorCode =
  | "invalid-note"
  | "invalid-name"
  | "no-candidate"
  | "double-decision"
  | "broken-log"
  | "busy"
  | "reviewer-key"
  | "export-refused"
  | "policy"
  | "stale-candidate"
  | "leak"
  | "io";

export class ReviewError extends Error {
  override readonly name = "ReviewError";
  constructor(
    readonly code: ReviewErrorCode,
    message: string,
  ) {
    super(message);
  }
}
