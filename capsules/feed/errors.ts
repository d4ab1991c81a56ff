/** A feed that cannot be completed: names the capsule whose processing failed; nothing is printed. */
export class FeedError extends Error {
  override readonly name = "FeedError";
  constructor(
    /** The capsule id (content_sha256) being processed, or undefined for a failure outside any capsule. */
    readonly capsuleId: string | undefined,
    message: string,
  ) {
    super(message);
  }
}
