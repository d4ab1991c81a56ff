/**
 * HTTP for the upstream client (hosted-tool-server.md §1, §7): one request per call with an exact
 * Content-Length and no Origin header, a deadline covering every attempt, caller cancellation, a response size
 * cap enforced while reading (fail closed, nothing beyond the cap is buffered), and one retry for connection
 * failures and 5xx statuses only. A `text/event-stream` answer is read event by event when the caller says which
 * event it waits for (`pickEvent`); the cap, the deadline and cancellation apply to the stream as to a body.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { EventStreamError, EventStreamReader } from "./event-stream.js";

export const MAX_RESPONSE_BYTES = 8 * 1024 * 1024;

export type TransportFailureKind =
  /** No connection, or the connection ended before a complete response. Retried once. */
  | "connection"
  /** The deadline passed before a complete response. Not retried: the budget is spent. */
  | "timeout"
  /** The caller's AbortSignal fired; the request was destroyed. */
  | "aborted"
  /** The response declared or delivered more than the cap. Not retried. */
  | "too-large"
  /** An event stream that cannot be read (not UTF-8). Not retried. */
  | "malformed";

export class TransportError extends Error {
  override readonly name = "TransportError";
  constructor(
    readonly kind: TransportFailureKind,
    message: string,
    /** Attempts made (1 or 2). */
    readonly attempts: number,
    /** Response body bytes read before giving up (too-large: at most the cap plus one chunk). */
    readonly bytesRead = 0,
  ) {
    super(message);
  }
}

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /**
   * True when the answer was a `text/event-stream` read with `pickEvent`: `body` is then the data of the picked
   * event, exactly as sent (the connection was closed after it).
   */
  eventStream: boolean;
  /** Attempts made (1, or 2 after a retry). */
  attempts: number;
}

export interface HttpRequestSpec {
  method: "GET" | "POST";
  url: string;
  /** Extra headers (never Origin; Content-Length is always computed here). */
  headers?: Record<string, string>;
  /** Exact request body bytes (POST). */
  body?: Buffer;
  /** Budget for the whole call, retry included. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Response body cap in bytes (default 8 MiB). */
  maxResponseBytes?: number;
  /** Retries after a connection failure or a 5xx (default 1). */
  retries?: number;
  /** Pause before a retry, in ms (default 200; shortened to fit the deadline). */
  retryDelayMs?: number;
  /**
   * For a 200 `text/event-stream` answer: the event the caller waits for (given each event's data). The attempt
   * completes with the first accepted event; a stream that ends before one is a connection failure (retried like
   * one). Without it an event stream is buffered like any body.
   */
  pickEvent?: (data: string) => boolean;
}

/** The media type of a Content-Type header, lower-case, without parameters. */
export function mediaType(header: string | string[] | undefined): string {
  return String(header ?? "").split(";")[0].trim().toLowerCase();
}

/** Keep-alive agents owned by one client; `destroy()` closes idle sockets on shutdown. */
export class Agents {
  readonly http = new HttpAgent({ keepAlive: true, maxSockets: 64 });
  readonly https = new HttpsAgent({ keepAlive: true, maxSockets: 64 });
  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

class AttemptFailure extends Error {
  constructor(
    readonly kind: TransportFailureKind,
    message: string,
    readonly bytesRead = 0,
  ) {
    super(message);
  }
}

function describeNetworkError(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case "ECONNREFUSED":
      return "connection refused";
    case "ECONNRESET":
      return "connection reset";
    case "EPIPE":
      return "connection closed while sending";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "host name not resolved";
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return "host unreachable";
    case "ETIMEDOUT":
      return "connection timed out";
    default:
      return e.code ? `network error ${e.code}` : "connection closed without a response";
  }
}

