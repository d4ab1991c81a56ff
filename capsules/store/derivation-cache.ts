/**
 * The sealed derivation cache (issue 14 item 6; docs/feed.md "The derivation cache"): what capsules/pipeline/derive.ts
 * derived from each stored capsule, so `feed`, the review queue, approvals and exports over an unchanged store read
 * sealed rows instead of opening, parsing and re-deriving every capsule.
 *
 * Files, all sealed with the store key (cache-seal.ts: ChaCha20-Poly1305 from node:crypto under a key derived from the
 * store key and the file's name) and, like the row index (row-index.ts), replaced atomically (a temporary file,
 * synced, renamed over the old one), so a crash leaves the old file or the new one, never a torn one:
 *
 *     store/derivations.sealed          every capsule's outcome: both candidate views (canonical bytes) or the reason
 *                                       they are withheld, CLEAN, the hardened hypotheses (what the feed reads)
 *     store/derivation-values.sealed    every capsule's private values (what the guards of notes and exports read)
 *     store/derivations/<id>.sealed     one capsule's derivation, written when it is stored (put, import); merged into
 *                                       the two files above by the next command that reads them, then removed
 *
 * The values file holds private values: it exists only sealed, never as plaintext on disk. A file is keyed by the
 * pack digest and {@link CANDIDATE_POLICY_VERSION}, a row by its capsule id. On read every file is authenticated
 * under its own name (a file moved to another name, edited, truncated or sealed under another key fails and is
 * ignored whole), must be of this format, pack and policy (else ignored: the rows are rebuilt), and every row must
 * be well formed and name its own capsule (a row whose candidate names another capsule is dropped and rebuilt). What
 * the cache holds is never trusted beyond that: a missing or dropped row is derived again from the sealed capsule.
 * Writers race with last-writer-wins; a row lost that way is derived again by the next reader.
 *
 * Longer than 400 lines on purpose: the row format (packing, and the checks every field passes when read back) and
 * the files that hold it are one format, kept in one place.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { ensurePrivateDir, removeQuietly, replaceFile } from "../../src/crypto/safe-write.js";
import type { StoreKey } from "../../src/crypto/seal.js";
import { readCacheFile } from "./cache-file.js";
import { openCache, sealCache } from "./cache-seal.js";
import { sha256Hex } from "../../src/hash.js";
import { inFieldOrder } from "../candidates/field-order.js";
import type { Candidate } from "../candidates/types.js";
import { KINDS } from "../guard/index-tables.js";
import type { PrivateKind, PrivateValue } from "../guard/private-values.js";
import { IOC_KINDS } from "../../published/pack/vocabulary.js";
import { CANDIDATE_POLICY_VERSION, type Derivation, type ViewOutcome } from "../pipeline/derivation.js";
import { CAPSULE_ID, SEALED_SUFFIX } from "./layout.js";
import { Base64Error, decodeBase64Strict } from "../capsule/base64.js";

export const OUTCOMES_FORMAT = "evidence-bridge-derivations/v1";
// Formats of the header inside each file (see ReadDoc for the layout).
export const VALUES_FORMAT = "evidence-bridge-derivation-values/v3";
export const PENDING_FORMAT = "evidence-bridge-derivation/v3";
export const OUTCOMES_NAME = "derivations.sealed";
export const VALUES_NAME = "derivation-values.sealed";
export const PENDING_DIR = "derivations";
/** Largest cache file read (10,000 capsules' outcomes take about 25 MB). */
const MAX_BYTES = 256 * 1024 * 1024;
const PENDING_MAX_BYTES = 4 * 1024 * 1024;
/** Output chunk of the inflater: large, so a 3 MB outcomes file inflates in one piece instead of 16 KB pieces joined. */
const INFLATE_CHUNK = 4 * 1024 * 1024;

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** What a cached outcome row restores: everything of a {@link Derivation} but its private values. */
export type CachedOutcome = Pick<Derivation, "capsule_sha256" | "pack_sha256" | "outcome">;
/** With `probe` (guard/probe.ts, of own and store values): written with the row, so narrowing a note's guard computes no forms. */
export type CachedValues = Pick<Derivation, "privateValues" | "storeValues" | "probe">;

/** Where the cache of one store lives and the key that seals it. */
export interface CacheLocation {
  root: string;
  key: StoreKey;
}

