/** Helpers for review tests: reviewer keys in temporary data directories, a fixed clock, synthetic drafts. */
import { readFileSync, writeFileSync } from "node:fs";
import { sha256Hex } from "../../../src/hash.js";
import { createReviewerKey, type ReviewerKeyFile } from "../../../capsules/review/reviewer-key.js";
import type { Decision } from "../../../capsules/review/decisions.js";
import type { DecisionDraft } from "../../../capsules/review/log.js";
import { reviewLayout } from "../../../capsules/review/layout.js";

export function reviewer(home: string, name = "alice"): ReviewerKeyFile {
  return createReviewerKey(home, name);
}

/** A clock that ticks one minute per call from 2026-09-01T10:00:00Z. */
export function minuteClock(): () => Date {
  let t = Date.UTC(2026, 8, 1, 10, 0, 0);
  return () => new Date((t += 60_000));
}

/** A draft for synthetic capsule `i` (digests derived from `i`, no store needed). */
export function draft(i: number, decision: Decision = "APPROVED_FOR_RELEASE", note = `note ${i}`): DecisionDraft {
  return {
    capsule_sha256: sha256Hex(`capsule ${i}`),
    candidate_sha256: sha256Hex(`candidate ${i}`),
    typology_match_visible: false,
    decision,
    note,
  };
}

export function logLines(home: string): string[] {
  const text = readFileSync(reviewLayout(home).log, "utf8");
  return text.split(/(?<=\n)/);
}

export function writeLogLines(home: string, lines: string[]): void {
  writeFileSync(reviewLayout(home).log, lines.join(""));
}
