/**
 * The review page's IOC values of one candidate (issue 32 item 2): a table of every value's kind, position, checksum
 * state, how many stored capsules carry it and its release state, with the values themselves hidden; a value is
 * shown only on its own page, after the reviewer asks for it ("Reveal"), beside the release form. The release form's
 * CSRF token is bound to the capsule, the candidate and the value's kind and index (guard.ts).
 */
import { findWallets } from "../../capsules/assess/wallets.js";
import { capsuleIocValues, readReleaseKinds, releaseSlot, releaseState, type ReleaseCount } from "../../capsules/release/index.js";
import { REVIEW_REASONS } from "../../capsules/review/text-rules.js";
import type { SealedStore } from "../../capsules/store/store.js";
import { canonicalIoc } from "../../capsules/tokens/canonical.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { esc } from "./html.js";

export interface ValueRow {
  kind: IocKind;
  index: number;
  /** `verified`, `fails`, `no checksum` (wallets), or `-` (other kinds). */
  checksum: string;
  /** Stored capsules holding the same value (in its canonical form), this one included. */
  carriedBy: number;
  releasable: boolean;
  release?: ReleaseCount;
}

function checksumState(kind: IocKind, value: string): string {
  if (kind !== "wallets") return "-";
  const w = findWallets(value).find((t) => t.start === 0 && t.end === value.length);
  if (w === undefined) return "not a known address form";
  return w.checksum === true ? "verified" : w.checksum === false ? "fails" : "no checksum";
}

/** The rows of capsule `id`'s values (values read here, never returned). */
export function valueRows(home: string, store: SealedStore, id: string, candidate: string): ValueRow[] {
  const own = capsuleIocValues(store, id);
  const canonicalCounts = new Map<string, number>();
  for (const other of store.capsuleIds()) {
    let values;
    try {
      values = capsuleIocValues(store, other);
    } catch {
      continue;
    }
    const seen = new Set<string>();
    for (const kind of IOC_KINDS) for (const v of values[kind]) seen.add(`${kind}\u0000${canonicalIoc(kind, v) ?? v}`);
    for (const k of seen) canonicalCounts.set(k, (canonicalCounts.get(k) ?? 0) + 1);
  }
  const kinds = readReleaseKinds(store);
  const state = releaseState(home, store, candidate);
  return IOC_KINDS.flatMap((kind) =>
    own[kind].map((v, index) => ({
      kind,
      index,
      checksum: checksumState(kind, v),
      carriedBy: canonicalCounts.get(`${kind}\u0000${canonicalIoc(kind, v) ?? v}`) ?? 1,
      releasable: kinds.includes(kind),
      release: state.get(releaseSlot({ candidate_sha256: candidate, kind, index })),
    })),
  );
}

function releaseText(r: ValueRow): string {
  if (r.release !== undefined) {
    const done = r.release.released >= r.release.required;
    return `${done ? "RELEASED" : "pending"}: ${r.release.released} of ${r.release.required} (${r.release.reviewers.join(", ")})`;
  }
  return r.releasable ? "not released" : "not releasable (release policy: match tokens only)";
}

/** The table on the candidate page: no value, a Reveal link per value. */
export function valuesSection(rows: readonly ValueRow[], base: string, id: string): string {
  if (rows.length === 0) return "<h2>IOC values</h2>\n<p>This capsule holds no IOC value.</p>";
  const body = rows
    .map(
      (r) =>
        `<tr><td>${esc(r.kind)}</td><td>${esc(r.index)}</td><td class="mono">hidden</td><td>${esc(r.checksum)}</td><td>${esc(r.carriedBy)}</td><td>${esc(releaseText(r))}</td><td><a href="${esc(`${base}/c/${id}/value?kind=${r.kind}&index=${r.index}`)}">Reveal</a></td></tr>`,
    )
    .join("\n");
  return `<h2>IOC values</h2>
<p>Values stay hidden here; reveal one to check it and release it. A released value leaves in every export format once the review policy's number of reviewers released it.</p>
<table><thead><tr><th>Kind</th><th>#</th><th>Value</th><th>Checksum</th><th>Stored capsules carrying it</th><th>Release</th><th></th></tr></thead><tbody>
${body}
</tbody></table>`;
}

/** One revealed value with its release form (shown only on request; the page is served to 127.0.0.1 only). */
export function valueView(row: ValueRow, value: string, base: string, id: string, candidate: string, csrf: string): string {
  const form = row.releasable
    ? `<form class="decide" method="post" action="${esc(`${base}/c/${id}/release`)}">
<input type="hidden" name="candidate" value="${esc(candidate)}">
<input type="hidden" name="kind" value="${esc(row.kind)}">
<input type="hidden" name="index" value="${esc(row.index)}">
<input type="hidden" name="csrf" value="${esc(csrf)}">
<label for="reason">Reason</label>
<select id="reason" name="reason">${REVIEW_REASONS.map((r) => `<option value="${esc(r)}">${esc(r)}</option>`).join("")}</select>
<div class="buttons"><button class="approve" type="submit">Release this value</button></div>
</form>`
    : "<p>The store's release policy does not release this kind: it leaves only as a match token ('review policy --release KINDS').</p>";
  return `<h1>${esc(row.kind)} #${esc(row.index)} of <span class="mono">${esc(id.slice(0, 12))}</span></h1>
<div class="card"><dl class="facts">
<dt>value</dt><dd class="mono">${esc(value)}</dd>
<dt>checksum</dt><dd>${esc(row.checksum)}</dd>
<dt>stored capsules carrying it</dt><dd>${esc(row.carriedBy)}</dd>
<dt>release</dt><dd>${esc(releaseText(row))}</dd>
</dl></div>
${form}
<p><a href="${esc(`${base}/c/${id}`)}">Back to the candidate</a></p>`;
}
