/**
 * The sealed row index: a cache of {@link RowFacts} per sealed capsule file, keyed by the file's size and
 * modification time, so listing 10,000 capsules opens one sealed file instead of 10,000. It is rebuilt
 * (incrementally) whenever it is missing, unreadable, of another version, or disagrees with the directory.
 * Being a cache, it is replaced atomically with last-writer-wins; concurrent writers never lose a capsule,
 * because every listing reconciles the index with the directory first.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { SealError } from "../../src/crypto/errors.js";
import { replaceFile } from "../../src/crypto/safe-write.js";
import { SealKind, seal, unseal, type StoreKey } from "../../src/crypto/seal.js";
import { CAPSULE_ID, INDEX_LABEL } from "./layout.js";
import type { RowFacts } from "./rows.js";

export const ROW_INDEX_FORMAT = "evidence-bridge-row-index/v1";
const INDEX_SEAL_NAME = "store/rows.sealed";

export interface IndexEntry {
  size: number;
  mtimeMs: number;
  facts: RowFacts;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

function validFacts(f: unknown, id: string): f is RowFacts {
  if (f === null || typeof f !== "object") return false;
  const r = f as Record<string, unknown>;
  return r.id === id && (r.kind === "assessment" || r.kind === "other") && Array.isArray(r.families) && typeof r.tiers === "object";
}

/** Reads the index; undefined when it is absent or cannot be used (then it is rebuilt). */
export function readRowIndex(dir: string, name: string, key: StoreKey): Map<string, IndexEntry> | undefined {
  let file: Uint8Array;
  try {
    file = readFileSync(join(dir, name));
  } catch {
    return undefined;
  }
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
    if (!Array.isArray(e) || e.length !== 4) return undefined;
    const [id, size, mtimeMs, facts] = e as unknown[];
    if (typeof id !== "string" || !CAPSULE_ID.test(id) || typeof size !== "number" || typeof mtimeMs !== "number") return undefined;
    if (!validFacts(facts, id)) return undefined;
    out.set(id, { size, mtimeMs, facts });
  }
  return out;
}

/** Seals and atomically replaces the index. */
export function writeRowIndex(dir: string, name: string, key: StoreKey, entries: Map<string, IndexEntry>): void {
  const list = [...entries].map(([id, e]) => [id, e.size, e.mtimeMs, e.facts]);
  const plain = encoder.encode(JSON.stringify({ format: ROW_INDEX_FORMAT, entries: list }));
  replaceFile(dir, name, seal(plain, key, SealKind.index, INDEX_SEAL_NAME));
}