/** A view in a header: emitted (offset and length of its canonical bytes in the file's blob) or withheld. */
type PackedView = ["e", number, number] | ["w", string];
type PackedOutcome = [string, ["w", string] | ["d", 0 | 1, PackedView, PackedView]];
type PackedValue = [PrivateKind, string] | [PrivateKind, string, string];
/** Id, own values, store values, and (once computed) the base64 of the probe of both (little-endian 32-bit hashes). */
type PackedValues = [string, PackedValue[] | null, PackedValue[], string?];

// ---- packing ---------------------------------------------------------------------------------------------------

/** Candidate bytes gathered for a file's blob, each placed once. */
class Blob {
  readonly parts: Uint8Array[] = [];
  length = 0;
  add(bytes: Uint8Array): [number, number] {
    this.parts.push(bytes);
    this.length += bytes.length;
    return [this.length - bytes.length, bytes.length];
  }
}

function packView(v: ViewOutcome, blob: Blob): PackedView {
  return v.status === "emitted" ? ["e", ...blob.add(v.bytes)] : ["w", v.reason];
}

function packOutcome(d: CachedOutcome, blob: Blob): PackedOutcome {
  const o = d.outcome;
  if (o.status === "withheld") return [d.capsule_sha256, ["w", o.reason]];
  return [d.capsule_sha256, ["d", o.clean ? 1 : 0, packView(o.views.default, blob), packView(o.views.typology, blob)]];
}

const packValue = (v: PrivateValue): PackedValue => (v.ioc === undefined ? [v.kind, v.value] : [v.kind, v.value, v.ioc]);

function packProbe(probe: Uint32Array): string {
  const le = Buffer.alloc(probe.length * 4);
  for (let i = 0; i < probe.length; i++) le.writeUInt32LE(probe[i], i * 4);
  return le.toString("base64");
}

function packValues(id: string, v: CachedValues): PackedValues {
  const row: PackedValues = [id, v.privateValues === undefined ? null : v.privateValues.map(packValue), v.storeValues.map(packValue)];
  if (v.probe !== undefined) row.push(packProbe(v.probe));
  return row;
}

// ---- unpacking (every field checked; undefined drops the row) --------------------------------------------------

const isString = (v: unknown): v is string => typeof v === "string";

/**
 * An emitted view restored from its canonical bytes (a slice of the blob); its candidate and digest are computed
 * when first asked for (a feed writes the bytes and never needs the candidate object). A class, not an object
 * literal with getters: a literal's accessors are defined anew for every row, about 10 µs each in a cold process.
 */
class EmittedView {
  readonly status = "emitted";
  private parsed: Candidate | undefined;
  private hex: string | undefined;

  constructor(readonly bytes: Uint8Array) {}

  get candidate(): Candidate {
    return (this.parsed ??= inFieldOrder(JSON.parse(decoder.decode(this.bytes)) as Candidate));
  }

  get digest(): string {
    return (this.hex ??= sha256Hex(this.bytes));
  }
}

function unpackView(v: unknown, id: string, blob: Buffer): ViewOutcome | undefined {
  if (!Array.isArray(v)) return undefined;
  if (v[0] === "w" && v.length === 2 && isString(v[1])) return { status: "withheld", reason: v[1] };
  if (v[0] !== "e" || v.length !== 3 || !Number.isSafeInteger(v[1]) || !Number.isSafeInteger(v[2])) return undefined;
  const [, offset, length] = v as [string, number, number];
  if (offset < 0 || length < 2 || offset + length > blob.length) return undefined;
  const bytes = blob.subarray(offset, offset + length);
  // The candidate must name the capsule the row is filed under (canonical bytes: members sorted, no spaces). Searched
  // in its own bytes only: a row pointing at another capsule's candidate costs at most that candidate's length.
  if (bytes[0] !== 0x7b || bytes.indexOf(`,"capsule_sha256":"${id}",`, 0, "latin1") < 0) return undefined;
  return new EmittedView(bytes);
}

function unpackOutcome(row: unknown, pack: string, blob: Buffer): CachedOutcome | undefined {
  if (!Array.isArray(row) || row.length !== 2 || !isString(row[0]) || !CAPSULE_ID.test(row[0]) || !Array.isArray(row[1])) return undefined;
  const [id, o] = row as [string, unknown[]];
  const base = { capsule_sha256: id, pack_sha256: pack };
  if (o[0] === "w" && o.length === 2 && isString(o[1])) return { ...base, outcome: { status: "withheld", reason: o[1] } };
  if (o[0] !== "d" || o.length !== 4 || (o[1] !== 0 && o[1] !== 1)) return undefined;
  const def = unpackView(o[2], id, blob);
  const typ = unpackView(o[3], id, blob);
  if (def === undefined || typ === undefined) return undefined;
  return { ...base, outcome: { status: "derived", clean: o[1] === 1, views: { default: def, typology: typ } } };
}

