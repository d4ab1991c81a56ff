/**
 * What the feed says on stderr about capsules that produced no line: counts, and each withheld capsule's reason
 * grouped by reason. Reasons come from candidate derivation and name paths and rules only; capsule ids are the
 * public review handles (they appear in every candidate). Never a value from the assessment.
 */
import type { FeedOutcome } from "./feed.js";

/** Capsule ids listed per reason in the text form (the JSON form lists all). */
const IDS_PER_REASON = 5;
const SHORT_ID = 12;

export interface WithheldGroup {
  reason: string;
  capsules: string[];
}

/** Withheld capsules grouped by reason, groups in order of first appearance, ids sorted. */
export function groupWithheld(outcome: Pick<FeedOutcome, "withheld">): WithheldGroup[] {
  const groups = new Map<string, string[]>();
  for (const w of outcome.withheld) {
    const ids = groups.get(w.reason) ?? [];
    ids.push(w.capsule_sha256);
    groups.set(w.reason, ids);
  }
  return [...groups].map(([reason, capsules]) => ({ reason, capsules: capsules.sort() }));
}

function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** Human-readable summary lines (without trailing newlines); empty when every capsule yielded a line. */
export function feedSummaryLines(outcome: FeedOutcome): string[] {
  if (outcome.withheld.length === 0 && outcome.excludedClean === 0) return [];
  const lines = [
    `feed: ${plural(outcome.emitted, "candidate")} emitted from ${plural(outcome.total, "capsule")}; ` +
      `${outcome.excludedClean} CLEAN excluded${outcome.excludedClean > 0 ? " (--include-clean shows them)" : ""}; ` +
      `${outcome.withheld.length} withheld`,
  ];
  for (const g of groupWithheld(outcome)) {
    const shown = g.capsules.slice(0, IDS_PER_REASON).map((id) => id.slice(0, SHORT_ID));
    const more = g.capsules.length > IDS_PER_REASON ? ` and ${g.capsules.length - IDS_PER_REASON} more` : "";
    lines.push(`feed: withheld ${g.capsules.length}: ${g.reason} (capsule${g.capsules.length === 1 ? "" : "s"} ${shown.join(", ")}${more})`);
  }
  return lines;
}

/** The same facts as one JSON object (for `--json-errors`). */
export function feedSummaryJson(outcome: FeedOutcome): Record<string, unknown> {
  return {
    status: outcome.withheld.length === 0 ? "complete" : "withheld",
    capsules: outcome.total,
    emitted: outcome.emitted,
    excluded_clean: outcome.excludedClean,
    withheld: groupWithheld(outcome),
  };
}
