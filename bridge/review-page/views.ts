/**
 * The review page's two views, rendered from outward data only (the candidate, its digest, the log's records):
 * the queue (status, tiers, families, IOC counts, age, decisions so far, approvals under the policy) and one
 * candidate (why it exists, its decisions, the decision form bound to its digest). Never IOC values, message
 * content or anything else private: those are not in a candidate, and notes were leak-guarded when recorded.
 */
import { shownFor, type LoggedRecord, type QueueEntry, type QueueOutcome, type StatusLens } from "../../capsules/review/index.js";
import { age, families, iocText, overall } from "../cli/commands/review.js";
import { esc } from "./html.js";

const SHORT = 12;

/** The log's state, the policy and the counted keys (status.ts), plus what links need. */
export interface ViewContext extends StatusLens {
  /** `/<token>`: every link starts with it. */
  base: string;
  now: number;
}

function statusBadge(e: QueueEntry, v: ViewContext): string {
  const shown = shownFor(v, e.status, e.candidate_sha256);
  let html = `<span class="status s-${esc(e.status)}">${esc(e.status)}</span>`;
  if (shown.text !== shown.status) html += ` <span class="approvals">${esc(shown.count)}</span>`;
  if (e.superseded) html += ` <span class="approvals">earlier decision on other bytes</span>`;
  return html;
}

function decisionsSoFar(records: readonly LoggedRecord[]): string {
  if (records.length === 0) return "none";
  return records.map((x) => `${esc(x.record.decision)} by ${esc(x.record.reviewer.name)}`).join("<br>");
}

export function viewQuery(typology: boolean, clean: boolean): string {
  const q = [typology ? "tm=1" : "", clean ? "clean=1" : ""].filter((x) => x !== "");
  return q.length > 0 ? `?${q.join("&")}` : "";
}

export function queueView(q: QueueOutcome, allRecords: readonly LoggedRecord[], v: ViewContext, view: { typology: boolean; clean: boolean }): string {
  const rows = q.entries.map((e) => {
    const c = e.candidate;
    const mine = allRecords.filter((x) => x.record.capsule_sha256 === e.capsule_sha256);
    return `<tr>
<td><a class="mono" href="${esc(v.base)}/c/${esc(e.capsule_sha256)}${esc(viewQuery(view.typology, view.clean))}">${esc(e.capsule_sha256.slice(0, SHORT))}</a></td>
<td>${statusBadge(e, v)}</td>
<td>${esc(overall(c))}<br><span class="approvals">detector ${esc(c.detector.tier)} · threat ${esc(c.threat_assessment.tier)}</span></td>
<td>${esc(families(c).join(", ") || "-")}</td>
<td class="mono">${esc(iocText(c).replace(/,/g, ", "))}</td>
<td>${esc(c.hypotheses.length)}</td>
<td>${esc(age(c, v.now))}<br><span class="approvals">${esc(c.created_at)}</span></td>
<td>${decisionsSoFar(mine)}</td>
</tr>`;
  });
  const pending = q.entries.filter((e) => e.status === "HUMAN_REVIEW_REQUIRED" || e.status === "NEEDS_MORE_EVIDENCE").length;
  const toggles = `<p class="views">view: <a href="${esc(v.base)}/${esc(viewQuery(!view.typology, view.clean))}">${view.typology ? "hide" : "show"} typology matches</a>
<a href="${esc(v.base)}/${esc(viewQuery(view.typology, !view.clean))}">${view.clean ? "hide" : "include"} CLEAN</a></p>`;
  const table =
    rows.length === 0
      ? `<p>No candidates.</p>`
      : `<table>
<thead><tr><th>Capsule</th><th>Status</th><th>Tier</th><th>Families</th><th>IOC counts</th><th>Hyp.</th><th>Age</th><th>Decisions so far</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>`;
  return `<h1>Review queue</h1>
${toggles}
${table}
<p class="summary">${esc(q.entries.length)} candidate${q.entries.length === 1 ? "" : "s"} (${esc(pending)} awaiting a decision); ${esc(q.excludedClean)} CLEAN excluded; ${esc(q.withheld.length)} withheld${q.withheld.length > 0 ? " ('evidence-bridge feed' says why)" : ""}</p>`;
}

export interface CandidateViewData {
  entry: QueueEntry;
  reasons: string[];
  history: readonly LoggedRecord[];
  csrf: string;
  /** The view the form decides (it changes the candidate bytes). */
  view: { typology: boolean; clean: boolean };
  notice?: { ok: boolean; text: string };
}

