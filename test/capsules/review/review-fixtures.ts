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
    reason: "corroborated",
    public_note: note,
  };
}

export function logLines(home: string): string[] {
  const text = readFileSync(reviewLayout(home).log, "utf8");
  return text.split(/(?<=\n)/);
}

export function writeLogLines(home: string, lines: string[]): void {
  writeFileSync(reviewLayout(home).log, lines.join(""));
}

/**
 * Every key fingerprint an export names (its reviewers and its checkpoint's signer), for tests that pin them all as
 * a recipient would after comparing them out of band.
 */
export function exportFingerprints(bytes: Uint8Array | string): Set<string> {
  const out = new Set<string>();
  for (const line of Buffer.from(bytes).toString("utf8").split("\n")) {
    if (line === "") continue;
    const doc = JSON.parse(line) as { decision?: { reviewer: { fingerprint: string } }; signer?: { fingerprint: string } };
    if (doc.decision) out.add(doc.decision.reviewer.fingerprint);
    if (doc.signer) out.add(doc.signer.fingerprint);
  }
  return out;
}
