/**
 * `review serve --team` (issue 34 item 3): the review page over the team queue, bound to 127.0.0.1 only, with the
 * same request guard as the local page (guard.ts: peer, Host, Origin, Sec-Fetch-Site, session token; decisions need
 * their form's CSRF token, bound to the capsule and the candidate digest). Every request reads and verifies the team
 * queue again (capsules/team/team-view.ts: memberships, the whole chain, this member's position), so decisions made
 * by other members meanwhile show up; requests are served one at a time (they move this member's signed position).
 * A decision is appended to the team chain by capsules/team/team-review.ts (`decideOnTeam`, retrying on a lost head
 * when another member appended first), signed with this member's key. Routes, all under `/<token>`:
 *
 *     GET  /                      the team queue (status, approvals under the signed membership, published hour)
 *     GET  /c/<capsule id>        one candidate (its decisions and the candidate's outward record)
 *     POST /c/<capsule id>/decide a decision (application/x-www-form-urlencoded: candidate, csrf, reason, decision)
 *     GET  /assets/page.css, /assets/icon.svg
 *
 * Not on the team page: private and public notes (refused with `--team`, as on the CLI), typology-match and CLEAN
 * views (a member publishes the default view), IOC values and releases.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { approvalsText, reasonOf, REVIEW_REASONS, ReviewError, VERB_DECISIONS, type ReviewReason } from "../../capsules/review/index.js";
import { isReviewReason } from "../../capsules/review/text-rules.js";
import { TeamError } from "../../capsules/team/errors.js";
import type { MemberKeys } from "../../capsules/team/member-keys.js";
import type { TeamQueuePort } from "../../capsules/team/queue-port.js";
import { decideOnTeam, teamQueue } from "../../capsules/team/team-review.js";
import { readTeamState } from "../../capsules/team/team-state.js";
import { readTeamView, type TeamView, type ViewMode } from "../../capsules/team/team-view.js";
import { ICON_SVG, PAGE_CSS } from "./assets.js";
import { closeServer, HttpRefusal, listenOnLoopback, readForm, send } from "./http.js";
import { admit, csrfToken, csrfValid, LOOPBACK, newSession, type Session } from "./guard.js";
import { esc, page } from "./html.js";
import { messageView, pageWording } from "./views.js";

const CAPSULE_PATH = /^\/c\/([0-9a-f]{64})(\/decide)?(?:\?(.*))?$/;
const SHORT = 12;
/** The CSRF binding's view part: the team page has one view. */
const TEAM_VIEW = "team";

export interface TeamReviewPageOptions {
  home: string;
  port: TeamQueuePort;
  keys: MemberKeys;
  /** 0 picks a free port. */
  listenPort: number;
}

