/**
 * Rules for the reviewer-written parts of a record: the note and the reviewer name. Both travel with an export,
 * so they are plain single-line text: no control, format or bidi character, no lone surrogate, bounded length.
 * The note is also leak-guarded against the capsule's private values before it is recorded (review-target.ts).
 */
import { firstControlOrFormat, isPythonBlank } from "../assessment/text-rules.js";
import { codePointLength, hasLoneSurrogate } from "../../src/json/value.js";

/** Longest note, in code points. */
export const NOTE_MAX_CHARS = 1000;
/** Reviewer names: also the key file name, so a conservative alphabet. */
export const REVIEWER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The closed list of decision reasons (`--reason CODE`), in the order the page offers them. */
export const REVIEW_REASONS = ["corroborated", "duplicate", "insufficient-evidence", "out-of-scope", "false-positive", "policy"] as const;
export type ReviewReason = (typeof REVIEW_REASONS)[number];

export function isReviewReason(v: unknown): v is ReviewReason {
  return typeof v === "string" && (REVIEW_REASONS as readonly string[]).includes(v);
}

/** The problem with a reason code (naming the allowed codes), or undefined. */
export function reasonProblem(reason: unknown): string | undefined {
  return isReviewReason(reason) ? undefined : `expected one of ${REVIEW_REASONS.join(", ")}`;
}

/** The problem with a note (without echoing it), or undefined. */
export function noteProblem(note: unknown): string | undefined {
  if (typeof note !== "string") return "expected a string";
  if (hasLoneSurrogate(note)) return "contains a lone Unicode surrogate";
  const bad = firstControlOrFormat(note);
  if (bad !== undefined) return `contains ${bad} (control, format, bidi and line-break characters are not allowed)`;
  if (isPythonBlank(note)) return "must not be empty or blank";
  const n = codePointLength(note);
  if (n > NOTE_MAX_CHARS) return `has ${n} characters; at most ${NOTE_MAX_CHARS} are allowed`;
  return undefined;
}

/** The problem with a reviewer name, or undefined. */
export function reviewerNameProblem(name: unknown): string | undefined {
  if (typeof name !== "string" || !REVIEWER_NAME.test(name)) {
    return "expected 1 to 64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit";
  }
  return undefined;
}