export function candidateView(d: CandidateViewData, v: ViewContext): string {
  const e = d.entry;
  const id = e.capsule_sha256;
  const notice = d.notice === undefined ? "" : `<p class="notice${d.notice.ok ? "" : " error"}" role="status">${esc(d.notice.text)}</p>`;
  const shown = shownFor(v, e.status, e.candidate_sha256);
  const history =
    d.history.length === 0
      ? "<p>No decisions yet.</p>"
      : `<table><thead><tr><th>#</th><th>Decided (UTC)</th><th>Decision</th><th>Reviewer</th><th>Candidate</th><th>Note</th></tr></thead><tbody>
${d.history
  .map(
    (x) =>
      `<tr><td>${esc(x.record.seq)}</td><td>${esc(x.record.decided_at)}</td><td><span class="status s-${esc(x.record.decision)}">${esc(x.record.decision)}</span></td><td>${esc(x.record.reviewer.name)}<br><span class="mono approvals">${esc(x.record.reviewer.fingerprint.slice(0, 8 + SHORT))}…</span></td><td class="mono">${esc(x.record.candidate_sha256.slice(0, SHORT))}${x.record.candidate_sha256 === e.candidate_sha256 ? "" : " (other bytes)"}</td><td>${esc(x.record.note)}</td></tr>`,
  )
  .join("\n")}
</tbody></table>`;
  // A final decision on these bytes shows its state: another decision would only be refused.
  const finished = shown.rejected
    ? `<p class="state" role="status"><span class="status s-REJECTED">REJECTED</span> Final for these candidate bytes: nothing of this candidate will be exported.</p>`
    : shown.approvals.met
      ? `<p class="state" role="status"><span class="status s-APPROVED_FOR_RELEASE">APPROVED_FOR_RELEASE</span> ${esc(shown.count)}: final for these candidate bytes; 'evidence-bridge review export' includes it.</p>`
      : undefined;
  const action = `${v.base}/c/${id}/decide`;
  const form = `<form class="decide" method="post" action="${esc(action)}">
<input type="hidden" name="candidate" value="${esc(e.candidate_sha256)}">
<input type="hidden" name="tm" value="${d.view.typology ? "1" : "0"}">
<input type="hidden" name="clean" value="${d.view.clean ? "1" : "0"}">
<input type="hidden" name="csrf" value="${esc(d.csrf)}">
<label for="note">Note (one line, travels with the export; never paste an IOC value)</label>
<input type="text" id="note" name="note" maxlength="1000" required autocomplete="off">
<div class="buttons">
<button class="approve" type="submit" name="decision" value="approve">Approve</button>
<button class="reject" type="submit" name="decision" value="reject">Reject</button>
<button class="defer" type="submit" name="decision" value="defer">Defer (needs more evidence)</button>
</div>
</form>`;
  return `<h1>Candidate <span class="mono">${esc(id.slice(0, SHORT))}</span></h1>
${notice}
<div class="card">
<dl class="facts">
<dt>capsule</dt><dd class="mono">${esc(id)}</dd>
<dt>candidate</dt><dd class="mono">sha256:${esc(e.candidate_sha256)} (${e.candidate.feed_policy.typology_match_visible ? "with typology matches" : "default view"})</dd>
<dt>status</dt><dd>${statusBadge(e, v)}</dd>
<dt>approvals</dt><dd>${esc(shown.count)}${shown.rejected ? " · rejected" : shown.approvals.met ? " · releasable" : ""}</dd>
</dl>
</div>
<h2>Why it is a candidate</h2>
<div class="card"><ul class="reasons">
${d.reasons.map((r) => `<li>${esc(r)}</li>`).join("\n")}
</ul></div>
<h2>${finished === undefined ? "Decide" : "Decision"}</h2>
<div class="card">${finished ?? form}</div>
<h2>Decisions on this capsule</h2>
${history}
<h2>The candidate (outward record)</h2>
<pre>${esc(JSON.stringify(e.candidate, null, 2))}</pre>`;
}

/**
 * A refusal from the review rules (capsules/review), which name CLI flags, in the page's words: the page has a note
 * field, not a `--note` flag.
 */
export function pageWording(text: string): string {
  return text
    .replace(/--note refused:/g, "The note was refused:")
    .replace(/--public-note refused:/g, "The public note was refused:")
    .replace(/(^|[\s(])--note: /g, "$1the note: ")
    .replace(/(^|[\s(])--public-note: /g, "$1the public note: ")
    .replace(/(^|[\s(])--reason: /g, "$1the reason: ")
    .replace(/--public-note\b/g, "the public note field")
    .replace(/--note\b/g, "the note field")
    .replace(/--reason\b/g, "the reason field");
}

/** A refusal or error page body. */
export function messageView(title: string, text: string, base: string): string {
  return `<h1>${esc(title)}</h1><p class="notice error" role="alert">${esc(text)}</p><p><a href="${esc(base)}/">Back to the queue</a></p>`;
}
