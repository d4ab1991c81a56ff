/** Plain HTTP requests to the review page with full control of Host, Origin and body (node:http, 127.0.0.1 only). */
import { request } from "node:http";

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export function http(url: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  const u = new URL(url);
  if (u.hostname !== "127.0.0.1") throw new Error("tests talk to 127.0.0.1 only");
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "127.0.0.1", port: u.port, path: `${u.pathname}${u.search}`, method: opts.method ?? "GET", headers: { Host: u.host, ...opts.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(opts.body);
  });
}

/** The hidden fields of the decision form on a candidate page. */
export function formFields(html: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([a-z]+)" value="([^"]*)">/g)) out[m[1]] = m[2];
  return out;
}

export function post(url: string, origin: string | undefined, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Reply> {
  return http(url, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...(origin === undefined ? {} : { Origin: origin }), ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}
