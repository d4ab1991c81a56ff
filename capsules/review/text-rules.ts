/**
 * Rules for the reviewer-written parts of a record: the reason code, the private note, the public note and the
 * reviewer name (issue 28 items 3–4).
 *
 * - The **reason** is one of a closed list of codes ({@link REVIEW_REASONS}; docs/review.md says what each means).
 * - The **private note** (`--note`) is sealed in the store (private-notes.ts); only a salted digest of it is signed
 *   into the record. It may say anything, but stays one line of plain text.
 * - The **public note** (`--public-note`) is the only free text that leaves with an export: one line of plain text,
 *   leak-guarded against every private value of the store before it is recorded (decide.ts).
 * - A **reviewer name** is a person's name: letters, combining marks, spaces, `.`, `'` and `-`, 1 to 64 characters,
 *   starting with a letter, no leading, trailing or doubled space, in Unicode NFC. No digits, `@`, `/`, `:` or any
 *   other symbol, so a name cannot carry an e-mail address, a phone number, a handle or a path. Names are labels:
 *   key files are named by key fingerprint, never by the name (reviewer-key.ts).
 *
 * Names recorded before this rule (v1 records and registry entries: 1–64 of `A-Z a-z 0-9 . _ -`) still read; new
 * registrations and new decisions need a name under the rule ({@link reviewerNameProblem}).
 */
import { firstControlOrFormat, isPythonBlank } from "../assessment/text-rules.js";
import { codePointLength, hasLoneSurrogate } from "../../src/json/value.js";

/** Longest note (private or public), in code points. */
export const NOTE_MAX_CHARS = 1000;
/** Longest reviewer name, in code points. */
export const REVIEWER_NAME_MAX_CHARS = 64;
/** The reviewer-name alphabet (issue 28 item 4): letters, combining marks, space, `.`, `'`, `-`. */
const NAME_CHARS = /^[\p{L}\p{M} .'-]+$/u;
const STARTS_WITH_LETTER = /^\p{L}/u;
/** Names accepted in records and registries written before the name rule (read only, never for a new name). */
export const LEGACY_REVIEWER_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

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

/** The problem with a note, private or public (without echoing it), or undefined. */
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

/** The problem with a reviewer name under the name rule (without echoing it), or undefined. */
export function reviewerNameProblem(name: unknown): string | undefined {
  const rule = "a reviewer name is 1 to 64 letters, combining marks, spaces, full stops (.), apostrophes (') or hyphens (-), starting with a letter";
  if (typeof name !== "string" || name.length === 0) return `expected a name: ${rule}`;
  if (hasLoneSurrogate(name) || !NAME_CHARS.test(name)) return `contains a character other than letters, combining marks, spaces, full stops, apostrophes and hyphens (no digits, '@', '/', ':' or other symbols): ${rule}`;
  if (!STARTS_WITH_LETTER.test(name)) return `must start with a letter: ${rule}`;
  if (name.endsWith(" ") || name.includes("  ")) return "must not end with a space or hold two spaces in a row";
  const n = codePointLength(name);
  if (n > REVIEWER_NAME_MAX_CHARS) return `has ${n} characters; at most ${REVIEWER_NAME_MAX_CHARS} are allowed`;
  if (name.normalize("NFC") !== name) return "is not in Unicode normalization form C (type it again, or let 'keys init --reviewer' normalise it)";
  return undefined;
}

/** The problem with a name read from a record or registry written before the name rule, or undefined. */
export function recordedNameProblem(name: unknown, legacyAllowed: boolean): string | undefined {
  if (legacyAllowed && typeof name === "string" && LEGACY_REVIEWER_NAME.test(name)) return undefined;
  return reviewerNameProblem(name);
}

/** A name as typed, in the form the rule checks (NFC); it is then checked with {@link reviewerNameProblem}. */
export function normalizedReviewerName(typed: string): string {
  return typed.normalize("NFC");
}
