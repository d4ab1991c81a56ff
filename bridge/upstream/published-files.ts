/**
 * Published files under `{base_url}` (the JSON readings and the intelligence pack; product.md §6): plain GETs
 * with the same timeout, retry and size-cap rules as tool calls, a short TTL cache (failures are not cached), and
 * the source URL and fetch time attached to every answer.
 */
import { Agents, MAX_RESPONSE_BYTES, sendHttp, TransportError } from "./http-transport.js";

export interface PublishedFile {
  ok: true;
  /** Absolute URL the bytes came from. */
  url: string;
  /** When the bytes were fetched from upstream (ISO-8601, UTC); a cached answer keeps its original time. */
  fetchedAt: string;
  fromCache: boolean;
  contentType: string | undefined;
  bytes: Buffer;
  /** `generated_at` of a JSON reading, when its top level has one that is an ISO-8601 timestamp (at most 64 characters). */
  generatedAt: string | undefined;
}

export interface PublishedFailure {
  ok: false;
  url: string | undefined;
  reason: string;
  retryable: boolean;
}

export type PublishedOutcome = PublishedFile | PublishedFailure;

export interface PublishedFilesOptions {
  baseUrl: string | undefined;
  timeoutMs: number;
  /** Cache lifetime in ms (default 60 s; 0 disables). */
  ttlMs?: number;
  /** Size cap per file (default 8 MiB). */
  maxBytes?: number;
  retryDelayMs?: number;
  now?: () => number;
}

/** Paths the bridge may fetch: readings and integrations files, no traversal, no query. */
const SAFE_PATH = /^(?:readings|integrations)\/(?:[A-Za-z0-9_-][A-Za-z0-9._-]*\/)*[A-Za-z0-9_-][A-Za-z0-9._-]*$/;

export function isSafePublishedPath(path: string): boolean {
  return SAFE_PATH.test(path) && !path.split("/").some((seg) => seg === "." || seg === "..");
}

/** A `generated_at` the bridge repeats: an ISO-8601 date and time, nothing else. */
const GENERATED_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})?$/;

interface Entry {
  at: number;
  file: PublishedFile;
}

export class PublishedFiles {
  private readonly cache = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<PublishedOutcome>>();

  constructor(
    private readonly opts: PublishedFilesOptions,
    private readonly agents: Agents,
  ) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  /** Fetches `{base_url}/<path>` (e.g. `readings/board-alarm-latest.json`). */
  async fetch(path: string, signal?: AbortSignal): Promise<PublishedOutcome> {
    if (this.opts.baseUrl === undefined) return { ok: false, url: undefined, reason: "no published-files base URL is configured", retryable: false };
    if (!isSafePublishedPath(path)) return { ok: false, url: undefined, reason: "not a published readings or integrations path", retryable: false };
    const ttl = this.opts.ttlMs ?? 60_000;
    const hit = this.cache.get(path);
    if (hit && ttl > 0 && this.now() - hit.at < ttl) return { ...hit.file, fromCache: true };
    const running = this.inflight.get(path);
    if (running && !signal) return running;
    const p = this.load(path, signal).finally(() => {
      if (this.inflight.get(path) === p) this.inflight.delete(path);
    });
    if (!signal) this.inflight.set(path, p);
    return p;
  }

  clear(): void {
    this.cache.clear();
  }

  private async load(path: string, signal: AbortSignal | undefined): Promise<PublishedOutcome> {
    const url = `${this.opts.baseUrl!.replace(/\/+$/, "")}/${path}`;
    const cap = this.opts.maxBytes ?? MAX_RESPONSE_BYTES;
    try {
      const res = await sendHttp(
        {
          method: "GET",
          url,
          headers: { Accept: "application/json, application/x-ndjson;q=0.9, */*;q=0.1" },
          timeoutMs: this.opts.timeoutMs,
          signal,
          maxResponseBytes: cap,
          retryDelayMs: this.opts.retryDelayMs,
        },
        this.agents,
      );
      if (res.status !== 200) {
        const retryable = res.status >= 500 || res.status === 429;
        return { ok: false, url, reason: `the published file answered HTTP ${res.status}`, retryable };
      }
      let generatedAt: string | undefined;
      if (path.endsWith(".json")) {
        let parsed: unknown;
        try {
          parsed = JSON.parse(res.body.toString("utf8"));
        } catch {
          return { ok: false, url, reason: "the published file is not valid JSON", retryable: false };
        }
        const g = typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>).generated_at : undefined;
        // Repeated under the resource's `_meta`: only a timestamp, never other upstream words (issue 29 item 2).
        if (typeof g === "string" && GENERATED_AT.test(g)) generatedAt = g;
      }
      const ct = res.headers["content-type"];
      const file: PublishedFile = {
        ok: true,
        url,
        fetchedAt: new Date(this.now()).toISOString(),
        fromCache: false,
        contentType: typeof ct === "string" ? ct : undefined,
        bytes: res.body,
        generatedAt,
      };
      if ((this.opts.ttlMs ?? 60_000) > 0) this.cache.set(path, { at: this.now(), file });
      return file;
    } catch (e) {
      if (!(e instanceof TransportError)) throw e;
      const retryable = e.kind === "connection" || e.kind === "timeout";
      return { ok: false, url, reason: e.kind === "too-large" ? `${e.message}; refused` : e.message, retryable };
    }
  }
}