const PRIVATE_KINDS: ReadonlySet<string> = new Set(KINDS);
const IOC_KIND_SET: ReadonlySet<string> = new Set(IOC_KINDS);

function unpackValueList(list: unknown): PrivateValue[] | undefined {
  if (!Array.isArray(list)) return undefined;
  const out: PrivateValue[] = [];
  for (const v of list) {
    if (!Array.isArray(v) || (v.length !== 2 && v.length !== 3) || !PRIVATE_KINDS.has(v[0]) || !isString(v[1])) return undefined;
    if (v.length === 3 && !IOC_KIND_SET.has(v[2])) return undefined;
    out.push(v.length === 3 ? { kind: v[0], value: v[1], ioc: v[2] } : { kind: v[0], value: v[1] });
  }
  return out;
}

/** A probe from its strict base64 (whole 32-bit hashes, little-endian), or undefined. */
function unpackProbe(text: unknown): Uint32Array | undefined {
  if (!isString(text)) return undefined;
  let bytes: Uint8Array;
  try {
    bytes = decodeBase64Strict(text);
  } catch (e) {
    if (e instanceof Base64Error) return undefined;
    throw e;
  }
  if (bytes.length % 4 !== 0) return undefined;
  const le = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
  const probe = new Uint32Array(bytes.length / 4);
  for (let i = 0; i < probe.length; i++) probe[i] = le.getUint32(i * 4, true);
  return probe;
}

function unpackValues(row: unknown): [string, CachedValues] | undefined {
  if (!Array.isArray(row) || (row.length !== 3 && row.length !== 4) || !isString(row[0]) || !CAPSULE_ID.test(row[0])) return undefined;
  const own = row[1] === null ? null : unpackValueList(row[1]);
  const store = unpackValueList(row[2]);
  const probe = row.length === 4 ? unpackProbe(row[3]) : null;
  if (own === undefined || store === undefined || probe === undefined) return undefined;
  return [row[0], { privateValues: own ?? undefined, storeValues: store, probe: probe ?? undefined }];
}

// ---- files -----------------------------------------------------------------------------------------------------

interface CacheDoc {
  format: string;
  pack: string;
  policy: string;
  rows?: unknown;
  row?: unknown;
  values?: unknown;
}

/**
 * A cache file's plaintext: a 4-byte big-endian header length, the header (one JSON object: format, pack, policy,
 * rows), then the blob of every emitted view's canonical candidate bytes, which header rows point into by offset and
 * length (so a reader takes candidate bytes as they are, without decoding or re-encoding them).
 */
interface ReadDoc {
  doc: CacheDoc;
  blob: Buffer;
}

/**
 * Reads and authenticates one cache file; undefined when absent or not usable as this pack's and policy's cache.
 * `deflated`: the plaintext was deflated before sealing (the outcomes file, see {@link writeDoc}).
 */
function readDoc(dir: string, name: string, sealName: string, key: StoreKey, format: string, pack: string, maxBytes: number, deflated = false): ReadDoc | undefined {
  // A link, FIFO or device at the cache's name is refused at once, never waited on.
  const file = readCacheFile(join(dir, name), maxBytes, sealName);
  if (file === undefined) return undefined;
  let doc: unknown;
  let blob: Buffer;
  try {
    const sealed = openCache(file, key, sealName);
    if (sealed === undefined) return undefined;
    const plain = deflated ? inflateRawSync(sealed, { maxOutputLength: MAX_BYTES, chunkSize: INFLATE_CHUNK }) : Buffer.from(sealed.buffer, sealed.byteOffset, sealed.length);
    const headerLength = plain.length >= 4 ? plain.readUInt32BE(0) : -1;
    if (headerLength < 0 || 4 + headerLength > plain.length) return undefined;
    doc = JSON.parse(decoder.decode(plain.subarray(4, 4 + headerLength)));
    blob = plain.subarray(4 + headerLength);
  } catch (e) {
    if (e instanceof SyntaxError || e instanceof TypeError || e instanceof RangeError || isZlibError(e)) return undefined;
    throw e;
  }
  if (doc === null || typeof doc !== "object") return undefined;
  const d = doc as CacheDoc;
  return d.format === format && d.pack === pack && d.policy === CANDIDATE_POLICY_VERSION ? { doc: d, blob } : undefined;
}

