/**
 * `review serve`: the review page over node:http, bound to 127.0.0.1 only. Every request passes guard.ts first
 * (peer, Host, Origin, Sec-Fetch-Site, session token); decisions additionally need their form's CSRF token and go
 * through recordDecision (capsules/review/decide.ts): the same reason codes, note rules, leak guard on the public
 * note, sealing of the private note, policy, lock, verified log and signature as `review approve|reject|defer`. The log is re-read on every request, so decisions made with the
 * CLI meanwhile show up. Routes, all under `/<token>`:
 *
 *     GET  /                      the queue           (?tm=1 typology matches visible, ?clean=1 include CLEAN)
 *     GET  /c/<capsule id>        one candidate
 *     POST /c/<capsule id>/decide a decision (application/x-www-form-urlencoded: candidate, tm, clean, csrf, reason,
 *                                 note (private), public_note, decision)
 *     GET  /assets/page.css, /assets/icon.svg   the stylesheet and the tab icon
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { IntelligencePack } from "../../published/pack/types.js";
import {
  countedKeys,
  loadReviewLog,
  queueEntry,
  readReviewPolicy,
  recordDecision,
  ReviewError,
  reviewQueue,
  shownFor,
  statusLens,
  openPrivateNote,
  VERB_DECISIONS,
  type Reviewer,
  type ReviewReason,
} from "../../capsules/review/index.js";
import { StoredDerivations } from "../../capsules/pipeline/stored.js";
import { StoreError } from "../../capsules/store/errors.js";
import type { SealedStore } from "../../capsules/store/store.js";
import { reasons } from "../cli/commands/review.js";
import { ICON_SVG, PAGE_CSS } from "./assets.js";
import { closeServer, HttpRefusal, listenOnLoopback, readForm, send } from "./http.js";
import { capsuleIocValues, recordRelease, ReleaseError } from "../../capsules/release/index.js";
import { esc } from "./html.js";
import { isReviewReason } from "../../capsules/review/text-rules.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { valueRows, valuesSection, valueView } from "./values.js";
import { admit, csrfToken, csrfValid, LOOPBACK, newSession, SECURITY_HEADERS, type Session } from "./guard.js";
import { page } from "./html.js";
import { candidateView, messageView, pageWording, queueView, viewQuery, type ViewContext } from "./views.js";

const CAPSULE_PATH = /^\/c\/([0-9a-f]{64})(\/decide|\/value|\/release)?(?:\?(.*))?$/;

export interface ReviewPageOptions {
  home: string;
  store: SealedStore;
  pack: IntelligencePack;
  reviewer: Reviewer & { key: { fingerprint: string } };
  /** 0 picks a free port. */
  port: number;
}

export interface ReviewPage {
  /** `http://127.0.0.1:PORT/<token>/` */
  url: string;
  port: number;
  close(): Promise<void>;
}

