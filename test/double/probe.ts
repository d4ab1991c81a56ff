/** Small HTTP probes for tests of the double: exact requests over node:http, and raw bytes over a socket. */
import { request, type IncomingHttpHeaders } from "node:http";
import { connect } from "node:net";

export interface ProbeResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/**
 * Sends one request. A string/Buffer body gets its Content-Length (unless `chunked`); headers are sent exactly as
 * given (node:http adds only Host and Connection).
 */
export function probe(
  url: string,
  method: string,
  body: string | Buffer | null,
  headers: Record<string, string> = {},
  opts: { chunked?: boolean } = {},
): Promise<ProbeResponse> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const h: Record<string, string> = { ...headers };
    if (body !== null && !opts.chunked) h["Content-Length"] = String(Buffer.byteLength(body));
    if (opts.chunked) h["Transfer-Encoding"] = "chunked";
    const req = request({ host: u.hostname, port: u.port, path: `${u.pathname}${u.search}`, method, headers: h, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on("error", reject);
    });
    req.on("error", reject);
    if (body !== null) req.write(body);
    req.end();
  });
}

/** POSTs a JSON-RPC body to the MCP endpoint. */
export function post(url: string, body: string, headers: Record<string, string> = {}): Promise<ProbeResponse> {
  return probe(url, "POST", body, { "Content-Type": "application/json", ...headers });
}

/** Writes raw bytes to host:port and collects everything until the server closes the connection. */
export function rawExchange(url: string, raw: string | Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const u = new URL(url);
    const sock = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    sock.on("data", (c) => chunks.push(c));
    sock.on("end", () => resolve(Buffer.concat(chunks).toString("latin1")));
    sock.on("close", () => resolve(Buffer.concat(chunks).toString("latin1")));
    sock.on("error", reject);
    sock.write(raw);
  });
}

/** Status line, headers (lower-case) and body of a raw HTTP/1.x response. */
export function parseRaw(raw: string): { status: number; headers: Record<string, string>; body: string } {
  const at = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, at).split("\r\n");
  const headers: Record<string, string> = {};
  for (const l of head.slice(1)) {
    const k = l.indexOf(":");
    headers[l.slice(0, k).trim().toLowerCase()] = l.slice(k + 1).trim();
  }
  return { status: Number(head[0].split(" ")[1]), headers, body: raw.slice(at + 4) };
}
