/**
 * The sealed row index: a cache of {@link RowFacts} per sealed capsule file, keyed by the file's size and
 * modification time, so listing 10,000 capsules opens one sealed file instead of 10,000. It is rebuilt
 * (incrementally) whenever it is missing, unreadable, of another version, or disagrees with the directory.
 * Being a cache, it is replaced atomically with last-writer-wins; concurrent writers never lose a capsule,
 * because every listing reconciles the index with the directory first.
 */
import { join } from "node:path";
import { SealError } from "../../src/crypto/errors.js";
import { replaceFile } from "../../src/crypto/safe-write.js";
import { SealKind, seal, unseal, type StoreKey } from "../../src/crypto/seal.js";
import { readCacheFile } from "./cache-file.js";
import { CAPSULE_ID, INDEX_LABEL } from "./layout.js";
import { RECORDED_KEY_SHAPE, type RecordedKeys, type RowFacts } from "./rows.js";
import { IOC_KINDS, type IocKind } from "../../published/pack/vocabulary.js";
import { TIERS, type Tier } from "../assessment/types.js";

/**
 * v3 adds the recorded keys (docs/assess.md "Idempotence") and the mark of each verified receipt; an index of an
 * older format is rebuilt once.
 */
export const ROW_INDEX_FORMAT = "evidence-bridge-row-index/v3";
const INDEX_SEAL_NAME = "store/rows.sealed";
/** Largest row index read (10,000 rows take about 2 MB). */
export const ROW_INDEX_MAX_BYTES = 64 * 1024 * 1024;

export interface IndexEntry {
  size: number;
  mtimeMs: number;
  facts: RowFacts;
  /** The assessment's identifiers for idempotent recording: sealed in the index, never part of a row. */
  recorded: RecordedKeys;
  /**
   * The mark of the receipt file last found valid for this capsule (store.ts `receiptMark`: signing key and file
   * identity), or null: a listing reads and verifies a receipt again only when its file is not that one.
   */
  receipt: string | null;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/**
 * One entry is a compact array (the index of 10,000 rows is read on every listing):
 * `[id, size, mtimeMs, created_at, kind, detectorTier, threatTier, overallTier, families, iocCounts, messageSha256,
 * assessmentId, receipt]` where kind is 0 (assessment) or 1 (other), iocCounts is null or the six counts in
 * IOC_KINDS order, then the assessment's `message_sha256` (hex64) and `assessment_id` (hex24) or null, and the
 * mark of the receipt file last verified or null.
 */
type Packed = [string, number, number, string | null, 0 | 1, Tier | null, Tier | null, Tier | null, string[], number[] | null, string | null, string | null, string | null];
const RECEIPT_MARK = /^[0-9a-f]{16}(?::\d+(?:\.\d+)?){4}$/;

const isKey = (v: unknown, shape: RegExp): v is string | null => v === null || (typeof v === "string" && shape.test(v));

function pack(id: string, e: IndexEntry): Packed {
  const f = e.facts;
  return [
    id,
    e.size,
    e.mtimeMs,
    f.created_at,
    f.kind === "assessment" ? 0 : 1,
    f.tiers.detector,
    f.tiers.threat,
    f.tiers.overall,
    f.families,
    f.ioc_counts === null ? null : IOC_KINDS.map((k) => f.ioc_counts![k]),
    e.recorded.messageSha256,
    e.recorded.assessmentId,
    e.receipt,
  ];
}

const isTier = (v: unknown): v is Tier | null => v === null || (typeof v === "string" && (TIERS as readonly string[]).includes(v));

function unpack(e: unknown): [string, IndexEntry] | undefined {
  if (!Array.isArray(e) || e.length !== 13) return undefined;
  const [id, size, mtimeMs, created, kind, detector, threat, overall, families, counts, messageSha256, assessmentId, receipt] = e as unknown[];
  if (typeof id !== "string" || !CAPSULE_ID.test(id) || typeof size !== "number" || typeof mtimeMs !== "number") return undefined;
  if ((created !== null && typeof created !== "string") || (kind !== 0 && kind !== 1)) return undefined;
  if (!isTier(detector) || !isTier(threat) || !isTier(overall)) return undefined;
  if (!Array.isArray(families) || !families.every((x) => typeof x === "string")) return undefined;
  if (counts !== null && (!Array.isArray(counts) || counts.length !== IOC_KINDS.length || !counts.every((n) => Number.isSafeInteger(n)))) return undefined;
  if (!isKey(messageSha256, RECORDED_KEY_SHAPE.messageSha256) || !isKey(assessmentId, RECORDED_KEY_SHAPE.assessmentId)) return undefined;
  if (!isKey(receipt, RECEIPT_MARK)) return undefined;
  const facts: RowFacts = {
    id,
    created_at: created,
    kind: kind === 0 ? "assessment" : "other",
    tiers: { detector, threat, overall },
    families: families as string[],
    ioc_counts: counts === null ? null : (Object.fromEntries(IOC_KINDS.map((k, i) => [k, (counts as number[])[i]])) as Record<IocKind, number>),
  };
  return [id, { size, mtimeMs, facts, recorded: { messageSha256, assessmentId }, receipt }];
}

/**
 * Reads the index; undefined when it is absent or cannot be used (then it is rebuilt). Something other than a
 * regular file at its name (a link, a FIFO, a device) is a {@link StoreError} `integrity`, never waited on.
 */
export function readRowIndex(dir: string, name: string, key: StoreKey): Map<string, IndexEntry> | undefined {
  const file = readCacheFile(join(dir, name), ROW_INDEX_MAX_BYTES, INDEX_LABEL);
  if (file === undefined) return undefined;
  let doc: unknown;
  try {
    doc = JSON.parse(decoder.decode(unseal(file, key, SealKind.index, INDEX_SEAL_NAME, INDEX_LABEL)));
  } catch (e) {
    if (e instanceof SealError || e instanceof SyntaxError || e instanceof TypeError) return undefined;
    throw e;
  }
  if (doc === null || typeof doc !== "object" || (doc as { format?: unknown }).format !== ROW_INDEX_FORMAT) return undefined;
  const entries = (doc as { entries?: unknown }).entries;
  if (!Array.isArray(entries)) return undefined;
  const out = new Map<string, IndexEntry>();
  for (const e of entries) {
    const entry = unpack(e);
    if (entry === undefined) return undefined;
    out.set(entry[0], entry[1]);
  }
  return out;
}

/** Seals and atomically replaces the index (not synced: a torn index fails authentication and is rebuilt). */
export function writeRowIndex(dir: string, name: string, key: StoreKey, entries: Map<string, IndexEntry>): void {
  const list = [...entries].map(([id, e]) => pack(id, e));
  const plain = encoder.encode(JSON.stringify({ format: ROW_INDEX_FORMAT, entries: list }));
  replaceFile(dir, name, seal(plain, key, SealKind.index, INDEX_SEAL_NAME), { cache: true });
}