const isZlibError = (e: unknown) => typeof (e as { code?: unknown })?.code === "string" && (e as { code: string }).code.startsWith("Z_");

/**
 * Seals and atomically replaces one cache file. `deflate`: the outcomes file (outward candidates, reasons and pack
 * labels, repeated across capsules: about 15:1) is deflated first, so a feed unseals a tenth of the bytes; the
 * values file is not, so its size depends on the private values' lengths only, not on how alike they are.
 */
function writeDoc(dir: string, name: string, sealName: string, key: StoreKey, doc: CacheDoc, blob: Blob = new Blob(), deflate = false): void {
  const header = encoder.encode(JSON.stringify(doc));
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, header.length);
  const plain = Buffer.concat([length, header, ...blob.parts]);
  replaceFile(dir, name, sealCache(deflate ? deflateRawSync(plain, { level: 3 }) : plain, key, sealName), { cache: true });
}

const pendingSealName = (id: string) => `store/${PENDING_DIR}/${id}${SEALED_SUFFIX}`;

/**
 * Writes the derivation of each capsule just stored (put, import) as its own small sealed file, to be merged by the
 * next reader. Failures are ignored: the capsule is stored, and a missing row is derived again when read.
 */
export function writePendingDerivations(at: CacheLocation, derivations: readonly Derivation[]): void {
  try {
    const dir = join(at.root, PENDING_DIR);
    ensurePrivateDir(dir, { sync: false }); // a cache, like its files: never synced (a lost file is derived again)
    for (const d of derivations) {
      if (!CAPSULE_ID.test(d.capsule_sha256)) continue;
      const blob = new Blob();
      const doc: CacheDoc = { format: PENDING_FORMAT, pack: d.pack_sha256, policy: CANDIDATE_POLICY_VERSION, row: packOutcome(d, blob), values: packValues(d.capsule_sha256, d) };
      writeDoc(dir, `${d.capsule_sha256}${SEALED_SUFFIX}`, pendingSealName(d.capsule_sha256), at.key, doc, blob);
    }
  } catch {
    // A cache: a read-only or full data directory still works (slower).
  }
}

/**
 * The cache of one store for one pack, read lazily: outcomes when the first outcome is asked for, values when the
 * first values are; pending files with the first of either. {@link remember} adds a fresh derivation; {@link save}
 * writes the files that changed and removes the pending files merged into them.
 */
export class DerivationCache {
  private outcomes: Map<string, CachedOutcome> | undefined;
  private values: Map<string, CachedValues> | undefined;
  private pending: { outcomes: Map<string, CachedOutcome>; values: Map<string, CachedValues>; files: string[] } | undefined;
  private outcomesChanged = false;
  private valuesChanged = false;
  private readonly added = new Map<string, Derivation>();

  constructor(
    private readonly at: CacheLocation,
    private readonly pack: string,
  ) {}

  /** The cached outcome of capsule `id`, or undefined (then derive it and {@link remember} it). */
  outcome(id: string): CachedOutcome | undefined {
    return this.loadOutcomes().get(id);
  }

  /** The cached private values of capsule `id`, or undefined. */
  privateValues(id: string): CachedValues | undefined {
    return this.loadValues().get(id);
  }

  private loadOutcomes(): Map<string, CachedOutcome> {
    if (this.outcomes !== undefined) return this.outcomes;
    this.outcomes = this.readRows(OUTCOMES_NAME, OUTCOMES_FORMAT, true, (r, blob) => {
      const o = unpackOutcome(r, this.pack, blob);
      return o && [o.capsule_sha256, o];
    });
    const p = this.readPending();
    for (const [k, v] of p.outcomes) this.outcomes.set(k, v);
    if (p.files.length > 0) {
      this.outcomesChanged = true;
      // Pending files are merged into both files at once, so that the next save can remove them.
      this.loadValues();
    }
    return this.outcomes;
  }

  private loadValues(): Map<string, CachedValues> {
    if (this.values !== undefined) return this.values;
    this.values = this.readRows(VALUES_NAME, VALUES_FORMAT, false, unpackValues);
    const p = this.readPending();
    for (const [k, v] of p.values) this.values.set(k, v);
    if (p.files.length > 0) {
      this.valuesChanged = true;
      this.loadOutcomes();
    }
    return this.values;
  }

  /** Replaces the values row of capsule `id` (now with its probe); written by {@link save}. */
  rememberValues(id: string, v: CachedValues): void {
    const values = this.loadValues();
    const added = this.added.get(id);
    if (added !== undefined) this.added.set(id, { ...added, probe: v.probe });
    else if (values.has(id)) {
      values.set(id, v);
      this.valuesChanged = true;
    }
  }