export interface TeamReviewPage {
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startTeamReviewPage(opts: TeamReviewPageOptions): Promise<TeamReviewPage> {
  let session: Session | undefined;
  // One request at a time: each read moves this member's signed position and view cache.
  let queue: Promise<void> = Promise.resolve();
  const server: Server = createServer((req, res) => {
    const run = queue.then(() => handle(req, res));
    queue = run.catch(() => undefined);
    run.catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", `internal error: ${(e as Error).message}\n`);
      else res.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  const view = (mode: ViewMode): Promise<TeamView> => readTeamView(opts.home, opts.port, opts.keys, readTeamState(opts.home), mode);
  const base = () => `/${session!.token}`;

  function render(res: ServerResponse, status: number, title: string, body: string, v?: TeamView): void {
    const who = v === undefined ? "this team member" : `${v.self.name} (${v.self.role})`;
    const policy = v === undefined ? "team" : `team ${v.state.teamId.slice(0, SHORT)}: ${v.membership.approvals} approval${v.membership.approvals === 1 ? "" : "s"} by distinct members`;
    send(res, status, "text/html; charset=utf-8", page({ title, base: base(), reviewer: who, policy, body }));
  }

  function queuePage(v: TeamView): string {
    const entries = teamQueue(v);
    const rows = entries.map(
      (e) => `<tr>
<td><a class="mono" href="${esc(base())}/c/${esc(e.publication.capsuleSha256)}">${esc(e.publication.capsuleSha256.slice(0, SHORT))}</a></td>
<td><span class="status s-${esc(e.status)}">${esc(e.status)}</span></td>
<td>${esc(approvalsText(e.approvals))}</td>
<td>${esc(e.publication.hour)}</td>
<td>${esc(e.last === undefined ? "none" : `${e.last.record.decision} by ${e.last.record.reviewer.name}`)}</td>
</tr>`,
    );
    const table =
      rows.length === 0
        ? "<p>No candidates.</p>"
        : `<table>
<thead><tr><th>Capsule</th><th>Status</th><th>Approvals</th><th>Published (hour)</th><th>Last decision</th></tr></thead>
<tbody>
${rows.join("\n")}
</tbody>
</table>`;
    return `<h1>Team review queue</h1>
${table}
<p class="summary">${esc(entries.length)} candidate${entries.length === 1 ? "" : "s"} in team ${esc(v.state.teamId.slice(0, SHORT))}; chain verified (${esc(v.chain.rows)} record${v.chain.rows === 1 ? "" : "s"})</p>`;
  }

  function candidatePage(v: TeamView, id: string, notice?: { ok: boolean; text: string }): string {
    const entry = teamQueue(v).find((e) => e.publication.capsuleSha256 === id);
    if (entry === undefined) throw new HttpRefusal(404, `no candidate of capsule ${id} in the team queue`);
    const p = entry.publication;
    if (p.candidateBytes === undefined) throw new HttpRefusal(500, "the candidate's bytes were not read");
    const decisions = v.chain.state.recordsForDigest(p.candidateSha256);
    const history =
      decisions.length === 0
        ? "<p>No decisions yet.</p>"
        : `<table><thead><tr><th>#</th><th>Decided (UTC)</th><th>Decision</th><th>Member</th><th>Reason</th></tr></thead><tbody>
${decisions.map((x) => `<tr><td>${esc(x.record.seq)}</td><td>${esc(x.record.decided_at)}</td><td><span class="status s-${esc(x.record.decision)}">${esc(x.record.decision)}</span></td><td>${esc(x.record.reviewer.name)}</td><td>${esc(reasonOf(x.record) ?? "—")}</td></tr>`).join("\n")}
</tbody></table>`;
    const final = entry.approvals.rejected !== undefined || entry.approvals.met;
    const form = `<form class="decide" method="post" action="${esc(base())}/c/${esc(id)}/decide">
<input type="hidden" name="candidate" value="${esc(p.candidateSha256)}">
<input type="hidden" name="csrf" value="${esc(csrfToken(session!, id, p.candidateSha256, TEAM_VIEW))}">
<label for="reason">Reason</label>
<select id="reason" name="reason" required>
<option value="">choose a reason</option>
${REVIEW_REASONS.map((r) => `<option value="${esc(r)}">${esc(r)}</option>`).join("\n")}
</select>
<div class="buttons">
<button class="approve" type="submit" name="decision" value="approve">Approve</button>
<button class="reject" type="submit" name="decision" value="reject">Reject</button>
<button class="defer" type="submit" name="decision" value="defer">Defer (needs more evidence)</button>
</div>
</form>`;
    const note = notice === undefined ? "" : `<p class="notice${notice.ok ? "" : " error"}" role="status">${esc(notice.text)}</p>`;
    const candidate = JSON.stringify(JSON.parse(Buffer.from(p.candidateBytes).toString("utf8")), null, 2);
    return `<h1>Candidate <span class="mono">${esc(id.slice(0, SHORT))}</span></h1>
${note}
<div class="card">
<dl class="facts">
<dt>capsule</dt><dd class="mono">${esc(id)}</dd>
<dt>candidate</dt><dd class="mono">sha256:${esc(p.candidateSha256)}</dd>
<dt>status</dt><dd><span class="status s-${esc(entry.status)}">${esc(entry.status)}</span></dd>
<dt>approvals</dt><dd>${esc(approvalsText(entry.approvals))}</dd>
</dl>
</div>
<h2>${final ? "Decision" : "Decide"}</h2>
<div class="card">${final ? `<p class="state" role="status">Final for these candidate bytes (${esc(entry.approvals.met ? "approved" : "rejected")}).</p>` : form}</div>
<h2>Decisions on this candidate (team chain)</h2>
${history}
<h2>The candidate (outward record)</h2>
<pre>${esc(candidate)}</pre>`;
  }

  async function decide(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const form = await readForm(req);
    const candidate = form.get("candidate") ?? "";
    if (!csrfValid(session!, form.get("csrf") ?? undefined, id, candidate, TEAM_VIEW)) {
      throw new HttpRefusal(403, "missing or invalid CSRF token: reload the candidate page and decide again");
    }
    const verb = form.get("decision") ?? "";
    if (!Object.hasOwn(VERB_DECISIONS, verb)) throw new HttpRefusal(400, "decision: expected approve, reject or defer");
    const reason = form.get("reason");
    if (!isReviewReason(reason)) throw new HttpRefusal(400, "reason: expected a code of the review reason list");
    if ((form.get("note") ?? "") !== "" || (form.get("public_note") ?? "") !== "") throw new HttpRefusal(400, "notes are not supported on the team queue yet");
    if (!/^[0-9a-f]{64}$/.test(candidate)) throw new HttpRefusal(400, "candidate: expected a SHA-256 digest");
    try {
      // The full candidate digest names exactly the bytes the page showed; the capsule must be the one posted to.
      const current = await view("warm");
      const p = current.publications.find((x) => x.candidateSha256 === candidate);
      if (p === undefined || p.capsuleSha256 !== id) throw new HttpRefusal(409, "the candidate is not in the team queue under this capsule any more: look at it again");
      const out = await decideOnTeam(opts.home, opts.port, opts.keys, { id: candidate, decision: VERB_DECISIONS[verb as keyof typeof VERB_DECISIONS], reason: reason as ReviewReason });
      const r = out.entry.record;
      const v = await view("cold");
      render(res, 200, `Candidate ${id.slice(0, SHORT)}`, candidatePage(v, id, { ok: true, text: `Recorded ${r.decision} as team decision #${r.seq} by ${r.reviewer.name}; ${approvalsText(out.approvals)}` }), v);
    } catch (e) {
      if (e instanceof ReviewError) {
        const v = await view("cold");
        render(res, 409, `Candidate ${id.slice(0, SHORT)}`, candidatePage(v, id, { ok: false, text: `Refused: ${pageWording(e.message)}` }), v);
        return;
      }
      throw e;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const a = admit(session!, req);
    if ("refused" in a) {
      req.resume();
      send(res, a.refused, "text/plain; charset=utf-8", `refused: ${a.reason}\n`);
      return;
    }
    const [path] = a.rest.split("?", 2);
    try {
      if (req.method === "GET" && path === "/assets/page.css") return send(res, 200, "text/css; charset=utf-8", PAGE_CSS);
      if (req.method === "GET" && path === "/assets/icon.svg") return send(res, 200, "image/svg+xml", ICON_SVG);
      if (req.method === "GET" && path === "/") {
        const v = await view("warm");
        return render(res, 200, "Team review queue", queuePage(v), v);
      }
      const m = CAPSULE_PATH.exec(path);
      if (m !== null && req.method === "GET" && m[2] === undefined) {
        const v = await view("cold");
        return render(res, 200, `Candidate ${m[1].slice(0, SHORT)}`, candidatePage(v, m[1]), v);
      }
      if (m !== null && req.method === "POST" && m[2] === "/decide") return await decide(req, res, m[1]);
      throw new HttpRefusal(req.method === "GET" || req.method === "POST" ? 404 : 405, "no such page");
    } catch (e) {
      req.resume();
      if (e instanceof HttpRefusal) return render(res, e.status, "Refused", messageView("Refused", e.message, base()));
      // The team queue did not verify, or the database failed: the page says what, in one line.
      if (e instanceof TeamError || e instanceof ReviewError || (e instanceof Error && /^(TeamDatabaseError|SealError)$/.test(e.name))) {
        return render(res, 502, "Team queue error", messageView("Team queue error", e.message, base()));
      }
      throw e;
    }
  }

  const port = await listenOnLoopback(server, opts.listenPort);
  session = newSession(port);
  return {
    url: `http://${LOOPBACK}:${port}/${session.token}/`,
    port,
    close: () => closeServer(server),
  };
}