/** One attempt. Resolves with any HTTP status; rejects with AttemptFailure. */
function attempt(spec: HttpRequestSpec, agents: Agents, deadline: number): Promise<Omit<HttpResponse, "attempts">> {
  const cap = spec.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  const url = new URL(spec.url);
  const isHttps = url.protocol === "https:";
  const headers: Record<string, string> = { ...spec.headers };
  for (const k of Object.keys(headers)) if (k.toLowerCase() === "origin" || k.toLowerCase() === "content-length") delete headers[k];
  if (spec.body) headers["Content-Length"] = String(spec.body.length);
  return new Promise((resolve, reject) => {
    let settled = false;
    let bytesRead = 0;
    const finish = (err: AttemptFailure | undefined, value?: Omit<HttpResponse, "attempts">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      spec.signal?.removeEventListener("abort", onAbort);
      if (err) {
        req.destroy();
        reject(err);
      } else {
        resolve(value!);
        // An event stream may stay open after the answer: nothing more is read from it.
        if (value!.eventStream) req.destroy();
      }
    };
    const onAbort = () => finish(new AttemptFailure("aborted", "the call was cancelled"));
    const remaining = Math.max(0, deadline - Date.now());
    const timer = setTimeout(() => finish(new AttemptFailure("timeout", `no complete response within ${spec.timeoutMs} ms`)), remaining);
    const req = (isHttps ? httpsRequest : httpRequest)(
      url,
      { method: spec.method, headers, agent: isHttps ? agents.https : agents.http },
      (res: IncomingMessage) => {
        const declared = res.headers["content-length"];
        if (declared !== undefined && Number(declared) > cap) {
          finish(new AttemptFailure("too-large", `the response declares ${declared} bytes, above the ${cap}-byte cap`));
          return;
        }
        if (spec.pickEvent && res.statusCode === 200 && mediaType(res.headers["content-type"]) === "text/event-stream") {
          readEventStream(res, spec.pickEvent);
          return;
        }
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => {
          bytesRead += c.length;
          if (bytesRead > cap) {
            finish(new AttemptFailure("too-large", `the response exceeds the ${cap}-byte cap`, bytesRead));
            return;
          }
          chunks.push(c);
        });
        res.on("end", () => {
          if (!res.complete) finish(new AttemptFailure("connection", "connection closed before the response was complete", bytesRead));
          else finish(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), eventStream: false });
        });
        res.on("aborted", () => finish(new AttemptFailure("connection", "connection closed before the response was complete", bytesRead)));
        res.on("error", (e: NodeJS.ErrnoException) => finish(new AttemptFailure("connection", describeNetworkError(e), bytesRead)));
      },
    );
    req.on("error", (e: NodeJS.ErrnoException) => finish(new AttemptFailure("connection", describeNetworkError(e))));

    /** Reads events until the one wanted, under the same cap, deadline and cancellation as a body. */
    function readEventStream(res: IncomingMessage, pick: (data: string) => boolean): void {
      const reader = new EventStreamReader(pick);
      const done = (data: string) =>
        finish(undefined, { status: res.statusCode ?? 0, headers: res.headers, body: Buffer.from(data, "utf8"), eventStream: true });
      res.on("data", (c: Buffer) => {
        bytesRead += c.length;
        if (bytesRead > cap) {
          finish(new AttemptFailure("too-large", `the event stream exceeds the ${cap}-byte cap`, bytesRead));
          return;
        }
        try {
          const picked = reader.push(c);
          if (picked !== undefined) done(picked);
        } catch (e) {
          if (!(e instanceof EventStreamError)) throw e;
          finish(new AttemptFailure("malformed", e.message, bytesRead));
        }
      });
      res.on("end", () => {
        try {
          const picked = reader.end();
          if (picked !== undefined) return done(picked);
        } catch (e) {
          if (!(e instanceof EventStreamError)) throw e;
          return finish(new AttemptFailure("malformed", e.message, bytesRead));
        }
        finish(new AttemptFailure("connection", `the event stream ended without the response (${reader.events} event(s) read)`, bytesRead));
      });
      res.on("aborted", () => finish(new AttemptFailure("connection", "the event stream closed before the response", bytesRead)));
      res.on("error", (e: NodeJS.ErrnoException) => finish(new AttemptFailure("connection", describeNetworkError(e), bytesRead)));
    }
    if (spec.signal) {
      if (spec.signal.aborted) {
        onAbort();
        return;
      }
      spec.signal.addEventListener("abort", onAbort, { once: true });
    }
    if (remaining === 0) {
      finish(new AttemptFailure("timeout", `no complete response within ${spec.timeoutMs} ms`));
      return;
    }
    req.end(spec.body);
  });
}

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (ms <= 0 || signal?.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal?.removeEventListener("abort", done);
      resolve();
    }
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Sends a request with the retry policy: a connection failure or a 5xx is retried once (time permitting);
 * 4xx statuses, timeouts, cancellations and oversize responses never are. Resolves with the last HTTP response
 * of any status; rejects with {@link TransportError}.
 */
export async function sendHttp(spec: HttpRequestSpec, agents: Agents): Promise<HttpResponse> {
  const deadline = Date.now() + spec.timeoutMs;
  const retries = spec.retries ?? 1;
  let attempts = 0;
  for (;;) {
    attempts++;
    try {
      const res = await attempt(spec, agents, deadline);
      if (res.status >= 500 && res.status <= 599 && attempts <= retries && Date.now() < deadline) {
        await pause(Math.min(spec.retryDelayMs ?? 200, deadline - Date.now()), spec.signal);
        if (spec.signal?.aborted) throw new AttemptFailure("aborted", "the call was cancelled");
        continue;
      }
      return { ...res, attempts };
    } catch (e) {
      if (!(e instanceof AttemptFailure)) throw e;
      if (e.kind === "connection" && attempts <= retries && Date.now() < deadline && !spec.signal?.aborted) {
        await pause(Math.min(spec.retryDelayMs ?? 200, deadline - Date.now()), spec.signal);
        if (!spec.signal?.aborted) continue;
        throw new TransportError("aborted", "the call was cancelled", attempts);
      }
      if (e.kind === "connection" && spec.signal?.aborted) throw new TransportError("aborted", "the call was cancelled", attempts);
      throw new TransportError(e.kind, e.message, attempts, e.bytesRead);
    }
  }
}
