/**
 * The one error type of assessment intake (assessment-v1 §2, A3): a single line naming the JSON path and the
 * violated rule. Messages never echo private values (IOCs, hashes, pseudonyms, fragments, free text, rates).
 */
export class AssessmentError extends Error {
  override readonly name = "AssessmentError";
  constructor(
    message: string,
    /** JSON path of the offending value (`assessment.detector.tier`, `json.market_rate`), when there is one. */
    readonly path?: string,
    /** Short rule tag for tests and callers (`size`, `json`, `schema`, `consistency`, `assessment-id`, ...). */
    readonly rule: string = "schema",
  ) {
    super(message);
  }
}
