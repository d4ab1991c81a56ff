/**
 * The HTTP plumbing both review pages share (the local store's and the team queue's): one answer writer that always
 * sends the page's security headers, a bounded reader of decision forms, the refusal it throws, and listening on
 * loopback only / closing with every open connection.
 */
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { LOOPBACK, SECURITY_HEADERS } from "./guard.js";

/** Largest decision form body. */
export const FORM_MAX_BYTES = 16 * 1024;

/** A request refused with an HTTP status and a sentence for the page. */
export class HttpRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function send(res: ServerResponse, status: number, type: string, body: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { ...SECURITY_HEADERS, "Content-Type": type, "Content-Length": String(Buffer.byteLength(body)), ...extra });
  res.end(body);
}

export function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    const type = (req.headers["content-type"] ?? "").split(";")[0].trim().toLowerCase();
    if (type !== "application/x-www-form-urlencoded") {
      reject(new HttpRefusal(415, "expected a form (application/x-www-form-urlencoded)"));
      req.resume();
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    req.on("data", (c: Buffer) => {
      total += c.length;
      if (total > FORM_MAX_BYTES) {
        reject(new HttpRefusal(413, `the form exceeds ${FORM_MAX_BYTES} bytes`));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on("end", () => resolve(new URLSearchParams(Buffer.concat(chunks).toString("utf8"))));
    req.on("error", reject);
  });
}


/** Listens on 127.0.0.1 only (`port` 0 picks a free one) and resolves to the port, or rejects with the listen error. */
export function listenOnLoopback(server: Server, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ host: LOOPBACK, port, exclusive: true }, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

/** Stops listening and drops every open connection (a kept-alive browser tab would otherwise hold the close). */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
