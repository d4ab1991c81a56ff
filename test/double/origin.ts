/**
 * The double's view of `{base_url}`: the published files the hosted server fetches, with the reference's
 * per-signal cache (failures uncached) and the origin faults of hosted-tool-server.md §8.1 (origin down, one file
 * missing, slow origin, tampered ledger).
 */
import { pyParseBytes, type PyValue } from "./py-json.js";
import type { RecordedData } from "./recorded.js";

/** How the published files behave right now. */
export interface OriginState {
  /** Every fetch fails with {@link OriginState.downReason}. */
  down: boolean;
  /** Exception text of a refused fetch (the reference prints `<urlopen error [Errno 111] Connection refused>`). */
  downReason: string;
  /** Published paths (`readings/x.json`) that answer 404 although the file exists. */
  missing: Set<string>;
  /** Delay before each fetch completes, in milliseconds. */
  delayMs: number;
  /** When set, the ledger bytes are changed (one byte flipped) so that the byte receipt fails. */
  tamperLedger: boolean;
}

export const NOT_FOUND = "HTTP Error 404: File not found";
export const CONNECTION_REFUSED = "<urlopen error [Errno 111] Connection refused>";
export const LEDGER_PATH = "readings/china-econ-observations.jsonl";

export type Fetched<T> = { ok: true; value: T } | { ok: false; reason: string };

interface CacheEntry {
  at: number;
  value: PyValue;
}

export class Origin {
  readonly state: OriginState = { down: false, downReason: CONNECTION_REFUSED, missing: new Set(), delayMs: 0, tamperLedger: false };
  private readonly cache = new Map<string, CacheEntry>();
  /** Number of fetches that reached the origin (cache misses), for cache tests. */
  fetchCount = 0;

  constructor(
    private readonly data: RecordedData,
    /** Cache lifetime in milliseconds; 0 disables the cache (the reference uses 600 s). */
    private readonly ttlMs: number,
  ) {}

  /** True when the file exists locally and is not faulted. */
  has(relPath: string): boolean {
    return !this.state.down && !this.state.missing.has(relPath) && this.data.published(relPath) !== undefined;
  }

  /** True when a fault changes which readings the origin serves (replayed recordings no longer apply). */
  get faulted(): boolean {
    return this.state.down || this.state.missing.size > 0;
  }

  private async delay(): Promise<void> {
    if (this.state.delayMs > 0) await new Promise((r) => setTimeout(r, this.state.delayMs));
  }

  /** Raw bytes of a published file, as a fetch of `{base_url}/<relPath>` would return them. */
  async bytes(relPath: string): Promise<Fetched<Buffer>> {
    await this.delay();
    this.fetchCount++;
    if (this.state.down) return { ok: false, reason: this.state.downReason };
    if (this.state.missing.has(relPath)) return { ok: false, reason: NOT_FOUND };
    const b = this.data.published(relPath);
    if (!b) return { ok: false, reason: NOT_FOUND };
    if (relPath === LEDGER_PATH && this.state.tamperLedger) {
      const t = Buffer.from(b);
      const k = t.indexOf(0x37); // first "7": same length and line count, different SHA-256
      t[k] = 0x38;
      return { ok: true, value: t };
    }
    return { ok: true, value: b };
  }

  /** A parsed published reading, cached per path for the TTL (failures are never cached). */
  async reading(relPath: string): Promise<Fetched<PyValue>> {
    const hit = this.cache.get(relPath);
    if (hit && this.ttlMs > 0 && Date.now() - hit.at < this.ttlMs) return { ok: true, value: hit.value };
    const got = await this.bytes(relPath);
    if (!got.ok) return got;
    let value: PyValue;
    try {
      value = pyParseBytes(got.value);
    } catch (e) {
      return { ok: false, reason: (e as Error).message };
    }
    if (this.ttlMs > 0) this.cache.set(relPath, { at: Date.now(), value });
    return { ok: true, value };
  }

  clearCache(): void {
    this.cache.clear();
  }
}
