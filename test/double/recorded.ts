/**
 * The recorded material the test double answers from, read in place from `../shared/data` (never copied):
 * `hosted-responses/` (bodies, `index.tsv`, `requests.jsonl`) and `published/` (the files the server reads).
 * The same shape is also written by us: `test/double/synthetic/data/` (see synthetic/generate.ts), used when
 * `../shared/data` is absent or when a test asks for it.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Repository root (this file lives in `test/double/`). */
export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** Default data directory: `../shared/data` beside the repository. */
export const defaultDataRoot = resolve(repoRoot, "../shared/data");
/** Our own synthetic data set in the same shape (committed; written by test/double/synthetic/generate.ts). */
export const SYNTHETIC_DATA_ROOT = resolve(repoRoot, "test/double/synthetic/data");

/** The data the double uses when a test names none: the recordings when present, else the synthetic set. */
export function doubleDataRoot(): string {
  return existsSync(resolve(defaultDataRoot, "hosted-responses")) ? defaultDataRoot : SYNTHETIC_DATA_ROOT;
}

/** One row of `index.tsv` joined with its `requests.jsonl` line. */
export interface RecordedExchange {
  file: string;
  httpStatus: number;
  contentType: string;
  /** Headers other than Content-Type, as listed in `index.tsv`. */
  otherHeaders: Array<[string, string]>;
  bodyBytes: number;
  outcome: string;
  /** HTTP method of the recorded request. */
  method: string;
  /** Request body text; `null` when it was not recorded inline (`@file` bodies); `""` for an empty body. */
  requestBody: string | null;
  /** Extra request headers given to curl with `-H`. */
  requestHeaders: Array<[string, string]>;
}

export class RecordedData {
  readonly responsesDir: string;
  readonly publishedDir: string;
  private readonly bodies = new Map<string, Buffer>();
  private exchangesCache: RecordedExchange[] | undefined;

  constructor(readonly dataRoot: string = defaultDataRoot) {
    this.responsesDir = resolve(dataRoot, "hosted-responses");
    this.publishedDir = resolve(dataRoot, "published");
    if (!existsSync(this.responsesDir) || !existsSync(this.publishedDir)) {
      throw new Error(`hosted double: recorded data not found under ${dataRoot} (expected hosted-responses/ and published/)`);
    }
  }

  /** Bytes of a recorded response body (cached). */
  body(file: string): Buffer {
    let b = this.bodies.get(file);
    if (!b) {
      b = readFileSync(resolve(this.responsesDir, file));
      this.bodies.set(file, b);
    }
    return b;
  }

  /** Every indexed exchange, in index order. */
  exchanges(): RecordedExchange[] {
    if (this.exchangesCache) return this.exchangesCache;
    const requests = new Map<string, { http_method: string; body: string; extra_curl_args: string[] }>();
    for (const line of readFileSync(resolve(this.responsesDir, "requests.jsonl"), "utf8").split("\n")) {
      if (line.trim() === "") continue;
      const r = JSON.parse(line) as { file: string; http_method: string; body: string; extra_curl_args: string[] };
      requests.set(r.file, r);
    }
    const rows = readFileSync(resolve(this.responsesDir, "index.tsv"), "utf8").split("\n").slice(1);
    const out: RecordedExchange[] = [];
    for (const row of rows) {
      if (row.trim() === "") continue;
      const [file, status, contentType, other, bytes, outcome] = row.split("\t");
      const req = requests.get(file);
      if (!req) throw new Error(`hosted double: ${file} is in index.tsv but not in requests.jsonl`);
      const requestHeaders: Array<[string, string]> = [];
      for (let k = 0; k < req.extra_curl_args.length; k++) {
        if (req.extra_curl_args[k] === "-H") requestHeaders.push(splitHeader(req.extra_curl_args[++k]));
      }
      let requestBody: string | null = req.body;
      if (requestBody === "@@EMPTY") requestBody = "";
      else if (requestBody.startsWith("@")) requestBody = null;
      out.push({
        file,
        httpStatus: Number(status),
        contentType,
        otherHeaders: other ? other.split(";").map(splitHeader) : [],
        bodyBytes: Number(bytes),
        outcome,
        method: req.http_method,
        requestBody,
        requestHeaders,
      });
    }
    this.exchangesCache = out;
    return out;
  }

  /** The production origin the recordings carry (`serverInfo.websiteUrl` of the recorded initialize). */
  recordedOrigin(): string {
    const init = JSON.parse(this.body("00-initialize.json").toString("utf8")) as { result: { serverInfo: { websiteUrl: string } } };
    return new URL(init.result.serverInfo.websiteUrl).origin;
  }

  /** Bytes of a published file (`readings/x.json`, `integrations/pack/...`), or undefined when absent. */
  published(relPath: string): Buffer | undefined {
    const full = resolve(this.publishedDir, relPath);
    if (!full.startsWith(this.publishedDir + "/") || !existsSync(full)) return undefined;
    return readFileSync(full);
  }
}

function splitHeader(h: string): [string, string] {
  const k = h.indexOf(":");
  return [h.slice(0, k).trim(), h.slice(k + 1).trim()];
}

/**
 * Replaces the `id` of a recorded body (`{"jsonrpc": "2.0", "id": <id>, ...`) with `idText`, leaving every other
 * byte as recorded.
 */
export function withId(body: string, idText: string): string {
  const m = /^\{"jsonrpc": "2\.0", "id": (null|-?[0-9][0-9.eE+-]*|"(?:[^"\\]|\\.)*"), /.exec(body);
  if (!m) throw new Error("hosted double: recorded body does not start with a JSON-RPC envelope");
  return `{"jsonrpc": "2.0", "id": ${idText}, ${body.slice(m[0].length)}`;
}
