/**
 * The review page's request checks, before any route runs (docs/review.md "The review page"):
 *
 * - the peer is 127.0.0.1 (the server binds there only; this is a second check);
 * - `Host` is exactly `127.0.0.1:PORT` (a DNS-rebinding page reaches us under its own host name: refused);
 * - `Origin`, when sent, is exactly `http://127.0.0.1:PORT`, and a POST must send it; `Sec-Fetch-Site`, when sent,
 *   is `same-origin` or `none` (a typed URL) — cross-site and same-site requests are refused;
 * - the path starts with the session token (random, 32 bytes, compared in constant time);
 * - a POST carries the CSRF token of its form: HMAC-SHA256 under a per-session secret over the form's purpose and
 *   the exact candidate it decides, so a token is good for one candidate's form only.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const LOOPBACK = "127.0.0.1";

export interface Session {
  /** The random path segment every URL starts with (base64url, 43 characters). */
  token: string;
  port: number;
  /** Per-session CSRF key (never leaves the process). */
  csrfKey: Buffer;
}

export function newSession(port: number): Session {
  return { token: randomBytes(32).toString("base64url"), port, csrfKey: randomBytes(32) };
}

export function origin(s: Session): string {
  return `http://${LOOPBACK}:${s.port}`;
}

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** The CSRF token of the decision form for one candidate in one view. */
export function csrfToken(s: Session, capsule: string, candidate: string, view: string): string {
  return createHmac("sha256", s.csrfKey).update(`decide\0${capsule}\0${candidate}\0${view}`).digest("base64url");
}

export function csrfValid(s: Session, given: string | undefined, capsule: string, candidate: string, view: string): boolean {
  return typeof given === "string" && sameText(given, csrfToken(s, capsule, candidate, view));
}

/** Why the request is refused (status and a short reason), or the path after the token. */
export function admit(s: Session, req: IncomingMessage): { refused: number; reason: string } | { rest: string } {
  const peer = req.socket.remoteAddress;
  if (peer !== LOOPBACK && peer !== `::ffff:${LOOPBACK}`) return { refused: 403, reason: "only 127.0.0.1 may connect" };
  if (req.headers.host !== `${LOOPBACK}:${s.port}`) return { refused: 421, reason: "unexpected Host header (only 127.0.0.1 with this port is served)" };
  const o = req.headers.origin;
  if (o !== undefined && o !== origin(s)) return { refused: 403, reason: "cross-origin request refused" };
  if (req.method === "POST" && o === undefined) return { refused: 403, reason: "a form submission without an Origin header is refused" };
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return { refused: 403, reason: "cross-site request refused" };
  const url = req.url ?? "";
  const prefix = `/${s.token}`;
  const head = url.slice(0, prefix.length);
  if (!sameText(head, prefix) || (url.length > prefix.length && url[prefix.length] !== "/" && url[prefix.length] !== "?")) {
    return { refused: 403, reason: "missing or wrong session token: open the URL that 'review serve' printed" };
  }
  return { rest: url.slice(prefix.length) || "/" };
}

/** Headers on every response: a strict CSP (no script at all, styles from this origin only) and no caching. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "Content-Security-Policy":
    "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  // same-origin, not no-referrer: with no-referrer Chromium sends `Origin: null` on form posts, which the Origin
  // check must refuse; the URL (with its token) is only ever sent back to this origin.
  "Referrer-Policy": "same-origin",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Cross-Origin-Resource-Policy": "same-origin",
  "Cache-Control": "no-store",
};