  /**
   * Adds the values of capsule `id` read without its outcome (a values row; the outcomes file keeps whatever row it
   * had, and a missing outcome is derived when asked for); written by {@link save}.
   */
  rememberValuesOnly(id: string, v: CachedValues): void {
    if (!CAPSULE_ID.test(id)) return;
    this.loadValues().set(id, v);
    this.valuesChanged = true;
  }

  /** Adds a derivation made in this process (it replaces whatever row the capsule had); written by {@link save}. */
  remember(d: Derivation): void {
    if (CAPSULE_ID.test(d.capsule_sha256) && d.pack_sha256 === this.pack) this.added.set(d.capsule_sha256, d);
  }

  /**
   * Writes the files that changed, keeping only rows of capsules in `ids` (the store's capsules now), then removes
   * the merged pending files. Failures are ignored (a cache).
   */
  save(storeIds: () => ReadonlySet<string>): void {
    if (this.added.size === 0 && !this.outcomesChanged && !this.valuesChanged) return;
    const ids = storeIds();
    try {
      if (this.added.size > 0) {
        // A fresh derivation goes into both files, whichever of them this command had read.
        const outcomes = this.loadOutcomes();
        const values = this.loadValues();
        for (const [id, d] of this.added) {
          outcomes.set(id, d);
          values.set(id, d);
        }
        this.added.clear();
        this.outcomesChanged = this.valuesChanged = true;
      }
      if (this.outcomesChanged && this.outcomes !== undefined) {
        const blob = new Blob();
        const rows = [...this.outcomes].filter(([id]) => ids.has(id)).map(([, o]) => packOutcome(o, blob));
        writeDoc(this.at.root, OUTCOMES_NAME, `store/${OUTCOMES_NAME}`, this.at.key, { format: OUTCOMES_FORMAT, pack: this.pack, policy: CANDIDATE_POLICY_VERSION, rows }, blob, true);
        this.outcomesChanged = false;
      }
      if (this.valuesChanged && this.values !== undefined) {
        const rows = [...this.values].filter(([id]) => ids.has(id)).map(([id, v]) => packValues(id, v));
        writeDoc(this.at.root, VALUES_NAME, `store/${VALUES_NAME}`, this.at.key, { format: VALUES_FORMAT, pack: this.pack, policy: CANDIDATE_POLICY_VERSION, rows });
        this.valuesChanged = false;
      }
      // A pending file may go once both files that read it hold its row (or it is not this pack's).
      if (this.pending !== undefined && this.outcomes !== undefined && this.values !== undefined) {
        for (const f of this.pending.files) removeQuietly(join(this.at.root, PENDING_DIR, f));
        this.pending.files = [];
      }
    } catch {
      // A read-only data directory still reads the store (slower); the next writer saves.
    }
  }

  private readRows<T>(name: string, format: string, deflated: boolean, unpack: (row: unknown, blob: Buffer) => [string, T] | undefined): Map<string, T> {
    const read = readDoc(this.at.root, name, `store/${name}`, this.at.key, format, this.pack, MAX_BYTES, deflated);
    const out = new Map<string, T>();
    if (read === undefined || !Array.isArray(read.doc.rows)) return out;
    for (const r of read.doc.rows) {
      const row = unpack(r, read.blob);
      if (row !== undefined) out.set(row[0], row[1]);
    }
    return out;
  }

  private readPending(): NonNullable<DerivationCache["pending"]> {
    if (this.pending !== undefined) return this.pending;
    const p: NonNullable<DerivationCache["pending"]> = { outcomes: new Map(), values: new Map(), files: [] };
    this.pending = p;
    const dir = join(this.at.root, PENDING_DIR);
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return p;
    }
    for (const n of names) {
      const m = /^([0-9a-f]{64})\.sealed$/.exec(n);
      if (!m) continue;
      p.files.push(n);
      const read = readDoc(dir, n, pendingSealName(m[1]), this.at.key, PENDING_FORMAT, this.pack, PENDING_MAX_BYTES);
      if (read === undefined) continue;
      const o = unpackOutcome(read.doc.row, this.pack, read.blob);
      const v = unpackValues(read.doc.values);
      // Both halves must name the capsule of the file's (authenticated) name.
      if (o === undefined || v === undefined || o.capsule_sha256 !== m[1] || v[0] !== m[1]) continue;
      p.outcomes.set(m[1], o);
      p.values.set(m[1], v[1]);
    }
    return p;
  }
}