export async function startReviewPage(opts: ReviewPageOptions): Promise<ReviewPage> {
  let session: Session | undefined;
  const server: Server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) send(res, 500, "text/plain; charset=utf-8", `internal error: ${(e as Error).message}\n`);
      else res.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;

  function policyText(): string {
    const p = readReviewPolicy(opts.store);
    return p.approvals === 1 ? "1 approval" : `${p.approvals} approvals (four-eyes)`;
  }

  function render(res: ServerResponse, status: number, title: string, body: string): void {
    const s = session!;
    let policy = "unreadable";
    try {
      policy = policyText();
    } catch {
      // the page body says why (every view reads the policy)
    }
    send(res, status, "text/html; charset=utf-8", page({ title, base: `/${s.token}`, reviewer: opts.reviewer.name, policy, body }));
  }

  function context(): ViewContext & { records: ReturnType<typeof loadReviewLog>["records"] } {
    const log = loadReviewLog(opts.home);
    return { base: `/${session!.token}`, policy: readReviewPolicy(opts.store), state: log.state, now: Date.now(), records: log.records, isKnown: countedKeys(opts.home) };
  }

  function showCandidate(res: ServerResponse, id: string, view: { typology: boolean; clean: boolean }, notice?: { ok: boolean; text: string }, status = 200): void {
    const v = context();
    const derivations = new StoredDerivations(opts.store, opts.pack);
    const r = queueEntry(derivations, v.state, id, { includeTypologyMatches: view.typology, includeClean: view.clean });
    if (r.status !== "entry") {
      render(res, 404, "No candidate", messageView("No candidate", `capsule ${id} has no outward candidate: ${r.reason}`, v.base));
      return;
    }
    const e = r.entry;
    let hidden = 0;
    if (!e.candidate.feed_policy.typology_match_visible) {
      const full = derivations.candidate(id, { includeTypologyMatches: true, includeClean: true });
      if (full.status === "emitted") hidden = full.candidate.hypotheses.length - e.candidate.hypotheses.length;
    }
    derivations.save();
    // The form decides the bytes shown: the view they were derived in.
    const formView = { typology: e.candidate.feed_policy.typology_match_visible, clean: view.clean || e.decision !== undefined };
    const body = candidateView(
      {
        entry: e,
        reasons: reasons(e, hidden),
        history: v.records.filter((x) => x.record.capsule_sha256 === id),
        privateNote: (digest) => {
          const opened = openPrivateNote(opts.home, opts.store.keys.store, digest);
          return "note" in opened ? opened.note : `(cannot be shown: ${opened.problem})`;
        },
        csrf: csrfToken(session!, id, e.candidate_sha256, viewQuery(formView.typology, formView.clean)),
        view: formView,
        notice,
      },
      v,
    );
    // The IOC values of the approved candidate (hidden; each revealed on its own page). Values of a candidate that is
    // not approved are not listed: they can only be released from an approved candidate.
    const values = e.status === "APPROVED_FOR_RELEASE" ? valuesSection(valueRows(opts.home, opts.store, id, e.candidate_sha256), v.base, id) : "";
    render(res, status, `Candidate ${id.slice(0, 12)}`, body + values);
  }

  /** The kind and index a value page or a release form names. */
  function slotOf(kind: string | null, index: string | null): { kind: IocKind; index: number } {
    if (kind === null || !(IOC_KINDS as readonly string[]).includes(kind)) throw new HttpRefusal(400, `kind: expected one of ${IOC_KINDS.join(", ")}`);
    if (index === null || !/^[0-9]{1,4}$/.test(index)) throw new HttpRefusal(400, "index: expected an integer from 0 to 9999");
    return { kind: kind as IocKind, index: Number(index) };
  }

  function showValue(res: ServerResponse, id: string, kind: IocKind, index: number, notice?: string, status = 200): void {
    const v = context();
    const last = v.state.lastForCapsule(id);
    if (last === undefined || last.record.decision !== "APPROVED_FOR_RELEASE") throw new HttpRefusal(409, `capsule ${id} is not approved: values are shown and released only for an approved candidate`);
    const candidate = last.record.candidate_sha256;
    const row = valueRows(opts.home, opts.store, id, candidate).find((r) => r.kind === kind && r.index === index);
    if (row === undefined) throw new HttpRefusal(404, `capsule ${id} has no ${kind} value #${index}`);
    const value = capsuleIocValues(opts.store, id)[kind][index];
    const csrf = csrfToken(session!, id, candidate, `release/${kind}/${index}`);
    const body = (notice === undefined ? "" : `<p class="notice" role="status">${esc(notice)}</p>\n`) + valueView(row, value, v.base, id, candidate, csrf);
    render(res, status, `${kind} #${index}`, body);
  }

  async function release(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const form = await readForm(req);
    const candidate = form.get("candidate") ?? "";
    const { kind, index } = slotOf(form.get("kind"), form.get("index"));
    if (!csrfValid(session!, form.get("csrf") ?? undefined, id, candidate, `release/${kind}/${index}`)) {
      throw new HttpRefusal(403, "missing or invalid CSRF token: reload the value page and release again");
    }
    const reason = form.get("reason");
    if (!isReviewReason(reason)) throw new HttpRefusal(400, "reason: expected a code of the review reason list");
    const last = loadReviewLog(opts.home).state.lastForCapsule(id);
    if (last?.record.candidate_sha256 !== candidate) throw new HttpRefusal(409, "the candidate changed since the page was shown: look at it again");
    try {
      const { count } = recordRelease(opts.home, opts.store, opts.pack, { capsule_sha256: id, kind, index, reason }, opts.reviewer);
      showValue(res, id, kind, index, `Released by ${opts.reviewer.name}: ${count.released} of ${count.required} releases`);
    } catch (e) {
      if (e instanceof ReleaseError) {
        showValue(res, id, kind, index, `refused: ${e.message}`, 409);
        return;
      }
      throw e;
    }
  }

  async function decide(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const form = await readForm(req);
    const candidate = form.get("candidate") ?? "";
    const view = { typology: form.get("tm") === "1", clean: form.get("clean") === "1" };
    if (!csrfValid(session!, form.get("csrf") ?? undefined, id, candidate, viewQuery(view.typology, view.clean))) {
      throw new HttpRefusal(403, "missing or invalid CSRF token: reload the candidate page and decide again");
    }
    const verb = form.get("decision") ?? "";
    if (!Object.hasOwn(VERB_DECISIONS, verb)) throw new HttpRefusal(400, "decision: expected approve, reject or defer");
    const decision = VERB_DECISIONS[verb as keyof typeof VERB_DECISIONS];
    // Empty fields are absent notes; the reason is checked by recordDecision (the closed list the form offers).
    const note = form.get("note") || undefined;
    const publicNote = form.get("public_note") || undefined;
    const reason = (form.get("reason") ?? "") as ReviewReason;
    if (!opts.store.hasCapsule(id)) throw new HttpRefusal(404, `no capsule ${id} in the store`);
    try {
      const { entry } = recordDecision(
        opts.home,
        opts.store,
        opts.pack,
        {
          capsule_sha256: id,
          view: { includeTypologyMatches: view.typology, includeClean: view.clean },
          decision,
          reason,
          ...(note === undefined ? {} : { note }),
          ...(publicNote === undefined ? {} : { publicNote }),
          expectedDigest: candidate,
        },
        opts.reviewer,
      );
      const next = new URLSearchParams({ ...(view.typology ? { tm: "1" } : {}), ...(view.clean ? { clean: "1" } : {}), done: String(entry.record.seq) });
      res.writeHead(303, { ...SECURITY_HEADERS, Location: `/${session!.token}/c/${id}?${next.toString()}`, "Content-Length": "0" });
      res.end();
    } catch (e) {
      if (e instanceof ReviewError) {
        showCandidate(res, id, view, { ok: false, text: `Refused: ${pageWording(e.message)}` }, e.code === "busy" ? 503 : 409);
        return;
      }
      throw e;
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const s = session!;
    const a = admit(s, req);
    if ("refused" in a) {
      req.resume();
      send(res, a.refused, "text/plain; charset=utf-8", `refused: ${a.reason}\n`);
      return;
    }
    const [path, query = ""] = a.rest.split("?", 2);
    const params = new URLSearchParams(query);
    const view = { typology: params.get("tm") === "1", clean: params.get("clean") === "1" };
    try {
      if (req.method === "GET" && path === "/assets/page.css") {
        send(res, 200, "text/css; charset=utf-8", PAGE_CSS);
        return;
      }
      if (req.method === "GET" && path === "/assets/icon.svg") {
        send(res, 200, "image/svg+xml", ICON_SVG);
        return;
      }
      if (req.method === "GET" && path === "/") {
        const v = context();
        const derivations = new StoredDerivations(opts.store, opts.pack);
        const q = reviewQueue(derivations, v.state, { includeTypologyMatches: view.typology, includeClean: view.clean });
        derivations.save();
        render(res, 200, "Review queue", queueView(q, v.records, v, view));
        return;
      }
      const m = CAPSULE_PATH.exec(path);
      if (m !== null && req.method === "GET" && m[2] === undefined) {
        if (!opts.store.hasCapsule(m[1])) throw new HttpRefusal(404, `no capsule ${m[1]} in the store`);
        const done = params.get("done");
        const notice = done !== null && /^[0-9]{1,9}$/.test(done) ? describeDone(Number(done)) : undefined;
        showCandidate(res, m[1], view, notice);
        return;
      }
      if (m !== null && req.method === "POST" && m[2] === "/decide") {
        await decide(req, res, m[1]);
        return;
      }
      if (m !== null && req.method === "GET" && m[2] === "/value") {
        if (!opts.store.hasCapsule(m[1])) throw new HttpRefusal(404, `no capsule ${m[1]} in the store`);
        const slot = slotOf(params.get("kind"), params.get("index"));
        showValue(res, m[1], slot.kind, slot.index);
        return;
      }
      if (m !== null && req.method === "POST" && m[2] === "/release") {
        if (!opts.store.hasCapsule(m[1])) throw new HttpRefusal(404, `no capsule ${m[1]} in the store`);
        await release(req, res, m[1]);
        return;
      }
      throw new HttpRefusal(req.method === "GET" || req.method === "POST" ? 404 : 405, "no such page");
    } catch (e) {
      req.resume();
      if (e instanceof HttpRefusal) {
        render(res, e.status, "Refused", messageView("Refused", e.message, `/${s.token}`));
        return;
      }
      if (e instanceof ReviewError || e instanceof StoreError) {
        render(res, 500, "Error", messageView("Error", e.message, `/${s.token}`));
        return;
      }
      throw e;
    }
  }

  /** The notice after a decision, from the log (the redirect carries only the record number). */
  function describeDone(seq: number): { ok: boolean; text: string } | undefined {
    const r = loadReviewLog(opts.home).records[seq - 1]?.record;
    if (r === undefined) return undefined;
    const shown = shownFor(statusLens(opts.store), r.decision, r.candidate_sha256);
    return { ok: true, text: `Recorded ${shown.text} as record #${r.seq} by ${r.reviewer.name} at ${r.decided_at}, signed with ${r.reviewer.fingerprint.slice(0, 20)}…` };
  }

  const port = await listenOnLoopback(server, opts.port);
  session = newSession(port);
  return {
    url: `http://${LOOPBACK}:${port}/${session.token}/`,
    port,
    close: () => closeServer(server),
  };
}
